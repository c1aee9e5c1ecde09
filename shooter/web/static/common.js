// What every part of the phone page shares: its state, the words of its language, the facts of the table's
// options (/options.json) and the one way it talks to the controller. The page decides nothing about the game:
// it sends command lines on the WebSocket and renders the controller's `status` and events.

export const $ = (id) => document.getElementById(id);

// The page's state. `options` is /options.json (the table's options, built from the controller's own
// definitions): the seats, variants, editions, scorings, start rules, the limit's and give's ranges, the names'
// length, the languages, each box (per variant: its editions, start rules, sides, whether the shooter counts its
// cards, its name per language and which pad plays each edition or side), each pad (its cards in the pad's
// order, the ones most often played first, the digits of its number cards, the cards that take a target, each
// card's points and the names printed on its cards per language) and the form's defaults. Read once, before
// anything is built: the page names no edition itself.
export const S = {
  options: null, ws: null, connected: false, lang: "en", cat: {}, status: null,
  token: localStorage.getItem("token"), pairedId: null, mode: null, statusPending: false, statusDirty: false,
  backoff: 500, pairUntil: 0, pairRequest: null, pairHold: 2, view: "table",
  waiting: [],   // lines sent whose reply is awaited: {name, ok, fail}, in the order they were sent
  events: [],    // [receipt time in ms, event] for tests and debugging
  spoken: [],    // [lang, text] of every cue spoken (static/cues.js), for tests and debugging
};
window.shooterPage = S;

// ---- words ----
export function t(key, fields = {}) {
  if (fields.n === 1 && `${key}_one` in (S.cat.en || {})) key = `${key}_one`;  // "1 card", not "1 cards"
  if (fields.n === 0 && `${key}_none` in (S.cat.en || {})) key = `${key}_none`;
  const text = (S.cat[S.lang] || {})[key] ?? (S.cat.en || {})[key] ?? key;
  return text.replace(/\{([a-z_]+)\}/g, (m, k) => (k in fields ? String(fields[k]) : m));
}
export function seatName(seat) {
  const names = (S.status && S.status.names) || {};
  return names[String(seat)] || t("seat.name", {n: seat});
}
export function el(tag, props = {}, ...children) {  // a new element with its properties and children
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

// The font shrinks (down to `least` px) rather than a word breaking or hiding: the turn line on one line, a
// card's printed name ("Cijferkaart", "Iedereen-beurt-overslaan") whole on its button.
export function fit(node, least = 14) {
  node.style.fontSize = "";
  node.classList.remove("squeezed");
  const over = () => node.scrollWidth > node.clientWidth || node.scrollHeight > node.clientHeight + 1;
  let size = parseFloat(getComputedStyle(node).fontSize);
  while (over() && size > least) {
    size -= 1;
    node.style.fontSize = `${size}px`;
  }
  if (over()) node.classList.add("squeezed");   // the last resort: the word breaks, it is never cut off
}
export function fitAll(selector, least) {
  for (const node of document.querySelectorAll(selector)) if (node.getClientRects().length) fit(node, least);
}

// ---- the table's facts, from /options.json ----
export function box(game) { return S.options.boxes[(game && game.variant) || S.options.variants[0]]; }
export function exact(game) { return !!game && box(game).counting; }  // the shooter deals and counts every card
export function deckKey(game) {  // which pad: the edition's (Extreme's year), or the side that is up
  const b = box(game);
  if (b.editions.length) return b.pads[game.edition];
  return b.pads[b.sides.length ? (game.side || b.sides[0]) : ""];
}
export function pad(game) { return S.options.pads[deckKey(game)]; }
function named(names) { return names[S.lang] || names.en || {}; }
export function cardName(game, card) {  // the name printed on the card of this game's Uno (the side up first)
  for (const key of [deckKey(game), ...Object.values(box(game).pads)]) {
    const name = named(S.options.pads[key].names)[card];
    if (name) return name;
  }
  return card;
}
export function boxName(variant) { return named(S.options.boxes[variant].names) || variant; }
export function seats(game) {
  return Array.from({length: game ? game.players : S.options.defaults.players}, (_, i) => i + 1);
}

// ---- talking to the controller ----
export function send(line) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) { S.ws.send(line); return true; }
  return false;
}
// A command line whose answer matters to the page: `ok(reply)` or `fail(reply)` once its reply comes (the
// replies on one socket come in the order of the lines). A refusal is said in a toast either way.
export function act(line, {ok = null, fail = null} = {}) {
  hideToast();
  if (send(line)) S.waiting.push({name: line.split(" ")[0].toLowerCase(), ok, fail});
}
export function paired() { return S.pairedId != null; }
export function guarded(fn) {  // a watching phone gets the controller's own answer (not-paired) in words
  return (...args) => (paired() ? fn(...args) : toast(t("error.not-paired")));
}

// ---- the refusals and news that overlay the page (they never move what is under them) ----
let toastTimer = null;
export function toast(text) {
  const node = $("toast");
  node.textContent = text;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(hideToast, 6000);
}
export function hideToast() { $("toast").hidden = true; }
export function errorText(obj) {
  const said = window.shooterDetails && window.shooterDetails.say(S.lang, obj.message, seatName);  // details.js
  if (said) return said;
  if (S.lang === "en" && obj.message) return obj.message;
  return t(`error.${obj.error}`);
}

// ---- who acts ----
export function cardsLeft(o) {  // exact variants: the cards still to shoot to the entry's seat (null: until the colour)
  return o.cards == null ? null : o.cards - (o.served || 0);
}
export function acting(game) {  // the seat that acts now: the presser while presses are owed, else the player
  if (!game) return null;
  if (game.owed) return game.owed.by ?? game.owed.seat;
  if (game.phase === "first") return game.dealer;
  return game.phase === "play" ? game.current : null;
}
export function owedText(o) {  // who presses, how many times, at whom, why: the turn line while something is owed
  const fields = {who: seatName(o.seat), by: seatName(o.by), n: o.presses, reason: t("reason." + o.reason)};
  if ("cards" in o) {  // exact: one press serves the entry, counted card by card
    const left = cardsLeft(o);
    return left == null ? t("owed.colour", fields) : t("owed.cards", {...fields, n: left});
  }
  return t(o.by != null && o.by !== o.seat ? "owed.line_by" : "owed.line", fields);
}
export const ALARMS = ["lid-open", "jammed", "empty", "fault"];  // the shooter's states that stop the table
