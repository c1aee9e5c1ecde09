// Spoken cues: what the shooter wants, said aloud in the page's language (the browser's speech synthesis), so
// nobody has to look at a phone. Off unless this phone turns them on (kept in its localStorage).
// Each cue is said once, when it becomes true: a new debt or one that grew (not every press that pays it off),
// an Uno to call (a counted game: one card left), the lid, a jam, an empty magazine, a round or game won.
import {$, ALARMS, S, acting, cardsLeft, seatName, t} from "./common.js";

const VOICE = {en: "en-GB", nl: "nl-NL"};
const QUIET = ["deal", "first"];   // the shooter deals by itself: nobody needs telling
let said = {};   // the last thing said of each kind: a cue is said again only once it changed

export function cuesOn() { return localStorage.getItem("cues") === "on"; }

function speak(text) {
  if (!cuesOn() || !("speechSynthesis" in window)) return;
  S.spoken.push([S.lang, text]);
  const u = new SpeechSynthesisUtterance(text);
  u.lang = VOICE[S.lang] || S.lang;
  window.speechSynthesis.speak(u);
}
function once(kind, key, text) {  // `text` said when `key` differs from the last of its kind (null: nothing now)
  if (key == null) { delete said[kind]; return; }
  if (said[kind] === key) return;
  said[kind] = key;
  speak(text);
}

function debt(game) {  // "Bram, press twice"; the exact variants: "Bram gets 2 cards"
  const o = game && ["play", "first"].includes(game.phase) ? game.owed : null;
  if (!o || QUIET.includes(o.reason)) { delete said.debt; return; }
  const key = `${o.seat}:${o.by}:${o.reason}`;
  const left = "cards" in o ? cardsLeft(o) : o.presses;
  const n = left == null ? Infinity : left;   // until the colour: one debt however long it lasts
  const before = said.debt;
  said.debt = {key, n};
  if (before && before.key === key && before.n >= n) return;   // a press paid part of it
  const who = seatName(acting(game));
  if ("cards" in o) speak(left == null ? t("cue.colour", {who}) : t("cue.cards", {who, n: left}));
  else speak(t(n === 1 ? "cue.press_once" : n === 2 ? "cue.press_twice" : "cue.press", {who, n}));
}

// every status the page renders: what became true since the last one is said
export function cueStatus(st) {
  if (!st) return;
  const game = st.game;
  const state = st.shooter.state;
  // the lid opened to clear a jam or to refill, as the cue said: no word of it
  if (state === "lid-open" && ["jammed", "empty"].includes(said.alarm)) said.alarm = state;
  once("alarm", ALARMS.includes(state) ? state : null, t("cue." + state));
  debt(game);
  // the counted games know who holds one card (Uno Extreme's table opens a catch window on every play: no cue)
  const open = ((game && game.uno_windows) || []).find((w) => !w.called);
  once("uno", open ? String(open.seat) : null, open ? t("cue.uno", {who: seatName(open.seat)}) : "");
  once("round", game && game.phase === "scoring" ? String(game.round) : null,
    game ? t("cue.round", {who: seatName(game.round_winner)}) : "");
  once("game", game && game.phase === "over" ? "over" : null, game ? t("cue.game", {who: seatName(game.winner)}) : "");
}

// a read of the pile that asks which card it was: "Which card? red 7?", once per read
export function cueSeen(id, text) { once("seen", String(id), text); }

export function wireCues() {
  const box = $("cues");
  box.checked = cuesOn();
  box.addEventListener("change", () => {
    localStorage.setItem("cues", box.checked ? "on" : "off");
    if (box.checked) speak(t("cue.on"));   // a word at once: this phone's voice is heard, and how loud
  });
}
