import { call, el, loadWords, t } from "/static/common.js";

let scenarios = [];

function showBots() {
  const chosen = scenarios.find((s) => s.id === document.getElementById("scenario").value);
  const box = document.getElementById("bots");
  box.replaceChildren(...(chosen ? chosen.sides : []).map((side) =>
    el("label", {}, `${side}: `, el("select", { "data-side": side },
      el("option", { value: "human" }, t("new.human")),
      el("option", { value: "heuristic" }, t("new.bot"))))));
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
  document.getElementById("create").onclick = () => {
    const seed = document.getElementById("seed").value;
    const bots = {};
    for (const pick of document.querySelectorAll("#bots select")) if (pick.value !== "human") bots[pick.dataset.side] = pick.value;
    const clock = document.getElementById("clock").value;
    create({ scenario: select.value, dice: document.getElementById("dice").value, bots, ...(seed ? { seed: Number(seed) } : {}),
      ...(clock ? { clock: { per_answer: Number(clock), then: "default" } } : {}) });
  };
  document.getElementById("load").onclick = async () => {
    const file = document.getElementById("record").files[0];
    if (file) create({ record: JSON.parse(await file.text()) });
  };
}

main();
