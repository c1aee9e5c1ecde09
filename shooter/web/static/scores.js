// The Scores view: the totals after each round drawn as a chart (inline SVG, no library), with the table of
// every round as its text beside it (the table's score sheet, status game.rounds).
import {$, el, seatName, t} from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
// a line per seat, told apart by its colour and its dash (a phone in the sun, a colour-blind player)
const COLOURS = ["#ffd400", "#4fc3f7", "#ff7043", "#81c784", "#ce93d8", "#f48fb1", "#fff59d", "#80cbc4",
  "#bcaaa4", "#e0e0e0"];
const DASHES = ["", "8 4", "2 4", "12 4 2 4"];

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}
function step(max) {  // a round number of points between the grid lines, about four of them
  const rough = Math.max(max, 1) / 4;
  const p = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= rough);
}

// the totals after each round, per seat, from the sheet (a seat out that round adds nothing)
export function runningTotals(game) {
  const seats = Array.from({length: game.players}, (_, i) => i + 1);
  const totals = Object.fromEntries(seats.map((s) => [s, [0]]));
  for (const row of game.rounds || []) {
    for (const s of seats) totals[s].push(totals[s].at(-1) + (row.points[String(s)] || 0));
  }
  return totals;
}

function renderChart(game) {
  const rows = game.rounds || [];
  $("chart-box").hidden = !rows.length;
  if (!rows.length) { $("chart").replaceChildren(); $("chart-legend").replaceChildren(); return; }
  const totals = runningTotals(game);
  const seats = Object.keys(totals).map(Number);
  const W = 340, H = 200, L = 40, R = 10, T = 10, B = 34;
  const max = Math.max(1, ...seats.map((s) => Math.max(...totals[s])));
  const dy = step(max);
  const top = Math.ceil(max / dy) * dy;
  const x = (i) => L + (W - L - R) * i / rows.length;
  const y = (v) => T + (H - T - B) * (1 - v / top);
  const title = svg("title", {id: "chart-title"}, t("chart.title"));
  const desc = svg("desc", {id: "chart-desc"}, seats.map((s) => t("chart.line",
    {who: seatName(s), totals: totals[s].slice(1).join(", ")})).join("; "));
  const chart = svg("svg", {viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "chart-title chart-desc"},
    title, desc);
  for (let v = 0; v <= top; v += dy) {
    chart.append(svg("line", {x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#3a4552", "stroke-width": 1}),
      svg("text", {x: L - 4, y: y(v) + 4, "text-anchor": "end", fill: "#aab4c0", "font-size": 11}, String(v)));
  }
  rows.forEach((row, i) => chart.append(svg("text", {x: x(i + 1), y: H - B + 15, "text-anchor": "middle",
    fill: "#aab4c0", "font-size": 11}, String(row.round))));
  chart.append(svg("text", {x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle", fill: "#aab4c0",
    "font-size": 12}, t("chart.rounds")));
  chart.append(svg("text", {x: 12, y: (T + H - B) / 2, "text-anchor": "middle", fill: "#aab4c0", "font-size": 12,
    transform: `rotate(-90 12 ${(T + H - B) / 2})`}, t("chart.points")));
  seats.forEach((s, k) => {
    const colour = COLOURS[k % COLOURS.length];
    const points = totals[s].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    chart.append(svg("polyline", {points, fill: "none", stroke: colour, "stroke-width": 3,
      "stroke-dasharray": DASHES[k % DASHES.length],
      "stroke-linejoin": "round", "data-seat": s}));
    const end = totals[s].length - 1;
    chart.append(svg("circle", {cx: x(end), cy: y(totals[s][end]), r: 4, fill: colour}));
  });
  $("chart").replaceChildren(chart);
  $("chart-legend").replaceChildren(...seats.map((s, k) => {   // each line's colour and dash beside its name
    const key = svg("svg", {viewBox: "0 0 24 8", width: 24, height: 8, "aria-hidden": "true"},
      svg("line", {x1: 0, x2: 24, y1: 4, y2: 4, stroke: COLOURS[k % COLOURS.length], "stroke-width": 3,
        "stroke-dasharray": DASHES[k % DASHES.length]}));
    return el("span", {}, key, ` ${seatName(s)} ${totals[s].at(-1)}`);
  }));
}

export function renderScores(game) {
  const table = $("score-table");
  if (!game) { table.replaceChildren(); $("chart-box").hidden = true; return; }
  const row = (cells, th) => {
    const tr = document.createElement("tr");
    cells.forEach((c) => {  // the empty corner is a plain cell: a header must say what it heads (axe)
      tr.appendChild(el(th && c !== "" ? "th" : "td", {textContent: c}));
    });
    return tr;
  };
  const seats = Array.from({length: game.players}, (_, i) => i + 1);
  const rows = [row(["", ...seats.map(seatName)], true)];
  // the table's score sheet: one row per settled round; a seat already out has no points
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
  renderChart(game);
}
