"use strict";
// Cards drawn with text (no image is fetched): rank and suit, red for hearts and diamonds; a
// patterned back when hidden. Each card is labelled for screen readers in the page's words.
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = { T: "10" };

function cardElement(code, words) {
  const card = document.createElement("span");
  card.className = "card";
  card.setAttribute("role", "img");
  if (code === null) {
    card.classList.add("back");
    card.setAttribute("aria-label", words.hidden);
    return card;
  }
  const rank = RANKS[code[0]] || code[0];
  const suit = code[1];
  const top = document.createElement("span");
  top.textContent = rank;
  const bottom = document.createElement("span");
  bottom.className = "suit";
  bottom.textContent = SUITS[suit];
  card.append(top, bottom);
  card.dataset.card = code;
  card.setAttribute("aria-label", words.card.replace("{rank}", words[code[0]] || rank)
    .replace("{suit}", words[suit]));
  if (suit === "H" || suit === "D") card.classList.add("red");
  return card;
}
