// The odds page: a procedure's input form generated from its JSON schema, the exact
// distribution from the API (the same as `kubik odds --json`), shareable by URL.
import { barChart, call, el, lang, loadWords, outcomeText, percent, t } from "/static/common.js";

let procedures = [];
let build = null; // collects the form's value

function resolveRef(schema, root) {
  if (schema && schema.$ref) return root.$defs[schema.$ref.split("/").pop()];
  if (schema && schema.allOf && schema.allOf.length === 1) return { ...resolveRef(schema.allOf[0], root), ...schema, allOf: undefined };
  return schema;
}

/** A form control for ``schema`` with ``value``; returns [node, collect()]. */
function control(name, rawSchema, value, root) {
  const schema = { ...resolveRef(rawSchema, root), description: rawSchema.description ?? resolveRef(rawSchema, root).description };
  const title = el("span", { title: schema.description || "" }, name);
  if (schema.anyOf) {
    const input = el("input", { name, value: value === null || value === undefined ? "" : JSON.stringify(value), placeholder: "null" });
    return [el("label", {}, title, " ", input), () => (input.value.trim() ? JSON.parse(input.value) : null)];
  }
  if (schema.enum) {
    const select = el("select", { name }, ...schema.enum.map((v) => el("option", { value: v, selected: v === value }, v)));
    return [el("label", {}, title, " ", select), () => select.value];
  }
  if (schema.type === "boolean") {
    const box = el("input", { type: "checkbox", name, checked: Boolean(value) });
    return [el("label", {}, title, " ", box), () => box.checked];
  }
  if (schema.type === "integer" || schema.type === "number") {
    const input = el("input", { type: "number", name, value: value ?? "", min: schema.minimum, max: schema.maximum, step: schema.type === "integer" ? 1 : "any", size: 5 });
    return [el("label", {}, title, " ", input), () => Number(input.value)];
  }
  if (schema.type === "object") return objectForm(name, schema, value || {}, root);
  if (schema.type === "array") {
    const item = resolveRef(schema.items, root);
    if (item && item.type === "object") {
      const list = el("div");
      const collectors = [];
      const add = (v) => {
        const [node, collect] = objectForm(`${name}[${collectors.length}]`, item, v || {}, root);
        const entry = { collect, node };
        const remove = el("button", { type: "button", onclick: () => { node.remove(); collectors.splice(collectors.indexOf(entry), 1); } }, "−");
        node.append(remove);
        collectors.push(entry);
        list.append(node);
      };
      (value || [{}]).forEach(add);
      const more = el("button", { type: "button", onclick: () => add({}) }, "+");
      return [el("fieldset", {}, el("legend", {}, title), list, more), () => collectors.map((c) => c.collect())];
    }
    const input = el("input", { name, value: JSON.stringify(value ?? []), size: 20 });
    return [el("label", {}, title, " ", input), () => JSON.parse(input.value || "[]")];
  }
  const input = el("input", { name, value: value ?? "" });
  return [el("label", {}, title, " ", input), () => input.value];
}

function objectForm(name, schema, value, root) {
  const collectors = {};
  const box = el("fieldset", {}, el("legend", {}, name));
  for (const [key, property] of Object.entries(schema.properties || {})) {
    const initial = key in value ? value[key] : property.default;
    const [node, collect] = control(key, property, initial, root);
    collectors[key] = collect;
    box.append(node);
  }
  return [box, () => Object.fromEntries(Object.entries(collectors).map(([k, c]) => [k, c()]))];
}

function showForm(input) {
  const name = document.getElementById("procedure").value;
  const spec = procedures.find((p) => p.name === name);
  document.getElementById("summary").textContent = `${spec.summary} (${spec.rules.join(", ")})`;
  const [node, collect] = objectForm(name, spec.input_schema, input || spec.examples[0] || {}, spec.input_schema);
  document.getElementById("form").replaceChildren(node);
  build = collect;
}

async function showPolicies(chosen) {
  const name = document.getElementById("procedure").value;
  const names = await call("GET", `/api/odds/policies?procedure=${encodeURIComponent(name)}`);
  const select = document.getElementById("policy");
  select.replaceChildren(...names.map((n) => el("option", { value: n, selected: n === chosen }, t(`odds.policy.${n}`))));
}

function showProcedures(ruleset, chosen) {
  const select = document.getElementById("procedure");
  select.replaceChildren(...procedures.filter((p) => p.ruleset === ruleset).map((p) => el("option", { value: p.name, selected: p.name === chosen }, p.name)));
}

function showResult(result) {
  const box = document.getElementById("result");
  const rows = result.outcomes.map((o) => ({ label: outcomeText(o.outcome), p: o.p, probability: o.probability }));
  const parts = [el("h2", {}, t("odds.distribution")), barChart(rows)];
  for (const [field, summary] of Object.entries(result.fields || {})) {
    parts.push(el("h3", {}, `${field}: ${t("odds.expected")} ${summary.e.toFixed(3)} (${summary.expected})`));
    parts.push(el("table", { class: "fields" },
      el("tr", {}, el("th", {}, field), el("th", {}, "P(=)"), el("th", {}, t("odds.at_least"))),
      ...summary.values.map((v) => el("tr", {}, el("td", {}, v.value), el("td", { title: v.probability }, percent(v.p)), el("td", { title: v.at_least }, percent(v.p_at_least))))));
  }
  if (result.objectives) {
    parts.push(el("h3", {}, t("odds.optimal")));
    for (const [side, goal] of Object.entries(result.objectives)) parts.push(el("div", {}, `${side}: ${goal.goal} — ${goal.expected} (${goal.e})`));
    for (const row of result.explain || []) {
      const choice = row.choice.map((c) => `${c.label}${c.probability !== "1" ? ` (${c.probability})` : ""}`).join(" / ");
      parts.push(el("div", { class: "odds" }, `${row.situation} → ${choice} · ${t("odds.reach")} ${percent(row.p)}`));
    }
  }
  box.replaceChildren(...parts);
}

async function calculate() {
  const error = document.getElementById("error");
  error.textContent = "";
  const procedure = document.getElementById("procedure").value;
  const policy = document.getElementById("policy").value || "default";
  try {
    const input = build();
    const query = new URLSearchParams({ procedure, policy, input: JSON.stringify(input) });
    history.replaceState(null, "", `/odds?${query}`);
    document.getElementById("share").href = location.href;
    const explain = policy === "optimal";
    showResult(await call("POST", `/api/odds?lang=${lang()}`, { procedure, input, policy, explain }));
  } catch (problem) {
    error.textContent = problem.message;
  }
}

async function main() {
  await loadWords(() => showPolicies(document.getElementById("policy").value));
  procedures = await call("GET", "/api/procedures");
  const query = new URLSearchParams(location.search);
  const chosen = query.get("procedure") || "steel_war.fire";
  const rulesets = [...new Set(procedures.map((p) => p.ruleset))];
  const rulesetSelect = document.getElementById("ruleset");
  const start = (procedures.find((p) => p.name === chosen) || procedures[0]);
  rulesetSelect.replaceChildren(...rulesets.map((r) => el("option", { value: r, selected: r === start.ruleset }, r)));
  showProcedures(start.ruleset, start.name);
  let input = null;
  try { input = query.get("input") ? JSON.parse(query.get("input")) : null; } catch { input = null; }
  showForm(input);
  await showPolicies(query.get("policy") || "default");
  rulesetSelect.onchange = async () => { showProcedures(rulesetSelect.value); showForm(); await showPolicies("default"); };
  document.getElementById("procedure").onchange = async () => { showForm(); await showPolicies("default"); };
  document.getElementById("calculate").onclick = calculate;
  if (query.get("procedure")) await calculate();
}

main();
