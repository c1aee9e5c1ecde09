// What the camera saw: a read of the discard pile that waits for a tap (a `seen` event) shown in a sheet over the
// bottom of the table view (it never pushes the layout: the circle stays in view to pick a target). The sheet
// asks what the read still asks: the card (the reading and its two nearest alternatives, one tap each, or
// "Not this card"), an aimed card's target (the seats on the circle, as for an Extreme Hit) and a wild's colour
// (the colours of the side that is up). It closes on `seen-closed`; the controller decides everything.
import {$, S, act, cardName, el, errorText, guarded, seatName, t, toast} from "./common.js";
import {cueSeen} from "./cues.js";
import {endPick, pickSeat} from "./table.js";

const COLOURS = {light: ["red", "yellow", "green", "blue"], dark: ["pink", "teal", "orange", "purple"]};

// the read shown: the latest `seen` event of the read waiting first (or the status's, for a phone that came late)
let shown = null;

function label(card, colour) {  // "red 7", "Extreme Hit": the colour printed and the name on the card
  const game = S.status && S.status.game;
  const name = game ? cardName(game, card) : card;
  return colour ? t("seen.card", {colour: t("tint." + colour), card: name}) : name;
}
function sure(confidence) { return t("seen.sure", {n: Math.round(confidence * 100)}); }

export function seenEvent(ev) {
  if (ev.event === "seen") {
    shown = ev;
    if (ev.asks.includes("card")) cueSeen(ev.id, t("cue.seen", {card: label(ev.card, ev.colour)}));
  } else if (ev.event === "seen-closed" && shown && shown.id === ev.id) {
    shown = null;
  } else if (ev.event === "camera" && ev.reply && !ev.reply.ok) {  // the rules refused the card the camera saw
    toast(t("seen.refused", {card: ev.line.split(" ")[1], message: errorText(ev.reply)}));
  }
  renderSeen(S.status);
}

export function renderSeen(st) {
  const waiting = (st && st.camera && st.camera.waiting) || [];
  if (!shown && waiting.length && waiting[0].asks.length) shown = waiting[0];
  if (shown && st && st.camera && !waiting.some((w) => w.id === shown.id)) shown = null;  // closed meanwhile
  const sheet = $("seen");
  const read = shown;
  if (!read || !S.cat[S.lang]) {
    if (!sheet.hidden && S.mode && S.mode.seen) endPick();
    sheet.hidden = true;
    sheet.dataset.key = "";
    return;
  }
  const key = `${JSON.stringify(read)} ${S.lang}`;
  sheet.hidden = false;
  if (sheet.dataset.key === key) { targetPick(read); return; }
  sheet.dataset.key = key;
  sheet.dataset.asks = read.asks.join(" ");
  $("seen-title").textContent = t("seen.title", {card: label(read.card, read.colour), n: Math.round(read.confidence * 100)});
  $("seen-who").textContent = read.seat != null ? t("seen.who", {who: seatName(read.seat)}) : "";
  const options = $("seen-options");
  if (read.asks.includes("card")) {
    const readings = [[read.card, read.colour, read.confidence], ...read.alternatives.map((a) => [a.card, a.colour, a.confidence])];
    options.className = "seen-cards";
    options.replaceChildren(...readings.map(([card, colour, confidence], pick) => {
      const b = el("button", {type: "button", className: `seen-card${pick ? "" : " primary"}`},
        el("span", {textContent: label(card, colour)}), el("span", {className: "sub", textContent: sure(confidence)}));
      b.dataset.pick = String(pick);
      b.setAttribute("aria-label", t("seen.pick", {card: label(card, colour), n: Math.round(confidence * 100)}));
      b.addEventListener("click", guarded(() => act(`seen confirm id=${read.id}${pick ? ` pick=${pick}` : ""}`)));
      return b;
    }));
  } else if (read.asks.includes("target")) {
    options.className = "seen-target";
    options.replaceChildren(el("p", {className: "sub", textContent: t("seen.target")}));
  } else if (read.asks.includes("colour")) {
    const game = st && st.game;
    const side = read.side || (game && game.side) || "light";
    options.className = "seen-colours";
    options.replaceChildren(...(COLOURS[side] || COLOURS.light).map((colour) => {
      const b = el("button", {type: "button", className: `seen-colour colour-${colour}`, textContent: t("colour." + colour)});
      b.dataset.colour = colour;
      b.setAttribute("aria-label", t("seen.colour", {colour: t("colour." + colour)}));
      b.addEventListener("click", guarded(() => act(`seen colour=${colour} id=${read.id}`)));
      return b;
    }));
  }
  targetPick(read);
}
function targetPick(read) {  // the seats on the circle are picked while the read asks its target (Reject ends it)
  const asks = read.asks.includes("target");
  if (asks && !(S.mode && S.mode.seen === read.id)) {
    pickSeat(t("seen.target"), (seat) => `seen confirm id=${read.id} target=${seat}`);
    S.mode.seen = read.id;
  } else if (!asks && S.mode && S.mode.seen) endPick();
}

export function wireSeen() {
  $("seen-reject").addEventListener("click", guarded(() => { if (shown) act(`seen reject id=${shown.id}`); }));
}
