// The Game view: a new game at any time (over a running one once it is confirmed), this phone's settings and
// the paired phones. A refused or cancelled new game changes nothing: the names are sent only once the
// controller has taken the `game new`.
import {$, S, act, boxName, el, guarded, seatName, t} from "./common.js";

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

export function buildForm() {  // the choices the controller offers, once (their words come with the language)
  const O = S.options;
  $("players").replaceChildren(...range(O.seats).map((n) => choice(n)));
  $("players").value = String(O.defaults.players);
  $("variant").replaceChildren(...O.variants.map((v) => Object.assign(choice(v), {textContent: boxName(v)})));
  for (const o of $("variant").options) o.dataset.box = o.value;  // the box's name, in the page's language
  $("start").replaceChildren(...O.starts.map((s) => choice(s, `start.${s}`)));  // until a variant asks its own
  $("start").value = O.defaults.start;
  $("edition").replaceChildren(...O.editions.map((e) => choice(e)));
  $("scoring").replaceChildren(...O.scorings.map((s) => choice(s, `scoring.${s}`)));
  Object.assign($("limit"), {min: O.limit.min, max: O.limit.max, value: O.limit.default});
}

export function renderSetup(st) {
  const O = S.options;
  const n = Number($("players").value);
  const names = $("names");
  while (names.children.length < n) {
    const input = el("input", {id: `name-${names.children.length + 1}`, maxLength: O.name_length, autocomplete: "off"});
    input.addEventListener("input", () => { input.dataset.typed = "1"; });
    names.appendChild(input);
  }
  while (names.children.length > n) names.lastChild.remove();
  const known = (st && st.names) || {};
  [...names.children].forEach((input, i) => {
    input.placeholder = t("seat.name", {n: i + 1});
    input.setAttribute("aria-label", t("seat.name", {n: i + 1}));
    if (!input.dataset.typed) input.value = known[String(i + 1)] || "";  // the table's names, until one is typed
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
  renderPaired(st);
}

function renderPaired(st) {
  const paired = st && st.pairing ? st.pairing.paired : [];
  const key = paired.map((p) => p.id).join(",") + S.lang + S.pairedId;
  const box = $("paired-list");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...(S.pairedId != null ? [el("p", {textContent: t("pair.paired", {id: S.pairedId})})] : []),
    ...(paired.length ? [document.createTextNode(t("pair.list"))] : []),
    ...paired.map((p) => {
      const b = el("button", {type: "button", className: "small",
        textContent: `${t("pair.forget")} ${p.id}${p.id === S.pairedId ? " ★" : ""}`, title: p.label || ""});
      b.addEventListener("click", guarded(() => act(`unpair id=${p.id}`)));
      return b;
    }));
}

// ---- a new game ----
function gameLine(force) {
  const O = S.options;
  const limit = Number($("limit").value) || O.limit.default;
  const variant = $("variant").value;
  return `game new players=${$("players").value} dealer=${$("dealer").value} variant=${variant}` +
    (O.boxes[variant].editions.length ? ` edition=${$("edition").value}` : "") +
    (O.boxes[variant].starts.length ? ` start=${$("start").value}` : "") +
    ` scoring=${$("scoring").value} limit=${limit}` + (force ? " force" : "");
}
function namesLine() {
  const n = Number($("players").value);
  const names = [...$("names").children].slice(0, n).map((i) => i.value.trim().replace(/[\s,]+/g, "-") || "-");
  return names.some((x) => x !== "-") ? `names seats=${names.join(",")}` : "names";
}
function running() {
  const game = S.status && S.status.game;
  return !!game && game.phase !== "over";
}
function confirmEnd() {  // "End the game of Anna, Bram, ...? Totals: ..." before `force` ends it
  const game = S.status.game;
  const seats = Array.from({length: game.players}, (_, i) => i + 1);
  $("confirm-text").textContent = t("confirm.text", {names: seats.map(seatName).join(", "), round: game.round});
  $("confirm-totals").textContent = t("confirm.totals", {
    totals: seats.map((s) => `${seatName(s)} ${game.totals[String(s)] ?? 0}`).join(", ")});
  $("confirm").showModal();
}
function startGame(force) {
  const names = namesLine();   // as typed now: the form may change while the answer comes
  act(gameLine(force), {
    ok: () => {
      act(names);
      for (const input of $("names").children) delete input.dataset.typed;
      $("tab-table").click();
    },
    // a game began elsewhere meanwhile: the controller refused and changed nothing; ask before ending it
    fail: (reply) => { if (reply.error === "wrong-phase" && !force && running()) confirmEnd(); },
  });
}

export function wireSetup(rerender) {
  $("variant").addEventListener("change", () => renderSetup(S.status));
  $("players").addEventListener("change", rerender);
  $("new-game").addEventListener("click", guarded(() => {
    if (!$("limit").reportValidity()) return;  // the browser says what the limit may be (the table's min and max)
    if (running()) confirmEnd(); else startGame(false);
  }));
  $("confirm-yes").addEventListener("click", () => { $("confirm").close(); startGame(true); });
  $("confirm-no").addEventListener("click", () => $("confirm").close());
  $("to-setup").addEventListener("click", () => $("tab-setup").click());
}
