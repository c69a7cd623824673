// Video poker's play area (frame.hand, docs/screen.md): the five cards of frame.reels[0] ("As",
// "Td", "JK" the joker) drawn as cards; while the hand waits for the draw (hand.open) the hold flag
// is under each held card, a card is a hold key (POST /press/holdN, the touch screen's "hold N")
// and an auto-hold key is shown; once drawn, the final hand without marks (the frame's held still
// says which were kept). The play button is "Donner" then "Tirer" (screen.js). The unseen cards
// are never in a frame: only these five are drawn.
"use strict";
const SUITS = {c: ["\u2663", "black"], d: ["\u2666", "red"], h: ["\u2665", "red"], s: ["\u2660", "black"]};

function cardFace(code) {
  const face = document.createElement("div");
  face.className = "face";
  if (code === "JK") {
    face.classList.add("joker");
    face.textContent = "\u2605";
    return face;
  }
  const [sign, colour] = SUITS[code[1]] || ["?", "black"];
  face.classList.add(colour);
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = code[0] === "T" ? "10" : code[0];
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = sign;
  face.append(rank, suit);
  return face;
}

RENDERERS.hand = function (el, frame, ctx) {
  const cards = (frame.reels && frame.reels[0]) || [];
  const hand = frame.hand, open = !!hand.open;
  const row = document.createElement("div");
  row.className = "hand" + (open ? " open" : "");
  cards.forEach((code, i) => {
    const held = open && !!hand.held[i];  // once drawn, no card is held any more: no mark
    const card = document.createElement(open ? "button" : "div");
    card.className = "card" + (held ? " held" : "");
    card.dataset.card = code;
    card.appendChild(cardFace(code));
    const flag = document.createElement("span");
    flag.className = "flag";
    flag.textContent = held ? ctx.t("ui", "held") : "";
    card.appendChild(flag);
    if (open) card.addEventListener("click", () => fetch("/press/hold" + (i + 1), {method: "POST"}));
    row.appendChild(card);
  });
  const box = document.createElement("div");
  box.className = "poker";
  box.appendChild(row);
  if (open) {
    const auto = document.createElement("button");
    auto.id = "b-auto";
    auto.textContent = ctx.t("ui", "auto_hold");
    auto.addEventListener("click", () => fetch("/press/auto", {method: "POST"}));
    box.appendChild(auto);
  }
  el.replaceChildren(box);
};
