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
  turn.className = game.pending && game.pending.yours ? "yours" : "";
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

function renderBoard() {
  const svg = document.getElementById("board");
  svg.replaceChildren();
  if (!game.table) return;
  const { width, height } = game.table;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.append(el("rect", { x: 0, y: 0, width, height, fill: "#d9d2b8" }));
  for (const feature of game.table.features) {
    const points = feature.points.map((p) => p.join(",")).join(" ");
    const classes = ["feature", `kind-${feature.kind}`, feature.water && "water", feature.blocks_los && "blocks", feature.line && "line"].filter(Boolean).join(" ");
    const name = document.documentElement.lang === "ru" ? feature.name_ru : feature.name;
    svg.append(el(feature.line ? "polyline" : "polygon", { points, class: classes, "data-feature": feature.id },
      el("title", {}, `${name} (${feature.kind}, ${t("table.cover")}: ${feature.cover})`)));
  }
  const pieces = game.view ? game.view.pieces : [];
  const mine = game.pending && game.pending.yours && selected;
  if (mine) for (const option of destinations()) {
    svg.append(el("circle", { cx: option.value.x, cy: option.value.y, r: 0.5, class: "dest" }, el("title", {}, option.label)));
  }
  const units = Object.fromEntries(((game.view && game.view.units) || []).map((u) => [u.id, u]));
  const badged = new Set();
  for (const piece of pieces) {
    const unit = units[piece.unit] || {};
    const classes = ["piece", piece.presence === "down" && "down", piece.posture === "prone" && "prone", piece.unit === selected && "selected"].filter(Boolean).join(" ");
    const details = Object.entries(unit).filter(([k]) => k !== "id" && k !== "side").map(([k, v]) => `${k}: ${v}`).join(", ");
    const circle = el("circle", {
      cx: piece.x, cy: piece.y, r: piece.diameter / 2, fill: sideColour(piece.side), class: classes,
      "data-piece": piece.id, "data-unit": piece.unit,
      onpointerdown: (event) => startDrag(event, piece),
    }, el("title", {}, `${piece.id} (${piece.unit}) ${piece.presence} ${piece.posture}${details ? ` — ${details}` : ""}`));
    svg.append(circle);
    const marks = [piece.posture === "prone" ? "⤓" : "", piece.presence === "down" ? "✚" : "", ...(piece.markers || [])];
    if (!badged.has(piece.unit) && piece.presence === "in_play") {
      badged.add(piece.unit);
      marks.push(...unitMarks(unit));
    }
    const text = marks.filter(Boolean).join(" ");
    if (text) svg.append(el("text", { x: piece.x + piece.diameter / 2, y: piece.y - piece.diameter / 2, class: "marker" }, text));
  }
  svg.onclick = (event) => clickBoard(event, svg);
  renderMeasure(svg);
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
  if (unit.hidden) marks.push(t("mark.hidden"));
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

function oddsLines(odds) {
  if (!odds) return [];
  const lines = (odds.sentences || []).map((s) => el("div", {}, s));
  lines.push(el("div", {}, `${t("table.worth")} ${odds.expected}`));
  return lines;
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
    parts.push(el("div", {}, t("table.roll", { dice: pending.dice.join(" "), who: pending.roller_name || "" })));
    const inputs = pending.dice.map((die, i) => el("input", { type: "number", min: 1, max: Number(die.replace(/\D/g, "")) || 6, class: "die", "aria-label": `${die} ${i + 1}`, size: 3 }));
    const send = el("button", { id: "send-dice", onclick: () => answer(inputs.map((i) => Number(i.value))) }, t("table.send_dice"));
    parts.push(el("div", {}, ...inputs.flatMap((input, i) => [pending.dice[i], " ", input, " "]), send));
  } else {
    const relevant = selected ? new Set(optionsOf(selected).map((o) => o.index)) : new Set();
    for (const option of pending.options) {
      const classes = ["option", option.default && "default", relevant.has(option.index) && "unit-match"].filter(Boolean).join(" ");
      parts.push(el("button", { class: classes, "data-index": option.index, onclick: () => answer(option.index) },
        el("div", {}, `${option.index + 1}. ${option.label}`), el("div", { class: "odds" }, ...oddsLines(option.odds))));
    }
    if (pending.entry) {
      const input = el("input", { id: "entry", placeholder: pending.entry, size: 30 });
      parts.push(el("div", {}, input, el("button", { onclick: () => answer(null, input.value) }, t("table.send_text"))));
    }
  }
  box.replaceChildren(...parts);
}

function renderLog() {
  const box = document.getElementById("log");
  const shown = replayAt === null ? log : game.log;
  box.replaceChildren(...shown.map((entry) => {
    const mark = entry.type === "roll" ? (entry.origin === "typed" ? "✍ " : "🎲 ") : entry.type === "choice" ? "▸ " : "";
    return el("div", { class: entry.type, style: `margin-left:${entry.depth}em` }, mark + entry.text);
  }));
  box.scrollTop = box.scrollHeight;
}

function renderUndo() {
  const state = document.getElementById("undo-state");
  const asked = game.undo_asked || [];
  const button = document.getElementById("undo");
  button.disabled = !game.you || replayAt !== null || game.seq === 0;
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
  await refresh();
  follow();
}

main();
