"use strict";
// Cards drawn with text: rank and suit symbol, red for hearts and diamonds; a back when hidden.
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = { T: "10" };

function cardElement(code) {
  const card = document.createElement("span");
  card.className = "card";
  if (code === null) {
    card.classList.add("back");
    card.textContent = "🂠";
    card.setAttribute("aria-label", "?");
    return card;
  }
  const rank = RANKS[code[0]] || code[0];
  const suit = code[1];
  card.textContent = rank + SUITS[suit];
  card.dataset.card = code;
  if (suit === "H" || suit === "D") card.classList.add("red");
  return card;
}
