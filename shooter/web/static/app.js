// The phone page of the uno-shooter: the connection, the events, pairing, the language and the views. It
// decides nothing about the game: it sends command lines on the WebSocket and renders the controller's `status`
// and events (common.js holds what every part shares; table.js, hands.js, setup.js, scores.js and cues.js
// draw each part).
import {$, S, act, boxName, errorText, paired, send, t, toast} from "./common.js";
import {cueStatus, wireCues} from "./cues.js";
import {renderHands, renderResult} from "./hands.js";
import {renderScores} from "./scores.js";
import {renderSeen, seenEvent, wireSeen} from "./seen.js";
import {buildForm, renderSetup, wireSetup} from "./setup.js";
import {endPick, renderTable, wireTable} from "./table.js";

// ---- the language ----
function nextLang(lang) { const all = S.options.languages; return all[(all.indexOf(lang) + 1) % all.length]; }
async function loadLang(lang) {
  if (!S.cat[lang]) S.cat[lang] = await (await fetch(`/i18n/${lang}.json`)).json();
}
async function setLang(lang) {
  await loadLang(lang);
  await loadLang("en");
  S.lang = lang;
  localStorage.setItem("lang", lang);
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const node of document.querySelectorAll("[data-placeholder]")) node.placeholder = t(node.dataset.placeholder);
  for (const node of document.querySelectorAll("[data-box]")) node.textContent = boxName(node.dataset.box);
  $("lang").textContent = t("lang.switch");
  $("lang").lang = nextLang(lang);
  document.title = t("app.title");
  render();
}

// ---- the connection ----
function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  S.ws = ws;
  ws.onopen = () => {
    S.backoff = 500;
    S.connected = true;
    document.body.dataset.connects = String(Number(document.body.dataset.connects || 0) + 1);
    renderConnection();
    if (S.token) send(`auth token=${S.token}`);
    requestStatus();
  };
  ws.onmessage = (msg) => receive(JSON.parse(msg.data));
  ws.onclose = () => {
    // the board stays as it was, dimmed under "connection lost": this phone is still paired (its token is
    // sent again on the next connection), it only cannot hear the table for now
    S.ws = null;
    S.connected = false;
    S.statusPending = false;
    for (const waiting of S.waiting.splice(0)) if (waiting.fail) waiting.fail({error: "connection"});
    renderConnection();
    setTimeout(connect, S.backoff);  // Wi-Fi dropped: try again, a little slower each time
    S.backoff = Math.min(S.backoff * 2, 5000);
  };
}
function renderConnection() {
  $("conn").hidden = S.connected;
  $("conn-text").textContent = t(document.body.dataset.connects ? "conn.lost" : "conn.connecting");
  document.body.classList.toggle("offline", !S.connected);
  $("app").inert = !S.connected;
  renderPairing();
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
    if (obj.ok) { S.status = obj; render(); cueStatus(obj); }
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
  const i = S.waiting.findIndex((w) => w.name === obj.reply);
  const waiting = i < 0 ? null : S.waiting.splice(i, 1)[0];
  if (!obj.ok) toast(errorText(obj));
  if (waiting && obj.ok && waiting.ok) waiting.ok(obj);
  if (waiting && !obj.ok && waiting.fail) waiting.fail(obj);
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
    case "seen": case "seen-closed": case "camera":  // the camera's reads of the pile (seen.js)
      seenEvent(ev);
      break;
    case "game":  // a new game (from here or elsewhere): a pick of the old one means nothing now
      endPick();
      break;
  }
  requestStatus();  // every event may change what the page shows: the status says how (`ready` too)
}

// ---- pairing ----
function gameRunning() {  // a short press is then a player's: pairing asks for the lid open and a hold
  const game = S.status && S.status.game;
  return !!game && game.phase !== "over";
}
function renderPairing() {
  const me = paired();
  const waiting = !me && S.pairUntil > Date.now();
  const requests = me && S.status && S.status.pairing ? S.status.pairing.requests || [] : [];
  // disconnected: "connection lost" says it all; the phone is not asked to pair again
  $("pairing").hidden = !S.connected || (me && !requests.length);
  $("pair-ask").hidden = me || waiting;
  $("pair-wait").hidden = !waiting;
  $("pair-text").hidden = me;
  $("pair-text").textContent = me ? t("pair.paired", {id: S.pairedId}) : (waiting ? "" : t("pair.watching"));
  if (waiting) {
    $("pair-how").textContent = gameRunning() ? t("pair.hold", {seconds: S.pairHold}) : t("pair.press");
    $("pair-request").textContent = t("pair.request", {request: S.pairRequest});
    $("pair-within").textContent = t("pair.within", {seconds: Math.ceil((S.pairUntil - Date.now()) / 1000)});
    setTimeout(renderPairing, 1000);
  }
  renderRequests(requests);
}
function renderRequests(requests) {  // a paired phone approves or refuses each request, named by its number
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
    const yes = Object.assign(document.createElement("button"), {type: "button", className: "small primary",
      textContent: t("pair.approve")});
    yes.addEventListener("click", () => act(`pair approve request=${r.request}`));
    const no = Object.assign(document.createElement("button"), {type: "button", className: "small",
      textContent: t("pair.refuse")});
    no.addEventListener("click", () => act(`pair refuse request=${r.request}`));
    row.replaceChildren(text, yes, no);
    return row;
  }));
}

// ---- the page ----
function render() {
  if (!S.cat[S.lang]) return;
  renderConnection();
  const st = S.status;
  const game = st && st.game;
  renderTable(st);
  renderHands(game);
  renderResult(game);
  const me = paired();
  for (const node of document.querySelectorAll("main button:not([role=tab]), main select, main input")) {
    if (node.closest("#view-scores") || node.closest("dialog") || node.id === "mode-cancel" || node.id === "cues") continue;
    if (!me) node.setAttribute("aria-disabled", "true"); else node.removeAttribute("aria-disabled");
  }
  document.body.classList.toggle("watching", !me);
  renderSetup(st);
  renderScores(game);
  renderSeen(st);
}

function showView(view) {
  S.view = view;
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.view === view));
  }
  for (const v of ["table", "setup", "scores"]) $(`view-${v}`).hidden = v !== view;
  render();
}

// ---- wiring ----
$("lang").addEventListener("click", () => setLang(nextLang(S.lang)));
$("pair").addEventListener("click", () => {  // the name typed: blanks become "-" (a line's words are split on them)
  const name = $("pair-name").value.trim().replace(/\s+/g, "-");  // the controller shortens it
  send(name ? `pair name=${name}` : "pair");
});
for (const tab of document.querySelectorAll("[role=tab]")) {
  tab.addEventListener("click", () => showView(tab.dataset.view));
}
wireTable();
wireSetup(() => render());
wireCues();
wireSeen();
window.addEventListener("resize", () => render());

localStorage.removeItem("rounds");  // where each phone kept its own round history before the table kept it
(async () => {
  S.options = await (await fetch("/options.json")).json();
  buildForm();
  const wanted = localStorage.getItem("lang") ||
    ((navigator.languages || [navigator.language]).find((l) => S.options.languages.includes(l.slice(0, 2))) || "en")
      .slice(0, 2);
  await setLang(S.options.languages.includes(wanted) ? wanted : "en");
  connect();
})();
