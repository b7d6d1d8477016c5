// The table page: the game as this link's token may see it, kept in step with the server.
// The page holds no game state of its own: every change arrives as a new version through
// server-sent events, and the page asks the API for the game again (by sequence number).
import { call, el, loadWords, percent, t } from "/static/common.js";

const gameId = location.pathname.split("/").pop();
const token = location.hash.slice(1);
const SIDE_COLOURS = ["#2a6fb0", "#b0352a", "#3a8a3a", "#b08a2a", "#7a3ab0", "#2ab0a5"];

let game = null; // the last game the server sent
let log = []; // the narrated log, entry by entry
let epoch = -1;
let selected = null; // the unit picked on the board
let measuring = null; // null: not measuring; []: first click awaited; [p]: second click
let replayAt = null; // a step of a finished game's replay, or null for now

const api = (method, path, body) => call(method, `/api/games/${gameId}${path}`, body, token);
const sideColour = (side) => SIDE_COLOURS[Math.max(0, game.sides.findIndex((s) => s.id === side)) % SIDE_COLOURS.length];
const sideName = (side) => (game.sides.find((s) => s.id === side) || { name: side }).name;

function showError(problem) {
  document.getElementById("error").textContent = problem ? problem.message : "";
}

/** Ask the server for the game (the log from where this page has it) and show it. */
async function refresh() {
  try {
    const query = replayAt === null ? `?since=${log.length}` : `?at=${replayAt}`;
    show(await api("GET", query));
  } catch (problem) {
    showError(problem);
  }
}

/** Show a game the server sent; a log that does not follow on from this page's (an
 * undo, a new language) is asked for again from its start. */
function show(fresh) {
  if (replayAt === null && fresh.log_start !== 0 && (fresh.epoch !== epoch || fresh.log_start !== log.length)) {
    log = [];
    epoch = fresh.epoch;
    refresh();
    return;
  }
  epoch = fresh.epoch;
  if (replayAt === null) log = fresh.log_start === 0 ? fresh.log : log.concat(fresh.log);
  game = fresh;
  render();
}

/** Follow the game through its event stream, opened with a ticket good for a minute (the
 * token never goes into a URL, where proxies log it); a dropped stream is opened again
 * with a new ticket. */
async function follow() {
  let ticket;
  try {
    ({ ticket } = await api("POST", "/tickets"));
  } catch (problem) {
    showError(problem);
    setTimeout(follow, 5000);
    return;
  }
  const events = new EventSource(`/api/games/${gameId}/events?ticket=${encodeURIComponent(ticket)}`);
  events.addEventListener("version", (event) => {
    const data = JSON.parse(event.data);
    if (!game || data.version !== game.version || data.seq !== game.seq) refresh();
  });
  events.onopen = () => refresh(); // after a dropped connection: resync
  events.onerror = () => {
    events.close();
    setTimeout(follow, 1000);
  };
}

// -- away from the table: the clock, the webhook, standing orders ---------------------------

let mySettings = null; // this side's webhook and standing orders

function formatLeft(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

/** Whose clock runs and how long it has left (redrawn every second). */
function renderClock() {
  const box = document.getElementById("clock");
  const clock = game && !game.finished && game.clock;
  if (!clock || !clock.deadline || !clock.side) { box.textContent = ""; return; }
  const left = clock.deadline - Date.now() / 1000;
  box.textContent = left > 0 ? t("table.clock", { side: sideName(clock.side), left: formatLeft(left) }) : t("table.clock_out", { side: sideName(clock.side) });
  box.className = left < 0.1 * clock.per_answer ? "short" : "";
}

async function loadSettings() {
  if (!game || !game.you) return;
  try { mySettings = await api("GET", "/settings"); } catch (problem) { showError(problem); }
  renderAway();
}

async function changeSettings(change) {
  showError(null);
  try {
    mySettings = await api("POST", "/settings", change);
    renderAway();
    await refresh();
    return true;
  } catch (problem) { showError(problem); return false; }
}

function orderText(order) {
  return order === "default" ? t("away.default") : t("away.at_most", { n: order.at_most });
}

function renderAway() {
  const panel = document.getElementById("away");
  panel.hidden = !game || !game.you || replayAt !== null;
  if (panel.hidden || !mySettings) return;
  const input = document.getElementById("webhook");
  if (document.activeElement !== input) input.value = mySettings.webhook || "";
  const orders = Object.entries(mySettings.orders || {});
  document.getElementById("orders").replaceChildren(...(orders.length ? orders.map(([kind, order]) =>
    el("div", { class: "order", "data-kind": kind }, `${kind}: ${orderText(order)} `,
      el("button", { onclick: () => changeSettings({ orders: { [kind]: null } }) }, t("away.drop"))))
    : [el("span", { class: "hint" }, t("away.no_orders"))]));
}

/** For the decision waiting now: make answering its kind a standing order. */
function standingOrderControls(pending) {
  const kind = pending.order_key;
  if (!kind) return "";
  const controls = [el("button", { id: "order-default", onclick: () => changeSettings({ orders: { [kind]: "default" } }) }, t("away.order_default"))];
  if (pending.options.every((o) => Number.isInteger(o.value))) {
    const limit = el("input", { id: "order-limit", type: "number", min: 0, size: 3, value: 0 });
    controls.push(el("div", {}, t("away.order_up_to"), " ", limit, " ",
      el("button", { id: "order-up-to", onclick: () => changeSettings({ orders: { [kind]: { at_most: Number(limit.value || 0) } } }) }, "✓")));
  }
  return el("details", { class: "standing" }, el("summary", {}, t("away.orders")), ...controls);
}

function render() {
  // the state this page shows, for whoever drives it (a test waits on it, never on time)
  Object.assign(document.body.dataset, { seq: game.seq, waiting: game.waiting_for || "", finished: game.finished ? "yes" : "" });
  document.title = `kubik — ${game.scenario_name}`;
  document.getElementById("title").textContent = game.scenario_name;
  renderTurn();
  renderBoard();
  renderRequest();
  renderLog();
  renderUndo();
  renderReplay();
  renderClock();
  renderAway();
}

function renderTurn() {
  const turn = document.getElementById("turn");
  const you = game.you ? t("table.you", { side: sideName(game.you) }) : t("table.spectator");
  let text;
  if (game.finished) {
    const winner = game.result && game.result.winner;
    text = winner ? t("table.won", { side: sideName(winner) }) : t("table.draw");
  } else if (game.pending && game.pending.yours) {
    text = t("table.your_turn");
  } else {
    text = t("table.waiting", { side: game.waiting_for ? sideName(game.waiting_for) : t("table.the_table") });
  }
  turn.textContent = `${you} · ${t("table.turn", { n: game.turn ?? 0 })} · ${text}`;
  turn.className = game.finished ? "over" : game.pending && game.pending.yours ? "yours" : "";
}

// -- the board ---------------------------------------------------------------------------

function boardPoint(svg, event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX; point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

/** The options of the pending decision that concern a unit (their value names it). */
function optionsOf(unit) {
  const options = (game.pending && game.pending.options) || [];
  return options.filter((o) => JSON.stringify(o.value).includes(`"${unit}"`));
}

/** Where the pending decision's options would move the selected unit (drag targets). */
function destinations() {
  const options = (game.pending && game.pending.options) || [];
  return options.filter((o) => o.value && typeof o.value.x === "number" && typeof o.value.y === "number");
}

//: Terrain by how hard it is to cross (the colours of `kubik board --svg`), then the
//: patterns that tell cover apart (woods and houses are both difficult ground).
const KIND_COLOURS = { open: "#d8cfa8", difficult: "#7fa36b", very_difficult: "#4f7a45", impassable: "#5b7fa8" };
const WATER = "#7fa7c9";

function patterns() {
  const hatch = el("pattern", { id: "hard-cover", width: 0.8, height: 0.8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    el("line", { x1: 0, y1: 0, x2: 0, y2: 0.8, stroke: "#3b2f22", "stroke-width": 0.18 }));
  const dots = el("pattern", { id: "light-cover", width: 0.9, height: 0.9, patternUnits: "userSpaceOnUse" },
    el("circle", { cx: 0.45, cy: 0.45, r: 0.14, fill: "#2f4a24" }));
  return el("defs", {}, hatch, dots);
}

/** A unit's short label, drawn on its models: its side's letter and its place among that
 * side's units (A1, B3), as the server gives it — the terminal's map draws the same. */
function shortLabel(unitId) {
  const card = (game.roster || {})[unitId];
  return card && card.label ? card.label : unitId;
}

function renderBoard() {
  const svg = document.getElementById("board");
  svg.replaceChildren();
  if (!game.table) return;
  const { width, height } = game.table;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.append(patterns(), el("rect", { x: 0, y: 0, width, height, fill: "#efe9d2" }));
  const ru = document.documentElement.lang === "ru";
  const nameSize = Math.max(0.45, Math.min(1, Math.max(width, height) / 60)); // names stay small on a small table
  for (const feature of game.table.features) {
    const points = feature.points.map((p) => p.join(",")).join(" ");
    const classes = ["feature", `kind-${feature.kind}`, feature.water && "water", feature.blocks_los && "blocks", feature.line && "line", `cover-${feature.cover}`].filter(Boolean).join(" ");
    const name = ru ? feature.name_ru : feature.name;
    const tip = el("title", {}, `${name}: ${t(`table.kind.${feature.kind}`)}, ${t("table.cover")}: ${feature.cover}`);
    const fill = feature.water ? WATER : KIND_COLOURS[feature.kind] || "#bbb";
    svg.append(el(feature.line ? "polyline" : "polygon", { points, class: classes, fill: feature.line ? "none" : fill, "data-feature": feature.id }, tip));
    if (!feature.line && feature.cover !== "none") {
      svg.append(el("polygon", { points, class: "cover", fill: `url(#${feature.cover === "hard" ? "hard" : "light"}-cover)` }));
    }
    const [cx, cy] = feature.points.reduce(([x, y], p) => [x + p[0] / feature.points.length, y + p[1] / feature.points.length], [0, 0]);
    svg.append(el("text", { x: cx, y: cy, class: "feature-name", "text-anchor": "middle", "font-size": nameSize }, name));
  }
  const pieces = game.view ? game.view.pieces : [];
  const mine = game.pending && game.pending.yours && selected;
  if (mine) for (const option of destinations()) {
    svg.append(el("circle", { cx: option.value.x, cy: option.value.y, r: 0.5, class: "dest" }, el("title", {}, option.label)));
    const from = pieces.find((p) => p.unit === selected && p.presence === "in_play");
    if (from) svg.append(el("line", { x1: from.x, y1: from.y, x2: option.value.x, y2: option.value.y, class: "dest-line" }));
  }
  const units = Object.fromEntries(((game.view && game.view.units) || []).map((u) => [u.id, u]));
  const square = game.ruleset === "fantasy"; // ranked regiments stand on square bases
  if (selected) renderReaches(svg, pieces, square);
  if (square) renderRegiments(svg, pieces, units);
  const badged = new Set();
  for (const piece of pieces) {
    const unit = units[piece.unit] || {};
    const classes = ["piece", piece.presence === "down" && "down", piece.posture === "prone" && "prone",
      piece.unit === selected && "selected", piece.hidden && "hidden", piece.on_guard && "on-guard"].filter(Boolean).join(" ");
    const r = piece.diameter / 2;
    const shape = { fill: sideColour(piece.side), class: classes, "data-piece": piece.id, "data-unit": piece.unit,
      onpointerdown: (event) => startDrag(event, piece) };
    const title = el("title", {}, `${(game.roster[piece.unit] || {}).name || piece.unit} (${piece.id}) — ${piece.presence}, ${piece.posture}`);
    const turn = square && unit.ahead ? (Math.atan2(unit.ahead[1], unit.ahead[0]) * 180) / Math.PI : 0; // a base square to its regiment
    svg.append(square
      ? el("rect", { ...shape, x: piece.x - r, y: piece.y - r, width: 2 * r, height: 2 * r, transform: `rotate(${turn} ${piece.x} ${piece.y})` }, title)
      : el("circle", { ...shape, cx: piece.x, cy: piece.y, r }, title));
    if (typeof piece.facing === "number") {
      const a = (piece.facing * Math.PI) / 180;
      svg.append(el("line", { x1: piece.x, y1: piece.y, x2: piece.x + r * Math.cos(a), y2: piece.y + r * Math.sin(a), class: "facing" }));
    }
    const marks = [piece.posture === "prone" ? "⤓" : "", piece.presence === "down" ? "✚" : "", ...(piece.markers || [])];
    if (piece.hidden) marks.push(t("mark.hidden"));
    if (piece.on_guard) marks.push(t("mark.on_guard"));
    if (!badged.has(piece.unit) && piece.presence === "in_play") {
      badged.add(piece.unit);
      if (!square) svg.append(el("text", { x: piece.x, y: piece.y + r + 0.75, class: "piece-label", "text-anchor": "middle" }, shortLabel(piece.unit)));
      marks.push(...unitMarks(unit));
    }
    const text = marks.filter(Boolean).join(" ");
    if (text) svg.append(el("text", { x: piece.x + r, y: piece.y - r, class: "marker" }, text));
  }
  svg.onclick = (event) => clickBoard(event, svg);
  renderMeasure(svg);
  renderLegend();
  renderCard(units);
}

/** The models of each unit still in play, by unit. */
function modelsByUnit(pieces) {
  const byUnit = new Map();
  for (const piece of pieces) if (piece.presence === "in_play") byUnit.set(piece.unit, [...(byUnit.get(piece.unit) || []), piece]);
  return byUnit;
}

/** A regiment drawn as one block: its frame around the models still in it, its label,
 * and its front: the front rank's edge drawn thick and the front arc (90°, 45° either
 * side of straight ahead) shaded, along the way the rules say it faces (``ahead``). */
function renderRegiments(svg, pieces, units) {
  for (const [unit, models] of modelsByUnit(pieces)) {
    const r = models[0].diameter / 2;
    const ahead = (units[unit] || {}).ahead;
    if (ahead) renderFrontArc(svg, models, r, ahead, unit);
    // the frame is drawn square to the regiment's facing: its ranks' and files' extent
    const [ax, ay] = ahead || [0, 1];
    const [rx, ry] = [-ay, ax];
    const along = models.map((m) => m.x * rx + m.y * ry), forward = models.map((m) => m.x * ax + m.y * ay);
    const [a0, a1] = [Math.min(...along) - r, Math.max(...along) + r];
    const [f0, f1] = [Math.min(...forward) - r, Math.max(...forward) + r];
    const at = (a, f) => [a * rx + f * ax, a * ry + f * ay];
    const corners = [at(a0, f0), at(a1, f0), at(a1, f1), at(a0, f1)];
    svg.append(el("polygon", { points: corners.map((p) => p.join(",")).join(" "), class: `regiment${unit === selected ? " selected" : ""}`, stroke: sideColour(models[0].side) }));
    const low = corners.reduce((a, b) => (b[1] > a[1] ? b : a)); // the label under the lowest corner
    const cx = corners.reduce((sum, p) => sum + p[0], 0) / 4;
    svg.append(el("text", { x: cx, y: low[1] + 0.9, class: "piece-label", "text-anchor": "middle" }, `${shortLabel(unit)} ×${models.length}`));
  }
}

//: How far the front arc is drawn ahead of a regiment (inches: a hint, not a measure).
const ARC_LENGTH = 4;

function renderFrontArc(svg, models, r, [ax, ay], unit) {
  const [rx, ry] = [-ay, ax]; // along the front rank
  const along = (m) => m.x * rx + m.y * ry;
  const forward = (m) => m.x * ax + m.y * ay;
  const front = Math.max(...models.map(forward));
  const rank = models.filter((m) => front - forward(m) < r);
  const left = rank.reduce((a, b) => (along(b) < along(a) ? b : a));
  const right = rank.reduce((a, b) => (along(b) > along(a) ? b : a));
  const corner = (m, side) => [m.x + ax * r + side * rx * r, m.y + ay * r + side * ry * r];
  const [lx, ly] = corner(left, -1), [qx, qy] = corner(right, 1);
  const reach = ARC_LENGTH / Math.SQRT2;
  const wedge = [[lx, ly], [qx, qy], [qx + (ax + rx) * reach, qy + (ay + ry) * reach], [lx + (ax - rx) * reach, ly + (ay - ry) * reach]];
  svg.append(el("polygon", { points: wedge.map((p) => p.join(",")).join(" "), class: "front-arc", "data-arc": unit },
    el("title", {}, t("table.front_arc"))));
  svg.append(el("line", { x1: lx, y1: ly, x2: qx, y2: qy, class: "front-edge" }));
}

/** The selected unit's weapons' reach, as its rule module gives it (measured from the
 * model's edge): the ground within reach of any of its models shaded, one shade a weapon
 * (a group's opacity: overlapping rings shade alike), its edge named with the weapon. */
function renderReaches(svg, pieces, square) {
  const reaches = (game.reaches || {})[selected] || [];
  const models = modelsByUnit(pieces).get(selected) || [];
  if (!reaches.length || !models.length) return;
  const r = models[0].diameter / 2;
  const group = el("g", { class: "reaches", "data-unit": selected });
  const top = models.reduce((a, b) => (b.y < a.y ? b : a));
  reaches.forEach((reach, i) => {
    const R = reach.reach;
    const shade = el("g", { class: `reach-shade reach-${Math.min(i, 2)}` });
    if (square) {
      const xs = models.map((m) => m.x), ys = models.map((m) => m.y);
      const [x0, y0, x1, y1] = [Math.min(...xs) - r - R, Math.min(...ys) - r - R, Math.max(...xs) + r + R, Math.max(...ys) + r + R];
      shade.append(el("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: R, ry: R, class: "reach" }));
    } else {
      for (const m of models) shade.append(el("circle", { cx: m.x, cy: m.y, r: R + r, class: "reach" }));
    }
    const name = reach.weapon || t("table.missile");
    group.append(shade, el("text", { x: top.x, y: top.y - r - R + 0.8, class: "reach-label", "text-anchor": "middle" }, `${name} ${reach.reach}"`));
  });
  svg.append(group);
}

/** What the table's colours and patterns mean: the kinds of ground on this table. */
function renderLegend() {
  const box = document.getElementById("legend");
  const features = game.table.features;
  const swatch = (style, label) => el("span", { class: "key" }, el("span", { class: `swatch ${style}` }), label);
  const kinds = [...new Set(features.filter((f) => !f.water && !f.line).map((f) => f.kind))];
  const keys = kinds.map((k) => swatch(`kind-${k}`, t(`table.kind.${k}`)));
  if (features.some((f) => f.water)) keys.push(swatch("water", t("table.water")));
  if (features.some((f) => f.cover === "hard" && !f.line)) keys.push(swatch("hard", t("table.hard_cover")));
  if (features.some((f) => f.cover === "light" && !f.line)) keys.push(swatch("light", t("table.light_cover")));
  if (features.some((f) => f.blocks_los)) keys.push(swatch("blocks", t("table.blocks_sight")));
  if (features.some((f) => f.line)) keys.push(swatch("line", t("table.obstacle")));
  keys.push(...game.sides.map((s) => el("span", { class: "key" }, el("span", { class: "swatch", style: `background:${sideColour(s.id)}` }), s.name)));
  box.replaceChildren(el("b", {}, t("table.legend")), " ", ...keys);
}

/** The selected unit's card: its name, its profile and gear, its state and markers. */
function renderCard(units) {
  const box = document.getElementById("card");
  const card = selected && (game.roster || {})[selected];
  if (!card) {
    box.replaceChildren(el("span", { class: "hint" }, t("table.card_hint")));
    return;
  }
  const rows = [];
  const ru = document.documentElement.lang === "ru";
  const flat = (value) => {
    if (typeof value === "boolean") return value ? "✓" : "—";
    if (!value || typeof value !== "object") return String(value);
    if (Array.isArray(value)) return value.map(flat).join(", ");
    if ("weapon" in value && "count" in value) return `${value.count} × ${value.weapon}`;
    const name = ru && value.name_ru ? value.name_ru : value.name;
    const rest = Object.entries(value).filter(([k]) => !["name", "name_ru", "name_ru_cases", "gender_ru"].includes(k));
    return [name, ...rest.map(([k, v]) => `${k} ${flat(v)}`)].filter(Boolean).join(" · ");
  };
  for (const [key, value] of Object.entries(card.profile)) rows.push(el("tr", {}, el("th", {}, key), el("td", {}, flat(value))));
  const state = units[selected] || {};
  const stateText = (card.state || []).join(", "); // in words, as the terminal's map legend says it
  const models = (game.view.pieces || []).filter((p) => p.unit === selected && p.presence === "in_play").length;
  const marks = unitMarks(state).join(" ");
  box.replaceChildren(
    el("div", {}, el("b", { style: `color:${sideColour(card.side)}` }, `${shortLabel(selected)} · ${card.name}`), ` — ${sideName(card.side)}`),
    el("div", {}, t("table.models", { n: models }), marks ? ` · ${marks}` : ""),
    stateText ? el("div", {}, `${t("table.state")}: ${stateText}`) : "",
    el("table", { class: "profile" }, ...rows),
  );
}

/** The markers a unit carries, as the page draws them beside its first model. */
function unitMarks(unit) {
  const marks = [];
  if (unit.suppression > 0) marks.push(`✱${unit.suppression}`);
  if (unit.morale && !["confident", "steady"].includes(unit.morale)) marks.push(t(`mark.morale.${unit.morale}`));
  if (unit.panic && unit.panic !== "none") marks.push(t("mark.panic"));
  if (unit.stance === "berserk") marks.push("⚑");
  if (unit.wounds > 0) marks.push(`✚${unit.wounds}`);
  if (unit.nerve && unit.nerve !== "steady") marks.push(t(`mark.nerve.${unit.nerve}`));
  if (unit.overwatch) marks.push(t("mark.overwatch"));
  return marks;
}

function startDrag(event, piece) {
  event.stopPropagation();
  if (measuring) return;
  selected = piece.unit;
  render();
  const svg = document.getElementById("board");
  const moves = destinations();
  if (!game.pending || !game.pending.yours || moves.length === 0) return;
  const ghost = el("circle", { cx: piece.x, cy: piece.y, r: piece.diameter / 2, fill: sideColour(piece.side), opacity: 0.5 });
  svg.append(ghost);
  const move = (e) => { const p = boardPoint(svg, e); ghost.setAttribute("cx", p.x); ghost.setAttribute("cy", p.y); };
  const drop = (e) => {
    svg.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", drop);
    ghost.remove();
    const p = boardPoint(svg, e);
    if (Math.hypot(p.x - piece.x, p.y - piece.y) < 0.3) return; // a click, not a drag
    // the rules allow only the offered moves: the drop picks the nearest of them
    const nearest = moves.reduce((best, o) => (Math.hypot(o.value.x - p.x, o.value.y - p.y) < Math.hypot(best.value.x - p.x, best.value.y - p.y) ? o : best));
    answer(nearest.index);
  };
  svg.addEventListener("pointermove", move);
  window.addEventListener("pointerup", drop);
}

async function clickBoard(event, svg) {
  if (measuring === null) return;
  const p = boardPoint(svg, event);
  if (measuring.length >= 2) measuring = [];
  measuring.push([p.x, p.y]);
  if (measuring.length === 2) {
    const [a, b] = measuring;
    try {
      const found = await api("GET", `/measure?a=${a.map((v) => v.toFixed(2)).join(",")}&b=${b.map((v) => v.toFixed(2)).join(",")}`);
      measuring.result = found;
      document.getElementById("measured").textContent = t("table.measured", {
        distance: found.distance, sees: found.sees ? t("table.sees") : t("table.blocked"), cover: found.cover });
    } catch (problem) { showError(problem); }
  }
  renderMeasure(svg);
}

function renderMeasure(svg) {
  if (!measuring || measuring.length < 2) return;
  const [a, b] = measuring;
  svg.append(el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "measure" }));
  if (measuring.result) svg.append(el("text", { x: (a[0] + b[0]) / 2, y: (a[1] + b[1]) / 2, class: "measure-text" }, `${measuring.result.distance}"`));
}

// -- the pending request -------------------------------------------------------------------

//: The field an option's headline figure reads, most telling first.
const HEADLINE_FIELDS = ["killed", "casualties", "removed", "wounded", "wounds", "knocked_down", "hits", "hit", "success", "winner"];

const fieldWord = (name) => { const word = t(`field.${name}`); return word === `field.${name}` ? name.replace(/_/g, " ") : word; };

/** One labelled figure for an option: the chance of its most telling outcome. */
function headline(odds) {
  if (odds && odds.pending) return t("table.odds_pending");
  if (odds && odds.unavailable) return t("table.odds_unavailable", { why: odds.unavailable });
  const won = sideWins(odds);
  if (won) return won;
  if (!odds || !odds.fields) return null;
  const name = HEADLINE_FIELDS.find((f) => f in odds.fields) || Object.keys(odds.fields)[0];
  if (!name) return null;
  const values = odds.fields[name].values || [];
  const numeric = values.every((v) => typeof v.value === "number");
  if (!numeric) {
    const top = values.reduce((a, b) => (b.p > a.p ? b : a), values[0]);
    return top ? `${fieldWord(name)}: ${top.value} ${percent(top.p)}` : null;
  }
  const one = values.find((v) => v.value >= 1);
  const p = one ? one.p_at_least : 0;
  const binary = values.every((v) => v.value === 0 || v.value === 1);
  return binary ? t("table.chance", { field: fieldWord(name), p: percent(p) }) : t("table.at_least_one", { field: fieldWord(name), p: percent(p) });
}

/** A fight's headline by name, never by letter: the chance that the side choosing wins
 * ("Greatswords win: 54.7%"), read from the forecast's outcomes. */
function sideWins(odds) {
  if (!odds || !odds.sides || !odds.sides.length || !odds.outcomes) return null;
  if (!odds.outcomes.some((o) => o.outcome && typeof o.outcome === "object" && "winner" in o.outcome)) return null;
  const ours = odds.sides[0];
  const p = odds.outcomes.filter((o) => o.outcome.winner === ours.letter).reduce((sum, o) => sum + o.p, 0);
  return t("table.wins", { name: ours.name, p: percent(p) });
}

/** An option's odds in full, shown on demand: who the letters stand for, the sentences,
 * then each field's average. */
function oddsDetails(odds) {
  if (!odds || (!odds.sentences && !odds.fields)) return null;
  const lines = (odds.sentences || []).map((s) => el("div", {}, s));
  if (odds.sides && odds.sides.length) {
    lines.unshift(el("div", { class: "sides" }, t("table.sides_are", { sides: odds.sides.map((s) => `${s.letter} — ${s.name}`).join(", ") })));
  }
  for (const [name, field] of Object.entries(odds.fields || {})) {
    if (typeof field.e === "number") lines.push(el("div", {}, t("table.expected", { field: fieldWord(name), value: field.e.toFixed(2) })));
  }
  return el("details", { class: "odds", onclick: (event) => event.stopPropagation() }, el("summary", {}, t("table.details")), ...lines);
}

/** Options grouped by what they do (the first word of their label: fire, move, march…). */
function groupOptions(options) {
  const groups = new Map();
  for (const option of options) {
    const key = option.label.split(/[\s:(,]/)[0].toLowerCase();
    groups.set(key, [...(groups.get(key) || []), option]);
  }
  return [...groups.values()];
}

async function answer(value, text) {
  showError(null);
  try {
    const body = text === undefined ? { seq: game.seq, answer: value } : { seq: game.seq, text };
    show(await api("POST", `/answers?since=${log.length}`, body));
  } catch (problem) {
    showError(problem);
    if (problem.status === 409) refresh();
  }
}

//: Dice typed into the page, kept across re-renders of the same request: seq → values.
let typedDice = { seq: -1, values: [] };

function renderRequest() {
  const box = document.getElementById("request");
  const pending = game.pending;
  if (replayAt !== null || !pending) {
    box.replaceChildren(el("b", {}, game.finished ? t("table.over") : t("table.nothing")));
    return;
  }
  const parts = [el("div", {}, el("b", {}, pending.reason || t("table.their_decision", { side: sideName(pending.side) })))];
  if (pending.sealed) parts.push(el("div", { class: "odds" }, t("table.sealed")));
  if (!pending.yours) {
    parts.push(el("div", {}, t("table.waiting", { side: pending.side ? sideName(pending.side) : t("table.the_table") })));
  } else if (pending.kind === "roll") {
    if (typedDice.seq !== game.seq) typedDice = { seq: game.seq, values: pending.dice.map(() => "") };
    parts.push(el("div", {}, t("table.roll", { dice: pending.dice.join(" "), who: pending.roller_name || "" })));
    const inputs = pending.dice.map((die, i) => el("input", {
      type: "number", min: 1, max: Number(die.replace(/\D/g, "")) || 6, class: "die", "aria-label": `${die} ${i + 1}`, size: 3,
      value: typedDice.values[i], oninput: (event) => { typedDice.values[i] = event.target.value; },
    }));
    const send = el("button", { id: "send-dice", onclick: () => {
      const values = inputs.map((input) => input.value.trim());
      if (values.some((v) => v === "" || !/^\d+$/.test(v))) { showError({ message: t("table.fill_dice") }); return; }
      answer(values.map(Number));
    } }, t("table.send_dice"));
    parts.push(el("div", {}, ...inputs.flatMap((input, i) => [pending.dice[i], " ", input, " "]), send));
  } else {
    const relevant = selected ? new Set(optionsOf(selected).map((o) => o.index)) : new Set();
    const groups = groupOptions(pending.options);
    const open = groups.find((g) => g.some((o) => o.default)) || groups[0];
    for (const group of groups) {
      const buttons = group.map((option) => {
        const classes = ["option", option.default && "default", relevant.has(option.index) && "unit-match"].filter(Boolean).join(" ");
        const figure = headline(option.odds);
        return el("div", { class: "choice" },
          el("button", { class: classes, "data-index": option.index, onclick: () => answer(option.index) },
            el("span", {}, `${option.index + 1}. ${option.label}`), figure ? el("span", { class: "figure" }, figure) : ""),
          oddsDetails(option.odds));
      });
      const many = groups.length > 1 && group.length > 1;
      const shownOpen = !many || group === open || group.some((o) => relevant.has(o.index));
      parts.push(many
        ? el("details", { class: "group", open: shownOpen }, el("summary", {}, `${group[0].label.split(/[\s:(,]/)[0]} (${group.length})`), ...buttons)
        : el("div", { class: "group" }, ...buttons));
    }
    parts.push(standingOrderControls(pending));
    if (pending.entry) {
      const input = el("input", { id: "entry", placeholder: pending.entry, size: 30 });
      parts.push(el("div", {}, input, el("button", { onclick: () => answer(null, input.value) }, t("table.send_text"))));
    }
  }
  box.replaceChildren(...parts);
}

/** A roll's dice drawn as dice: one square face per die, its value on it. */
function diceFaces(entry) {
  const values = entry.values || [];
  return el("span", { class: "dice" }, ...values.map((v, i) => el("span", { class: "face", title: (entry.dice || [])[i] || "" }, String(v))));
}

function renderLog() {
  const box = document.getElementById("log");
  const shown = replayAt === null ? log : game.log;
  box.replaceChildren(...shown.map((entry) => {
    const faces = entry.type === "roll" && Array.isArray(entry.values) && entry.values.length ? diceFaces(entry) : "";
    const mark = entry.type === "roll" ? (entry.origin === "typed" ? "✍ " : faces ? "" : "🎲 ") : entry.type === "choice" ? "▸ " : "";
    return el("div", { class: entry.type, style: `margin-left:${entry.depth}em` }, mark, faces, faces ? " " : "", entry.text);
  }));
  box.scrollTop = box.scrollHeight;
}

function renderUndo() {
  const state = document.getElementById("undo-state");
  const asked = game.undo_asked || [];
  const button = document.getElementById("undo");
  button.disabled = !game.you || replayAt !== null || game.seq === 0 || game.finished; // a finished game stays finished
  if (asked.length === 0) state.textContent = "";
  else if (asked.includes(game.you)) state.textContent = t("table.undo_waiting");
  else state.textContent = t("table.undo_asked", { side: asked.map(sideName).join(", ") });
  button.textContent = asked.length && !asked.includes(game.you) ? t("table.undo_agree") : t("table.undo");
  // no die rolled since this side's last decision: it takes it back alone
  const takeBack = document.getElementById("take-back");
  takeBack.disabled = !game.take_back || replayAt !== null;
  takeBack.title = t("table.take_back_hint");
}

function renderReplay() {
  const panel = document.getElementById("replay");
  panel.hidden = !game.finished && replayAt === null;
  const step = document.getElementById("step");
  if (replayAt === null) { step.max = game.seq; step.value = game.seq; }
  document.getElementById("step-at").textContent = t("table.step", { at: step.value, of: step.max });
}

async function replayStep(at) {
  const step = document.getElementById("step");
  const max = Number(step.max);
  replayAt = Math.max(0, Math.min(max, at));
  step.value = replayAt;
  if (replayAt === max) replayAt = null;
  await refresh();
}

async function main() {
  await loadWords(() => { log = []; refresh(); });
  document.getElementById("undo").onclick = async () => {
    try { await api("POST", "/undo", { seq: game.seq }); await refresh(); } catch (problem) { showError(problem); }
  };
  document.getElementById("take-back").onclick = async () => {
    try { await api("POST", "/undo", { seq: game.seq, to: "decision" }); await refresh(); } catch (problem) { showError(problem); }
  };
  document.getElementById("measure").onclick = () => {
    measuring = measuring === null ? [] : null;
    document.getElementById("measured").textContent = measuring ? t("table.measure_hint") : "";
    if (game) renderBoard();
  };
  document.getElementById("step").oninput = (e) => replayStep(Number(e.target.value));
  document.getElementById("step-back").onclick = () => replayStep(Number(document.getElementById("step").value) - 1);
  document.getElementById("step-on").onclick = () => replayStep(Number(document.getElementById("step").value) + 1);
  document.getElementById("save").onclick = async () => {
    try {
      const record = await api("GET", "/record");
      const link = el("a", { href: URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" })), download: `kubik-${gameId}.json` });
      link.click();
    } catch (problem) { showError(problem); }
  };
  document.getElementById("save-webhook").onclick = async () => {
    const url = document.getElementById("webhook").value.trim();
    if (await changeSettings({ webhook: url || null })) document.getElementById("webhook-state").textContent = t("away.saved");
  };
  await refresh();
  await loadSettings();
  setInterval(renderClock, 1000);
  follow();
}

main();
