// Shared by every page: the language, the page's words (web.po) and calls to the API.
export const lang = () => localStorage.getItem("kubik.lang") ||
  ((navigator.language || "en").toLowerCase().startsWith("ru") ? "ru" : "en");

let words = {};

/** Load the page's words in the chosen language and wire the language switch. */
export async function loadWords(onSwitch) {
  const response = await fetch(`/api/messages?lang=${lang()}`);
  words = await response.json();
  document.documentElement.lang = lang();
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  const select = document.getElementById("lang");
  if (select) {
    select.value = lang();
    select.onchange = async () => {
      localStorage.setItem("kubik.lang", select.value);
      await loadWords(onSwitch);
      if (onSwitch) onSwitch();
    };
  }
}

/** A word of the page with its {parameters} filled in. */
export function t(id, params = {}) {
  const template = words[`web.${id}`] ?? id;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Call the API: JSON in, JSON out; a refusal becomes an Error carrying its status and field. */
export async function call(method, url, body, token) {
  const headers = { "Accept-Language": lang() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.detail || response.statusText);
    error.status = response.status;
    error.field = data.field;
    throw error;
  }
  return data;
}

/** A DOM element: el("div", {class: "x"}, child, "text"). */
export function el(tag, attributes = {}, ...children) {
  const svg = ["svg", "g", "rect", "circle", "polygon", "polyline", "line", "text", "title", "path", "defs", "pattern"].includes(tag);
  const node = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "style") node.style.cssText = value; // the page's policy allows no style attributes
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A percentage for people. */
export const percent = (p) => `${(100 * p).toFixed(p > 0 && p < 0.001 ? 3 : 1)}%`;

/** A bar chart of (label, probability) rows as SVG, with the exact fraction in each bar's title. */
export function barChart(rows, width = 760) {
  const barHeight = 20, labelWidth = 330, gap = 4;
  const top = Math.max(...rows.map((r) => r.p), 1e-9);
  const svg = el("svg", { class: "bars", width, height: rows.length * (barHeight + gap), viewBox: `0 0 ${width} ${rows.length * (barHeight + gap)}` });
  rows.forEach((row, i) => {
    const y = i * (barHeight + gap);
    const length = ((width - labelWidth - 70) * row.p) / top;
    svg.append(
      el("text", { x: labelWidth - 6, y: y + 14, "text-anchor": "end", class: "bar-label" }, row.label),
      el("rect", { x: labelWidth, y, width: Math.max(length, 1), height: barHeight, class: "bar" }, el("title", {}, row.probability || "")),
      el("text", { x: labelWidth + length + 6, y: y + 14, class: "bar-value" }, percent(row.p)),
    );
  });
  return svg;
}

/** An outcome as short text: "hits 2, killed 1". */
export function outcomeText(outcome) {
  if (outcome === null || typeof outcome !== "object") return String(outcome);
  return Object.entries(outcome).map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
}
