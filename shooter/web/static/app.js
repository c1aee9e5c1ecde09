// The phone page of the uno-shooter. It decides nothing about the game: it sends
// command lines on the WebSocket and renders the controller's `status` and events.
"use strict";

const $ = (id) => document.getElementById(id);
const CARDS = {  // the cards of each edition, in the order of the pad
  "2016": ["number", "skip", "reverse", "discard-all", "wild", "hit2", "hit4", "extreme-hit", "blank"],
  "2010": ["number", "skip", "reverse", "discard-all", "wild", "hit2", "extreme-hit"],
};
const LANGS = ["en", "nl"];

const S = {
  ws: null, lang: "en", cat: {}, status: null, token: localStorage.getItem("token"),
  pairedId: null, mode: null, statusPending: false, statusDirty: false, backoff: 500,
  pairUntil: 0, view: "table",
  rounds: JSON.parse(localStorage.getItem("rounds") || "[]"),
  events: [],  // [receipt time in ms, event] for tests and debugging
};
window.shooterPage = S;

// ---- messages ----
function t(key, fields = {}) {
  const text = (S.cat[S.lang] || {})[key] ?? (S.cat.en || {})[key] ?? key;
  return text.replace(/\{([a-z_]+)\}/g, (m, k) => (k in fields ? String(fields[k]) : m));
}
function seatName(seat) {
  const names = (S.status && S.status.names) || {};
  return names[String(seat)] || t("seat.name", {n: seat});
}
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
  const other = LANGS.find((l) => l !== lang);
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
  if (obj.reply === "pair" && obj.ok) {
    S.pairUntil = Date.now() + obj.seconds * 1000;
    renderPairing();
    return;
  }
  if (!obj.ok) showError(obj);
  requestStatus();  // a command may change the state without an event (hand, score)
}

function onEvent(ev) {
  switch (ev.event) {
    case "pair-granted":
      S.token = ev.token; S.pairedId = ev.id; S.pairUntil = 0;
      localStorage.setItem("token", ev.token);
      renderPairing();
      return;
    case "pair-expired":
      S.pairUntil = 0;
      renderPairing();
      toast(t("pair.expired"));
      return;
    case "unpaired":
      if (ev.id === S.pairedId) { S.pairedId = null; S.token = null; localStorage.removeItem("token"); }
      break;
    case "refused":
      if (ev.source === "button") toast(t("ev.refused", {message: errorText(ev)}));
      break;
    case "round-scored":
      S.rounds.push({round: S.status && S.status.game ? S.status.game.round : S.rounds.length + 1,
                     winner: ev.winner, points: ev.points, totals: ev.totals});
      localStorage.setItem("rounds", JSON.stringify(S.rounds));
      break;
  }
  requestStatus();
}

// ---- errors in the page's language ----
function errorText(obj) {
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
  if (card === "extreme-hit") {
    pickSeat("target", t("pad.target"), (seat) => act(`play extreme-hit target=${seat}${last}`));
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
function owedText(o) {  // who presses, how many times, at whom, why
  const fields = {who: seatName(o.seat), by: seatName(o.by), n: o.presses, reason: t("reason." + o.reason)};
  return t(o.by != null && o.by !== o.seat ? "owed.line_by" : "owed.line", fields);
}

function render() {
  if (!S.cat[S.lang]) return;
  renderPairing();
  const st = S.status;
  const game = st && st.game;
  const shooter = st ? st.shooter : null;
  const playing = game && game.phase === "play";

  // turn, direction, owed
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
  } else {
    $("turn").textContent = game.current ? t("turn.line", {who: seatName(game.current)}) : t("turn.none");
    $("direction").textContent = `${t("phase.play", {round: game.round})} · ${t("dir." + game.direction)}`;
  }
  const owed = game && game.owed;
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
    } else if (owed) {
      cta.textContent = t("cta.owed", {who: seatName(owed.by ?? owed.seat), n: owed.presses});
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
    (el.closest("label.toggle") || el).hidden = !playing;
  }
  $("deal-panel").hidden = !(game && game.phase === "deal");
  $("score-panel").hidden = !(game && game.phase === "scoring");
  $("over").hidden = true;
  if (playing) renderPad(game);
  if (game && game.phase === "deal") renderFirst(game);
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

function renderPairing() {
  const paired = S.pairedId != null;
  const waiting = !paired && S.pairUntil > Date.now();
  $("pair").hidden = paired || waiting;
  $("pair-wait").hidden = !waiting;
  $("pair-text").textContent = paired ? t("pair.paired", {id: S.pairedId}) : (waiting ? "" : t("pair.watching"));
  $("pairing").className = "banner " + (paired ? "ok" : "");
  if (waiting) {
    $("pair-within").textContent = t("pair.within", {seconds: Math.ceil((S.pairUntil - Date.now()) / 1000)});
    setTimeout(renderPairing, 1000);
  }
}

function renderCircle(st) {
  const n = st && st.game ? st.game.players : 4;
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
    const owes = game ? game.queue.filter((o) => o.seat === seat).reduce((a, o) => a + o.presses, 0) : 0;
    b.textContent = "";
    const name = document.createElement("span");
    name.textContent = seatName(seat);
    b.appendChild(name);
    if (owes) {
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = `${owes}×`;
      b.appendChild(badge);
    }
    b.setAttribute("aria-label", seatName(seat) + (owes ? ` (${owes}×)` : ""));
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
  const pad = $("pad");
  const cards = CARDS[game.edition];
  if (pad.dataset.edition !== game.edition || pad.dataset.lang !== S.lang) {
    pad.replaceChildren(...cards.map((card) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `card card-${card}`;
      b.textContent = t("card." + card);
      b.addEventListener("click", () => playCard(card));
      return b;
    }));
    pad.dataset.edition = game.edition;
    pad.dataset.lang = S.lang;
  }
  $("pad-title").textContent = game.current ? t("pad.title", {who: seatName(game.current)}) : "";
}

function cardOptions(edition) {
  return [1, 2, 3, 4, 5, 6, 7, 8, 9].map(String).concat(CARDS[edition].filter((c) => c !== "number"));
}
function renderFirst(game) {
  const sel = $("first");
  if (sel.dataset.edition === game.edition && sel.dataset.lang === S.lang) return;
  const value = sel.value;
  sel.replaceChildren(...cardOptions(game.edition).map((c) => {
    const o = document.createElement("option");
    o.value = c;
    o.textContent = /^\d$/.test(c) ? `${t("card.number")} ${c}` : t("card." + c);
    return o;
  }));
  if (value) sel.value = value;
  sel.dataset.edition = game.edition;
  sel.dataset.lang = S.lang;
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

function renderSetup(st) {
  const players = $("players");
  if (!players.options.length) {
    for (let n = 2; n <= 10; n++) players.add(new Option(String(n), String(n)));
    players.value = "4";
  }
  const n = Number(players.value);
  const names = $("names");
  while (names.children.length < n) {
    const i = names.children.length + 1;
    const input = document.createElement("input");
    input.id = `name-${i}`;
    input.maxLength = 16;
    input.autocomplete = "off";
    names.appendChild(input);
  }
  while (names.children.length > n) names.lastChild.remove();
  [...names.children].forEach((input, i) => {
    input.placeholder = t("seat.name", {n: i + 1});
    input.setAttribute("aria-label", t("seat.name", {n: i + 1}));
  });
  const dealer = $("dealer");
  const value = dealer.value;
  dealer.replaceChildren(new Option(t("setup.random"), "random"),
    ...Array.from({length: n}, (_, i) => new Option(t("seat.name", {n: i + 1}), String(i + 1))));
  dealer.value = value && Number(value) <= n ? value : "1";
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
    cells.forEach((c) => { const el = document.createElement(th ? "th" : "td"); el.textContent = c; tr.appendChild(el); });
    return tr;
  };
  const seats = Array.from({length: n}, (_, i) => i + 1);
  const rows = [row(["", ...seats.map(seatName)], true)];
  let before = Object.fromEntries(seats.map((s) => [String(s), 0]));
  for (const r of S.rounds) {
    rows.push(row([t("scores.round", {n: r.round}),
                   ...seats.map((s) => String((r.totals[String(s)] ?? 0) - (before[String(s)] ?? 0)))]));
    before = r.totals;
  }
  if (!S.rounds.length) rows.push(row([t("scores.none")]));
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
$("lang").addEventListener("click", () => setLang(S.lang === "en" ? "nl" : "en"));
$("pair").addEventListener("click", () => send("pair"));
$("mode-cancel").addEventListener("click", endMode);
$("press").addEventListener("click", guarded(() => act("press")));
$("undo").addEventListener("click", guarded(() => act("undo")));
for (const id of ["uno", "catch", "advice", "wrong"]) {
  const b = $(id);
  b.addEventListener("click", guarded(() => pickSeat("who", t("who.pick", {action: b.textContent}),
                                                      (seat) => act(`${b.dataset.act} seat=${seat}`))));
}
$("pad").addEventListener("click", (e) => { if (S.pairedId == null) { e.stopImmediatePropagation(); toast(t("error.not-paired")); } }, true);
$("start-round").addEventListener("click", guarded(() => act(`round start first=${$("first").value}`)));
$("players").addEventListener("change", () => render());
$("new-game").addEventListener("click", guarded(() => {
  const n = Number($("players").value);
  const names = [...$("names").children].slice(0, n).map((i) => i.value.trim().replace(/[\s,]+/g, "-") || "-");
  act(names.some((x) => x !== "-") ? `names seats=${names.join(",")}` : "names");
  const limit = Number($("limit").value) || 500;
  act(`game new players=${n} dealer=${$("dealer").value} edition=${$("edition").value} ` +
      `scoring=${$("scoring").value} limit=${limit}`);
  S.rounds = [];
  localStorage.setItem("rounds", "[]");
  showView("table");
}));
for (const tab of document.querySelectorAll("[role=tab]")) {
  tab.addEventListener("click", () => showView(tab.dataset.view));
}

(async () => {
  const wanted = localStorage.getItem("lang") ||
    ((navigator.languages || [navigator.language]).find((l) => LANGS.includes(l.slice(0, 2))) || "en").slice(0, 2);
  await setLang(LANGS.includes(wanted) ? wanted : "en");
  connect();
})();
