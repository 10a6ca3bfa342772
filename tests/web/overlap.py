"""The overlap check of the look tests: in the page as it is now, every visible text-bearing
element of a table (seat names, amounts, bet chips, the board, the pot, the winner line, the
dealer button, clocks, the member's own cards, the action bar and its parts, the connection
banner, the top bar's link, heading and buttons; the lobby's wallet lines) is measured, and
:func:`overlaps` names the two elements of each pair whose boxes intersect, each element whose
box is covered where its centre is (another element drawn over it: ``elementFromPoint``),
each text cut short (its text wider than its box), each text that must stay whole
(:data:`WHOLE`: a clock's number with its unit, the table's name, a stack, a bet, the level
line, the watcher count) broken over two lines, each seat's name broken inside a word
("Maximilian" over "a"), and each part of the turn line drawn beside another off its baseline
(the level line raised beside *Tu turno* at 1024×640, issue 44)."""

from __future__ import annotations

from typing import Any

WHOLE = "#level, #watchers, .tied, .seat .stack, .chip.bet"
"""What must stay on one line (``.tied``: a clock's number and its unit, ``590 s``, and the
table's name in the top bar, ``Mesa 1``)."""
OVERLAPS = (
    f"const WHOLE = {WHOLE!r};"
    + r"""
const named = [];
const add = (node, name) => {
  if (!node) return;
  const box = node.getBoundingClientRect();
  const style = getComputedStyle(node);
  if (box.width < 1 || box.height < 1 || style.visibility === 'hidden') return;
  if (!node.textContent.trim() && !node.querySelector('.card, svg')) return;  // nothing in it
  named.push({node, name, box});
};
const seatName = (seat) => `seat ${seat.dataset.seat}`
  + ` (${(seat.querySelector('.name') || {}).textContent || '?'})`;
for (const seat of document.querySelectorAll('.seat')) {
  add(seat.querySelector('.box'), `${seatName(seat)} box`);
  for (const part of ['name', 'stack', 'last', 'seconds', 'cards']) {
    add(seat.querySelector(`.${part}`), `${seatName(seat)} ${part}`);
  }
}
for (const chip of document.querySelectorAll('.chip.bet')) {
  add(chip, `bet chip "${chip.getAttribute('aria-label')}"`);
}
for (const dealer of document.querySelectorAll('.dealer')) add(dealer, 'dealer button');
for (const card of document.querySelectorAll('#board .card')) {
  add(card, `board card ${card.dataset.card || ''}`);
}
for (const [css, name] of [['#pot .chip', 'pot'], ['#winner', 'winner line'],
    ['#connection', 'connection banner'], ['#turn', 'turn line'], ['#refused', 'refusal line'],
    ['#level', 'level line'], ['#watchers', 'watcher count'],
    ['#money-them', "opponent's money"], ['#money-you', "member's money"], ['#hand', 'own tiles'],
    ['#theirs', "opponent's tiles"], ['#bone-count', 'boneyard count'], ['#clock', 'clock']]) {
  for (const node of document.querySelectorAll(css)) add(node, name);
}
for (const part of document.querySelectorAll('.bar > a, .bar > h1, .bar > button')) {
  add(part, `top bar ${part.id || part.tagName.toLowerCase()} "${part.textContent.trim()}"`);
}
for (const button of document.querySelectorAll('#buttons button, .controls button')) {
  add(button, `button "${button.textContent}"`);
}
for (const line of document.querySelectorAll('#wallets li, #leaders li')) {
  for (const part of line.children) {
    add(part, `wallet line "${line.textContent}" ${part.className}`);
  }
}
const found = [];
const inside = (a, b) => a.contains(b) || b.contains(a);
const bar = document.getElementById('actions');
for (let i = 0; i < named.length; i++) {
  for (let j = i + 1; j < named.length; j++) {
    const [a, b] = [named[i], named[j]];
    if (inside(a.node, b.node)) continue;
    const wide = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
    const high = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
    if (wide > 1 && high > 1) found.push(`${a.name} overlaps ${b.name}`);
  }
}
for (const {node, name, box} of named) {
  const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;  // scrolled away
  const hit = document.elementFromPoint(x, y);
  if (hit && !node.contains(hit) && !hit.contains(node)) {
    const over = named.find((n) => n.node.contains(hit));
    const label = over ? over.name : (hit.id ? `#${hit.id}` : hit.className || hit.tagName);
    found.push(`${name} is covered by ${label}`);
  }
  if (bar && !bar.contains(node) && box.bottom > bar.getBoundingClientRect().top + 1
      && box.top < innerHeight && y < innerHeight) {
    found.push(`${name} is under the action bar`);
  }
  if (box.left < -1 || box.right > document.documentElement.clientWidth + 1) {
    found.push(`${name} is cut by the window's edge`);
  }
  if (node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).overflowX !== 'visible') {
    found.push(`${name} is cut short`);
  }
}
// What is kept whole on one line (a clock's number and unit, a stack, the level, the count):
// its text in one line box, never broken (issue 44: "reserva 590" over "s" on a phone's seat).
for (const node of document.querySelectorAll(WHOLE)) {
  if (!node.offsetParent || !node.textContent.trim()) continue;
  const range = document.createRange();
  range.selectNodeContents(node);
  const rects = [...range.getClientRects()].filter((r) => r.width > 0)
    .sort((a, b) => a.top - b.top);
  const lines = rects.filter((r, i) => i === 0 || r.top >= rects[i - 1].bottom - 1).length;
  if (lines > 1) found.push(`"${node.textContent}" (${node.id || node.className}) wraps`);
}
// A seat's name breaks between its words only: each word on one line.
for (const name of document.querySelectorAll('.seat .name')) {
  const text = name.firstChild;
  if (!name.offsetParent || !text || text.nodeType !== Node.TEXT_NODE) continue;
  for (const word of text.data.matchAll(/\S+/g)) {
    const range = document.createRange();
    range.setStart(text, word.index);
    range.setEnd(text, word.index + word[0].length);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    if (new Set(rects.map((r) => Math.round(r.top))).size > 1) {
      found.push(`the name "${text.data}" breaks in its word "${word[0]}"`);
    }
  }
}
// The turn line's parts (the turn, the watcher count, the level): side by side on one
// baseline, or each on a row of its own, never one beside another out of line with it.
const parts = [...document.querySelectorAll('.turnline > *')]
  .filter((n) => n.offsetParent && n.textContent.trim());
const baselines = parts.map((n) => {
  const mark = document.createElement('span');
  mark.style.cssText = 'display: inline-block; width: 0; height: 0; vertical-align: baseline';
  n.append(mark);
  const line = mark.getBoundingClientRect().bottom;
  mark.remove();
  return line;
});
for (let i = 0; i < parts.length; i++) {
  for (let j = i + 1; j < parts.length; j++) {
    const [a, b] = [parts[i].getBoundingClientRect(), parts[j].getBoundingClientRect()];
    const beside = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
    if (beside && Math.abs(baselines[i] - baselines[j]) > 1) {
      found.push(`#${parts[j].id} is beside #${parts[i].id} out of its line`);
    }
  }
}
return found;
"""
)


def overlaps(driver: Any) -> list[str]:
    """Every collision in the page as it is now (see the module's docstring): none, when it
    is laid out right."""
    found: list[str] = driver.execute_script(OVERLAPS)
    return sorted(set(found))
