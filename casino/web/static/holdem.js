"use strict";
// The Hold'em page: draws the views the server sends round an oval table and sends the
// member's intentions. Every rule is the engine's (the legal range and the presets come in
// the view); names are shown with textContent, never as HTML.
let socket = null;
let board = [];
let bets = {};
let ticker = null;
let dealtHand = null;
let pot = 0;

function fill(id, nodes) { document.getElementById(id).replaceChildren(...nodes); }

function spot(node, k, n, radius, turn, across) {
  // Seat k places clockwise from the member, who sits at the bottom (k = 0); ``across``: the
  // radius from side to side when it is not ``radius`` (bets keep clear of the side seats).
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n + (turn || 0);
  node.style.left = `${50 + (across || radius) * Math.cos(angle)}%`;
  node.style.top = `${50 + radius * Math.sin(angle)}%`;
  return node;
}

function near(node, k, n) {
  // A seat's bet chip, just clear of its seat towards the middle (--bet: see reach), whatever
  // the felt's size: never over the seat's box.
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
  const [x, y] = [Math.cos(angle), Math.sin(angle)];
  node.dataset.x = x.toFixed(4);
  node.dataset.y = y.toFixed(4);
  node.style.left = `calc(${50 + 50 * x}% - ${x.toFixed(4)} * var(--bet))`;
  node.style.top = `calc(${50 + 50 * y}% - ${y.toFixed(4)} * var(--bet))`;
  return node;
}

function reach() {
  // How far each bet chip sits from its seat's middle, along the line to the felt's middle:
  // just far enough for the two boxes to part on one axis, with a gap (measured: the seat's
  // size depends on its name, its cards and the window). A seat on a diagonal (three seats,
  // five, six) parts sideways or downwards, whichever comes first.
  for (const chip of document.querySelectorAll("#chips .bet")) {
    const seat = document.querySelector(`.seat[data-seat="${chip.dataset.seat}"]`);
    if (!seat) continue;
    const apart = (seatSize, chipSize, along) => (Math.abs(along) < 0.001 ? Infinity
      : ((seatSize + chipSize) / 2 + 4) / Math.abs(along));
    const bet = Math.min(apart(seat.offsetWidth, chip.offsetWidth, Number(chip.dataset.x)),
      apart(seat.offsetHeight, chip.offsetHeight, Number(chip.dataset.y)));
    chip.style.setProperty("--bet", `${bet}px`);
  }
}
addEventListener("resize", reach);

function winning(view) {
  const five = new Set();
  for (const winner of view.winners) for (const code of winner.five || []) five.add(code);
  return five;
}

function cards(codes, five, fresh) {
  return codes.map((code) => {
    const card = cardElement(code, words);
    if (five.size && code) card.classList.add(five.has(code) ? "win" : "dim");
    if (fresh && code && !fresh.includes(code)) card.classList.add("dealt");
    return card;
  });
}

function drawSeats(view) {
  const n = view.seats.length;
  const five = winning(view);
  const chips = [];
  fill("seats", view.seats.map((seat) => {
    const k = (seat.seat - (view.you === null ? 0 : view.you) + n) % n; // a watcher: seat 0 below
    const row = spot(element("li", undefined, "seat"), k, n, 50);
    row.dataset.seat = seat.seat;
    if (seat.seat === view.you) row.classList.add("you");
    if (2 * k === n) row.classList.add("top"); // straight across (its dealer button: casino.css)
    if (seat.turn) row.classList.add("turn");
    if (seat.folded) row.classList.add("folded");
    const box = element("div", undefined, "box");
    const name = element("span", seat.name, "name");
    // A word of ten letters or more does not fit a phone's seat whole: smaller there, and on a
    // small laptop's screen two lower lines (casino.css).
    name.classList.toggle("long", seat.name.split(" ").some((word) => word.length >= 10));
    const stack = element("span", say("stack", { amount: seat.chips }), "stack");
    const place = view.tournament && view.tournament.places[seat.seat]; // out of a sit-and-go
    let said = seat.folded ? words.folded : seat.last || "";
    if (place) said = say("out_place", { place: place });
    const last = element("span", said, "last");
    const seconds = element("span", undefined, "seconds");
    seconds.hidden = !view.clock || view.clock.seat !== seat.seat;
    const hand = element("span", undefined, "cards");
    const fresh = dealtHand === view.hand ? null : [];
    if (!seat.folded) hand.append(...cards(seat.cards || [], five, fresh));
    box.append(name, stack, hand, last, seconds);
    row.append(box);
    if (seat.bet) {
      const chip = near(element("div", number(seat.bet), "chip bet"), k, n);
      chip.dataset.seat = seat.seat;
      chip.setAttribute("aria-label", `${seat.name}: ${say("bet", { amount: seat.bet })}`);
      if (bets[seat.seat] !== seat.bet) chip.classList.add("moved");
      chips.push(chip);
    }
    if (seat.button) { // off the seat box's top left corner: over no name, bet or clock
      const dealer = element("div", "D", "dealer");
      dealer.setAttribute("role", "img");
      dealer.setAttribute("aria-label", `${words.dealer}: ${seat.name}`);
      row.append(dealer);
    }
    return row;
  }));
  fill("chips", chips);
  dealtHand = view.hand;
  bets = Object.fromEntries(view.seats.map((seat) => [seat.seat, seat.bet || 0]));
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
    act(verb, to === "slider" ? Number(document.getElementById("amount").value) : to);
  });
  return node;
}

function raiseLabel(legal, to) {
  if (to === legal.max_to) return say("allin", { amount: to });
  return say(legal.raising ? "raise_to" : "bet_to", { amount: to });
}

function drawRaise(legal, nodes) {
  const slider = document.getElementById("amount");
  const typed = document.getElementById("typed");
  const sliding = legal.min_to < legal.max_to;
  document.getElementById("raise").hidden = !sliding;
  if (!sliding) {
    nodes.push(button(say("allin", { amount: legal.max_to }), "allin", "a r"));
    fill("presets", []);
    return;
  }
  const verb = legal.raising ? "raise" : "bet";
  const raise = button(raiseLabel(legal, legal.min_to), verb, "r", "slider");
  slider.min = typed.min = legal.min_to;
  slider.max = typed.max = legal.max_to;
  slider.value = typed.value = legal.min_to;
  const show = () => {
    raise.textContent = raiseLabel(legal, Number(slider.value));
    slider.setAttribute("aria-valuetext", number(Number(slider.value)));
    if (document.activeElement !== typed) typed.value = slider.value;
  };
  slider.oninput = show;
  typed.oninput = () => {
    // A typed amount moves the slider (kept within the legal range by the slider itself).
    if (typed.value !== "" && Number.isFinite(Number(typed.value))) {
      slider.value = Math.round(Number(typed.value));
      show();
    }
  };
  typed.onchange = () => { typed.value = slider.value; };
  typed.onkeydown = (event) => {
    if (event.key === "Enter") { event.preventDefault(); typed.value = slider.value; raise.click(); }
  };
  show();
  fill("presets", Object.entries(legal.presets).map(([key, to]) => {
    const preset = element("button", words[key]);
    preset.type = "button";
    preset.dataset.preset = key;
    preset.setAttribute("aria-label", `${words[key]}: ${number(to)}`);
    preset.addEventListener("click", () => { slider.value = to; show(); });
    return preset;
  }));
  nodes.push(raise);
}

function drawChoice(view) {
  // Show or muck at the end of a hand: the engine says whether a muck is allowed.
  document.getElementById("turn").textContent = words.choose_show;
  document.getElementById("raise").hidden = true;
  const choose = (label, verb, show) => {
    const node = element("button", label);
    node.type = "button";
    node.dataset.verb = verb;
    node.setAttribute("aria-keyshortcuts", verb[0]);
    node.addEventListener("click", () => socket.send(JSON.stringify({ type: "choice", show })));
    return node;
  };
  const nodes = [choose(words.show, "show", true)];
  if (view.choice.muck) nodes.unshift(choose(words.muck, "muck", false));
  fill("buttons", nodes);
  nodes[nodes.length - 1].focus();
}

function drawActions(view) {
  const legal = view.legal;
  if (view.choice) { drawChoice(view); return; }
  const actor = view.seats.find((seat) => seat.seat === view.actor);
  // What concerns the member (seated for the next hand, sitting out, an empty wallet) comes
  // before whose turn it is (the ring round that seat shows it too).
  let turn = words.waiting;
  if (legal) turn = words.your_turn;
  else if (view.notice) turn = view.notice;
  else if (actor) turn = say("their_turn", { name: actor.name });
  if (view.watching) turn = view.notice;
  document.getElementById("turn").textContent = turn;
  if (view.watching) {
    // A watcher takes a free seat the lobby's way (the server seats them, or says why not).
    document.getElementById("raise").hidden = true;
    const take = element("a", words.take_seat, "button");
    take.id = "take-seat";
    take.href = `/holdem?table=${view.table}`;
    fill("buttons", view.free ? [take] : []);
    return;
  }
  if (!legal) {
    // A table waiting for players: any seated member may start it.
    document.getElementById("raise").hidden = true;
    const start = element("button", words.start);
    start.type = "button";
    start.id = "start";
    start.addEventListener("click", () => socket.send(JSON.stringify({ type: "start" })));
    fill("buttons", view.can_start ? [start] : []);
    return;
  }
  const nodes = [];
  nodes.push(button(words.fold, "fold", "f")); // the seed: a fold even when a check is free
  const main = legal.call === 0 ? button(words.check, "check", "k")
    : button(say("call", { amount: legal.call }), "call", "c");
  nodes.push(main);
  if (legal.max_to > 0) drawRaise(legal, nodes);
  else document.getElementById("raise").hidden = true;
  fill("buttons", nodes);
  main.focus();
}

function drawCentre(view) {
  const fresh = view.board.length >= board.length ? board : [];
  fill("board", cards(view.board, winning(view), fresh));
  board = view.board.slice();
  const chip = element("span", `${words.pot} ${number(view.pot)}`, "chip");
  if (view.pot !== pot) chip.classList.add("moved");
  pot = view.pot;
  fill("pot", view.pot ? [chip] : []);
  const names = Object.fromEntries(view.seats.map((seat) => [seat.seat, seat.name]));
  document.getElementById("winner").textContent = view.winners.map((w) => {
    const won = say("wins", { name: names[w.seat], amount: w.amount });
    return w.hand ? `${won} ${say("with", { hand: w.hand })}` : won;
  }).join(" · ");
}

function tied(text) {
  // A span of ``text`` whose numbers are each kept on one line with the word after them
  // ("590 s": a span that does not break), the rest free to break at its spaces.
  const span = element("span");
  text.split(/(\d[\d.,]* \S+)/).forEach((piece, index) => {
    if (piece) span.append(index % 2 ? element("span", piece, "tied") : piece);
  });
  return span;
}

function clock(view) {
  // Every member sees the seconds left to whoever must act: the ring round their seat and
  // the number under it.
  clearInterval(ticker);
  if (!view.clock) return;
  const node = document.querySelector(`.seat[data-seat="${view.clock.seat}"]`);
  if (!node) return;
  const seconds = node.querySelector(".seconds");
  // Once the clock runs out the member's time bank is spent, shown next to the clock.
  const end = performance.now() + view.clock.seconds * 1000;
  const bank = view.clock.bank || 0;
  const tick = () => {
    const now = performance.now();
    const left = Math.max(0, (end - now) / 1000);
    const banked = Math.max(0, bank - Math.max(0, (now - end) / 1000));
    node.style.setProperty("--left", String(left / Math.max(view.clock.total, 0.001)));
    node.classList.toggle("late", left <= 5);
    node.classList.toggle("banking", left <= 0 && bank > 0);
    if (seconds) {
      // Each part kept whole on a narrow seat where it fits: "0 s left ·" over "time bank 590 s";
      // where a part does not, it breaks at a space, never between a number and its unit.
      const parts = [tied(say("seconds", { n: Math.ceil(left) }))];
      if (left <= 0 && bank > 0) {
        parts[0].append(" ·");
        parts.push(" ", tied(say("bank", { n: Math.ceil(banked) })));
      }
      seconds.replaceChildren(...parts);
      seconds.dataset.left = String(Math.ceil(left));
      seconds.dataset.bank = String(Math.ceil(banked));
    }
    // The member's own time (the clock, then the bank) in its last 5 seconds: a cue.
    if (view.clock.seat === view.you && left + banked <= 5) cueOnce("late", turnKey(view));
    if (left <= 0 && banked <= 0) clearInterval(ticker);
  };
  tick();
  ticker = setInterval(tick, 250);
}

let sittingOut = false;
function drawSitOut(view) {
  // Sit out from the next hand (dealt nothing, the wallet untouched), or be dealt in again.
  sittingOut = Boolean(view.sitting_out);
  const out = document.getElementById("sit-out");
  // One name, its state pressed or not (a toggle's name does not change with its state).
  out.setAttribute("aria-pressed", String(sittingOut));
}

function drawLevel(view) {
  // A sit-and-go's level and blinds (nothing at a cash table); nobody sits out of one.
  const level = document.getElementById("level");
  const tournament = view.tournament;
  level.hidden = !tournament;
  const [small, big] = tournament ? tournament.blinds : [0, 0];
  level.textContent = tournament ? say("level", { level: tournament.level, small, big }) : "";
}

function drawWatchers(view) {
  // How many watch the table, shown to everybody there (nothing while nobody watches).
  document.getElementById("sit-out").hidden = Boolean(view.watching || view.tournament);
  const watchers = document.getElementById("watchers");
  watchers.hidden = !view.watchers;
  watchers.textContent = view.watchers ? say("watchers", { n: view.watchers }) : "";
}

function turnKey(view) {
  // One turn of the member (or one choice to show or muck): the hand and how far its log is.
  return view.legal || view.choice ? `${view.hand}:${view.log.length}` : null;
}

function cues(view) {
  // The sounds (sound.js) a view asks for: the member's turn, a hand they won.
  if (view.you === null) return;
  cueOnce("turn", turnKey(view));
  cueOnce("won", view.winners.some((w) => w.seat === view.you) ? view.hand : null);
}

function draw(view) {
  useWords(view);
  // Which table this is (the lobby's rows name it alike): the heading (on a narrow screen the
  // table's name alone, ``.bar .wide``) and the window's title.
  document.getElementById("heading").replaceChildren(
    element("span", `${words.title} · `, "wide"), element("span", view.table_name, "tied"));
  // (the name whole: "Mesa 1" never over its "1")
  document.title = `${view.heading} · CASINO-ROYAL`;
  drawSitOut(view);
  drawWatchers(view);
  drawLevel(view);
  document.body.dataset.hand = view.hand;
  document.body.dataset.over = String(view.actor === null);
  document.getElementById("refused").textContent = "";
  document.getElementById("history-toggle").setAttribute("aria-label",
    history().hidden ? words.show_history : words.hide_history);
  drawCentre(view);
  drawSeats(view);
  drawActions(view);
  clock(view);
  cues(view);
  reach(); // (the seats drawn, their clocks' seconds written)
  const log = document.getElementById("log");
  log.replaceChildren(...view.log.map((line) => element("li", line)));
  log.parentElement.scrollTop = log.parentElement.scrollHeight;
  const asked = view.legal ? words.your_turn : view.choice && words.choose_show;
  announce(asked ? [...view.log, asked] : view.log);
}

function history() { return document.getElementById("history"); }

function toggleHistory() {
  const panel = history();
  panel.hidden = !panel.hidden;
  const toggle = document.getElementById("history-toggle");
  toggle.setAttribute("aria-expanded", String(!panel.hidden));
  toggle.setAttribute("aria-label", panel.hidden ? words.show_history : words.hide_history);
}

document.getElementById("history-toggle").addEventListener("click", toggleHistory);
document.getElementById("sit-out").addEventListener("click", () => {
  socket.send(JSON.stringify({ type: "sitout", out: !sittingOut }));
});
const wide = matchMedia("(min-width: 64rem)");
if (wide.matches) toggleHistory();
wide.addEventListener("change", () => { if (history().hidden === wide.matches) toggleHistory(); });

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest && event.target.closest("#chat")) return; // typing a chat line
  if (event.key === "h" || (event.key === "Escape" && !history().hidden && !wide.matches)) {
    event.preventDefault(); toggleHistory(); return;
  }
  const keys = { k: "check", c: "call", f: "fold", s: "show", m: "muck" };
  let node = document.querySelector(`#buttons button[data-verb="${keys[event.key]}"]`);
  const slider = document.getElementById("amount");
  if (event.key === "a" && !slider.closest("[hidden]")) slider.value = slider.max;
  if (event.key === "r" || event.key === "a" || (event.key === "Enter" && event.target === slider)) {
    node = document.querySelector("#buttons button[data-verb=raise], #buttons button[data-verb=bet], "
      + "#buttons button[data-verb=allin]");
  }
  if (node) { event.preventDefault(); node.click(); }
});

socket = socketTo("/ws/holdem", draw);
leaveWith(socket);
chatWith(socket);
