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

let ended = false;
function socketTo(path, onView) {
  // The table's socket, that reconnects by itself: while it is down the page says so
  // (#connection) and its buttons are disabled; the server keeps the seat, the cards and the
  // turn meanwhile. A session the server does not know (a restart) ends the retrying.
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${location.host}${path}${location.search}`;
  const link = { socket: null, send: (text) => {
    if (link.socket && link.socket.readyState === WebSocket.OPEN) link.socket.send(text);
  } };
  let delay = 500;
  const offline = (down) => {
    const banner = document.getElementById("connection");
    if (banner && !ended) {
      banner.hidden = !down;
      banner.textContent = down ? (words.offline || "…") : "";
    }
    document.body.classList.toggle("offline", down);
    for (const node of document.querySelectorAll("#buttons button, #raise input, #raise button")) {
      node.disabled = down;
    }
  };
  const open = () => {
    const socket = new WebSocket(url);
    link.socket = socket;
    socket.addEventListener("open", () => { delay = 500; offline(false); });
    socket.addEventListener("message", (event) => {
      const data = JSON.parse(event.data);
      if (data.type === "error") {
        ended = true; // (a restart voided the hand: nothing left to press)
        document.body.classList.add("ended"); // (its clock hidden: see casino.css)
        const turn = document.getElementById("turn");
        if (turn) turn.textContent = "";
        for (const node of document.querySelectorAll("#buttons button, #raise input, #raise button")) {
          node.disabled = true;
        }
        const banner = document.getElementById("connection");
        if (banner) { banner.hidden = false; banner.textContent = data.reason; }
        const refused = document.getElementById("refused");
        if (refused) refused.textContent = data.reason;
      } else if (data.type === "refused") {
        document.getElementById("refused").textContent = data.reason;
      } else if (data.type === "chat") {
        if (typeof chatView === "function") chatView(data); // chat.js
      } else onView(data);
    });
    socket.addEventListener("close", () => {
      if (ended || leaving) return;
      offline(true);
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    });
  };
  open();
  return link;
}

let leaving = false;
function leaveWith(link) {
  // Closing the tab or going to the lobby says so: the server folds the seat at its turn and
  // gives it back, with the wallet, at the end of the hand (a reload comes back in time).
  const leave = () => {
    if (leaving) return;
    leaving = true;
    link.send(JSON.stringify({ type: "leave" }));
  };
  addEventListener("pagehide", leave);
  for (const node of document.querySelectorAll('a[href="/"]')) node.addEventListener("click", leave);
  addEventListener("pageshow", (event) => { if (event.persisted) location.reload(); });
}
