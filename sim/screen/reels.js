// Renderers of the play area, one per game kind: the page picks the first whose frame field is
// present (RENDERERS.reels for "reels"; cards and keno add theirs under their own field names,
// docs/screen.md). A renderer gets (element, frame, ctx) with ctx = {lang, model, t, sym(code)}.
"use strict";
const RENDERERS = {};

// Reel symbols as SVG: drawn, never written as their model code, each shipped game's symbols
// distinct from one another (tests/host/test_screen_browser.py compares their pixels). A symbol
// without a drawing of its own gets a gem in a colour of its code; its name in the player's
// language is always under it.
const GLYPHS = {
  SEVEN: seven("#d0121b", "#6b0000"),
  R7: seven("#d0121b", "#6b0000"), W7: seven("#ffffff", "#3a3a3a"), B7: seven("#1b4fa3", "#0b2552"),
  BAR: bars(1), BAR1: bars(1), BAR2: bars(2), BAR3: bars(3),
  RBAR: bar("#d0121b", "#fff"), WBAR: bar("#ffffff", "#222"), BBAR: bar("#1b4fa3", "#fff"),
  X2: wildTimes(2, "#f2b705"), X3: wildTimes(3, "#e0163a"),
  CHERRY: '<path d="M50 12 Q58 40 34 64 M50 12 Q54 44 70 62" stroke="#2f7d1f" stroke-width="5" fill="none"/>' +
    '<circle cx="32" cy="70" r="17" fill="#c8102e"/><circle cx="70" cy="68" r="17" fill="#e0163a"/>',
  BELL: '<path d="M50 10 C28 12 26 40 24 62 L14 76 L86 76 L76 62 C74 40 72 12 50 10 Z" fill="#f2b705" stroke="#9a6c00" stroke-width="3"/>' +
    '<circle cx="50" cy="84" r="8" fill="#9a6c00"/>',
  BLANK: "",
  STAR: star("#f5d000", "#8a6d00"),
  WILD: '<defs><linearGradient id="aur" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2de38f"/><stop offset="1" stop-color="#7b3fe4"/></linearGradient></defs>' +
    '<rect x="8" y="8" width="84" height="84" rx="14" fill="url(#aur)"/><path d="M14 60 Q32 30 50 52 T86 40" stroke="#fff" stroke-width="6" fill="none"/>',
  // the northern animals: drawn shapes, each its own outline and colours
  WOLF: '<path d="M18 14 L36 38 L50 32 L64 38 L82 14 L80 52 L66 70 L50 92 L34 70 L20 52 Z" fill="#6e7781" stroke="#3b4046" stroke-width="3"/>' +
    '<path d="M36 62 L50 92 L64 62 Q50 56 36 62 Z" fill="#d9dde2"/><ellipse cx="38" cy="50" rx="5" ry="3" fill="#f5c400"/>' +
    '<ellipse cx="62" cy="50" rx="5" ry="3" fill="#f5c400"/><circle cx="50" cy="84" r="5" fill="#111"/>',
  BEAR: '<circle cx="26" cy="26" r="13" fill="#7a4a21"/><circle cx="74" cy="26" r="13" fill="#7a4a21"/>' +
    '<circle cx="26" cy="26" r="6" fill="#c9a27a"/><circle cx="74" cy="26" r="6" fill="#c9a27a"/>' +
    '<circle cx="50" cy="56" r="34" fill="#7a4a21" stroke="#4a2b10" stroke-width="3"/><ellipse cx="50" cy="70" rx="15" ry="11" fill="#c9a27a"/>' +
    '<ellipse cx="50" cy="64" rx="6" ry="4" fill="#111"/><circle cx="37" cy="48" r="4" fill="#111"/><circle cx="63" cy="48" r="4" fill="#111"/>',
  MOOSE: '<path d="M38 34 Q20 36 10 14 Q14 24 8 28 Q18 30 6 38 Q26 50 40 42 Z M62 34 Q80 36 90 14 Q86 24 92 28 Q82 30 94 38 Q74 50 60 42 Z" fill="#c8a46a" stroke="#7a5a2a" stroke-width="2"/>' +
    '<path d="M38 36 Q50 28 62 36 L64 70 Q64 92 50 92 Q36 92 36 70 Z" fill="#5b3a1e" stroke="#2e1b0b" stroke-width="3"/>' +
    '<ellipse cx="50" cy="82" rx="12" ry="9" fill="#3e2612"/><circle cx="42" cy="48" r="3" fill="#fff"/><circle cx="58" cy="48" r="3" fill="#fff"/>',
  OWL: '<ellipse cx="50" cy="56" rx="32" ry="38" fill="#f7f7f2" stroke="#8a8a8a" stroke-width="3"/>' +
    '<path d="M24 26 L34 34 M76 26 L66 34" stroke="#8a8a8a" stroke-width="4"/>' +
    '<circle cx="38" cy="46" r="11" fill="#f5c400" stroke="#222" stroke-width="2"/><circle cx="62" cy="46" r="11" fill="#f5c400" stroke="#222" stroke-width="2"/>' +
    '<circle cx="38" cy="46" r="5" fill="#111"/><circle cx="62" cy="46" r="5" fill="#111"/><path d="M46 58 L54 58 L50 66 Z" fill="#333"/>' +
    '<g fill="#333"><circle cx="36" cy="76" r="2.5"/><circle cx="50" cy="80" r="2.5"/><circle cx="64" cy="76" r="2.5"/><circle cx="43" cy="88" r="2.5"/><circle cx="57" cy="88" r="2.5"/></g>',
  // the royals: card letters, each in its own colour
  A: card("A", "#c8102e"), K: card("K", "#1b4fa3"), Q: card("Q", "#7b3fe4"), J: card("J", "#1f7a3a"), TEN: card("10", "#d2691e"),
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
};

function seven(fill, stroke) {
  return '<text x="50" y="84" font-size="90" font-weight="bold" text-anchor="middle" fill="' + fill + '" stroke="' + stroke +
    '" stroke-width="4" paint-order="stroke" font-family="DejaVu Serif, serif">7</text>';
}

function bar(fill, ink) {
  return '<rect x="8" y="30" width="84" height="40" rx="6" fill="' + fill + '" stroke="#222" stroke-width="4"/>' +
    '<text x="50" y="61" font-size="28" font-weight="bold" text-anchor="middle" fill="' + ink + '" font-family="DejaVu Sans, sans-serif">BAR</text>';
}

function wildTimes(n, fill) {
  return '<polygon points="50,6 94,50 50,94 6,50" fill="' + fill + '" stroke="#5a3b00" stroke-width="4"/>' +
    '<text x="50" y="64" font-size="38" font-weight="bold" text-anchor="middle" fill="#111" font-family="DejaVu Sans, sans-serif">\u00d7' + n + '</text>';
}

function card(letter, colour) {
  return '<rect x="16" y="6" width="68" height="88" rx="9" fill="#fff" stroke="' + colour + '" stroke-width="4"/>' +
    '<text x="50" y="' + (letter.length > 1 ? 66 : 70) + '" font-size="' + (letter.length > 1 ? 44 : 58) +
    '" font-weight="bold" text-anchor="middle" fill="' + colour + '" font-family="DejaVu Serif, serif">' + letter + '</text>' +
    '<text x="24" y="24" font-size="14" font-weight="bold" fill="' + colour + '" font-family="DejaVu Serif, serif">' + letter + '</text>';
}

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

// the colour of pay line i, on the window and in the line diagrams
const LINE_COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324",
                      "#469990", "#800000", "#808000", "#000075", "#e6a100", "#a9a9a9", "#bfef45", "#dcbeff",
                      "#fabed4", "#aaffc3", "#ffd8b1", "#000000"];

function lineColour(i) {
  return LINE_COLOURS[i % LINE_COLOURS.length];
}

// a pay line as a small diagram: the window's rows x reels, the line's cells filled and joined
function lineDiagram(line, rows, index) {
  const c = 14, g = 3, w = line.length * (c + g) + g, h = rows * (c + g) + g;
  let s = '<svg viewBox="0 0 ' + w + " " + h + '" width="' + Math.round(w * 1.4) + '" height="' + Math.round(h * 1.4) + '" aria-hidden="true">';
  const pts = [];
  for (let i = 0; i < line.length; i++) {
    for (let r = 0; r < rows; r++) {
      const on = line[i] === r;
      s += '<rect x="' + (g + i * (c + g)) + '" y="' + (g + r * (c + g)) + '" width="' + c + '" height="' + c +
           '" rx="2" fill="' + (on ? "#ffd34d" : "#fbf8ee") + '"/>';
    }
    pts.push((g + i * (c + g) + c / 2) + "," + (g + line[i] * (c + g) + c / 2));
  }
  return s + '<polyline points="' + pts.join(" ") + '" fill="none" stroke="' + lineColour(index || 0) +
         '" stroke-width="2.5" stroke-linejoin="round"/></svg>';
}

// frame.reels: window[row][reel] of the model's symbol codes; once the reels stop, the winning
// lines of frame.outcome drawn over them and listed beneath (docs/screen.md)
RENDERERS.reels = function (el, frame, ctx) {
  const win = frame.reels;
  if (!Array.isArray(win)) return KENO_WINDOW(el, frame, ctx);  // keno sends its card here (keno.js)
  const grid = document.createElement("div");
  grid.className = "reels" + (frame.state === "spin" ? " spinning" : "") +
                   (frame.state !== "spin" && frame.outcome && frame.outcome.lines.length ? " lined" : "");
  const nreels = win[0] ? win[0].length : 1;
  grid.style.gridTemplateColumns = "repeat(" + nreels + ", auto)";
  const m = ctx.model, o = frame.state !== "spin" ? frame.outcome : null;
  const scatter = o && m && o.lines.some((w) => w[0] < 0) ? m.scatter : null;
  for (const row of win) {
    for (const code of row) {
      const cell = document.createElement("div");
      cell.className = "sym" + (scatter && code === scatter ? " scatter-win" : "");
      cell.dataset.sym = code;
      cell.innerHTML = glyph(code);
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = ctx.sym(code);
      cell.appendChild(name);
      grid.appendChild(cell);
    }
  }
  const box = document.createElement("div");
  box.className = "reel-box";
  box.appendChild(grid);
  el.replaceChildren(box);
  if (!o || !m || !m.lines || !o.lines.length) return;
  // over the window: each winning line through the centres of its cells, numbered at its left end
  const cells = grid.children, svgNS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNS, "svg");
  svg.setAttribute("class", "win-lines");
  svg.setAttribute("viewBox", "0 0 " + grid.clientWidth + " " + grid.clientHeight);
  const list = document.createElement("ul");
  list.className = "wins";
  const starts = {};  // lines numbered so far per row they start on
  for (const [li, credits] of o.lines) {
    const item = document.createElement("li");
    if (li < 0) {
      item.textContent = fmt(ctx.t("ui", "scatter_win"), [credits]);
      list.appendChild(item);
      continue;
    }
    const line = m.lines[li], colour = lineColour(li), pts = [];
    if (!line) continue;
    for (let i = 0; i < line.length; i++) {
      const c = cells[line[i] * nreels + i];
      pts.push((c.offsetLeft + c.offsetWidth / 2) + "," + (c.offsetTop + c.offsetHeight / 2));
    }
    const path = document.createElementNS(svgNS, "polyline");
    path.setAttribute("points", pts.join(" "));
    path.setAttribute("stroke", colour);
    path.setAttribute("class", "win-line");
    path.dataset.line = String(li);
    svg.appendChild(path);
    // its number in the window's left margin, beside the row it starts on (stacked when several do)
    const y0 = Number(pts[0].split(",")[1]), k = starts[line[0]] = (starts[line[0]] || 0) + 1;
    const y = y0 + (k % 2 ? 1 : -1) * Math.floor(k / 2) * 24, x = 15;  // the middle of .reels.lined's left padding
    const dot = document.createElementNS(svgNS, "circle");
    dot.setAttribute("cx", String(x));
    dot.setAttribute("cy", String(y));
    dot.setAttribute("r", "11");
    dot.setAttribute("fill", colour);
    svg.appendChild(dot);
    const num = document.createElementNS(svgNS, "text");
    num.setAttribute("x", String(x));
    num.setAttribute("y", String(y + 5));
    num.setAttribute("text-anchor", "middle");
    num.textContent = String(li + 1);
    svg.appendChild(num);
    item.dataset.line = String(li);
    item.style.borderColor = colour;
    item.textContent = fmt(ctx.t("ui", "line_win"), [li + 1, credits]);
    list.appendChild(item);
  }
  grid.appendChild(svg);
  box.appendChild(list);
};
