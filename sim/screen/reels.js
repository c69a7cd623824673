// Renderers of the play area, one per game kind: the page picks the first whose frame field is
// present (RENDERERS.reels for "reels"; cards and keno add theirs under their own field names,
// docs/screen.md). A renderer gets (element, frame, ctx) with ctx = {lang, model, t, sym(code)}.
"use strict";
const RENDERERS = {};

// Reel symbols as SVG: drawn, never written as their model code. A symbol without a drawing of
// its own gets a gem in a colour of its code; its name in the player's language is always under it.
const GLYPHS = {
  SEVEN: '<text x="50" y="82" font-size="88" font-weight="bold" text-anchor="middle" fill="#d0121b" stroke="#6b0000" stroke-width="2" font-family="DejaVu Serif, serif">7</text>',
  BAR: bars(1), BAR1: bars(1), BAR2: bars(2), BAR3: bars(3),
  CHERRY: '<path d="M50 12 Q58 40 34 64 M50 12 Q54 44 70 62" stroke="#2f7d1f" stroke-width="5" fill="none"/>' +
    '<circle cx="32" cy="70" r="17" fill="#c8102e"/><circle cx="70" cy="68" r="17" fill="#e0163a"/>',
  BELL: '<path d="M50 10 C28 12 26 40 24 62 L14 76 L86 76 L76 62 C74 40 72 12 50 10 Z" fill="#f2b705" stroke="#9a6c00" stroke-width="3"/>' +
    '<circle cx="50" cy="84" r="8" fill="#9a6c00"/>',
  BLANK: "",
  STAR: star("#f5d000", "#8a6d00"),
  WILD: '<defs><linearGradient id="aur" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2de38f"/><stop offset="1" stop-color="#7b3fe4"/></linearGradient></defs>' +
    '<rect x="8" y="8" width="84" height="84" rx="14" fill="url(#aur)"/><path d="M14 60 Q32 30 50 52 T86 40" stroke="#fff" stroke-width="6" fill="none"/>',
  CLOVER: '<g fill="#1f9d3a"><circle cx="50" cy="30" r="17"/><circle cx="30" cy="52" r="17"/><circle cx="70" cy="52" r="17"/><circle cx="50" cy="66" r="15"/></g>' +
    '<path d="M50 60 Q56 80 66 92" stroke="#146b27" stroke-width="6" fill="none"/>',
  COIN: '<circle cx="50" cy="50" r="36" fill="#e8b923" stroke="#9a7400" stroke-width="5"/><circle cx="50" cy="50" r="24" fill="none" stroke="#9a7400" stroke-width="3"/>',
  POT: '<path d="M18 42 L82 42 L76 84 Q50 96 24 84 Z" fill="#222" stroke="#000" stroke-width="3"/>' +
    '<ellipse cx="50" cy="40" rx="34" ry="9" fill="#f2c230" stroke="#9a7400" stroke-width="3"/>' +
    '<circle cx="38" cy="32" r="7" fill="#f2c230" stroke="#9a7400" stroke-width="2"/><circle cx="56" cy="30" r="7" fill="#f2c230" stroke="#9a7400" stroke-width="2"/>',
  HAT: '<rect x="30" y="18" width="40" height="48" fill="#1d6b2f" stroke="#0c3a18" stroke-width="3"/>' +
    '<rect x="30" y="52" width="40" height="8" fill="#111"/><rect x="45" y="50" width="10" height="12" fill="#e8b923"/>' +
    '<ellipse cx="50" cy="70" rx="40" ry="9" fill="#1d6b2f" stroke="#0c3a18" stroke-width="3"/>',
  HARP: '<path d="M26 88 L26 20 Q62 8 76 40 L40 88 Z" fill="none" stroke="#b8860b" stroke-width="7"/>' +
    '<path d="M34 84 L34 26 M44 80 L44 24 M54 66 L54 24 M64 52 L64 30" stroke="#6b4e00" stroke-width="2"/>',
  HORSESHOE: '<path d="M28 84 L24 50 Q24 16 50 16 Q76 16 76 50 L72 84" fill="none" stroke="#7b7f86" stroke-width="14" stroke-linecap="round"/>',
  TEN: '<text x="50" y="72" font-size="56" font-weight="bold" text-anchor="middle" fill="#1b4fa3" font-family="DejaVu Sans, sans-serif">10</text>',
};

function bars(n) {
  let s = "";
  const h = 18, gap = 6, top = 50 - (n * h + (n - 1) * gap) / 2;
  for (let i = 0; i < n; i++)
    s += '<rect x="12" y="' + (top + i * (h + gap)) + '" width="76" height="' + h + '" rx="3" fill="#111"/>' +
         '<rect x="18" y="' + (top + i * (h + gap) + 5) + '" width="64" height="' + (h - 10) + '" fill="#fff"/>';
  return s;
}

function star(fill, stroke) {
  const p = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? 17 : 40, a = Math.PI / 5 * i - Math.PI / 2;
    p.push((50 + r * Math.cos(a)).toFixed(1) + "," + (52 + r * Math.sin(a)).toFixed(1));
  }
  return '<polygon points="' + p.join(" ") + '" fill="' + fill + '" stroke="' + stroke + '" stroke-width="3"/>';
}

function gem(code) {
  let h = 0;
  for (const c of code) h = (h * 31 + c.charCodeAt(0)) % 360;
  return '<polygon points="50,10 86,38 72,88 28,88 14,38" fill="hsl(' + h + ',65%,48%)" stroke="hsl(' + h + ',65%,28%)" stroke-width="4"/>' +
         '<polygon points="50,22 72,40 50,76 28,40" fill="hsl(' + h + ',70%,70%)"/>';
}

function glyph(code) {
  const body = Object.prototype.hasOwnProperty.call(GLYPHS, code) ? GLYPHS[code] : gem(code);
  return '<svg viewBox="0 0 100 100" aria-hidden="true">' + body + "</svg>";
}

// frame.reels: window[row][reel] of the model's symbol codes
RENDERERS.reels = function (el, frame, ctx) {
  const win = frame.reels;
  if (!Array.isArray(win)) return KENO_WINDOW(el, frame, ctx);  // keno sends its card here (keno.js)
  const grid = document.createElement("div");
  grid.className = "reels" + (frame.state === "spin" ? " spinning" : "");
  grid.style.gridTemplateColumns = "repeat(" + (win[0] ? win[0].length : 1) + ", auto)";
  for (const row of win) {
    for (const code of row) {
      const cell = document.createElement("div");
      cell.className = "sym";
      cell.dataset.sym = code;
      cell.innerHTML = glyph(code);
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = ctx.sym(code);
      cell.appendChild(name);
      grid.appendChild(cell);
    }
  }
  el.replaceChildren(grid);
};
