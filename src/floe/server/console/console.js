// Floe console (docs/console.md). One page, two views chosen by the URL's hash:
//   #/             topics overview: state, lag, freshness, throughput sparklines, suspended topics
//   #/table/<name> one table: schema and its history, snapshots, data files, partitions
// Everything comes from this Floe process: GET /status, /ui/api/history, /ui/api/tables[/name];
// Resume and Skip POST to the admin API with the admin token, asked once per browser tab.
// Text from Kafka or tables is only ever set as textContent, never parsed as HTML.
"use strict";

const TOKEN_KEY = "floe.admin.token";
const REFRESH_MS = 5000;
const SVG_NS = "http://www.w3.org/2000/svg";
let refreshTimer = null;

// --- small DOM helpers ---------------------------------------------------------------------
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}
function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  for (const c of children.flat()) if (c) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}
async function getJson(path) {
  const response = await fetch(path, { cache: "no-store" });
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const message = body && body.error ? body.error.message : response.statusText;
    throw new Error(`${path}: ${response.status} ${message}`);
  }
  return body;
}
// replaceChildren without the nulls and nested arrays that el() accepts.
function show(parent, ...children) {
  parent.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
}
function flash(message, bad) {
  const box = document.getElementById("flash");
  box.textContent = message;
  box.className = bad ? "flash bad" : "flash";
  box.hidden = !message;
}

// --- formatting ----------------------------------------------------------------------------
function num(v, digits = 0) {
  if (v === null || v === undefined || Number.isNaN(v)) return "–";
  return Number(v).toLocaleString("en-US", { maximumFractionDigits: digits });
}
function duration(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.round(seconds);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172800) return `${(s / 3600).toFixed(1)} h`;
  return `${(s / 86400).toFixed(1)} d`;
}
function bytes(n) {
  if (n === null || n === undefined) return "–";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${n.toFixed(i ? 1 : 0)} ${units[i]}`;
}
function when(ms) { return ms ? new Date(ms).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z") : "–"; }

// --- topic state ---------------------------------------------------------------------------
// A partition's lag as /status gives it, else high watermark minus committed offset.
function topicLag(topic) {
  let lag = 0, known = false;
  for (const p of topic.partitions || []) {
    if (typeof p.lag === "number") { lag += p.lag; known = true; continue; }
    if (p.high_watermark === undefined || p.committed_offset === null || p.committed_offset === undefined) continue;
    lag += Math.max(0, p.high_watermark - p.committed_offset);
    known = true;
  }
  return known ? lag : null;
}
// "catching up": a running topic working through a backlog (a backfill), as /status says.
function displayState(topic) {
  if (topic.state === "running" && topic.catching_up) return "catching up";
  return topic.state || "unknown";
}
function progressText(topic) {
  if (!topic.catching_up) return "–";
  const percent = typeof topic.progress_percent === "number" ? `${Math.floor(topic.progress_percent)}%` : "";
  const eta = topic.eta_seconds === undefined || topic.eta_seconds === null ? "" : `ETA ${duration(topic.eta_seconds)}`;
  return [percent, eta].filter(Boolean).join(" · ") || "–";
}
function stateBadge(state) {
  return el("span", { class: `state state-${state.replace(/ /g, "-")}`, "data-state": state }, state);
}

// --- sparklines: one SVG polyline per series, gaps where a value is null --------------------
function sparkline(values, cls, label) {
  const w = 140, h = 28;
  const finite = values.filter((v) => typeof v === "number" && Number.isFinite(v));
  const node = svg("svg", { class: `spark ${cls}`, width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: "img",
                            "aria-label": label });
  if (finite.length < 2) return node;
  const max = Math.max(...finite, 1e-9), n = values.length;
  let points = [];
  const flush = () => { if (points.length > 1) node.append(svg("polyline", { points: points.join(" ") })); points = []; };
  values.forEach((v, i) => {
    if (typeof v !== "number" || !Number.isFinite(v)) { flush(); return; }
    points.push(`${((i / (n - 1)) * (w - 2) + 1).toFixed(1)},${(h - 2 - (v / max) * (h - 4)).toFixed(1)}`);
  });
  flush();
  node.append(svg("title", {}, `${label}: max ${num(max, 1)}`));
  return node;
}

// --- the admin token and the mutating routes ------------------------------------------------
function withToken(action) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) return action(token);
  const form = document.getElementById("token-form");
  const input = document.getElementById("token-input");
  form.hidden = false;
  input.value = "";
  input.focus();
  form.onsubmit = (event) => {
    event.preventDefault();
    if (!input.value) return;
    sessionStorage.setItem(TOKEN_KEY, input.value);
    form.hidden = true;
    showTokenState();
    action(input.value);
  };
  document.getElementById("token-cancel").onclick = () => { form.hidden = true; };
}
function showTokenState() {
  const has = !!sessionStorage.getItem(TOKEN_KEY);
  const span = document.getElementById("token-state");
  span.replaceChildren(has ? el("span", {}, "admin token set · ",
    el("a", { href: "#", onclick: (e) => { e.preventDefault(); sessionStorage.removeItem(TOKEN_KEY); showTokenState(); } },
       "forget")) : "read-only (no admin token)");
}
async function post(path, body, what) {
  withToken(async (token) => {
    try {
      const response = await fetch(path, {
        method: "POST",
        headers: { "Authorization": `Bearer ${token}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = await response.json().catch(() => null);
      if (response.status === 401 || response.status === 403) sessionStorage.removeItem(TOKEN_KEY);
      showTokenState();
      if (!response.ok) {
        const message = answer && answer.error ? answer.error.message : response.statusText;
        flash(`${what} failed: ${response.status} ${message}`, true);
        return;
      }
      flash(`${what}: done`);
      render();
    } catch (e) {
      flash(`${what} failed: ${e.message}`, true);
    }
  });
}

// --- overview ------------------------------------------------------------------------------
function suspendedCard(topic) {
  const match = /\/(\d+)@(\d+)$/.exec((topic.error && topic.error.position) || "");
  const partition = el("input", { type: "number", min: 0, value: match ? match[1] : "", "aria-label": "partition",
                                  class: "skip-partition" });
  const offset = el("input", { type: "number", min: 0, value: match ? match[2] : "", "aria-label": "offset",
                               class: "skip-offset" });
  const path = (verb) => `/topics/${encodeURIComponent(topic.topic)}/${verb}`;
  return el("section", { class: "card suspended-topic", "data-topic": topic.topic },
    el("h3", {}, topic.topic, " ", stateBadge("suspended")),
    el("div", { class: "muted" }, "at ", (topic.error && topic.error.position) || "–"),
    el("div", { class: "error" }, (topic.error && topic.error.reason) || "no reason given"),
    el("div", { class: "actions" },
      el("button", { class: "primary resume", onclick: () => post(path("resume"), undefined, `Resume ${topic.topic}`) },
         "Resume"),
      el("span", { class: "muted" }, "retries from the committed offset, e.g. after the schema was fixed"),
    ),
    el("div", { class: "actions" },
      el("label", {}, "partition ", partition), el("label", {}, "offset ", offset),
      el("button", { class: "danger skip", onclick: () => {
        const body = { partition: Number(partition.value), offset: Number(offset.value) };
        if (!window.confirm(`Skip ${topic.topic} partition ${body.partition} offset ${body.offset}? The record will not be in the table.`)) return;
        post(path("skip"), body, `Skip ${topic.topic}/${body.partition}@${body.offset}`);
      } }, "Skip this record"),
    ));
}

async function renderOverview(main) {
  const [status, history, tables] = await Promise.all([
    getJson("/status"), getJson("/ui/api/history").catch(() => ({ t: [], topics: {} })),
    getJson("/ui/api/tables").catch(() => ({ tables: [] }))]);
  document.getElementById("meta").textContent =
    `v${status.version} · up ${duration(status.uptime_seconds)}${status.group_id ? ` · group ${status.group_id}` : ""}`;
  const tableByTopic = new Map(tables.tables.map((t) => [t.topic, t.table]));
  const topics = status.topics || [];
  const rows = topics.map((t) => {
    const series = (history.topics || {})[t.topic] || {};
    const table = tableByTopic.get(t.topic);
    const state = displayState(t);
    return el("tr", { class: "topic-row", "data-topic": t.topic, "data-state": state },
      el("td", {}, t.topic),
      el("td", {}, table ? el("a", { href: `#/table/${encodeURIComponent(table)}`, class: "table-link" }, table) : t.table),
      el("td", {}, stateBadge(state)),
      el("td", { class: "num lag" }, num(topicLag(t))),
      el("td", { class: "num" }, duration(t.freshness_seconds)),
      el("td", { class: "num" }, num(t.records_per_second, 1)),
      el("td", { class: "num progress" }, progressText(t)),
      el("td", { class: "num" }, t.last_commit ? `${duration(t.last_commit.age_seconds)} ago` : "–"),
      el("td", {}, sparkline(series.records_per_second || [], "rate", "records/s, last hour")),
      el("td", {}, sparkline(series.lag || [], "lag", "lag, last hour")));
  });
  const suspended = topics.filter((t) => t.state === "suspended");
  const counts = topics.reduce((m, t) => { const s = displayState(t); m[s] = (m[s] || 0) + 1; return m; }, {});
  show(main, 
    el("h1", {}, "Topics"),
    el("p", { class: "muted", id: "summary" },
      topics.length ? Object.entries(counts).map(([s, n]) => `${n} ${s}`).join(" · ") : "no topics assigned to this process"),
    el("section", { class: "card" },
      el("table", { id: "topics" },
        el("thead", {}, el("tr", {}, ["topic", "table", "state"].map((h) => el("th", {}, h)),
          ["lag", "freshness", "records/s", "backfill", "last commit"].map((h) => el("th", { class: "num" }, h)),
          el("th", {}, "records/s (1 h)"), el("th", {}, "lag (1 h)"))),
        el("tbody", {}, rows))),
    suspended.length ? el("h2", {}, "Suspended topics") : null,
    el("div", { id: "suspended" }, suspended.map(suspendedCard)));
}

// --- table page ----------------------------------------------------------------------------
function typeText(type) {
  if (typeof type === "string") return type;
  if (!type || typeof type !== "object") return String(type);
  if (type.type === "list") return `list<${typeText(type.element)}>`;
  if (type.type === "map") return `map<${typeText(type.key)}, ${typeText(type.value)}>`;
  if (type.type === "struct") return `struct<${(type.fields || []).map((f) => `${f.name}: ${typeText(f.type)}`).join(", ")}>`;
  return JSON.stringify(type);
}
// What changed from one schema to the next, by field id (renames keep the id).
function schemaChanges(before, after) {
  const old = new Map((before ? before.fields : []).map((f) => [f.id, f]));
  const now = new Map(after.fields.map((f) => [f.id, f]));
  const changes = [];
  for (const [id, f] of now) {
    const o = old.get(id);
    if (!o) { changes.push(["add", `+ ${f.name}: ${typeText(f.type)}${f.required ? " (required)" : ""}`]); continue; }
    if (o.name !== f.name) changes.push(["type", `${o.name} renamed to ${f.name}`]);
    if (typeText(o.type) !== typeText(f.type)) changes.push(["type", `${f.name}: ${typeText(o.type)} → ${typeText(f.type)}`]);
    if (o.required !== f.required) changes.push(["type", `${f.name}: ${f.required ? "now required" : "now optional"}`]);
  }
  for (const [id, o] of old) if (!now.has(id)) changes.push(["drop", `− ${o.name}`]);
  return changes;
}
function schemaSection(format) {
  const schemas = format.schemas || [];
  const current = schemas.find((s) => s["schema-id"] === format.current_schema_id) || schemas[schemas.length - 1];
  const history = schemas.map((s, i) => {
    const changes = i === 0 ? [["add", `created with ${s.fields.length} columns`]] : schemaChanges(schemas[i - 1], s);
    return el("li", { class: "schema-version", "data-schema-id": s["schema-id"] },
      el("strong", {}, `schema ${s["schema-id"]}`),
      s.version !== undefined ? ` · version ${s.version}` : "",
      s.since_ms ? ` · since ${when(s.since_ms)}` : "",
      s["schema-id"] === format.current_schema_id ? " · current" : "",
      el("ul", { class: "changes" }, changes.map(([kind, text]) => el("li", { class: `change-${kind}` }, text))));
  });
  return [
    el("h3", {}, "Current schema"),
    current ? el("table", { class: "schema" },
      el("thead", {}, el("tr", {}, ["id", "name", "type", "required"].map((h) => el("th", {}, h)))),
      el("tbody", {}, current.fields.map((f) => el("tr", {}, el("td", {}, f.id), el("td", {}, f.name),
        el("td", {}, el("code", {}, typeText(f.type))), el("td", {}, f.required ? "yes" : "no"))))) : el("p", {}, "–"),
    el("h3", {}, `Schema history (${schemas.length} version${schemas.length === 1 ? "" : "s"})`),
    el("ol", { class: "schema-history" }, history)];
}
function timeline(snapshots) {
  const w = 900, h = 70, pad = 20;
  const node = svg("svg", { class: "chart timeline", width: "100%", viewBox: `0 0 ${w} ${h}`, role: "img",
                            "aria-label": "snapshots over time" });
  if (!snapshots.length) return node;
  const t0 = snapshots[0].timestamp_ms, t1 = snapshots[snapshots.length - 1].timestamp_ms;
  const x = (t) => pad + (t1 > t0 ? ((t - t0) / (t1 - t0)) * (w - 2 * pad) : (w - 2 * pad) / 2);
  node.append(svg("line", { class: "axis", x1: pad, x2: w - pad, y1: 30, y2: 30 }));
  let schema = snapshots[0].schema_id;
  for (const s of snapshots) {
    const changed = s.schema_id !== undefined && s.schema_id !== schema;
    schema = s.schema_id;
    node.append(svg("circle", { class: changed ? "snap schema" : "snap", cx: x(s.timestamp_ms).toFixed(1), cy: 30, r: 4 },
      svg("title", {}, `${s.id} · ${when(s.timestamp_ms)} · ${s.operation} · +${s.added_records} records`)));
  }
  node.append(svg("text", { x: pad, y: 60 }, when(t0)));
  node.append(svg("text", { x: w - pad, y: 60, "text-anchor": "end" }, when(t1)));
  return node;
}
function histogram(buckets) {
  const w = 420, h = 150, pad = 24;
  const node = svg("svg", { class: "chart histogram", width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: "img",
                            "aria-label": "data files by size" });
  if (!buckets.length) return node;
  const max = Math.max(...buckets.map((b) => b.count), 1);
  const bw = (w - 2 * pad) / buckets.length;
  buckets.forEach((b, i) => {
    const bh = (b.count / max) * (h - 2 * pad);
    node.append(svg("rect", { class: "bar", x: (pad + i * bw + 1).toFixed(1), y: (h - pad - bh).toFixed(1),
                              width: Math.max(1, bw - 2).toFixed(1), height: bh.toFixed(1) },
      svg("title", {}, `${bytes(b.min_bytes)} – ${bytes(b.max_bytes)}: ${b.count} files`)));
    if (buckets.length <= 12 || i % Math.ceil(buckets.length / 12) === 0)
      node.append(svg("text", { x: (pad + i * bw + bw / 2).toFixed(1), y: h - 8, "text-anchor": "middle" }, bytes(b.min_bytes)));
  });
  return node;
}
function formatSection(name, f) {
  const snaps = f.snapshots || [];
  const files = f.files || { count: 0, bytes: 0, records: 0, size_histogram: [] };
  const partitions = f.partitions || [];
  return el("section", { class: "card format", "data-format": name },
    el("h2", {}, name === "iceberg" ? "Iceberg" : "Delta Lake"),
    el("dl", { class: "kv" },
      el("dt", {}, "location"), el("dd", {}, el("code", {}, f.location || "–")),
      name === "iceberg" ? [el("dt", {}, "metadata"), el("dd", {}, el("code", {}, f.metadata_location)),
                            el("dt", {}, "metadata size"),
                            el("dd", { class: "metadata-bytes", "data-bytes": f.metadata_bytes ?? "" },
                               f.metadata_bytes == null ? "–" : bytes(f.metadata_bytes)),
                            el("dt", {}, "format version"), el("dd", {}, f.format_version)]
                         : [el("dt", {}, "version"), el("dd", {}, f.version)],
      el("dt", {}, name === "iceberg" ? "snapshots" : "commits"),
      el("dd", { class: "snapshot-count", "data-count": f.snapshot_count }, num(f.snapshot_count))),
    schemaSection(f),
    el("h3", {}, name === "iceberg" ? "Snapshots" : "Commits"),
    timeline(snaps),
    el("table", { class: "snapshots" },
      el("thead", {}, el("tr", {}, ["id", "time", "operation"].map((h) => el("th", {}, h)),
        ["records added", "files added"].map((h) => el("th", { class: "num" }, h)))),
      el("tbody", {}, snaps.slice(-15).reverse().map((s) => el("tr", {},
        el("td", {}, el("code", {}, s.id)), el("td", {}, when(s.timestamp_ms)), el("td", {}, s.operation),
        el("td", { class: "num" }, num(s.added_records)), el("td", { class: "num" }, num(s.added_files)))))),
    el("div", { class: "grid" },
      el("div", {},
        el("h3", {}, "Data files"),
        el("p", { class: "files-summary" }, `${num(files.count)} files · ${bytes(files.bytes)} · ${num(files.records)} records`),
        histogram(files.size_histogram || [])),
      el("div", {},
        el("h3", {}, "Partitions"),
        el("p", { class: "muted" }, (f.partition_fields || []).length ? `by ${f.partition_fields.join(", ")}` : "unpartitioned"),
        el("table", { class: "partitions" },
          el("thead", {}, el("tr", {}, el("th", {}, "partition"),
            ["files", "records", "size"].map((h) => el("th", { class: "num" }, h)))),
          el("tbody", {}, partitions.slice(0, 50).map((p) => el("tr", {},
            el("td", {}, el("code", {}, Object.entries(p.values).map(([k, v]) => `${k}=${v === null ? "null" : v}`).join(", ") || "(all)")),
            el("td", { class: "num" }, num(p.files)), el("td", { class: "num" }, num(p.records)),
            el("td", { class: "num" }, bytes(p.bytes)))))))));
}
async function renderTable(main, name) {
  const t = await getJson(`/ui/api/tables/${encodeURIComponent(name)}`);
  show(main, 
    el("h1", { id: "table-name" }, t.table),
    el("p", { class: "muted" }, "from topic ", t.topic, " · ", t.formats.join(" + "), " · ", el("a", { href: "#/" }, "all topics")),
    t.formats.map((format) => formatSection(format, t[format])));
}

// --- routing -------------------------------------------------------------------------------
async function render() {
  clearTimeout(refreshTimer);
  const main = document.getElementById("main");
  const hash = location.hash || "#/";
  try {
    if (hash.startsWith("#/table/")) {
      await renderTable(main, decodeURIComponent(hash.slice("#/table/".length)));
    } else {
      await renderOverview(main);
      refreshTimer = setTimeout(render, REFRESH_MS);  // the overview follows the pipeline live
    }
    main.setAttribute("data-loaded", hash);
  } catch (e) {
    show(main, el("p", { class: "error", id: "load-error" }, e.message));
    if (!hash.startsWith("#/table/")) refreshTimer = setTimeout(render, REFRESH_MS);
  }
}
window.addEventListener("hashchange", () => { flash(""); render(); });
showTokenState();
render();
