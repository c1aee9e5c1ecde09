// The phone page of the uno-shooter. It decides nothing about the game: it sends
// command lines on the WebSocket and renders the controller's `status` and events.
"use strict";

const $ = (id) => document.getElementById(id);
// The table's options (GET /options.json, built from the controller's own definitions): the seats, variants,
// editions, scorings (and those each variant allows) and start rules, the limit's and give's ranges, the names'
// length, the languages, each box (per variant: its editions, start rules, sides, whether the shooter counts its
// cards, the name printed on it per language and which pad plays each edition or side), each pad (its cards in
// the pad's order, the digits of its number cards, the cards that take a target, the names printed on its cards
// per language) and the form's defaults (this controller's seats, dealer and start rule). Read once, before
// anything is built. The page names no edition itself: a new one in the controller's registry is here too.
let O = null;

const S = {
  ws: null, lang: "en", cat: {}, status: null, token: localStorage.getItem("token"),
  pairedId: null, mode: null, statusPending: false, statusDirty: false, backoff: 500,
  pairUntil: 0, pairRequest: null, pairHold: 2, view: "table",
  events: [],  // [receipt time in ms, event] for tests and debugging
};
window.shooterPage = S;

// ---- messages ----
function t(key, fields = {}) {
  if (fields.n === 1 && `${key}_one` in (S.cat.en || {})) key = `${key}_one`;  // "1 card", not "1 cards"
  const text = (S.cat[S.lang] || {})[key] ?? (S.cat.en || {})[key] ?? key;
  return text.replace(/\{([a-z_]+)\}/g, (m, k) => (k in fields ? String(fields[k]) : m));
}
function box(game) { return O.boxes[(game && game.variant) || O.variants[0]]; }
function exact(game) { return !!game && box(game).counting; }  // the shooter deals and counts every card
function deckKey(game) {  // which pad: the edition's (Extreme's year), or the side that is up
  const b = box(game);
  if (b.editions.length) return b.pads[game.edition];
  return b.pads[b.sides.length ? (game.side || b.sides[0]) : ""];
}
function pad(game) { return O.pads[deckKey(game)]; }
function named(names) { return names[S.lang] || names.en || {}; }
function cardName(game, card) {  // the name printed on the card of this game's Uno (the side up first)
  for (const key of [deckKey(game), ...Object.values(box(game).pads)]) {
    const name = named(O.pads[key].names)[card];
    if (name) return name;
  }
  return card;
}
function boxName(variant) { return named(O.boxes[variant].names) || variant; }
function seatName(seat) {
  const names = (S.status && S.status.names) || {};
  return names[String(seat)] || t("seat.name", {n: seat});
}
function nextLang(lang) { return O.languages[(O.languages.indexOf(lang) + 1) % O.languages.length]; }
async function loadLang(lang) {
  if (!S.cat[lang]) S.cat[lang] = await (await fetch(`/i18n/${lang}.json`)).json();
}
async function setLang(lang) {
  await loadLang(lang);
  await loadLang("en");
  S.lang = lang;
  localStorage.setItem("lang", lang);
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of document.querySelectorAll("[data-box]")) el.textContent = boxName(el.dataset.box);
  const other = nextLang(lang);
  $("lang").textContent = t("lang.switch");
  $("lang").lang = other;
  document.title = t("app.title");
  render();
}

// ---- the connection ----
function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  S.ws = ws;
  ws.onopen = () => {
    S.backoff = 500;
    document.body.dataset.connects = String(Number(document.body.dataset.connects || 0) + 1);
    $("conn").hidden = true;
    if (S.token) send(`auth token=${S.token}`);
    requestStatus();
  };
  ws.onmessage = (msg) => receive(JSON.parse(msg.data));
  ws.onclose = () => {
    S.ws = null;
    S.pairedId = null;
    renderPairing();
    $("conn").textContent = t("conn.lost");
    $("conn").hidden = false;
    setTimeout(connect, S.backoff);  // Wi-Fi dropped: try again, a little slower each time
    S.backoff = Math.min(S.backoff * 2, 5000);
  };
}
function send(line) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(line);
}
function requestStatus() {
  if (S.statusPending) { S.statusDirty = true; return; }
  S.statusPending = true;
  send("status");
}

function receive(obj) {
  if ("event" in obj) {
    S.events.push([performance.timeOrigin + performance.now(), obj]);
    onEvent(obj);
    return;
  }
  if (obj.reply === "status") {
    S.statusPending = false;
    if (obj.ok) { S.status = obj; render(); }
    if (S.statusDirty) { S.statusDirty = false; requestStatus(); }
    return;
  }
  if (obj.reply === "auth") {
    if (obj.ok) S.pairedId = obj.id;
    else { S.token = null; localStorage.removeItem("token"); }
    renderPairing();
    return;
  }
  if (obj.reply === "pair" && obj.ok && "seconds" in obj) {  // this phone's own request (not an approval)
    S.pairUntil = Date.now() + obj.seconds * 1000;
    S.pairRequest = obj.request; S.pairHold = obj.hold;
    renderPairing();
    return;
  }
  if (!obj.ok) showError(obj);
  requestStatus();  // a command may change the state without an event (hand, score)
}

function onEvent(ev) {
  switch (ev.event) {
    case "pair-granted":
      S.token = ev.token; S.pairedId = ev.id; S.pairUntil = 0; S.pairRequest = null;
      localStorage.setItem("token", ev.token);
      renderPairing();
      return;
    case "pair-expired":
      S.pairUntil = 0; S.pairRequest = null;
      renderPairing();
      toast(t("pair.expired"));
      return;
    case "pair-waiting":  // someone asked to pair: the people at the table see who, before anyone says yes
      if (ev.request !== S.pairRequest) toast(t("pair.asked", {label: ev.label || "?", request: ev.request}));
      break;
    case "pair-refused":  // several asked at once, a paired phone said no, or a newer request replaced it
      S.pairUntil = 0; S.pairRequest = null;
      renderPairing();
      toast(t(`pair.refused_${ev.reason}`));
      return;
    case "unpaired":  // unpair, or the oldest token evicted to make room for a new one
      if (ev.id === S.pairedId) {
        S.pairedId = null; S.token = null; localStorage.removeItem("token");
        if (ev.reason === "evicted") toast(t("pair.evicted"));
      }
      break;
    case "refused":
      if (ev.source === "button") toast(t("ev.refused", {message: errorText(ev)}));
      break;
  }
  requestStatus();
}

// ---- errors in the page's language ----
function errorText(obj) {
  const said = window.shooterDetails && shooterDetails.say(S.lang, obj.message, seatName);  // static/details.js
  if (said) return said;
  if (S.lang === "en" && obj.message) return obj.message;
  return t(`error.${obj.error}`);
}
function showError(obj) { toast(errorText(obj)); }
let toastTimer = null;
function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 6000);
}

// ---- acting ----
function act(line) {
  $("toast").hidden = true;
  send(line);
}
function pickSeat(kind, text, onSeat) {
  S.mode = {kind, onSeat};
  $("mode-text").textContent = text;
  $("mode").hidden = false;
  render();
}
function endMode() { S.mode = null; $("mode").hidden = true; render(); }

function playCard(card) {
  const last = $("last").checked ? " last" : "";
  if (pad(S.status.game).targeted.includes(card)) {  // the player taps a seat
    const text = card === "extreme-hit" ? t("pad.target") : t("pad.pick", {card: cardName(S.status.game, card)});
    pickSeat("target", text, (seat) => act(`play ${card} target=${seat}${last}`));
    return;
  }
  $("last").checked = false;
  act(`play ${card}${last}`);
}

function seatTapped(seat) {
  if (!S.mode) return;
  const {onSeat, kind} = S.mode;
  endMode();
  if (kind === "target") $("last").checked = false;
  onSeat(seat);
}

// ---- rendering ----
function cardsLeft(o) {  // exact variants: the cards still to shoot to the entry's seat (null: until the colour)
  return o.cards == null ? null : o.cards - (o.served || 0);
}
function owedText(o) {  // who presses, how many times, at whom, why
  const fields = {who: seatName(o.seat), by: seatName(o.by), n: o.presses, reason: t("reason." + o.reason)};
  if ("cards" in o) {  // exact: one press serves the entry, counted card by card
    const left = cardsLeft(o);
    return left == null ? t("owed.colour", fields) : t("owed.cards", {...fields, n: left});
  }
  return t(o.by != null && o.by !== o.seat ? "owed.line_by" : "owed.line", fields);
}
function owedHeading(o) {  // the heading while something is owed: who presses (Extreme) or who gets the cards
  const fields = {who: seatName(o.seat), by: seatName(o.by), n: o.presses};
  if ("cards" in o) {
    const left = cardsLeft(o);
    return left == null ? t("turn.owed_colour", fields) : t("turn.owed_cards", {...fields, n: left});
  }
  return t(o.by != null && o.by !== o.seat ? "turn.owed_by" : "turn.owed", fields);
}
function owedBadge(o) { return "cards" in o ? (cardsLeft(o) == null ? "+?" : `+${cardsLeft(o)}`) : `${o.presses}×`; }

function render() {
  if (!S.cat[S.lang]) return;
  renderPairing();
  const st = S.status;
  const game = st && st.game;
  const shooter = st ? st.shooter : null;
  const playing = game && game.phase === "play";
  const owed = game && game.owed;

  // turn, direction, owed: people read the heading first, so while something is owed it names who presses (the
  // head of the owed queue, where the shooter points), not whose turn comes once it is paid
  if (!game) {
    $("turn").textContent = t("turn.none");
    $("direction").textContent = "";
  } else if (game.phase === "over") {
    $("turn").textContent = t("phase.over", {who: seatName(game.winner)});
    $("direction").textContent = "";
  } else if (game.phase === "scoring") {
    $("turn").textContent = t("ev.round-over", {who: seatName(game.round_winner)});
    $("direction").textContent = t("phase.play", {round: game.round});
  } else if (game.phase === "deal") {
    $("turn").textContent = t("phase.play", {round: game.round});
    $("direction").textContent = "";
  } else if (game.phase === "first") {  // the exact variants: the shooter deals, then the dealer turns up a card
    $("turn").textContent = owed ? owedHeading(owed) : t("turn.first", {who: seatName(game.dealer)});
    $("direction").textContent = t("phase.play", {round: game.round});
  } else {
    const turn = game.current ? t("turn.line", {who: seatName(game.current)}) : t("turn.none");
    $("turn").textContent = owed ? owedHeading(owed) : turn;
    $("direction").textContent = `${t("phase.play", {round: game.round})} · ${t("dir." + game.direction)}` +
      (owed && game.current ? ` · ${t("turn.next", {who: seatName(game.current)})}` : "");
  }
  $("side").hidden = !(game && game.side);
  if (game && game.side) {
    $("side").textContent = t("side." + game.side);
    $("side").className = "side side-" + game.side;
  }
  $("owed").textContent = owed ? owedText(owed) : (game ? t("owed.nothing") : "");
  $("queue").replaceChildren(...(game ? game.queue.slice(1) : []).map((o) => {
    const li = document.createElement("li");
    li.textContent = `${t("owed.then")}: ${owedText(o)}`;
    return li;
  }));

  renderCircle(st);

  // the shooter's state and what to do
  if (shooter) {
    $("machine-state").textContent = t("state." + shooter.state);
    $("machine-cards").textContent = shooter.cards == null ? t("cards.unknown") : t("cards.left", {n: shooter.cards});
    const cta = $("cta");
    cta.className = "cta";
    if (["lid-open", "jammed", "empty", "fault"].includes(shooter.state)) {
      cta.textContent = t("cta." + shooter.state);
      cta.className = "cta alarm";
    } else if (owed && "cards" in owed) {
      const left = cardsLeft(owed);
      cta.textContent = left == null ? t("cta.owed_colour", {who: seatName(owed.seat)})
        : t("cta.owed_cards", {who: seatName(owed.seat), n: left});
    } else if (owed) {
      cta.textContent = t("cta.owed", {who: seatName(owed.by ?? owed.seat), n: owed.presses});
    } else if (playing && game.current && exact(game)) {
      cta.textContent = t(game.drawn === game.current ? "cta.drawn" : "cta.draw", {who: seatName(game.current)});
    } else if (playing && game.current) {
      cta.textContent = t("cta.press", {who: seatName(game.current)});
    } else cta.textContent = "";
    $("machine").className = "machine state-" + shooter.state;
  }

  // what can be done now
  const paired = S.pairedId != null;
  $("play-panel").hidden = !(playing || !game);
  $("pad").hidden = $("pad-title").hidden = !playing;
  for (const id of ["last", "uno", "catch", "advice", "wrong"]) {
    const el = $(id);
    (el.closest("label.toggle") || el).hidden = !playing || (exact(game) && ["last", "advice", "wrong"].includes(id));
  }
  $("exact-actions").hidden = !(playing && exact(game));
  if (playing && exact(game)) renderExactActions(game);
  const dealing = game && (game.phase === "deal" || game.phase === "first");
  $("deal-panel").hidden = !dealing;
  $("score-panel").hidden = !(game && game.phase === "scoring");
  $("over").hidden = true;
  if (playing) renderPad(game);
  if (dealing) renderDeal(game);
  if (game && game.phase === "scoring") renderHands(game);
  const undoes = st && st.undoes;
  $("undo").hidden = !game;
  $("undo").textContent = undoes ? t("btn.undo_what", {what: t("undo." + undoes.split(" ")[0])}) : t("btn.undo");
  $("undo").disabled = !(game && game.undo > 0);
  for (const el of document.querySelectorAll("main button:not([role=tab]), main select, main input")) {
    if (el.closest("#view-scores") || el.id === "mode-cancel") continue;
    if (!paired) el.setAttribute("aria-disabled", "true"); else el.removeAttribute("aria-disabled");
  }
  document.body.classList.toggle("watching", !paired);
  renderSetup(st);
  renderScores(game);
}

function gameRunning() {  // a short press is then a player's: pairing asks for the lid open and a hold
  const game = S.status && S.status.game;
  return !!game && game.phase !== "over";
}
function renderPairing() {
  const paired = S.pairedId != null;
  const waiting = !paired && S.pairUntil > Date.now();
  $("pair-ask").hidden = paired || waiting;
  $("pair-wait").hidden = !waiting;
  $("pair-text").textContent = paired ? t("pair.paired", {id: S.pairedId}) : (waiting ? "" : t("pair.watching"));
  $("pairing").className = "banner " + (paired ? "ok" : "");
  if (waiting) {
    $("pair-how").textContent = gameRunning() ? t("pair.hold", {seconds: S.pairHold}) : t("pair.press");
    $("pair-request").textContent = t("pair.request", {request: S.pairRequest});
    $("pair-within").textContent = t("pair.within", {seconds: Math.ceil((S.pairUntil - Date.now()) / 1000)});
    setTimeout(renderPairing, 1000);
  }
  renderRequests(paired);
}
function renderRequests(paired) {  // a paired phone approves or refuses each request, named by its number
  const requests = paired && S.status && S.status.pairing ? S.status.pairing.requests || [] : [];
  const box = $("pair-requests");
  const key = requests.map((r) => `${r.request}:${r.label}`).join(",") + S.lang;
  box.hidden = !requests.length;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...requests.map((r) => {
    const row = document.createElement("div");
    row.className = "request";
    const text = document.createElement("p");
    text.textContent = t("pair.asks", {label: r.label, request: r.request});
    const yes = document.createElement("button");
    yes.type = "button"; yes.className = "small primary"; yes.textContent = t("pair.approve");
    yes.addEventListener("click", () => act(`pair approve request=${r.request}`));
    const no = document.createElement("button");
    no.type = "button"; no.className = "small"; no.textContent = t("pair.refuse");
    no.addEventListener("click", () => act(`pair refuse request=${r.request}`));
    row.replaceChildren(text, yes, no);
    return row;
  }));
}

function renderCircle(st) {
  const n = st && st.game ? st.game.players : O.defaults.players;  // the shooter's seats without a game
  const game = st && st.game;
  const box = $("seats");
  if (box.children.length !== n) {
    box.replaceChildren();
    for (let seat = 1; seat <= n; seat++) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "seat";
      b.dataset.seat = seat;
      b.addEventListener("click", () => seatTapped(seat));
      const angle = Math.PI / 2 + (seat - 1) * 2 * Math.PI / n;  // seat 1 at the bottom, clockwise
      b.style.left = `${50 + 40 * Math.cos(angle)}%`;
      b.style.top = `${50 + 40 * Math.sin(angle)}%`;
      box.appendChild(b);
    }
  }
  for (const b of box.children) {
    const seat = Number(b.dataset.seat);
    const mine = game ? game.queue.filter((o) => o.seat === seat) : [];
    const owes = mine.length ? (exact(game) ? mine.map(owedBadge).join(" ")
                                            : `${mine.reduce((a, o) => a + o.presses, 0)}×`) : "";
    b.textContent = "";
    const name = document.createElement("span");
    name.textContent = seatName(seat);
    b.appendChild(name);
    if (owes) {
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = owes;
      b.appendChild(badge);
    }
    const hand = game && game.hands ? game.hands[String(seat)] : null;
    if (hand != null) {
      const count = document.createElement("span");
      count.className = "hand-count";
      count.textContent = t("seat.hand", {n: hand});
      b.appendChild(count);
    }
    b.setAttribute("aria-label", seatName(seat) + (owes ? ` (${owes})` : "") +
                   (hand != null ? `, ${t("seat.hand", {n: hand})}` : ""));
    b.classList.toggle("current", !!game && game.current === seat);
    b.classList.toggle("aimed", !!st && st.shooter.aim === seat);
    b.classList.toggle("out", !!game && game.out.includes(seat));
    b.classList.toggle("dealer", !!game && game.dealer === seat);
    b.classList.toggle("picking", !!S.mode);
  }
  const aim = st && st.shooter.aim;
  const arrow = $("arrow");
  arrow.classList.toggle("moving", aim == null);  // turning: it keeps pointing where it last pointed
  if (aim != null) arrow.style.transform = `rotate(${90 + (aim - 1) * 360 / n}deg)`;
  arrow.hidden = aim == null && !arrow.style.transform;
}

function renderPad(game) {
  const box = $("pad");
  const key = deckKey(game);
  if (box.dataset.edition !== key || box.dataset.lang !== S.lang) {
    box.replaceChildren(...pad(game).cards.map((card) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `card card-${card}`;
      b.dataset.card = card;
      b.textContent = cardName(game, card);
      b.addEventListener("click", () => playCard(card));
      return b;
    }));
    box.dataset.edition = key;
    box.dataset.lang = S.lang;
    box.className = `pad pad-${key}`;
  }
  $("pad-title").textContent = game.current ? t("pad.title", {who: seatName(game.current)}) : "";
}

function cardOptions(game) {
  const {digits, cards} = pad(game);
  return digits.map(String).concat(cards.filter((c) => c !== "number"));
}
function renderDeal(game) {
  // Extreme: the dealer deals and reports the first card with `round start first=CARD`. The exact variants:
  // `round start` makes the shooter deal; in phase first the card turned up is reported with `first CARD`.
  const first = game.phase === "first";
  const dealing = first && !!game.owed;  // the deal and the dealer's card are still being shot
  $("deal-text").textContent = t(dealing ? "phase.dealing" : first ? "phase.first"
                                 : exact(game) ? "phase.deal_exact" : "phase.deal", {n: box(game).hand});
  $("first-row").hidden = exact(game) && (!first || dealing);
  $("start-round").hidden = first;
  $("start-round").textContent = t(exact(game) ? "btn.deal" : "btn.start_round");
  $("report-first").hidden = !first || dealing;
  const sel = $("first");
  const key = deckKey(game) + (exact(game) ? game.variant : "");
  if (sel.dataset.edition === key && sel.dataset.lang === S.lang) return;
  const value = sel.value;
  sel.replaceChildren(...cardOptions(game).map((c) => {
    const o = document.createElement("option");
    o.value = c;
    o.textContent = /^\d$/.test(c) ? `${cardName(game, "number")} ${c}` : cardName(game, c);
    return o;
  }));
  if (value && [...sel.options].some((o) => o.value === value)) sel.value = value;
  sel.dataset.edition = key;
  sel.dataset.lang = S.lang;
}

function renderExactActions(game) {
  const chal = game.challenge;
  $("challenge-box").hidden = !chal;
  if (chal) {
    $("challenge-text").textContent = t("challenge.line", {who: seatName(chal.seat), by: seatName(chal.by),
                                                          card: cardName(game, chal.card)});
  }
  const head = game.owed;
  $("colour-found").hidden = !(head && "cards" in head && head.cards == null);
}

function renderHands(game) {
  const box = $("hands");
  const waiting = game.waiting_for || [];
  for (const row of [...box.children]) {  // rows of reported seats go; typed text in the others stays
    if (!waiting.includes(Number(row.dataset.seat)) || row.dataset.lang !== S.lang) row.remove();
  }
  for (const seat of waiting) {
    if (box.querySelector(`[data-seat="${seat}"]`)) continue;
    const row = document.createElement("div");
    row.className = "hand";
    row.dataset.seat = seat;
    row.dataset.lang = S.lang;
    const label = document.createElement("label");
    label.textContent = t("hand.title", {who: seatName(seat)});
    const input = document.createElement("input");
    input.id = `hand-${seat}`;
    input.placeholder = "5, skip, wild … / 42";
    input.setAttribute("aria-label", t("hand.title", {who: seatName(seat)}));
    label.appendChild(input);
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = t("btn.report");
    b.setAttribute("aria-label", `${t("btn.report")}: ${seatName(seat)}`);
    b.addEventListener("click", guarded(() => {
      const text = input.value.trim().replace(/\s+/g, "");
      if (/^\d+$/.test(text)) act(`score seat=${seat} points=${text}`);
      else if (text) act(`hand seat=${seat} cards=${text}`);
    }));
    row.append(label, b);
    const after = [...box.children].find((r) => Number(r.dataset.seat) > seat);
    box.insertBefore(row, after || null);
  }
  $("waiting").textContent = waiting.length ? t("hand.waiting", {who: waiting.map(seatName).join(", ")}) : "";
}

function choice(value, key) {  // one option of a select: its words from the catalogue (data-t) or its value
  const o = new Option(String(value), String(value));
  if (key) o.dataset.t = key;
  return o;
}
function refill(sel, options, key, preferred) {  // a select's choices for `key`, rebuilt when it changes
  if (sel.dataset.key === key || !options.length) return;  // (a variant that asks none: the row is hidden)
  sel.replaceChildren(...options);
  for (const o of sel.options) if (o.dataset.t) o.textContent = t(o.dataset.t);
  if (preferred && [...sel.options].some((o) => o.value === preferred)) sel.value = preferred;
  sel.dataset.key = key;
}
function range({min, max}) { return Array.from({length: max - min + 1}, (_, i) => min + i); }
function buildForm() {  // the choices the controller offers, once (their words come with the language)
  $("players").replaceChildren(...range(O.seats).map((n) => choice(n)));
  $("players").value = String(O.defaults.players);
  $("variant").replaceChildren(...O.variants.map((v) => Object.assign(choice(v), {textContent: boxName(v)})));
  for (const o of $("variant").options) o.dataset.box = o.value;  // the box's name, in the page's language
  $("start").replaceChildren(...O.starts.map((s) => choice(s, `start.${s}`)));  // until a variant asks its own
  $("start").value = O.defaults.start;
  $("edition").replaceChildren(...O.editions.map((e) => choice(e)));
  $("scoring").replaceChildren(...O.scorings.map((s) => choice(s, `scoring.${s}`)));
  Object.assign($("limit"), {min: O.limit.min, max: O.limit.max, value: O.limit.default});
  $("give-cards").replaceChildren(...range(O.give).map((n) => choice(n)));
}

function renderSetup(st) {
  const n = Number($("players").value);
  const names = $("names");
  while (names.children.length < n) {
    const i = names.children.length + 1;
    const input = document.createElement("input");
    input.id = `name-${i}`;
    input.maxLength = O.name_length;
    input.autocomplete = "off";
    names.appendChild(input);
  }
  while (names.children.length > n) names.lastChild.remove();
  [...names.children].forEach((input, i) => {
    input.placeholder = t("seat.name", {n: i + 1});
    input.setAttribute("aria-label", t("seat.name", {n: i + 1}));
  });
  const variant = $("variant").value;
  const chosen = O.boxes[variant];  // the form asks what the variant takes: its editions, its start rules
  $("edition-row").hidden = !chosen.editions.length;
  $("start-row").hidden = !chosen.starts.length;
  refill($("edition"), chosen.editions.map((e) => choice(e)), variant);  // an edition is its year
  refill($("start"), chosen.starts.map((s) => choice(s, `start.${s}`)), variant, O.defaults.start);
  const scoring = $("scoring");
  for (const o of scoring.options) o.disabled = o.hidden = !O.variant_scorings[variant].includes(o.value);
  if (scoring.selectedOptions[0].disabled) scoring.value = O.variant_scorings[variant][0];
  const dealer = $("dealer");
  const value = dealer.value;
  dealer.replaceChildren(new Option(t("setup.random"), "random"),
    ...Array.from({length: n}, (_, i) => new Option(t("seat.name", {n: i + 1}), String(i + 1))));
  const fits = (d) => d === "random" || Number(d) <= n;  // a seat of this table, or random (kept across renders)
  dealer.value = value && fits(value) ? value : fits(O.defaults.dealer) ? O.defaults.dealer : "1";
  const paired = st && st.pairing ? st.pairing.paired : [];
  const key = paired.map((p) => p.id).join(",") + S.lang;
  const box = $("paired-list");
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.replaceChildren(...(paired.length ? [document.createTextNode(t("pair.list"))] : []),
      ...paired.map((p) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "small";
        b.textContent = `${t("pair.forget")} ${p.id}${p.id === S.pairedId ? " ★" : ""}`;
        b.title = p.label;
        b.addEventListener("click", guarded(() => act(`unpair id=${p.id}`)));
        return b;
      }));
  }
}

function renderScores(game) {
  const table = $("score-table");
  const n = game ? game.players : 0;
  if (!game) { table.replaceChildren(); return; }
  const row = (cells, th) => {
    const tr = document.createElement("tr");
    cells.forEach((c) => {  // the empty corner is a plain cell: a header must say what it heads (axe)
      const el = document.createElement(th && c !== "" ? "th" : "td"); el.textContent = c; tr.appendChild(el);
    });
    return tr;
  };
  const seats = Array.from({length: n}, (_, i) => i + 1);
  const rows = [row(["", ...seats.map(seatName)], true)];
  // the table's score sheet (status game.rounds): one row per settled round; a seat already out has no points
  const sheet = game.rounds || [];
  for (const r of sheet) {
    const cell = (s) => {
      if (!(String(s) in r.points)) return "";
      const out = (r.out || []).includes(s) ? ` ${t("scores.out")}` : "";
      return `${r.points[String(s)]}${s === r.winner ? " ★" : ""}${out}`;
    };
    rows.push(row([t("scores.round", {n: r.round}), ...seats.map(cell)]));
  }
  if (!sheet.length) rows.push(row([t("scores.none")]));
  rows.push(row([t("scores.total"), ...seats.map((s) => String(game.totals[String(s)] ?? 0))], true));
  table.replaceChildren(...rows);
}

function showView(view) {
  S.view = view;
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.view === view));
  }
  for (const v of ["table", "setup", "scores"]) $(`view-${v}`).hidden = v !== view;
}

// ---- wiring ----
function guarded(fn) {  // a watching phone gets the controller's own answer (not-paired) in words
  return (...args) => (S.pairedId == null ? toast(t("error.not-paired")) : fn(...args));
}
$("lang").addEventListener("click", () => setLang(nextLang(S.lang)));
$("pair").addEventListener("click", () => {  // the name typed: blanks become "-" (a line's words are split on them)
  const name = $("pair-name").value.trim().replace(/\s+/g, "-");  // the controller shortens it
  send(name ? `pair name=${name}` : "pair");
});
$("mode-cancel").addEventListener("click", endMode);
$("press").addEventListener("click", guarded(() => act("press")));
$("undo").addEventListener("click", guarded(() => act("undo")));
for (const id of ["uno", "catch", "advice", "wrong"]) {
  const b = $(id);
  b.addEventListener("click", guarded(() => pickSeat("who", t("who.pick", {action: b.textContent}),
                                                      (seat) => act(`${b.dataset.act} seat=${seat}`))));
}
$("pad").addEventListener("click", (e) => { if (S.pairedId == null) { e.stopImmediatePropagation(); toast(t("error.not-paired")); } }, true);
$("start-round").addEventListener("click", guarded(() => act(
  exact(S.status && S.status.game) ? "round start" : `round start first=${$("first").value}`)));
$("report-first").addEventListener("click", guarded(() => act(`first ${$("first").value}`)));
$("draw").addEventListener("click", guarded(() => act("draw")));
$("pass").addEventListener("click", guarded(() => act("pass")));
$("colour-found").addEventListener("click", guarded(() => act("colour-found")));
for (const id of ["challenge-upheld", "challenge-rejected"]) {
  $(id).addEventListener("click", guarded(() => {
    const chal = S.status && S.status.game && S.status.game.challenge;
    if (chal) act(`challenge seat=${chal.seat} result=${$(id).dataset.result}`);
  }));
}
$("give").addEventListener("click", guarded(() => {
  const n = $("give-cards").value;
  pickSeat("who", t("give.pick", {n: Number(n)}), (seat) => act(`give seat=${seat} cards=${n}`));
}));
$("variant").addEventListener("change", () => renderSetup(S.status));
$("players").addEventListener("change", () => render());
$("new-game").addEventListener("click", guarded(() => {
  if (!$("limit").reportValidity()) return;  // the browser says what the limit may be (the table's min and max)
  const n = Number($("players").value);
  const names = [...$("names").children].slice(0, n).map((i) => i.value.trim().replace(/[\s,]+/g, "-") || "-");
  act(names.some((x) => x !== "-") ? `names seats=${names.join(",")}` : "names");
  const limit = Number($("limit").value) || O.limit.default;
  const variant = $("variant").value;
  act(`game new players=${n} dealer=${$("dealer").value} variant=${variant}` +
      (O.boxes[variant].editions.length ? ` edition=${$("edition").value}` : "") +
      (O.boxes[variant].starts.length ? ` start=${$("start").value}` : "") +
      ` scoring=${$("scoring").value} limit=${limit}`);
  showView("table");
}));
for (const tab of document.querySelectorAll("[role=tab]")) {
  tab.addEventListener("click", () => showView(tab.dataset.view));
}

localStorage.removeItem("rounds");  // where each phone kept its own round history before the table kept it
(async () => {
  O = await (await fetch("/options.json")).json();
  buildForm();
  const wanted = localStorage.getItem("lang") ||
    ((navigator.languages || [navigator.language]).find((l) => O.languages.includes(l.slice(0, 2))) || "en")
      .slice(0, 2);
  await setLang(O.languages.includes(wanted) ? wanted : "en");
  connect();
})();
