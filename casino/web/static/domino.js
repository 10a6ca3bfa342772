"use strict";
// The dominoes page: draws the tiles (SVG), the line and the move clock the server sends, and
// sends the member's intentions. The server decides every move and runs the clock; the
// countdown here only shows it.
const SVG = "http://www.w3.org/2000/svg";
const PIPS = { 0: [], 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]] };
let socket = null;
let ticker = null;

function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

function tileSvg(a, b) {
  const root = svg("svg", { viewBox: "0 0 64 32", width: 64, height: 32, role: "img",
    "aria-label": `${a}|${b}` });
  root.append(svg("rect", { x: 1, y: 1, width: 62, height: 30, rx: 4, class: "face" }));
  root.append(svg("line", { x1: 32, y1: 4, x2: 32, y2: 28, class: "split" }));
  [a, b].forEach((number, half) => {
    for (const [x, y] of PIPS[number]) {
      root.append(svg("circle", { cx: 8 + half * 32 + x * 8, cy: 8 + y * 8, r: 2.6, class: "pip" }));
    }
  });
  return root;
}

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function send(message) { socket.send(JSON.stringify(message)); }

function tileButtons(view) {
  const nodes = [];
  for (const [a, b] of view.hand || []) {
    const moves = (view.moves || []).filter((m) => m.tile[0] === a && m.tile[1] === b);
    const group = element("span", undefined, "tile");
    group.append(tileSvg(a, b));
    for (const move of moves) {
      const button = element("button", move.label);
      button.type = "button";
      button.dataset.tile = `${a}-${b}`;
      button.dataset.end = move.end;
      button.setAttribute("aria-label", `${a}|${b} ${move.label}`);
      button.addEventListener("click", () => send({ type: "play", tile: [a, b], end: move.end }));
      group.append(button);
    }
    nodes.push(group);
  }
  document.getElementById("hand").replaceChildren(...nodes);
}

function actionButtons(view) {
  const nodes = [];
  const add = (label, type, key) => {
    const button = element("button", label);
    button.type = "button";
    button.dataset.type = type;
    button.setAttribute("aria-keyshortcuts", key);
    button.addEventListener("click", () => send({ type: type }));
    nodes.push(button);
  };
  if (view.can_draw) add("⇩ robar / draw", "draw", "d");
  if (view.can_pass) add("pasar / pass", "pass", "p");
  if (view.over) add("▶ mano / hand", "next", "n");
  document.getElementById("buttons").replaceChildren(...nodes);
  const first = document.querySelector("#hand button, #buttons button");
  if (first) first.focus();
}

function countdown(seconds) {
  clearInterval(ticker);
  const clock = document.getElementById("clock");
  clock.hidden = seconds === null;
  if (seconds === null) return;
  const end = performance.now() + seconds * 1000;
  const total = Math.max(seconds, 0.001);
  const draw = () => {
    const left = Math.max(0, (end - performance.now()) / 1000);
    document.getElementById("seconds").textContent = String(Math.ceil(left));
    document.getElementById("bar").style.width = `${(100 * left) / total}%`;
    clock.classList.toggle("late", left <= 5);
    if (left <= 0) clearInterval(ticker);
  };
  draw();
  ticker = setInterval(draw, 200);
}

function draw(view) {
  document.getElementById("refused").textContent = "";
  document.body.dataset.over = view.over;
  document.body.dataset.turn = view.turn || "";
  const [mine, theirs] = view.bankrolls;
  document.getElementById("bankrolls").textContent = `$${mine} · PC $${theirs}`;
  const line = (view.line || []).map(([a, b]) => tileSvg(a, b));
  document.getElementById("line").replaceChildren(...line);
  document.getElementById("counts").textContent = view.line
    ? `PC ${view.theirs} · ⌧ ${view.boneyard}` : "";
  tileButtons(view);
  actionButtons(view);
  countdown(view.seconds);
  const log = view.log.slice().reverse().map((text) => element("li", text));
  document.getElementById("log").replaceChildren(...log);
}

document.addEventListener("keydown", (event) => {
  const keys = { d: "draw", p: "pass", n: "next" };
  const node = document.querySelector(`#buttons button[data-type="${keys[event.key]}"]`);
  if (node) { event.preventDefault(); node.click(); }
});

const scheme = location.protocol === "https:" ? "wss:" : "ws:";
socket = new WebSocket(`${scheme}//${location.host}/ws/domino`);
socket.addEventListener("message", (event) => {
  const data = JSON.parse(event.data);
  if (data.type === "domino") draw(data);
  else document.getElementById("refused").textContent = data.reason;
});
