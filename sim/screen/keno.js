// Keno on the player's screen. The board is the touch screen: a number touched marks or unmarks
// it, a quick pick key picks that many spots, clear empties the card (POST /press/spot/N,
// /press/quick/N, /press/clear: the panel link's "touch" lines). The firmware sends the card in
// the frame's "reels" field as {"picks": [...], "drawn": [...], "hits": [...]}
// (firmware/play_keno.py, games/keno.py window):
// the player's spots while the card is filled in, then the numbers drawn and the spots caught once
// the game is settled (hidden while the frame's state is "spin", as reels are). The board's size
// and the pay table for the spot count come from the certified model's stored page (/model/ID,
// field "keno"): every text in the player's language (text.json ui).
"use strict";

function KENO_WINDOW(el, frame, ctx) {
  const card = frame.reels, k = (ctx.model && ctx.model.keno) || {numbers: 80, spots: [], pay: {}};
  const picks = card.picks || [], spin = frame.state === "spin";
  const drawn = spin ? [] : card.drawn || [], hits = spin ? [] : card.hits || [];
  const isPick = new Set(picks), isDrawn = new Set(drawn), isHit = new Set(hits);
  const wrap = document.createElement("div");
  wrap.className = "keno";
  const board = document.createElement("div");
  board.className = "keno-board" + (spin ? " spinning" : "");
  for (let n = 1; n <= k.numbers; n++) {
    const cell = document.createElement("div");
    cell.className = "kn touch" + (isPick.has(n) ? " pick" : "") + (isDrawn.has(n) ? " drawn" : "") + (isHit.has(n) ? " hit" : "");
    cell.dataset.n = String(n);
    cell.textContent = String(n);
    cell.addEventListener("click", () => touch("spot/" + n));  // marks or unmarks it (the firmware decides)
    board.appendChild(cell);
  }
  const side = document.createElement("div");
  side.className = "keno-side";
  const line = (cls, text) => {
    const p = document.createElement("p");
    p.className = cls;
    p.textContent = text;
    side.appendChild(p);
  };
  line("keno-spots", fmt(ctx.t("ui", "keno_spots"), [picks.length]));
  if (k.spots.length) {
    if (!picks.length) line("keno-help", fmt(ctx.t("ui", "keno_help"), [k.spots[0], k.spots[k.spots.length - 1]]));
    side.appendChild(kenoKeys(ctx, k.spots));
  }
  if (drawn.length) {
    line("keno-drawn", ctx.t("ui", "keno_drawn"));
    line("keno-drawn-list", drawn.join(" "));
    line("keno-hits", fmt(ctx.t("ui", "keno_hits"), [hits.length, picks.length]));
    if (hits.length) line("keno-hit-list", hits.join(" "));
  }
  const pay = k.pay[String(picks.length)];
  if (pay && ctx.model) side.appendChild(kenoPays(ctx, picks.length, pay, hits.length, drawn.length > 0));
  wrap.replaceChildren(board, side);
  el.replaceChildren(wrap);
}

// the touch screen's words (sim/screen.py POST /press/spot/N, quick/N, clear: firmware/play_keno.py)
function touch(what) {
  if (S.link === "up") fetch("/press/" + what, {method: "POST"});
}

// a quick pick for each spot count the game offers, and clear
function kenoKeys(ctx, spots) {
  const keys = document.createElement("div");
  keys.className = "keno-keys";
  const label = document.createElement("span");
  label.textContent = ctx.t("ui", "keno_quick");
  keys.appendChild(label);
  for (const n of spots) {
    const b = document.createElement("button");
    b.className = "quick";
    b.dataset.spots = String(n);
    b.textContent = String(n);
    b.addEventListener("click", () => touch("quick/" + n));
    keys.appendChild(b);
  }
  const clear = document.createElement("button");
  clear.className = "clear";
  clear.textContent = ctx.t("ui", "keno_clear");
  clear.addEventListener("click", () => touch("clear"));
  keys.appendChild(clear);
  return keys;
}

// the pay table for the spot count: one row per number caught that pays, one column per bet
function kenoPays(ctx, spots, pay, caught, settled) {
  const bets = ctx.model.bets;
  const table = document.createElement("table");
  table.className = "keno-pays";
  const cap = table.createCaption();
  cap.textContent = fmt(ctx.t("ui", "keno_pays"), [spots]);
  const hr = table.createTHead().insertRow();
  const th = document.createElement("th");
  th.textContent = ctx.t("ui", "keno_caught");
  hr.appendChild(th);
  for (const b of bets) hr.appendChild(payCell("th", b, ctx.t("ui", "bet") + " " + b));
  const body = table.createTBody();
  for (let h = spots; h >= 0; h--) {
    if (!pay.some((row) => row[h])) continue;
    const tr = body.insertRow();
    tr.dataset.caught = String(h);
    if (settled && h === caught) tr.className = "won";
    tr.insertCell().textContent = String(h);
    for (const row of pay) tr.appendChild(payCell("td", row[h]));
  }
  return table;
}
