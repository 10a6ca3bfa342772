"use strict";
// What every table page shares: its words (sent by the server in the member's language), the
// numbers formatted for that language, and a polite live region that announces what happened.
let words = {};
let numbers = new Intl.NumberFormat("es");

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function number(value) { return numbers.format(value); }

function say(key, values) {
  let text = words[key] || key;
  for (const [name, value] of Object.entries(values || {})) {
    text = text.replace(`{${name}}`, typeof value === "number" ? number(value) : value);
  }
  return text;
}

function useWords(view) {
  words = view.words;
  numbers = new Intl.NumberFormat(view.lang);
  document.documentElement.lang = view.lang;
  document.title = `${words.title} · CASINO-ROYAL`;
  for (const node of document.querySelectorAll("[data-word]")) node.textContent = words[node.dataset.word];
  for (const node of document.querySelectorAll("[data-label]")) {
    node.setAttribute("aria-label", words[node.dataset.label]);
  }
}

let told = [];
function announce(lines) {
  // Only the lines not told yet go to the live region (the log is sent whole each time).
  const fresh = lines.slice(lines.length - newCount(told, lines));
  told = lines.slice();
  if (fresh.length) document.getElementById("announce").textContent = fresh.join(". ");
}

function newCount(before, after) {
  for (let k = Math.min(before.length, after.length); k > 0; k -= 1) {
    const tail = before.slice(before.length - k);
    if (tail.every((line, i) => line === after[i])) return after.length - k;
  }
  return after.length;
}

function socketTo(path, onView) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}${path}`);
  socket.addEventListener("message", (event) => {
    const data = JSON.parse(event.data);
    if (data.type === "refused" || data.type === "error") {
      document.getElementById("refused").textContent = data.reason;
    } else onView(data);
  });
  return socket;
}
