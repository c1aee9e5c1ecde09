// The round's end on the table view: each seat's hand tapped in on a pad of the edition's cards (counts with +
// and -, the running points) or its points typed when counted already; then the round's result, which stands
// until the next round starts.
import {$, S, act, cardName, el, fitAll, guarded, pad, seatName, t} from "./common.js";

// the tallies being tapped in, per seat: {"5": 2, "skip": 1}; kept while the page switches seats, dropped
// when the seat's hand is reported or the round changes
let tallies = {};
let typed = {};      // the points typed per seat, kept while the pad is drawn again
let tallied = "";
let chosen = null;
let drawn = "";      // what the pad was last drawn from: it is drawn again only when that changes

function keys(game) {  // the pad's cells: the number cards by their face, then the other cards
  const {digits, cards} = pad(game);
  return [...digits.map(String), ...cards.filter((c) => c !== "number")];
}
function label(game, key) { return /^\d+$/.test(key) ? key : cardName(game, key); }
function worth(game, key) {
  if (/^\d+$/.test(key)) return Number(key);
  return pad(game).points[key] ?? 0;
}
function sum(game, tally) {
  const n = Object.values(tally).reduce((a, b) => a + b, 0);
  const points = Object.entries(tally).reduce((a, [key, count]) => a + count * worth(game, key), 0);
  return {n, points};
}

export function renderHands(game) {
  const box = $("hands");
  const scoring = !!game && game.phase === "scoring";
  box.hidden = !scoring;
  if (!scoring) { tallies = {}; typed = {}; chosen = null; drawn = ""; return; }
  const round = `${game.round}`;
  if (tallied !== round) { tallies = {}; typed = {}; tallied = round; }
  const waiting = game.waiting_for || [];
  if (!waiting.includes(chosen)) chosen = waiting.length ? waiting[0] : null;
  const tally = chosen == null ? {} : (tallies[chosen] || (tallies[chosen] = {}));
  // an event while a hand is tapped in or its points typed must not take the field (and the keyboard) away
  const key = JSON.stringify([round, S.lang, waiting, chosen, tally, game.hands, S.status.names]);
  if (key === drawn) return;
  drawn = key;
  box.replaceChildren();
  if (chosen == null) return;

  const who = el("div", {className: "hand-seats", role: "group"});
  who.setAttribute("aria-label", t("hand.whose"));
  for (const seat of waiting) {
    const b = el("button", {type: "button", textContent: seatName(seat)});
    b.setAttribute("aria-pressed", String(seat === chosen));
    b.addEventListener("click", () => { chosen = seat; renderHands(S.status.game); });
    who.append(b);
  }
  const {n, points} = sum(game, tally);
  const counted = game.hands ? game.hands[String(chosen)] : null;   // the shooter's own count (exact variants)
  const total = el("p", {className: "hand-sum", id: "hand-sum",
    textContent: t(counted != null && n ? "hand.sum_of" : "hand.sum", {who: seatName(chosen), n, of: counted, points})});
  total.setAttribute("aria-live", "polite");

  const cells = keys(game).map((key) => {
    const name = label(game, key);
    const count = tally[key] || 0;
    const add = el("button", {type: "button", className: `add card-${key}`, textContent: name});
    add.addEventListener("click", () => { tally[key] = count + 1; renderHands(S.status.game); });
    const cell = el("div", {className: "tally"}, add);
    if (count) {
      cell.append(el("span", {className: "count", textContent: String(count), ariaHidden: "true"}));
      const less = el("button", {type: "button", className: "less", textContent: "−"});
      less.setAttribute("aria-label", t("hand.less", {card: name, n: count}));
      less.addEventListener("click", () => {
        if (count > 1) tally[key] = count - 1; else delete tally[key];
        renderHands(S.status.game);
      });
      cell.append(less);
    }
    return cell;
  });
  const grid = el("div", {className: "hand-pad", role: "group"}, ...cells);
  grid.setAttribute("aria-label", t("hand.title", {who: seatName(chosen)}));

  const seat = chosen;
  const field = el("input", {id: "hand-points", type: "number", inputMode: "numeric", min: "0",
    value: typed[seat] ?? ""});
  field.addEventListener("input", () => { typed[seat] = field.value; });
  const direct = el("label", {}, t("hand.direct"), field);
  const report = el("button", {type: "button", className: "primary", textContent: t("btn.report")});
  report.setAttribute("aria-label", `${t("btn.report")}: ${seatName(chosen)}`);
  report.addEventListener("click", guarded(() => {
    const done = {ok: () => { delete tallies[seat]; delete typed[seat]; }};
    if (field.value.trim() !== "") { act(`score seat=${seat} points=${Number(field.value)}`, done); return; }
    const cards = Object.entries(tally).flatMap(([key, count]) => Array(count).fill(key));
    act(cards.length ? `hand seat=${seat} cards=${cards.join(",")}` : `score seat=${seat} points=0`, done);
  }));
  box.append(who, total, grid, el("div", {className: "hand-row"}, direct, report));
  fitAll(".tally .add", 10);
}

// ---- the result: the round just scored (or the game's end), until the next round starts ----
export function renderResult(game) {
  const box = $("result");
  const rows = (game && game.rounds) || [];
  const show = !!game && ((game.phase === "deal" && rows.length > 0) || game.phase === "over");
  box.hidden = !show;
  if (!show) return;
  const last = rows[rows.length - 1];
  const title = game.phase === "over" ? t("phase.over", {who: seatName(game.winner)})
    : t("result.round", {n: last.round, who: seatName(last.winner)});
  const table = el("table", {id: "result-table"});
  const head = el("tr", {}, el("td"), el("th", {scope: "col", textContent: t("result.this_round")}),
    el("th", {scope: "col", textContent: t("scores.total")}));
  table.append(head);
  const seats = Array.from({length: game.players}, (_, i) => i + 1);
  for (const seat of seats) {
    const got = last && String(seat) in last.points ? last.points[String(seat)] : null;
    const tr = el("tr", {}, el("th", {scope: "row", textContent: seatName(seat)}),
      el("td", {textContent: got == null ? "" : `+${got}`}),
      el("td", {textContent: String(game.totals[String(seat)] ?? 0)}));
    if (last && seat === last.winner) tr.className = "winner";
    table.append(tr);
  }
  box.replaceChildren(el("p", {className: "big", id: "result-title", textContent: title}), table);
}
