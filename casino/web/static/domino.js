"use strict";
// The dominoes page: draws the line of play as a chain that turns at the edges, the member's
// tiles (the playable ones lifted), the computer's tiles face down, the boneyard, the move
// clock the server runs, and the end of a hand; sends the member's intentions. The server
// decides every move; the countdown here only shows it.
const SVG = "http://www.w3.org/2000/svg";
const PIPS = { 0: [], 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]] };
let S = 28;
let L = 2 * S;
let socket = null;
let ticker = null;
let last = null;
let chosen = null;
let placed = 0;

function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

function half(group, value, x, y) {
  for (const [i, j] of PIPS[value]) {
    group.append(svg("circle", { cx: x + S * (0.25 + 0.25 * i), cy: y + S * (0.25 + 0.25 * j),
      r: S * 0.085, class: "pip" }));
  }
}

function tile(a, b, x, y, upright) {
  // A tile with its top-left corner at (x, y): a then b, left to right or top to bottom.
  const group = svg("g", {});
  const [w, h] = upright ? [S, L] : [L, S];
  group.append(svg("rect", { x: x + 0.5, y: y + 0.5, width: w - 1, height: h - 1, rx: 4, class: "face" }));
  if (upright) {
    group.append(svg("line", { x1: x + 4, y1: y + S, x2: x + S - 4, y2: y + S, class: "split" }));
    half(group, a, x, y); half(group, b, x, y + S);
  } else {
    group.append(svg("line", { x1: x + S, y1: y + 4, x2: x + S, y2: y + S - 4, class: "split" }));
    half(group, a, x, y); half(group, b, x + S, y);
  }
  return group;
}

function chain(line) {
  // Rows left to right, then right to left, ...: the chain turns at the edges; doubles cross it.
  const root = document.getElementById("line");
  S = root.clientWidth > 700 ? 40 : 28;
  L = 2 * S;
  const width = Math.max(root.clientWidth, 4 * L);
  const rowHeight = L + 10;
  let x = 0;
  let row = 0;
  let dir = 1;
  const nodes = [];
  line.forEach(([a, b], index) => {
    const w = a === b ? S : L;
    const middle = row * rowHeight + L / 2 + 2;
    let node;
    if ((dir === 1 && x + w > width) || (dir === -1 && x - w < 0)) {
      // The turn: this tile goes down the edge (its first number on top), and the next row
      // runs back from beside it.
      node = tile(a, b, dir === 1 ? width - S : 0, middle + S / 2 + 3, true);
      row += 1; dir = -dir; x = dir === 1 ? S + 3 : width - S - 3;
    } else {
      const left = dir === 1 ? x : x - w;
      x += dir * (w + 3);
      node = a === b ? tile(a, b, left, middle - L / 2, true)
        : tile(dir === 1 ? a : b, dir === 1 ? b : a, left, middle - S / 2, false);
    }
    if (index < placed.first || index >= placed.last) node.classList.add("placed");
    nodes.push(node);
  });
  const shift = row === 0 && line.length ? (width - x) / 2 : 0;
  const group = svg("g", { transform: `translate(${shift} 0)` });
  group.append(...nodes);
  const height = (row + 1) * rowHeight + 4;
  root.setAttribute("viewBox", `0 0 ${width} ${height}`);
  root.setAttribute("height", height);
  root.replaceChildren(group);
  root.setAttribute("aria-label", `${words.line}: ${line.map(([a, b]) => `${a}-${b}`).join(", ")}`);
}

function send(message) { socket.send(JSON.stringify(message)); }

function movesOf(view, a, b) {
  return (view.moves || []).filter((m) => m.tile[0] === a && m.tile[1] === b);
}

function play(a, b, end) {
  chosen = null;
  send({ type: "play", tile: [a, b], end: end });
}

function choose(view, a, b) {
  const moves = movesOf(view, a, b);
  if (!moves.length) return;
  if (moves.length === 1) { play(a, b, moves[0].end); return; }
  chosen = [a, b];
  drawHand(view);
  document.getElementById("turn").textContent = say("choose_end", { a: a, b: b });
  document.getElementById("end-left").focus();
}

function drawEnds(view) {
  const ends = view.line && view.line.length ? [view.line[0][0], view.line[view.line.length - 1][1]] : null;
  for (const [k, end] of ["left", "right"].entries()) {
    const node = document.getElementById(`end-${end}`);
    const value = ends ? ` · ${ends[k]}` : "";
    node.textContent = (end === "left" ? "◀ " : "") + words[end] + value + (end === "right" ? " ▶" : "");
    const fits = chosen && movesOf(view, chosen[0], chosen[1]).some((m) => m.end === end);
    node.classList.toggle("target", Boolean(fits));
    node.setAttribute("aria-disabled", String(!fits));
    node.hidden = !view.line || !view.line.length;
  }
}

function drawHand(view) {
  const nodes = (view.hand || []).map(([a, b]) => {
    const node = document.createElement("button");
    node.type = "button";
    node.className = "tile";
    node.dataset.tile = `${a}-${b}`;
    const moves = movesOf(view, a, b);
    const label = say("tile", { a: a, b: b });
    node.setAttribute("aria-label", moves.length ? `${label}, ${words.playable}` : label);
    node.setAttribute("aria-disabled", String(!moves.length));
    if (moves.length) node.classList.add("playable");
    node.dataset.ends = moves.map((m) => m.end).join(" ");
    if (chosen && chosen[0] === a && chosen[1] === b) node.classList.add("chosen");
    const picture = svg("svg", { viewBox: `0 0 ${S} ${L}`, "aria-hidden": "true" });
    picture.append(tile(a, b, 0, 0, true));
    node.append(picture);
    node.addEventListener("click", () => { if (!node.dragged) choose(view, a, b); });
    dragging(node, view, a, b);
    return node;
  });
  document.getElementById("hand").replaceChildren(...nodes);
  drawEnds(view);
}

function dragging(node, view, a, b) {
  // Drag a playable tile onto an end's button to play it there.
  node.addEventListener("pointerdown", (down) => {
    if (!movesOf(view, a, b).length) return;
    node.dragged = false;
    const move = (event) => {
      const dx = event.clientX - down.clientX;
      const dy = event.clientY - down.clientY;
      if (Math.hypot(dx, dy) > 12) node.dragged = true;
      if (node.dragged) node.style.transform = `translate(${dx}px, ${dy}px)`;
    };
    const up = (event) => {
      removeEventListener("pointermove", move);
      removeEventListener("pointerup", up);
      node.style.transform = "";
      if (!node.dragged) return;
      const target = document.elementFromPoint(event.clientX, event.clientY);
      const end = target && target.closest("[data-end]");
      const fits = end && movesOf(view, a, b).some((m) => m.end === end.dataset.end);
      if (fits) play(a, b, end.dataset.end);
      setTimeout(() => { node.dragged = false; }, 0);
    };
    addEventListener("pointermove", move);
    addEventListener("pointerup", up);
  });
}

function actionButtons(view) {
  const nodes = [];
  const add = (label, type, key) => {
    const node = element("button", label);
    node.type = "button";
    node.dataset.type = type;
    node.setAttribute("aria-keyshortcuts", key);
    node.addEventListener("click", () => send({ type: type }));
    nodes.push(node);
  };
  if (view.can_draw) add(words.draw, "draw", "d");
  if (view.can_pass) add(words.pass, "pass", "p");
  document.getElementById("buttons").replaceChildren(...nodes);
}

function countdown(view) {
  clearInterval(ticker);
  const clock = document.getElementById("clock");
  clock.hidden = view.seconds === null;
  if (view.seconds === null) return;
  const end = performance.now() + view.seconds * 1000;
  const total = Math.max(view.total, 0.001);
  const tick = () => {
    const left = Math.max(0, (end - performance.now()) / 1000);
    document.getElementById("seconds").textContent = String(Math.ceil(left));
    clock.style.setProperty("--left", String(left / total));
    clock.setAttribute("aria-label", say("seconds", { n: Math.ceil(left) }));
    clock.classList.toggle("late", left <= 5);
    if (left <= 5) cueOnce("late", moveKey(view)); // (sound.js)
    if (left <= 0) clearInterval(ticker);
  };
  tick();
  ticker = setInterval(tick, 200);
}

function money(value) {
  return new Intl.NumberFormat(document.documentElement.lang,
    { style: "currency", currency: "USD", maximumFractionDigits: 0 }).format(value);
}

function drawTable(view) {
  const [mine, theirs] = view.bankrolls;
  document.getElementById("money-you").textContent = money(mine);
  document.getElementById("money-them").textContent = money(theirs);
  const backs = Array.from({ length: view.theirs || 0 }, () => element("span", undefined, "tile-back"));
  document.getElementById("theirs").replaceChildren(...backs);
  document.getElementById("theirs").setAttribute("aria-label", `${words.theirs}: ${number(view.theirs || 0)}`);
  const count = view.boneyard === undefined ? 0 : view.boneyard;
  document.getElementById("bone-count").textContent = `${words.boneyard} ${number(count)}`;
  document.getElementById("boneyard").setAttribute("aria-label", `${words.boneyard}: ${number(count)}`);
  let turn = "";
  if (view.turn === "you") turn = words.your_turn;
  else if (view.turn === "computer" && !view.over) turn = words.their_turn;
  document.getElementById("turn").textContent = turn;
}

function drawOverlay(view) {
  const overlay = document.getElementById("overlay");
  const was = overlay.hidden;
  overlay.hidden = !view.over;
  if (!view.over) return;
  const result = view.result;
  document.getElementById("result-title").textContent = result ? result.title : words.ready;
  // Why no hand can start (an empty wallet, chips at a Hold'em table) says what to do.
  document.getElementById("result-why").textContent = view.notice || (result ? result.why : "");
  const [mine, theirs] = view.bankrolls;
  const stake = `${words.stake} ${money(view.stake)}`;
  document.getElementById("result-money").textContent =
    `${stake} · ${words.bankrolls}: ${words.you} ${money(mine)}, ${words.computer} ${money(theirs)}`;
  if (was) document.getElementById("next").focus();
}

function moveKey(view) {
  // One move of the member: the line, their tiles and the log as they are at it.
  return view.turn === "you" && !view.over
    ? `${(view.line || []).length}:${(view.hand || []).length}:${view.log.length}` : null;
}

function draw(view) {
  useWords(view);
  const line = view.line || [];
  if (last && last.line && line.length > last.line.length) {
    const before = last.line;
    const first = line.length && before.length && line[0][0] === before[0][0] && line[0][1] === before[0][1] ? 0
      : line.length - before.length;
    placed = { first: first, last: first + before.length };
  } else placed = { first: 0, last: line.length };
  if (!last || JSON.stringify(last.hand) !== JSON.stringify(view.hand)) chosen = null;
  last = view;
  document.getElementById("refused").textContent = "";
  document.body.dataset.over = view.over;
  document.body.dataset.turn = view.turn || "";
  drawTable(view);
  chain(line);
  drawHand(view);
  actionButtons(view);
  countdown(view);
  cueOnce("turn", moveKey(view));
  cueOnce("won", view.over && view.result && view.result.winner === "you" ? view.log.length : null);
  drawOverlay(view);
  document.getElementById("log").replaceChildren(...view.log.map((text) => element("li", text)));
  announce(view.turn === "you" ? [...view.log, words.your_turn] : view.log);
  const first = document.querySelector("#hand .playable, #buttons button");
  if (view.turn === "you" && first && !document.activeElement.closest("#hand, #buttons")) first.focus();
}

for (const end of ["left", "right"]) {
  document.getElementById(`end-${end}`).addEventListener("click", () => {
    if (!chosen || !last) return;
    if (movesOf(last, chosen[0], chosen[1]).some((m) => m.end === end)) play(chosen[0], chosen[1], end);
  });
}
document.getElementById("next").addEventListener("click", () => send({ type: "next" }));
addEventListener("resize", () => { if (last) chain(last.line || []); });

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest && event.target.closest("#chat")) return; // typing a chat line
  if (event.key === "Escape" && chosen) { chosen = null; drawHand(last); return; }
  if (event.key === "n" && !document.getElementById("overlay").hidden) {
    event.preventDefault(); document.getElementById("next").click(); return;
  }
  const keys = { d: "draw", p: "pass" };
  const node = document.querySelector(`#buttons button[data-type="${keys[event.key]}"]`);
  if (node) { event.preventDefault(); node.click(); }
});

socket = socketTo("/ws/domino", draw);
chatWith(socket);
