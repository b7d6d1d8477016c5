// The odds page: a procedure's input form generated from its JSON schema, the exact
// distribution from the API (the same as `kubik odds --json`), variants of the question
// side by side (`--vs`) and one input swept (`--over`), shareable by URL: the address
// holds the question (as JSON in `input`, or as words in `words`), `vs` and `over`.
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

const signed = (x, digits) => (Math.abs(x) < 0.5 * 10 ** -digits ? "0" : `${x > 0 ? "+" : ""}${x.toFixed(digits)}`);

/** P(field ≥ value) / P(field = value) in one answer's fields. */
const atLeast = (fields, field, value) => (fields[field]?.values || []).filter((r) => r.value >= value).reduce((a, r) => a + r.p, 0);
const chance = (fields, field, value) => (fields[field]?.values || []).filter((r) => r.value === value).reduce((a, r) => a + r.p, 0);

/** The "at least" values worth a row: above the lowest, not negligible nor certain. */
function thresholds(answers, field, most = 6) {
  const rows = answers.flatMap((a) => a[field]?.values || []);
  const lowest = Math.min(...rows.map((r) => r.value));
  return [...new Set(rows.filter((r) => r.value > lowest && r.p_at_least >= 0.0005 && r.p_at_least < 1).map((r) => r.value))].sort((a, b) => a - b).slice(0, most);
}

function choices(answers, field) {
  const seen = new Map();
  for (const a of answers) for (const r of a[field]?.values || []) if (!seen.has(JSON.stringify(r.value))) seen.set(JSON.stringify(r.value), r);
  return [...seen.values()];
}

function showCompared(found) {
  const answers = found.variants.map((v) => v.fields);
  const head = el("tr", {}, el("th", {}), ...found.variants.map((v) => el("th", {}, v.label || t("odds.as_asked"))),
    ...found.variants.slice(1).map((v) => el("th", {}, found.variants.length > 2 ? `${t("odds.difference")}: ${v.label}` : t("odds.difference"))));
  const rows = [];
  const names = [...new Set(answers.flatMap((a) => Object.keys(a)))];
  for (const name of names) {
    if (answers.some((a) => a[name]?.choice)) {
      for (const row of choices(answers, name)) {
        const odds = answers.map((a) => chance(a, name, row.value));
        rows.push(el("tr", {}, el("th", {}, `${name} = ${row.text ?? row.value}`), ...odds.map((p) => el("td", {}, percent(p))),
          ...odds.slice(1).map((p) => el("td", {}, `${signed(100 * (p - odds[0]), 1)} pp`))));
      }
      continue;
    }
    const means = answers.map((a) => a[name]?.e ?? 0);
    rows.push(el("tr", {}, el("th", {}, `${name}: ${t("odds.expected")}`), ...means.map((m) => el("td", {}, m.toFixed(2))),
      ...means.slice(1).map((m) => el("td", {}, signed(m - means[0], 2)))));
    for (const value of thresholds(answers, name)) {
      const odds = answers.map((a) => atLeast(a, name, value));
      rows.push(el("tr", {}, el("th", {}, `${name} ≥ ${value}`), ...odds.map((p) => el("td", {}, percent(p))),
        ...odds.slice(1).map((p) => el("td", {}, `${signed(100 * (p - odds[0]), 1)} pp`))));
    }
  }
  return [el("h2", {}, t("odds.compared")), el("table", { class: "fields compare" }, head, ...rows)];
}

/** A line chart of each field's mean against the swept value (an SVG, like the bars). */
function sweepChart(found, width = 760, height = 300) {
  const points = found.points.filter((p) => !p.error);
  const names = [...new Set(points.flatMap((p) => Object.keys(p.fields)))].filter((n) => !points.some((p) => p.fields[n]?.choice));
  const xs = points.map((p) => p.value);
  const top = Math.max(1e-9, ...points.flatMap((p) => names.map((n) => p.fields[n]?.e ?? 0)));
  const [left, right, pad] = [50, width - 140, 20];
  const x = (v) => left + ((v - Math.min(...xs)) / Math.max(1, Math.max(...xs) - Math.min(...xs))) * (right - left);
  const y = (v) => height - pad - (v / top) * (height - 2 * pad);
  const svg = el("svg", { class: "sweep", width, height, viewBox: `0 0 ${width} ${height}` },
    el("line", { x1: left, y1: height - pad, x2: right, y2: height - pad, class: "axis" }),
    el("line", { x1: left, y1: pad, x2: left, y2: height - pad, class: "axis" }),
    el("text", { x: left - 6, y: pad + 4, "text-anchor": "end", class: "bar-value" }, top.toFixed(2)),
    el("text", { x: left - 6, y: height - pad, "text-anchor": "end", class: "bar-value" }, "0"),
    el("text", { x: left, y: height - 4, class: "bar-value" }, String(Math.min(...xs))),
    el("text", { x: right, y: height - 4, "text-anchor": "end", class: "bar-value" }, `${found.field} = ${Math.max(...xs)}`));
  names.forEach((name, i) => {
    const line = points.map((p) => `${x(p.value)},${y(p.fields[name]?.e ?? 0)}`).join(" ");
    svg.append(el("polyline", { points: line, class: `series series-${i % 6}`, fill: "none" }),
      el("text", { x: right + 8, y: pad + 16 * i + 4, class: `bar-value series-${i % 6}` }, `${name}: ${t("odds.expected")}`));
  });
  return svg;
}

function showSwept(found) {
  const answers = found.points.map((p) => p.fields);
  const names = [...new Set(answers.flatMap((a) => Object.keys(a)))];
  const numeric = names.filter((n) => !answers.some((a) => a[n]?.choice));
  const columns = [];
  for (const name of names) {
    if (numeric.length && !numeric.includes(name)) continue;
    if (!numeric.includes(name)) { for (const row of choices(answers, name).slice(0, 1)) columns.push([`${name} = ${row.text ?? row.value}`, (f) => percent(chance(f, name, row.value))]); continue; }
    columns.push([`${name}: ${t("odds.expected")}`, (f) => (f[name]?.e ?? 0).toFixed(2)]);
    for (const value of thresholds(answers, name, 1)) columns.push([`${name} ≥ ${value}`, (f) => percent(atLeast(f, name, value))]);
  }
  const table = el("table", { class: "fields sweep" }, el("tr", {}, el("th", {}, found.field), ...columns.map(([label]) => el("th", {}, label))),
    ...found.points.map((p) => el("tr", { title: p.error || "" }, el("th", {}, String(p.value)), ...columns.map(([, cell]) => el("td", {}, p.error ? "—" : cell(p.fields))))));
  return [el("h2", {}, t("odds.swept", { field: found.field })), sweepChart(found), table];
}

function variantsOf() {
  return document.getElementById("vs").value.split("\n").map((line) => line.trim()).filter(Boolean);
}

async function calculate() {
  const error = document.getElementById("error");
  error.textContent = "";
  const procedure = document.getElementById("procedure").value;
  const policy = document.getElementById("policy").value || "default";
  const variants = variantsOf();
  const over = document.getElementById("over").value.trim();
  try {
    const input = build();
    const query = new URLSearchParams({ procedure, policy, input: JSON.stringify(input) });
    for (const v of variants) query.append("vs", v);
    if (over) query.set("over", over);
    history.replaceState(null, "", `/odds?${query}`);
    document.getElementById("share").href = location.href;
    const explain = policy === "optimal";
    showResult(await call("POST", `/api/odds?lang=${lang()}`, { procedure, input, policy, explain }));
    const more = [];
    if (variants.length) more.push(...showCompared(await call("POST", `/api/odds/compare?lang=${lang()}`, { procedure, input, variants, policy })));
    if (over) more.push(...showSwept(await call("POST", `/api/odds/sweep?lang=${lang()}`, { procedure, input, over, policy })));
    document.getElementById("result").prepend(...more);
  } catch (problem) {
    error.textContent = problem.message;
  }
}

async function main() {
  await loadWords(async () => {
    await showPolicies(document.getElementById("policy").value);
    if (document.getElementById("result").childElementCount) await calculate(); // in the new language
  });
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
  if (!input && query.get("words")) {
    const asked = new URLSearchParams({ procedure: start.name, words: query.get("words") });
    try { input = await call("GET", `/api/odds/question?${asked}`); } catch (problem) { document.getElementById("error").textContent = problem.message; }
  }
  document.getElementById("vs").value = query.getAll("vs").join("\n");
  document.getElementById("over").value = query.get("over") || "";
  showForm(input);
  await showPolicies(query.get("policy") || "default");
  rulesetSelect.onchange = async () => { showProcedures(rulesetSelect.value); showForm(); await showPolicies("default"); };
  document.getElementById("procedure").onchange = async () => { showForm(); await showPolicies("default"); };
  document.getElementById("calculate").onclick = calculate;
  if (query.get("procedure")) await calculate();
}

main();
