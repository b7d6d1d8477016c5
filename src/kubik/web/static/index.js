import { call, el, loadWords, t } from "/static/common.js";

let scenarios = [];

function showBots() {
  const chosen = scenarios.find((s) => s.id === document.getElementById("scenario").value);
  const box = document.getElementById("bots");
  box.replaceChildren(...(chosen ? chosen.sides : []).map((side) =>
    el("p", {},
      el("label", {}, `${side}: `, el("select", { "data-side": side },
        el("option", { value: "human" }, t("new.human")),
        el("option", { value: "heuristic" }, t("new.bot")))),
      " ",
      el("label", {}, t("new.roster"), " ",
        el("input", { type: "file", "data-roster": side, accept: ".ros,.rosz" })))));
}

// A roster file as the API takes it: its name and its bytes in base64.
async function rosterUpload(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = "";
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return { name: file.name, data: btoa(text) };
}

function showLinks(created) {
  const list = document.getElementById("link-list");
  const base = `${location.origin}/play/${created.game}#`;
  const rows = Object.entries(created.sides).map(([side, token]) => [t("links.side", { side }), base + token]);
  rows.push([t("links.spectator"), base + created.spectator]);
  list.replaceChildren(...rows.map(([name, url]) =>
    el("p", {}, el("b", {}, name), " ", el("a", { href: url, target: "_blank", class: "link" }, t("links.open")), el("input", { value: url, readonly: true }))));
  document.getElementById("links").hidden = false;
}

async function create(body) {
  const error = document.getElementById("error");
  error.textContent = "";
  try {
    showLinks(await call("POST", "/api/games", body));
  } catch (problem) {
    error.textContent = problem.message;
  }
}

async function main() {
  await loadWords(showBots);
  scenarios = await call("GET", "/api/scenarios");
  const select = document.getElementById("scenario");
  select.replaceChildren(...scenarios.map((s) => el("option", { value: s.id }, `${s.id} — ${s.name}`)));
  select.onchange = showBots;
  showBots();
  document.getElementById("create").onclick = async () => {
    const seed = document.getElementById("seed").value;
    const bots = {};
    for (const pick of document.querySelectorAll("#bots select")) if (pick.value !== "human") bots[pick.dataset.side] = pick.value;
    const clock = document.getElementById("clock").value;
    const rosters = {};
    for (const input of document.querySelectorAll("#bots input[type=file]")) {
      if (input.files[0]) rosters[input.dataset.roster] = await rosterUpload(input.files[0]);
    }
    create({ scenario: select.value, dice: document.getElementById("dice").value, bots, rosters, ...(seed ? { seed: Number(seed) } : {}),
      ...(clock ? { clock: { per_answer: Number(clock), then: "default" } } : {}) });
  };
  document.getElementById("load").onclick = async () => {
    const file = document.getElementById("record").files[0];
    if (file) create({ record: JSON.parse(await file.text()) });
  };
}

main();
