"use strict";
// The room's chat (casino/web/chat.py) over the page's socket (page.js): every line drawn as
// text, never as HTML; a line typed is sent, a member muted from their line (and unmuted from
// the list of the muted). The server sends the words, the room's last lines on joining, then
// each new line, and says why a line is refused.
let chatWords = {};
let chatLink = null;
let chatMember = false;
const CHAT_KEPT = 100;

function chatSay(key, values) {
  let text = chatWords[key] || key;
  for (const [name, value] of Object.entries(values || {})) text = text.replace(`{${name}}`, value);
  return text;
}

function chatSend(message) {
  if (chatLink) chatLink.send(JSON.stringify({ type: "chat", ...message }));
}

function speakerMuted() {
  // A speaker struck out, drawn (the emoji has no glyph in the room's fonts: a blank box).
  const ns = "http://www.w3.org/2000/svg";
  const icon = document.createElementNS(ns, "svg");
  icon.setAttribute("viewBox", "0 0 16 16");
  icon.setAttribute("aria-hidden", "true");
  icon.setAttribute("focusable", "false");
  const speaker = document.createElementNS(ns, "path");
  speaker.setAttribute("d", "M1 6h3l4-3.5v11L4 10H1z");
  const cross = document.createElementNS(ns, "path");
  cross.setAttribute("d", "M10.5 5.5l5 5M15.5 5.5l-5 5");
  cross.setAttribute("class", "cross");
  icon.append(speaker, cross);
  return icon;
}

function chatLine(line) {
  const item = element("li", undefined, line.mine ? "mine" : undefined);
  item.dataset.id = line.id;
  item.dataset.member = line.member;
  item.append(element("b", line.name, "speaker"), " ", element("span", line.text, "said"));
  if (!line.mine && chatMember) {
    const mute = element("button", undefined, "mute");
    mute.append(speakerMuted());
    mute.type = "button";
    mute.setAttribute("aria-label", chatSay("mute", { name: line.name }));
    mute.title = chatSay("mute", { name: line.name });
    mute.addEventListener("click", () => chatSend({ mute: line.member }));
    item.append(" ", mute);
  }
  return item;
}

function chatMuted(muted) {
  const node = document.getElementById("chat-muted");
  node.hidden = !muted.length;
  node.replaceChildren(element("span", `${chatSay("muted")}: `), ...muted.map((m) => {
    const unmute = element("button", chatSay("unmute", { name: m.name }), "unmute");
    unmute.type = "button";
    unmute.addEventListener("click", () => chatSend({ unmute: m.member }));
    return unmute;
  }));
}

function chatView(data) {
  const list = document.getElementById("chat-lines");
  if (!list) return;
  const refused = document.getElementById("chat-refused");
  if (data.refused) { refused.textContent = data.refused; return; }
  refused.textContent = "";
  if (data.reset) {
    chatWords = data.words;
    chatMember = data.member;
    for (const node of document.querySelectorAll("[data-chat-word]")) {
      node.textContent = chatSay(node.dataset.chatWord);
    }
    const text = document.getElementById("chat-text");
    text.placeholder = chatSay("say");
    text.maxLength = data.length;
    text.setAttribute("aria-label", chatSay("say"));
    list.dataset.empty = chatSay("empty");
    document.getElementById("chat-form").hidden = !chatMember;
    list.replaceChildren(...data.lines.map(chatLine));
    chatMuted(data.muted);
  } else {
    for (const line of data.lines) {
      if (!list.querySelector(`li[data-id="${line.id}"]`)) list.append(chatLine(line));
    }
    while (list.children.length > CHAT_KEPT) list.firstElementChild.remove();
  }
  list.scrollTop = list.scrollHeight;
}

function chatBox(box) {
  // The tables' pages hold an empty #chat: the same box as the lobby's (pages.py), drawn here.
  const title = element("h2");
  title.id = "chat-title";
  title.dataset.chatWord = "chat";
  const lines = element("ol", undefined, "chat-lines");
  lines.id = "chat-lines";
  lines.setAttribute("aria-live", "polite");
  const muted = element("p", undefined, "chat-muted");
  muted.id = "chat-muted";
  muted.hidden = true;
  const form = element("form", undefined, "chat-form");
  form.id = "chat-form";
  form.hidden = true;
  const text = element("input");
  Object.assign(text, { id: "chat-text", maxLength: 200, autocomplete: "off" });
  const send = element("button");
  send.type = "submit";
  send.dataset.chatWord = "send";
  form.append(text, send);
  const refused = element("p", undefined, "refused");
  refused.id = "chat-refused";
  refused.setAttribute("role", "alert");
  box.replaceChildren(title, lines, muted, form, refused);
}

function chatWith(link) {
  // The page's socket carries the chat: the form sends the line typed, and is emptied.
  chatLink = link;
  const box = document.getElementById("chat");
  if (!document.getElementById("chat-lines")) chatBox(box);
  const form = document.getElementById("chat-form");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = document.getElementById("chat-text");
    if (text.value.trim()) chatSend({ text: text.value });
    text.value = "";
  });
}
