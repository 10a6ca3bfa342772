"use strict";
// The Hold'em page: draws the views the server sends and sends the member's intentions.
// Every rule is the server's; names are shown with textContent (never as HTML).
let socket = null;
let state = null;

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function fill(id, nodes) {
  const parent = document.getElementById(id);
  parent.replaceChildren(...nodes);
}

function drawSeats(view) {
  fill("seats", view.seats.map((seat) => {
    const row = element("li", undefined, "seat");
    row.dataset.seat = seat.seat;
    if (seat.seat === view.you) row.classList.add("you");
    if (seat.turn) row.classList.add("turn");
    if (seat.folded) row.classList.add("folded");
    const name = element("span", seat.name, "name");
    const chips = element("span", String(seat.chips), "chips");
    const cards = element("span", undefined, "cards");
    for (const code of seat.cards || []) cards.append(cardElement(code));
    row.append(name, seat.button ? element("span", "D", "dealer") : "", chips, cards);
    if (seat.bet) row.append(element("span", String(seat.bet), "bet"));
    return row;
  }));
}

function act(verb, to) {
  const message = { type: "act", verb: verb };
  if (to !== undefined) message.to = to;
  socket.send(JSON.stringify(message));
}

function button(label, verb, key, to) {
  const node = element("button", label);
  node.type = "button";
  node.dataset.verb = verb;
  node.setAttribute("aria-keyshortcuts", key);
  node.addEventListener("click", () => {
    const amount = document.getElementById("amount");
    act(verb, to === "input" ? Number(amount.value) : to);
  });
  return node;
}

function drawActions(view) {
  const labels = view.labels;
  const legal = view.legal;
  const amount = document.getElementById("amount");
  const amountLabel = document.getElementById("amount-label");
  document.getElementById("turn").textContent = legal ? labels.turn : (view.notice || "");
  amount.hidden = amountLabel.hidden = !(legal && legal.max_to > 0);
  if (!legal) {
    const start = element("button", labels.start);
    start.type = "button";
    start.id = "start";
    start.addEventListener("click", () => socket.send(JSON.stringify({ type: "start" })));
    fill("buttons", view.can_start ? [start] : []);
    return;
  }
  const nodes = [];
  if (legal.call === 0) nodes.push(button(labels.check, "check", "k"));
  else nodes.push(button(labels.call.replace("{amount}", legal.call), "call", "c"));
  if (legal.max_to > 0) {
    const verb = legal.raising ? "raise" : "bet";
    if (legal.min_to < legal.max_to) {
      amount.min = legal.min_to; amount.max = legal.max_to; amount.value = legal.min_to;
      nodes.push(button(`${labels[verb]} ${legal.min_to}–${legal.max_to}`, verb, "r", "input"));
    }
    nodes.push(button(labels.allin.replace("{amount}", legal.max_to), "allin", "a"));
  }
  if (legal.call > 0) nodes.push(button(labels.fold, "fold", "f"));
  fill("buttons", nodes);
  nodes[0].focus();
}

function draw(view) {
  state = view;
  document.body.dataset.hand = view.hand;
  document.getElementById("refused").textContent = "";
  fill("board", view.board.map(cardElement));
  document.getElementById("pot").textContent = view.labels.pot.replace("{amount}", view.pot);
  drawSeats(view);
  drawActions(view);
  fill("log", view.log.slice().reverse().map((line) => element("li", line)));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws/holdem`);
  socket.addEventListener("message", (event) => {
    const data = JSON.parse(event.data);
    if (data.type === "state") draw(data);
    else document.getElementById("refused").textContent = data.reason;
  });
}

document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT" && event.key !== "Enter") return;
  const keys = { k: "check", c: "call", r: "raise", a: "allin", f: "fold" };
  const verb = event.key === "Enter" && event.target.id === "amount" ? "raise" : keys[event.key];
  const node = document.querySelector(`#buttons button[data-verb="${verb}"]`)
    || (verb === "raise" && document.querySelector('#buttons button[data-verb="bet"]'));
  if (node) { event.preventDefault(); node.click(); }
});

connect();
