"use strict";
// The tables' sound cues, made in the page with the Web Audio API (an oscillator's short
// beeps: nothing is downloaded): the member's turn, their clock's last 5 seconds, a hand they
// won. Off until the member turns them on with the bar's #sound toggle (a <button> with
// aria-pressed); the choice is kept in localStorage. Nothing plays before a gesture of the
// member on the page (a click or a key): browsers refuse audio before one, so the
// AudioContext is only made from one. With localStorage "casino.cues" set to "record" (the
// browser tests' hook) every cue asked is kept in window.__casinoCues, played or not.
const SOUND_KEY = "casino.sound";
const CUES = {
  turn: [[660, 0.09], [880, 0.14]], // (hertz, seconds) one after the other
  late: [[440, 0.08], [440, 0.08]],
  won: [[523, 0.1], [659, 0.1], [784, 0.2]],
};
let soundOn = false;
let soundContext = null;
let soundWoken = false;
let cueRecord = null;

function soundStored(key) {
  try { return localStorage.getItem(key); } catch (error) { return null; } // storage refused
}

function soundWake() {
  // Only ever called from a member's gesture: the one moment a page may start its audio.
  soundWoken = true;
  if (!soundOn) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  if (!soundContext) soundContext = new Context();
  if (soundContext.state === "suspended") soundContext.resume();
}

function cue(name) {
  // Play cue ``name`` (a key of CUES) if the member wants sounds and has touched the page.
  const played = soundOn && soundWoken && soundContext !== null;
  if (cueRecord) cueRecord.push({ cue: name, played: played });
  if (!played) return;
  let at = soundContext.currentTime + 0.01;
  for (const [hertz, seconds] of CUES[name]) {
    const tone = soundContext.createOscillator();
    const gain = soundContext.createGain();
    tone.type = "sine";
    tone.frequency.value = hertz;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.2, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
    tone.connect(gain).connect(soundContext.destination);
    tone.start(at);
    tone.stop(at + seconds + 0.02);
    at += seconds;
  }
}

const cued = {};
function cueOnce(name, key) {
  // Cue ``name`` once per ``key`` (a turn, a hand): the server sends a view many times.
  if (key === null || cued[name] === key) return;
  cued[name] = key;
  cue(name);
}

function soundToggle() {
  const toggle = document.getElementById("sound");
  if (!toggle) return;
  soundOn = soundStored(SOUND_KEY) === "on";
  if (soundStored("casino.cues") === "record") cueRecord = window.__casinoCues = [];
  toggle.setAttribute("aria-pressed", String(soundOn));
  toggle.addEventListener("click", () => {
    soundOn = !soundOn;
    try { localStorage.setItem(SOUND_KEY, soundOn ? "on" : "off"); } catch (error) { /* kept for this page only */ }
    toggle.setAttribute("aria-pressed", String(soundOn));
    soundWake();
  });
  for (const kind of ["pointerdown", "keydown"]) addEventListener(kind, soundWake, true);
}
soundToggle();
