// The table view during a round: the turn line (who acts and why), the circle of seats (where seats are picked),
// the shooter's alarm, Press with what it does now or why it cannot, the card pad and the actions.
import {
  $, ALARMS, S, act, acting, box, cardName, cardsLeft, deckKey, el, exact, fit, fitAll, guarded, owedText, pad,
  paired, seatName, seats, t, toast,
} from "./common.js";

const SLOTS = 8;  // buttons on the pad's first page: two rows of four (the rest one tap away, behind More)

// ---- picking a seat on the circle (an Extreme Hit's target, who is caught, who gets a penalty or cards) ----
// The pick stays open until the controller takes the line: a refused target can be tapped again.
export function pickSeat(text, line, done = null) {
  S.mode = {line, done};
  $("mode-text").textContent = text;
  $("mode").hidden = false;
  renderCircle(S.status);
}
export function endPick() {
  if (!S.mode) return;
  S.mode = null;
  $("mode").hidden = true;
  renderCircle(S.status);
}
function seatTapped(seat) {
  if (!S.mode) return;
  if (!paired()) { toast(t("error.not-paired")); return; }
  const {line, done} = S.mode;
  act(line(seat), {ok: () => { endPick(); if (done) done(); }});
}

// ---- a Discard All's count (AT-HANDS): how many more cards of the colour went with it ----
// Numbers up to what the player's hand holds besides the card (0..9 where its count is unknown); like the seat
// pick, the choice stays open until the controller takes the line: a refused count can be tapped again.
const MAX_DISCARD = 9;
function pickDiscarded(game, card, last) {
  const held = game.hands ? game.hands[String(game.current)] : null;
  const most = held == null ? MAX_DISCARD : Math.max(0, Math.min(held - 1, MAX_DISCARD));
  $("discard-text").textContent = t("pad.discarded", {card: cardName(game, card)});
  $("discard-options").replaceChildren(...Array.from({length: most + 1}, (_, n) => {
    const b = el("button", {type: "button", textContent: String(n)});
    b.addEventListener("click", guarded(() => act(`play ${card} discarded=${n}${last}`,
      {ok: () => { endDiscard(); $("last").checked = false; }})));
    return b;
  }));
  $("discard").hidden = false;
  $("discard-options").firstChild.focus();
}
function endDiscard() { $("discard").hidden = true; }

// ---- the turn line and what is under it ----
function turnLine(game) {
  if (!game) return [t("turn.none"), ""];
  const round = t("phase.play", {round: game.round});
  const owed = game.owed;
  switch (game.phase) {
    case "over": return [t("phase.over", {who: seatName(game.winner)}), ""];
    case "scoring": return [t("ev.round-over", {who: seatName(game.round_winner)}), `${round} · ${t("phase.scoring")}`];
    case "deal": return [t("turn.deal", {who: seatName(game.dealer)}), round];
    case "first": return [owed ? owedText(owed) : t("turn.first", {who: seatName(game.dealer)}), round];
  }
  const turn = game.current ? t("turn.line", {who: seatName(game.current)}) : t("turn.none");
  return [owed ? owedText(owed) : turn,
    `${round} · ${t("dir." + game.direction)}` + (owed && game.current ? ` · ${t("turn.next", {who: seatName(game.current)})}` : "")];
}
export function renderTable(st) {
  const game = st && st.game;
  const shooter = st ? st.shooter : null;
  const [line, sub] = turnLine(game);
  $("turn").textContent = line;
  $("direction").replaceChildren(sub);
  if (game && game.side) {
    $("direction").append(" ", el("span", {id: "side", className: `side side-${game.side}`,
      textContent: t("side." + game.side)}));
  }
  fit($("turn"));

  // a jam, an open lid, an empty magazine or a fault: a full-width alarm at the top with what to do
  const alarm = shooter && ALARMS.includes(shooter.state);
  $("alarm").hidden = !alarm;
  if (alarm) {
    $("alarm-what").textContent = t("state." + shooter.state);
    $("alarm-do").textContent = t("cta." + shooter.state);
  }
  if (shooter) {
    $("machine-state").textContent = t("state." + shooter.state);
    $("machine-cards").textContent = shooter.cards == null ? t("cards.unknown") : t("cards.left", {n: shooter.cards});
    $("machine").className = "machine state-" + shooter.state;
  }

  const phase = game ? game.phase : "none";
  const playing = phase === "play";
  if (!playing && S.mode) endPick();   // the round ended under the pick: nothing to pick a seat for
  if (!playing) endDiscard();          // nor a count of discarded cards to give
  $("circle").hidden = phase === "scoring" || !!(game && renderedResult(game));
  renderCircle(st);
  $("play-panel").hidden = !(playing || !game);
  renderPress(st);
  $("pad").hidden = !playing;
  if (playing) renderPad(game);
  renderActions(game);
  const dealing = phase === "deal" || phase === "first" || phase === "over";
  $("deal-panel").hidden = !dealing;
  if (dealing) renderDeal(game);
  fitAll("#pad .card, #actions > button, #actions > label", 10);
}
function renderedResult(game) {  // the result of the round just scored stands until the next round starts
  return (game.phase === "deal" && (game.rounds || []).length > 0) || game.phase === "over";
}

// ---- Press: what it does now, or why it cannot ----
function pressWhy(st) {  // [the sentence above Press, whether Press can act]
  const game = st && st.game;
  const shooter = st && st.shooter;
  if (shooter && ALARMS.includes(shooter.state)) return [t("cta." + shooter.state), false];
  if (shooter && shooter.state === "booting") return [t("cta.booting"), false];
  if (!game) return [t("cta.no_game"), false];
  const owed = game.owed;
  if (owed && "cards" in owed) {
    const left = cardsLeft(owed);
    return [left == null ? t("cta.owed_colour", {who: seatName(owed.seat)})
      : t("cta.owed_cards", {who: seatName(owed.seat), n: left}), true];
  }
  if (owed) return [t("cta.owed", {who: seatName(owed.by ?? owed.seat), n: owed.presses}), true];
  if (game.phase === "play" && game.current && exact(game)) {
    return [t(game.drawn === game.current ? "cta.drawn" : "cta.draw", {who: seatName(game.current)}),
      game.drawn !== game.current];
  }
  if (game.phase === "play" && game.current) return [t("cta.press", {who: seatName(game.current)}), true];
  return ["", false];
}
function renderPress(st) {
  const [why, can] = pressWhy(st);
  $("cta").textContent = why;
  $("cta").classList.toggle("alarm-text", !can);
  $("press").disabled = !can;
}

// ---- the card pad: the cards most often played on its first page, the rest one tap away ----
function firstPage(cards, copies) {
  if (cards.length <= SLOTS) return cards;
  const often = [...cards].sort((a, b) => (copies[b] ?? 0) - (copies[a] ?? 0)).slice(0, SLOTS - 1);
  return cards.filter((c) => often.includes(c));  // in the pad's own order
}
function renderPad(game) {
  const node = $("pad");
  const key = deckKey(game);
  const {cards, copies} = pad(game);
  const first = firstPage(cards, copies || {});
  const rest = cards.filter((c) => !first.includes(c));
  const page = rest.length && node.dataset.page === "2" ? 2 : 1;
  const built = `${key} ${S.lang} ${page}`;
  if (node.dataset.built !== built) {
    const shown = page === 1 ? first : rest;
    const buttons = cards.map((card) => {
      const b = el("button", {type: "button", className: `card card-${card}`, textContent: cardName(game, card)});
      b.dataset.card = card;
      b.hidden = !shown.includes(card);
      b.addEventListener("click", guarded(() => playCard(card)));
      return b;
    });
    if (rest.length) {
      const more = el("button", {type: "button", className: "card more", id: "pad-more",
        textContent: t(page === 1 ? "pad.more" : "pad.back")});
      more.setAttribute("aria-expanded", String(page === 2));
      more.addEventListener("click", () => { node.dataset.page = page === 1 ? "2" : "1"; renderPad(S.status.game); });
      buttons.push(more);
    }
    node.replaceChildren(...buttons);
    node.dataset.built = built;
    node.className = `pad pad-${key}`;
  }
}
function playCard(card) {
  endPick();
  endDiscard();
  const game = S.status.game;
  const last = $("last").checked && !exact(game) ? " last" : "";
  $("pad").dataset.page = "1";
  if (pad(game).targeted.includes(card)) {  // the player taps a seat on the circle
    // which seat it asks for is the pad's data: a swap's partner, or the seat the shooter turns to
    const words = pad(game).swaps.includes(card) ? "pad.pick" : "pad.target";
    pickSeat(t(words, {card: cardName(game, card)}),
      (seat) => `play ${card} target=${seat}${last}`, () => { $("last").checked = false; });
    return;
  }
  if (pad(game).discards.includes(card)) { pickDiscarded(game, card, last); return; }  // the pad's data again
  act(`play ${card}${last}`, {ok: () => { $("last").checked = false; }});
  renderPad(game);
}

// ---- the circle: the shooter in the middle, each seat a button named by its player ----
export function renderCircle(st) {
  const game = st && st.game;
  const all = seats(game);
  const node = $("seats");
  if (node.children.length !== all.length) {
    // seats as wide as the gap to their neighbours leaves, all inside the circle (in its own width: they
    // scale with it): w = 2 r sin(pi / n) less a gap, r = 49 - w / 2, in hundredths of the circle's width
    const sin = Math.sin(Math.PI / Math.max(all.length, 2));
    const w = Math.min(28, (98 * sin - 3) / (1 + sin));
    const r = 49 - w / 2;
    node.replaceChildren();
    for (const seat of all) {
      const b = el("button", {type: "button", className: "seat"});
      b.dataset.seat = seat;
      b.addEventListener("click", () => seatTapped(seat));
      const angle = Math.PI / 2 + (seat - 1) * 2 * Math.PI / all.length;  // seat 1 at the bottom, clockwise
      b.style.left = `${50 + r * Math.cos(angle)}%`;
      b.style.top = `${50 + r * Math.sin(angle)}%`;
      node.appendChild(b);
    }
    $("circle").style.setProperty("--seat-w", `${w.toFixed(1)}cqw`);
  }
  const actor = acting(game);
  for (const b of node.children) {
    const seat = Number(b.dataset.seat);
    const mine = game ? game.queue.filter((o) => o.seat === seat) : [];
    const owes = mine.length ? (exact(game) ? mine.map(owedBadge).join(" ")
                                            : `${mine.reduce((a, o) => a + o.presses, 0)}×`) : "";
    const hand = game && game.hands ? game.hands[String(seat)] : null;
    b.replaceChildren(el("span", {textContent: seatName(seat)}));
    if (owes) b.append(el("span", {className: "badge", textContent: owes}));
    if (hand != null) b.append(el("span", {className: "hand-count", textContent: t("seat.hand", {n: hand})}));
    b.setAttribute("aria-label", seatName(seat) + (owes ? ` (${owes})` : "") +
                   (hand != null ? `, ${t("seat.hand", {n: hand})}` : ""));
    b.classList.toggle("acting", actor === seat);
    b.classList.toggle("next", !!game && !!game.owed && game.current === seat && actor !== seat);
    b.classList.toggle("aimed", !!st && st.shooter.aim === seat);
    b.classList.toggle("out", !!game && game.out.includes(seat));
    b.classList.toggle("dealer", !!game && game.dealer === seat);
    b.classList.toggle("picking", !!S.mode);
    if (actor === seat) b.setAttribute("aria-current", "true"); else b.removeAttribute("aria-current");
  }
  const aim = st && st.shooter.aim;
  const arrow = $("arrow");
  arrow.classList.toggle("moving", aim == null);  // turning: it keeps pointing where it last pointed
  if (aim != null) arrow.style.transform = `rotate(${90 + (aim - 1) * 360 / all.length}deg)`;
  arrow.hidden = aim == null && !arrow.style.transform;
}
function owedBadge(o) { return "cards" in o ? (cardsLeft(o) == null ? "+?" : `+${cardsLeft(o)}`) : `${o.presses}×`; }

// ---- the actions: each shown where the game has it ----
function renderActions(game) {
  const playing = !!game && game.phase === "play";
  const counting = exact(game);
  const show = {
    "last-box": playing && !counting, uno: playing, catch: playing, penalty: playing && !counting,
    give: playing && counting, pass: playing && counting && game.drawn === game.current && game.current != null,
    "colour-found": playing && counting && !!game.owed && "cards" in game.owed && game.owed.cards == null,
    undo: !!game,
  };
  for (const [id, visible] of Object.entries(show)) $(id).hidden = !visible;
  const chal = playing && counting ? game.challenge : null;
  $("challenge-box").hidden = !chal;
  if (chal) {
    $("challenge-text").textContent = t("challenge.line", {who: seatName(chal.seat), by: seatName(chal.by),
                                                          card: cardName(game, chal.card)});
  }
  const undoes = S.status && S.status.undoes;
  $("undo").textContent = undoes ? t("btn.undo_what", {what: t("undo." + undoes.split(" ")[0])}) : t("btn.undo");
  $("undo").disabled = !(game && game.undo > 0);
}

// ---- between rounds: the deal and the first card ----
function cardOptions(game) {
  const {digits, cards} = pad(game);
  return digits.map(String).concat(cards.filter((c) => c !== "number"));
}
function renderDeal(game) {
  // Extreme: the dealer deals and reports the first card with `round start first=CARD`. The exact variants:
  // `round start` makes the shooter deal; in phase first the card turned up is reported with `first CARD`.
  const over = game.phase === "over";
  const first = game.phase === "first";
  const dealing = first && !!game.owed;  // the deal and the dealer's card are still being shot
  $("deal-text").hidden = over;
  $("deal-text").textContent = t(dealing ? "phase.dealing" : first ? "phase.first"
                                 : exact(game) ? "phase.deal_exact" : "phase.deal", {n: box(game).hand});
  $("first-row").hidden = over || (exact(game) && (!first || dealing));
  $("start-round").hidden = first || over;
  $("start-round").textContent = t(exact(game) ? "btn.deal" : "btn.start_round");
  $("report-first").hidden = !first || dealing;
  $("to-setup").hidden = !over;
  const sel = $("first");
  const key = deckKey(game) + (exact(game) ? game.variant : "") + S.lang;
  if (sel.dataset.key === key) return;
  const value = sel.value;
  sel.replaceChildren(...cardOptions(game).map((c) => new Option(
    /^\d$/.test(c) ? `${cardName(game, "number")} ${c}` : cardName(game, c), c)));
  if (value && [...sel.options].some((o) => o.value === value)) sel.value = value;
  sel.dataset.key = key;
}

// ---- wiring ----
function choose(title, options) {  // a short list to pick from (a penalty's kind, how many cards to give)
  $("choose-title").textContent = title;
  $("choose-options").replaceChildren(...options.map(([label, then]) => {
    const b = el("button", {type: "button", textContent: label});
    b.addEventListener("click", () => { $("choose").close(); then(); });
    return b;
  }));
  $("choose").showModal();
}
export function wireTable() {
  $("mode-cancel").addEventListener("click", endPick);
  $("discard-cancel").addEventListener("click", endDiscard);
  // Escape closes an open seat pick or row of numbers, as Cancel does, wherever the focus is (a seat, a card)
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") { endPick(); endDiscard(); } });
  $("press").addEventListener("click", guarded(() => { endPick(); endDiscard(); act("press"); }));
  $("undo").addEventListener("click", guarded(() => { endPick(); endDiscard(); act("undo"); }));
  for (const id of ["uno", "catch"]) {
    const b = $(id);
    b.addEventListener("click", guarded(() => {
      endPick();
      pickSeat(t("who.pick", {action: b.textContent}), (seat) => `${b.dataset.act} seat=${seat}`);
    }));
  }
  $("penalty").addEventListener("click", guarded(() => {
    endPick();
    choose(t("btn.penalty"), [["advice", "btn.advice"], ["wrong-card", "btn.wrong"]].map(([kind, key]) => [t(key),
      () => pickSeat(t("who.pick", {action: t(key)}), (seat) => `penalty ${kind} seat=${seat}`)]));
  }));
  $("give").addEventListener("click", guarded(() => {
    endPick();
    const {min, max} = S.options.give;
    choose(t("give.how_many"), Array.from({length: max - min + 1}, (_, i) => min + i).map((n) => [String(n),
      () => pickSeat(t("give.pick", {n}), (seat) => `give seat=${seat} cards=${n}`)]));
  }));
  $("choose-cancel").addEventListener("click", () => $("choose").close());
  $("pass").addEventListener("click", guarded(() => { endPick(); act("pass"); }));
  $("colour-found").addEventListener("click", guarded(() => { endPick(); act("colour-found"); }));
  for (const id of ["challenge-upheld", "challenge-rejected"]) {
    $(id).addEventListener("click", guarded(() => {
      const chal = S.status && S.status.game && S.status.game.challenge;
      if (chal) act(`challenge seat=${chal.seat} result=${$(id).dataset.result}`);
    }));
  }
  $("start-round").addEventListener("click", guarded(() => act(
    exact(S.status && S.status.game) ? "round start" : `round start first=${$("first").value}`)));
  $("report-first").addEventListener("click", guarded(() => act(`first ${$("first").value}`)));
}
