// The player's screen: every display frame the firmware sends (server-sent events from
// sim/screen.py) is drawn whole; fields it does not know are ignored, fields a frame lacks are
// left empty. Texts come from text.json in the player's language (French first); the frame's
// messages are ids with arguments (say), symbol names and rules come from the certified model the
// frame names (id). docs/screen.md has the frame format.
"use strict";
const S = {lang: localStorage.getItem("jeton-lang") || "fr", text: null, frame: null, models: {}, link: "connecting"};
const $ = (id) => document.getElementById(id);

function fmt(s, args) {
  return s.replace(/\{(\d+)\}/g, (m, i) => (args[i] === undefined ? "" : args[i]));
}

function T(section, key) {
  const tab = S.text[S.lang][section] || {};
  return Object.prototype.hasOwnProperty.call(tab, key) ? tab[key] : null;
}

function money(credits, cents) {
  const c = credits * cents;
  const d = Math.floor(c / 100) + (S.lang === "fr" ? "," : ".") + String(c % 100).padStart(2, "0");
  return S.lang === "fr" ? d + " $" : "$" + d;
}

// a frame's say: [id, args...] -> the sentence in the player's language; an id the screen does
// not know is shown as it came
function sentence(say) {
  const id = String(say[0]), args = say.slice(1);
  const tpl = T("say", id);
  if (tpl === null) return say.join(" ");
  if (id === "tilt") return tpl.replace("{list}", args.map((k) => T("tilt", k) || k).join(", "));
  if (id === "lock") return fmt(tpl, [T("lock", args[0]) || args[0], args[1]]);
  if (id === "coupon") return fmt(tpl, [money(args[0], 1)]);  // the coupon's amount comes in cents
  return fmt(tpl, args);
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

function drawPaytable(m) {
  const box = $("paytable");
  if (!m) { box.hidden = true; return; }
  box.hidden = false;
  const head = $("pays").tHead, body = $("pays").tBodies[0], rules = $("rules");
  const hr = document.createElement("tr");
  for (const h of [T("ui", "pays")].concat(m.bets.map((b) => T("ui", "bet") + " " + b))) {
    const th = document.createElement("th");
    th.textContent = h;
    hr.appendChild(th);
  }
  head.replaceChildren(hr);
  const rows = [], lines = [];
  // games describe(): the name, the bets, the heading, then "  N x WHAT : v1 / v2 / ..." per pay
  // ("WHAT: v1" in English); the heading is the line right before the first pay: the table's.
  // Video poker's: the name, the bets, then "AWARD : v1 / v2 / ..." per award, no heading.
  const text = m.rules[S.lang].slice(1);
  const row = (line) => line.match(/^ *(.*\S) ?: (\d+(?: \/ \d+)*)$/);
  const first = text.findIndex(row);
  const heading = first > 1 ? first - 1 : -1;
  text.forEach((line, i) => {
    const r = row(line);
    if (r) {
      const tr = document.createElement("tr");
      for (const v of [r[1]].concat(r[2].split(" / "))) {
        const td = document.createElement("td");
        td.textContent = v;
        tr.appendChild(td);
      }
      rows.push(tr);
    } else if (i !== heading) {
      const li = document.createElement("li");
      li.textContent = line;
      lines.push(li);
    }
  });
  body.replaceChildren(...rows);
  rules.replaceChildren(...lines);
}

function draw() {
  if (!S.text) return;
  drawTexts();
  const f = S.frame || {};
  const m = model(f.id || f.rules);
  const cents = f.cents || 0;
  $("game-name").textContent = f.game ? (f.game[S.lang] || f.game.fr) : (m ? m.name[S.lang] : T("ui", "no_game"));
  for (const k of ["credits", "bet", "win"]) {
    const v = f[k] || 0;
    $(k).textContent = String(v);
    $(k + "-dollars").textContent = cents ? money(v, cents) : "";
  }
  const won = f.win > 0 && f.state !== "spin";
  $("m-win").classList.toggle("won", won);
  const jp = f.jackpot;
  $("jackpot").hidden = jp === null || jp === undefined;
  $("jackpot-value").textContent = jp === null || jp === undefined ? "" : String(jp) + (cents ? " (" + money(jp, cents) + ")" : "");
  const t = f.tournament;
  $("tournament").hidden = !t;
  $("tournament").textContent = !t ? "" : ("left" in t ? fmt(T("ui", "tour_entry"), [t.credits, t.left])
                                                    : fmt(T("ui", "tour_idle"), [t.fee, t.credits, t.games]));
  let msg = "", fault = false;
  if (S.link !== "up") msg = T("ui", S.link === "lost" ? "link_lost" : "connecting"), fault = S.link === "lost";
  else if (f.say && f.say.length) msg = sentence(f.say), fault = ["tilt", "lock", "ramerror"].includes(String(f.say[0]));
  else if (f.test) msg = T("ui", "test_game");
  else if (won) msg = fmt(T("ui", "win_msg"), [f.win, cents ? money(f.win, cents) : ""]);
  $("message").textContent = msg;
  $("message").classList.toggle("fault", fault);
  $("state").textContent = f.state ? (T("state", f.state) || f.state) : "";
  $("games").textContent = String(f.games || 0);
  const area = $("play-area");
  // video poker's frame has its cards in reels and its holds in hand: drawn as cards (cards.js)
  const kind = f.hand ? "hand" : Object.keys(RENDERERS).find((k) => f[k] !== null && f[k] !== undefined);
  const ctx = {lang: S.lang, model: m, t: T, sym: (c) => symName(m, c)};
  if (kind) RENDERERS[kind](area, f, ctx);
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
