// A table game on the player's screen (roulette, craps, sic bo, the wheel of fortune, baccarat). The
// layout is the touch screen: each wager a key, touched to take it to its next bet level, then off
// (POST /press/wager/N, N its number in the model's layout; /press/clear empties it: the panel link's
// "touch" lines, firmware/play_table.py). The frame's "table" field holds the stake on the layout,
// the wagers standing from earlier rounds (a craps point and its bets, a roulette double) and what
// the round takes; once a round is settled its "reels" field holds {"table": what was drawn,
// "results": [[key, credits, status, returned, stands as], ...]} (hidden while the frame's state is
// "spin"). The layout and each wager's name come from the certified model's page (/model/ID, field
// "table"); the rules and pays of every wager are the paytable below (games/table_text.py describe),
// before play, in the player's language.
"use strict";

function TABLE_WINDOW(el, frame, ctx) {
  if (ctx.model && ctx.model.cards) return CARDS_WINDOW(el, frame, ctx);
  const t = frame.table || {}, page = (ctx.model && ctx.model.table) || {layout: [], wagers: {}};
  const stake = t.stake || {}, spin = frame.state === "spin";
  const wrap = document.createElement("div");
  wrap.className = "table";
  const board = document.createElement("div");
  board.className = "table-layout" + (spin ? " spinning" : "");
  page.layout.forEach((key, i) => {
    const cell = document.createElement("button");
    const on = stake[key];
    cell.className = "tw touch" + (on ? " staked" : "");
    cell.dataset.key = key;
    cell.textContent = wagerName(page, key, ctx.lang) + (on ? " · " + on : "");
    cell.addEventListener("click", () => touch("wager/" + i));  // the firmware decides the level
    board.appendChild(cell);
  });
  const side = document.createElement("div");
  side.className = "table-side";
  const line = (cls, text) => {
    const p = document.createElement("p");
    p.className = cls;
    p.textContent = text;
    side.appendChild(p);
    return p;
  };
  line("table-help", ctx.t("ui", "table_help"));
  line("table-stake", ctx.fmt(ctx.t("ui", "table_stake"), [t.takes || 0]));
  const keys = Object.keys(stake).sort();
  line("table-stake-list", keys.length ? keys.map((k) => wagerName(page, k, ctx.lang) + " " + stake[k]).join(", ")
                                       : ctx.t("ui", "table_none"));
  const standing = t.table ? (t.table.bets || t.table) : null;
  if (t.table && (Object.keys(standing).length || t.table.point)) {
    line("table-standing", ctx.t("ui", "table_standing"));
    if (t.table.point) line("table-point", ctx.fmt(ctx.t("ui", "table_point"), [t.table.point]));
    line("table-standing-list", Object.keys(standing).sort().map((k) => k + " " + standing[k]).join(", "));
  }
  const round = frame.reels && frame.reels.results ? frame.reels : null;
  if (round && !spin) {
    line("table-drawn", ctx.fmt(ctx.t("ui", "table_drawn"), [drawnText(round.table, ctx)]));
    const ul = document.createElement("ul");
    ul.className = "table-results";
    for (const r of round.results) {
      const li = document.createElement("li");
      li.className = "tr-" + r[2];
      li.textContent = ctx.fmt(ctx.t("ui", "table_result"), [wagerName(page, r[0], ctx.lang), r[1],
        ctx.t("table", r[2]) || r[2]]) + (r[3] ? " (" + r[3] + ")" : "") + (r[4] ? " → " + r[4] : "");
      ul.appendChild(li);
    }
    side.appendChild(ul);
  }
  wrap.replaceChildren(board, side);
  el.replaceChildren(wrap);
}

// a key in the player's words: its wager's name, then what it is on ("straight:17" -> "Plein 17")
function wagerName(page, key, lang) {
  const i = key.indexOf(":"), wid = i < 0 ? key : key.slice(0, i);
  const w = page.wagers[wid];
  const name = w ? (w.name[lang] || w.name.fr) : wid;
  return i < 0 ? name : name + " " + key.slice(i + 1);
}

// what the round drew (the pocket, the dice, the segment, the cards): the engine's window, its names
// and words in the player's language (text.json "drawn"; a card, a number or a symbol as it is)
function drawnText(w, ctx) {
  if (!w) return "";
  const word = (v) => (typeof v === "string" && ctx.t("drawn", v)) || v;
  return Object.keys(w).sort().map((k) => (ctx.t("drawn", k) || k) + " " +
    (Array.isArray(w[k]) ? w[k].join(" ") : word(w[k]))).join(" · ");
}

// A card-poker table (3 Card Poker, Caribbean Stud, Let It Ride, Red Dog, War, 3-5-7, Boston, Crazy
// Four: firmware/play_cards.py).
// The layout is the model's stake wagers (/model/ID, field "cards"), touched as a table game's
// (wager/N); the cards the player may see are frame.reels[0], drawn as cards (cards.js cardFace);
// while the hand waits, the frame's table.decide names the decisions ("N name": hold key N), each a
// key (POST /press/holdN) in the player's words (text.json "decide"), with the auto decision's key.
function CARDS_WINDOW(el, frame, ctx) {
  const t = frame.table || {}, page = ctx.model.cards, stake = t.stake || {};
  const name = (w) => (page.wagers[w] ? page.wagers[w].name[ctx.lang] || page.wagers[w].name.fr : w);
  const wrap = document.createElement("div");
  wrap.className = "table cards-table";
  const board = document.createElement("div");
  board.className = "table-layout";
  page.stakes.forEach((w, i) => {
    const cell = document.createElement("button");
    cell.className = "tw touch" + (stake[w] ? " staked" : "");
    cell.dataset.key = w;
    cell.textContent = name(w) + (stake[w] ? " · " + stake[w] : "");
    cell.addEventListener("click", () => touch("wager/" + i));  // the firmware decides the level
    board.appendChild(cell);
  });
  const side = document.createElement("div");
  side.className = "table-side";
  const line = (cls, text) => {
    const p = document.createElement("p");
    p.className = cls;
    p.textContent = text;
    side.appendChild(p);
  };
  line("table-stake", ctx.fmt(ctx.t("ui", "table_stake"), [t.takes || 0]));
  const keys = Object.keys(stake).sort();
  // a wager of several units says so: "Ante 1 × 3" places 3 credits (CardTable.units)
  const units = (w) => ((page.units || {})[w] > 1 ? " \u00d7 " + page.units[w] : "");
  line("table-stake-list", keys.length ? keys.map((k) => name(k) + " " + stake[k] + units(k)).join(", ")
                                       : ctx.t("ui", "table_none"));
  const row = document.createElement("div");
  row.className = "hand";
  for (const code of (frame.state !== "spin" && frame.reels && frame.reels[0]) || []) {
    const card = document.createElement("div");
    card.className = "card";
    card.dataset.card = code;
    card.appendChild(cardFace(code));
    row.appendChild(card);
  }
  side.appendChild(row);
  if (t.decide && t.decide.length) {
    line("cards-help", ctx.t("ui", "cards_help"));
    const keys = document.createElement("div");
    keys.className = "cards-decide";
    for (const d of t.decide) {
      const sp = d.indexOf(" "), n = d.slice(0, sp), what = d.slice(sp + 1);
      const b = document.createElement("button");
      b.className = "decide touch";
      b.dataset.decision = what;
      b.textContent = ctx.t("decide", what) || what;
      b.addEventListener("click", () => touch("hold" + n));
      keys.appendChild(b);
    }
    const auto = document.createElement("button");
    auto.className = "decide-auto touch";
    auto.textContent = ctx.t("ui", "cards_auto");
    auto.addEventListener("click", () => touch("auto"));
    keys.appendChild(auto);
    side.appendChild(keys);
  }
  wrap.replaceChildren(board, side);
  el.replaceChildren(wrap);
}
