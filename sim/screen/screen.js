// The player's screen: every display frame the firmware sends (server-sent events from
// sim/screen.py) is drawn whole; fields it does not know are ignored, fields a frame lacks are
// left empty. Texts come from text.json in the player's language (French first); the frame's
// messages are ids with arguments (say), symbol names and rules come from the certified model the
// frame names (id). docs/screen.md has the frame format.
"use strict";
const S = {lang: localStorage.getItem("jeton-lang") || "fr", text: null, frame: null, models: {}, link: "connecting"};
const $ = (id) => document.getElementById(id);

// a text of text.json: a string, or its plural forms {"one", "other"} chosen by the count in
// argument n (0 unless the entry says), by the Unicode CLDR plural rules: French "one" for 0 and 1,
// English for 1 only
function plural(tpl, args) {
  if (tpl === null || typeof tpl === "string") return tpl;
  const n = Number(args[tpl.n || 0]);
  return (S.lang === "fr" ? n < 2 : n === 1) ? tpl.one : tpl.other;
}

// {N}: argument N as it is; {$N}: argument N, a number of credits, in dollars at the frame's credit
function fmt(s, args) {
  s = plural(s, args);
  if (s === null) return "";
  const cents = (S.frame && S.frame.cents) || 0;
  return s.replace(/\{(\$?)(\d+)\}/g, (m, d, i) => (args[i] === undefined ? "" : d ? money(args[i], cents) : args[i]));
}

function T(section, key) {
  const tab = S.text[S.lang][section] || {};
  return Object.prototype.hasOwnProperty.call(tab, key) ? tab[key] : null;
}

// an amount in dollars: "1 234,50 $" (a no-break space between thousands) / "$1,234.50"
function money(credits, cents) {
  const c = credits * cents;
  const whole = String(Math.floor(c / 100)).replace(/\B(?=(\d{3})+$)/g, S.lang === "fr" ? "\u00a0" : ",");
  const d = whole + (S.lang === "fr" ? "," : ".") + String(c % 100).padStart(2, "0");
  return S.lang === "fr" ? d + " $" : "$" + d;
}

// a frame's say: [id, args...] -> the sentence in the player's language; an id the screen does
// not know is shown as it came
function sentence(say, f) {
  const id = String(say[0]), args = say.slice(1);
  const tpl = T("say", id);
  if (tpl === null) return say.join(" ");
  if (id === "tilt") return tpl.replace("{list}", args.map((k) => tiltWords(k, f)).join(", "));
  if (id === "lock") return fmt(tpl, [T("lock", args[0]) || args[0], args[1]]);
  if (id === "coupon" || id === "validating") return fmt(tpl, [money(args[0], 1)]);  // the coupon's amount comes in cents
  if (id === "bet_refused" && f.limits) return fmt(tpl, args) + " (" + limits(f.limits) + ")";
  return fmt(tpl, args);
}

// a tilt's words; the limits one gives the profile's figures (frame.limits, in cents)
function tiltWords(kind, f) {
  const w = T("tilt", kind) || kind;
  return kind === "limits" && f.limits ? w + " (" + limits(f.limits) + ")" : w;
}

function limits(l) {
  return fmt(T("ui", "limits"), [money(l.bet, 1), money(l.prize, 1)]);
}

// the win said plainly when it is no more than the bet it was played at (frame.outcome.bet: the
// bet meter may have changed since), celebrated only above it; free spins' part said too
function winMessage(f, cents) {
  const bet = f.outcome ? f.outcome.bet : f.bet;
  const small = bet > 0 && f.win <= bet;
  let msg = fmt(T("ui", small ? "win_small" : "win_msg"), [f.win, bet]);
  if (f.outcome && f.outcome.free) msg += " — " + fmt(T("ui", "free_msg"), f.outcome.free);
  return [msg, small];
}

function model(id) {
  if (!id) return null;
  if (!(id in S.models)) {
    S.models[id] = null;  // asked once
    fetch("/model/" + encodeURIComponent(id)).then((r) => (r.ok ? r.json() : null)).then((m) => {
      if (m) { S.models[id] = m; draw(); }
    });
  }
  return S.models[id];
}

function symName(m, code) {
  const names = m && m.symbols[code];
  return names ? (names[S.lang] || names.fr) : "";  // never the code: blank until the model is read
}

function drawTexts() {
  document.documentElement.lang = S.lang;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = T("ui", el.dataset.t) || "";
}

// a pay table cell: the credits, and beneath them their value in dollars at the frame's credit
function payCell(tag, credits, label) {
  const td = document.createElement(tag);
  const cr = document.createElement("span");
  cr.className = "cr";
  cr.textContent = label === undefined ? String(credits) : label;
  td.appendChild(cr);
  const cents = (S.frame && S.frame.cents) || 0;
  if (cents) {
    const usd = document.createElement("span");
    usd.className = "usd";
    usd.textContent = money(credits, cents);
    td.appendChild(usd);
  }
  return td;
}

function drawPaytable(m) {
  const box = $("paytable");
  if (!m) { box.hidden = true; return; }
  box.hidden = false;
  const head = $("pays").tHead, body = $("pays").tBodies[0], rules = $("rules");
  const hr = document.createElement("tr");
  const th = document.createElement("th");
  th.textContent = T("ui", "pays");
  hr.appendChild(th);
  for (const b of m.bets) hr.appendChild(payCell("th", b, T("ui", "bet") + " " + b));
  head.replaceChildren(hr);
  const rows = [], lines = [];
  // games describe(): the name, the bets, the heading, then "  N x WHAT : v1 / v2 / ..." per pay
  // ("WHAT: v1" in English); the heading is the line right before the first pay: the table's.
  // Video poker's: the name, the bets, how a hand is played, the heading, "AWARD : v1 / v2 / ...".
  const text = m.rules[S.lang].slice(1);
  const row = (line) => line.match(/^ *(.*\S) ?: (\d+(?: \/ \d+)*)$/);
  const first = text.findIndex(row);
  const heading = first > 1 ? first - 1 : -1;
  text.forEach((line, i) => {
    const r = row(line);
    if (r) {
      const tr = document.createElement("tr");
      const what = document.createElement("td");
      what.textContent = r[1];
      tr.appendChild(what);
      for (const v of r[2].split(" / ")) tr.appendChild(payCell("td", Number(v)));
      rows.push(tr);
    } else if (i !== heading) {
      const li = document.createElement("li");
      li.textContent = line;
      lines.push(li);
    }
  });
  body.replaceChildren(...rows);
  rules.replaceChildren(...lines);
  drawLines(m);
}

// the pay lines, one small diagram each: the window's cells, the line's path across them
function drawLines(m) {
  const box = $("lines");
  const lines = m.lines || [];
  $("lines-box").hidden = !lines.length;
  box.replaceChildren(...lines.map((line, i) => {
    const fig = document.createElement("figure");
    fig.className = "line";
    fig.dataset.line = String(i);
    fig.innerHTML = lineDiagram(line, m.rows, i);
    const cap = document.createElement("figcaption");
    cap.textContent = fmt(T("ui", "line_no"), [i + 1]);
    fig.appendChild(cap);
    return fig;
  }));
}

function draw() {
  if (!S.text) return;
  const f = S.frame || {};
  const m = model(f.id || f.rules);
  // video poker's play button deals, then draws the hand that waits (cards.js)
  $("b-play").dataset.t = f.hand && f.hand.open ? "draw" : (m && m.kind === "poker") || f.hand ? "deal" : "play";
  drawTexts();
  const cents = f.cents || 0;
  // the firmware names no game "aucun jeu" / "no game": the page's own words for it
  $("game-name").textContent = f.game && f.id ? (f.game[S.lang] || f.game.fr) : (m ? m.name[S.lang] : T("ui", "no_game"));
  for (const k of ["credits", "bet", "win"]) {
    const v = f[k] || 0;
    $(k).textContent = String(v);
    $(k + "-dollars").textContent = cents ? money(v, cents) : "";
  }
  const won = f.win > 0 && f.state !== "spin";
  const jp = f.jackpot;
  $("jackpot").hidden = jp === null || jp === undefined;
  $("jackpot-value").textContent = jp === null || jp === undefined ? "" : String(jp) + (cents ? " (" + money(jp, cents) + ")" : "");
  const t = f.tournament;
  $("tournament").hidden = !t;
  $("tournament").textContent = !t ? "" : ("left" in t ? fmt(T("ui", "tour_entry"), [t.credits, t.left])
                                                    : fmt(T("ui", "tour_idle"), [t.fee, t.credits, t.games]));
  let msg = "", fault = false, small = false;
  if (S.link !== "up") msg = T("ui", S.link === "lost" ? "link_lost" : "connecting"), fault = S.link === "lost";
  else if (f.say && f.say.length) msg = sentence(f.say, f), fault = ["tilt", "lock", "ramerror"].includes(String(f.say[0]));
  else if (f.test) msg = T("ui", "test_game");
  else if (won) [msg, small] = winMessage(f, cents);
  $("m-win").classList.toggle("won", won && !small);  // a win no larger than the bet is not celebrated
  $("message").textContent = msg;
  $("message").classList.toggle("fault", fault);
  $("message").classList.toggle("plain", small);
  $("state").textContent = f.state ? (T("state", f.state) || f.state) : "";
  $("games").textContent = String(f.games || 0);
  const area = $("play-area");
  // video poker's frame has its cards in reels and its holds in hand: drawn as cards (cards.js)
  const kind = f.hand ? "hand" : Object.keys(RENDERERS).find((k) => f[k] !== null && f[k] !== undefined);
  const ctx = {lang: S.lang, model: m, t: T, fmt: fmt, sym: (c) => symName(m, c)};
  if (f.table) TABLE_WINDOW(area, f, ctx);  // a table game: the layout, the stake, the round (table.js)
  else if (kind) RENDERERS[kind](area, f, ctx);
  else if (m && m.keno) KENO_WINDOW(area, Object.assign({}, f, {reels: {picks: [], drawn: [], hits: []}}), ctx);  // no card yet
  else area.replaceChildren();
  drawPaytable(m);
  for (const b of document.querySelectorAll("[data-press]")) b.disabled = S.link !== "up";
}

function connect() {
  const es = new EventSource("/events");
  es.onmessage = (e) => { S.link = "up"; S.frame = JSON.parse(e.data); draw(); };
  es.addEventListener("closed", () => { es.close(); S.link = "lost"; draw(); });
  es.onerror = () => { if (S.link === "up") { S.link = "lost"; draw(); } };  // EventSource retries by itself
}

for (const b of document.querySelectorAll("[data-press]"))
  b.addEventListener("click", () => fetch("/press/" + b.dataset.press, {method: "POST"}));
$("b-lang").addEventListener("click", () => {
  S.lang = S.lang === "fr" ? "en" : "fr";
  localStorage.setItem("jeton-lang", S.lang);
  draw();
});
fetch("/text.json").then((r) => r.json()).then((t) => { S.text = t; draw(); connect(); });
