// packetbench view: runs -> documents -> pages. Served by `packetbench view` (JSON from
// /api/...) or exported as static files (`--out`: the same data as data/*.js scripts, which
// load from file:// where fetch cannot). Every string from a run or a packet is set as text
// (textContent, attributes), never parsed as HTML.
"use strict";

const STATIC = window.PB_STATIC === true;
const OUTCOMES = ["hallucinated", "wrong", "stale", "guessed", "omitted", "abstained", "correct", "unscored"];
const OUTCOME_HELP = {
  hallucinated: "a value found nowhere in the packet",
  wrong: "another value the packet shows",
  stale: "the value of a superseded document",
  guessed: "a value where the page shows none",
  omitted: "left empty though the page shows it",
  abstained: "left empty, as the page is",
  correct: "equal to the truth",
  unscored: "not scored (the document was not extracted ok)",
};
const VERDICTS = ["supported", "contradicted", "stale", "overreach", "unlinked", "hallucinated"];
const FILTERS = ["tier", "doc_type", "format", "pattern", "verdict", "outcome", "status"];
const PAGE_SIZE = 100;

// ---------------------------------------------------------------- loading data
window.PB_DATA = window.PB_DATA || {};
const waiting = new Map();
window.PB_receive = function (key, data) {
  window.PB_DATA[key] = data;
  const resolve = waiting.get(key);
  if (resolve) resolve(data);
};

// A key names a script of the export: parts of the id grammar only (no "..", no "/" inside a
// part), so no route, which anyone can write after the "#", loads a script outside it.
const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
const loading = new Map();
function loadStatic(key) {
  if (typeof key !== "string" || !KEY.test(key) || key.includes("..")) {
    return Promise.reject(new Error("not in this export: " + String(key).slice(0, 80)));
  }
  if (Object.prototype.hasOwnProperty.call(window.PB_DATA, key)) return Promise.resolve(window.PB_DATA[key]);
  if (!loading.has(key)) {
    loading.set(key, new Promise((resolve, reject) => {
      waiting.set(key, resolve);
      const script = document.createElement("script");
      script.src = "data/" + key + ".js";
      script.onerror = () => {
        loading.delete(key);
        reject(new Error("not in this export: " + key));
      };
      document.head.appendChild(script);
    }));
  }
  return loading.get(key);
}

async function api(path, key) {
  if (STATIC) return loadStatic(key);
  const response = await fetch(path);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

const getRuns = () => api("api/runs", "runs");
const getChecks = (run) => api(`api/runs/${run}/checks`, null);
const getOverview = (run) => api(`api/runs/${run}/overview`, `run-${run}-overview`);
const getGrid = (run, packet, doc, sha) =>
  api(`api/runs/${run}/grid/${encodeURIComponent(packet)}/${encodeURIComponent(doc)}`, `grid-${sha}`);

// A document comes in parts (its summary, the fields of each page, the side table in chunks),
// each asked for once, when it is needed: `summary`, `page-N`, `fields-K`, `claims-K`, `cells`.
const parts = new Map();
function getPart(run, packet, doc, part) {
  const key = `run-${run}/${packet}/${doc}/${part}`;
  if (!parts.has(key)) {
    const path = `api/runs/${run}/documents/${encodeURIComponent(packet)}/${encodeURIComponent(doc)}`;
    const loaded = api(part === "summary" ? path : `${path}/${part}`, key);
    loaded.catch(() => parts.delete(key));
    parts.set(key, loaded);
  }
  return parts.get(key);
}

async function getDocuments(run, params) {
  if (!STATIC) {
    const query = new URLSearchParams(params);
    return api(`api/runs/${run}/documents?${query}`, null);
  }
  // The export holds the whole list, worst first; filter and page it here as the server does.
  const all = await loadStatic(`run-${run}-documents`);
  const rows = all.rows.filter((row) => matches(row, params));
  const offset = Number(params.offset || 0);
  return { rows: rows.slice(offset, offset + PAGE_SIZE), total: rows.length, facets: all.facets, scored: all.scored };
}

const OUTCOME_COLUMN = { guessed: "answered" };
function matches(row, params) {
  for (const name of ["tier", "doc_type", "format", "status"]) {
    if (params[name] && row[name] !== params[name]) return false;
  }
  if (params.pattern && !(row.patterns || []).includes(params.pattern)) return false;
  if (params.verdict && !(row[params.verdict] > 0)) return false;
  if (params.outcome && !(row[OUTCOME_COLUMN[params.outcome] || params.outcome] > 0)) return false;
  return true;
}

// The smallest rendering (2, 3 or 4 x 72 dpi) as sharp as the screen shows the page.
function pageImage(sha, page, zoom) {
  if (STATIC) return `pages/${sha}/${page}.png`;
  const needed = zoom * (window.devicePixelRatio || 1);
  const scale = needed <= 2 ? 2 : needed <= 3 ? 3 : 4;
  return `pages/${sha}/${page}?scale=${scale}`;
}

// ---------------------------------------------------------------- small DOM helpers
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
  return node;
}

// A truth path as text nodes with a line-break opportunity (<wbr>) after each dot and before
// each bracket: a long path wraps between its parts, never inside a word.
function breakable(path) {
  const parts = [];
  for (const piece of String(path).split(/(?<=\.)|(?=\[)/)) {
    if (parts.length) parts.push(document.createElement("wbr"));
    parts.push(piece);
  }
  return parts;
}

const pct = (x, digits = 2) => (x === null || x === undefined ? "–" : (100 * x).toFixed(digits) + " %");
// Thousands separated by commas, without Intl: the first toLocaleString of a page loads the
// browser's locale data, a tenth of a second that a document's first view waited for.
function count(x) {
  if (x === null || x === undefined) return "–";
  const n = Number(x);
  if (!Number.isInteger(n)) return n.toLocaleString("en-US");
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
const interval = (pair) => (pair ? `[${(100 * pair[0]).toFixed(2)}, ${(100 * pair[1]).toFixed(2)}]` : "–");
function shown(value) {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}
const dot = (outcome) => el("span", { class: `dot o-${outcome}`, title: outcome });
// A checkbox is shown one way on both sides of a row: as its value with a box, the truth's
// "Yes" or "No" (which the page draws as a mark or as nothing) beside the model's answer.
const BOXES = { Yes: "☒ Yes", No: "☐ No" };
function valueText(value, kind) {
  return kind === "checkbox" && Object.prototype.hasOwnProperty.call(BOXES, value) ? BOXES[value] : shown(value);
}
// A field's truth as the side table shows it: what the page draws, or a checkbox's value.
function truthText(row) {
  return row.kind === "checkbox" && BOXES[row.truth] ? valueText(row.truth, "checkbox") : shown(row.rendered_as ?? row.truth);
}
// Table heads with the class that gives their column its width (`#side table` is laid out
// by these, so no value can widen a column past the panel).
const headRow = (names) => el("tr", {}, names.map(([text, width]) => el("th", { class: width ? `c-${width}` : null, text })));

function setCrumbs(...parts) {
  const nav = document.getElementById("crumbs");
  nav.replaceChildren(...parts.flatMap((part, i) => (i ? [el("span", { text: "›" }), part] : [part])));
}

function fail(error) {
  const app = document.getElementById("app");
  app.className = "";
  app.replaceChildren(el("p", { class: "error", text: String(error.message || error) }));
}

// ---------------------------------------------------------------- routing
function parseHash() {
  const [path, query] = location.hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { parts, params: Object.fromEntries(new URLSearchParams(query || "")) };
}

function link(parts, params) {
  const query = new URLSearchParams(Object.entries(params || {}).filter(([, v]) => v !== "" && v !== undefined && v !== null));
  const text = query.toString();
  return "#/" + parts.map(encodeURIComponent).join("/") + (text ? "?" + text : "");
}

let runsList = null;
// The number of the latest navigation. A page still loading when the user went on draws
// nothing once its data comes: the runs list asked for at load, answered after the run
// opened next, would otherwise replace that run's page.
let navigation = 0;
const stale = (mine) => mine !== navigation;
async function route() {
  const mine = ++navigation;
  try {
    const { parts, params } = parseHash();
    // A document's summary is asked for at once, beside the runs (it does not need them).
    if (parts[0] === "run" && parts.length >= 5 && parts[2] === "doc") getPart(Number(parts[1]), parts[3], parts[4], "summary").catch(() => {});
    runsList = runsList || (await getRuns());
    if (stale(mine)) return;
    if (parts[0] === "run" && parts.length >= 5 && parts[2] === "doc") {
      await showDocument(Number(parts[1]), parts[3], parts[4], params, mine);
    } else if (parts[0] === "run" && parts.length >= 2) {
      await showRun(Number(parts[1]), params, mine);
    } else if (runsList.length === 1) {
      location.replace(link(["run", "0"]));
    } else {
      showRuns();
    }
  } catch (error) {
    if (!stale(mine)) fail(error);
  }
}
window.addEventListener("hashchange", route);
window.addEventListener("DOMContentLoaded", route);

// ---------------------------------------------------------------- runs
function showRuns() {
  setCrumbs(el("span", { text: "runs" }));
  const app = document.getElementById("app");
  app.className = "";
  app.replaceChildren(
    el("h1", { text: "Runs" }),
    el("table", {},
      el("tr", {}, ["run", "provider", "model", "documents", "scored", "status"].map((h) => el("th", { text: h }))),
      runsList.map((run) =>
        el("tr", {},
          el("td", {}, el("a", { href: link(["run", String(run.index)]), text: run.name })),
          el("td", { text: run.provider || "" }),
          el("td", { text: (run.model || "") + (run.simulator ? " (SIMULATED extractor, not a model)" : "") }),
          el("td", { class: "num", text: count(run.documents) }),
          el("td", { text: run.scored ? "yes" : "not yet" }),
          el("td", { text: run.status || "" })))));
}

// ---------------------------------------------------------------- a run: overview and documents
async function showRun(run, params, mine) {
  const info = runsList[run];
  if (!info) throw new Error("no run " + run);
  setCrumbs(el("a", { href: "#/", text: "runs" }), el("span", { text: info.name }));
  const app = document.getElementById("app");
  app.className = "";
  const overview = el("section", { id: "overview" }, el("p", { class: "muted", text: "Computing the overview…" }));
  const list = el("section", { id: "documents" }, el("p", { class: "muted", text: "Loading documents…" }));
  const checks = el("section", { id: "checks" });
  app.replaceChildren(el("h1", { text: info.name }), checks, overview, list);
  showChecks(run, checks, info.checks);
  getOverview(run).then((data) => overview.replaceChildren(...renderOverview(data))).catch((e) =>
    overview.replaceChildren(el("p", { class: "error", text: String(e.message || e) })));
  const data = await getDocuments(run, params);
  if (stale(mine)) return;
  list.replaceChildren(...renderDocuments(run, params, data));
}

// The check of the run's files against those it was extracted from goes on in the server's
// background: how far it has got, and the documents it refused, until it is done.
function showChecks(run, section, checks) {
  if (!checks || !section.isConnected) return;
  const parts = [];
  if (checks.refused) {
    parts.push(el("p", { class: "error refused" },
      `${count(checks.refused)} document(s) differ from those the run was extracted from and are refused`,
      checks.done ? "" : " (so far)", ":"));
    parts.push(el("ul", { class: "refused-list" }, checks.first_refused.map((item) =>
      el("li", {}, el("strong", { text: item.document }), ": ", item.reason))));
  }
  if (!checks.done) {
    parts.push(el("p", { class: "muted", id: "checking", text: `Checking the packets against the run: ${count(checks.checked)} of ${count(checks.documents)} documents so far (a document is checked when you open it).` }));
  }
  section.replaceChildren(...parts);
  if (!checks.done && !STATIC) {
    setTimeout(() => {
      if (!section.isConnected) return;
      getChecks(run).then((next) => showChecks(run, section, next)).catch(() => {});
    }, 2000);
  }
}

function renderOverview(data) {
  const out = [];
  const config = [data.provider, data.model].filter(Boolean).join(" · ");
  out.push(el("p", {}, config, " · ", `${count(data.packets)} packets, ${count(data.documents)} documents`, data.status ? ` · ${data.status}` : ""));
  if (data.simulator) out.push(el("p", { class: "simulated", text: "SIMULATED extractor, not a model: its errors are seeded, for testing the pipeline." }));
  if (!data.scored) {
    out.push(el("p", { class: "muted", text: `Not scored yet: ${count(data.extracted)} of ${count(data.documents)} documents have a record. A document is scored when you open it; run packetbench score for rates.` }));
    return out;
  }
  out.push(el("h2", { text: "Headline rates" }));
  out.push(el("table", { class: "headline" },
    el("tr", {}, ["rate", "micro", "95 % interval (documents)", "95 % interval (packets)", "macro", "values"].map((h, i) => el("th", { class: i && i !== 2 && i !== 3 ? "num" : null, text: h }))),
    data.headline.map((row) => el("tr", {},
      el("td", { text: row.label }),
      el("td", { class: "num", text: pct(row.micro) }),
      el("td", { text: interval(row.micro_doc) }),
      el("td", { text: interval(row.micro_packet) }),
      el("td", { class: "num", text: pct(row.macro) }),
      el("td", { class: "num", text: `${count(row.num)} / ${count(row.den)}` })))));
  if (data.slices.length) {
    // Folded: the documents come right after the headline, the slices open on a click.
    out.push(el("details", { id: "slices" },
      el("summary", {}, el("h2", { text: `Worst slices first (${data.slices.length} tables)` })),
      el("div", { class: "slices" }, data.slices.map((table) =>
      el("table", {},
        el("tr", {}, el("th", { text: `${table.title}: ${table.label}` }), el("th", { class: "num", text: "rate" }), el("th", { class: "num", text: "values" })),
        table.rows.map((row) => el("tr", {},
          el("td", { text: row.slice + (row.small ? " (small)" : "") }),
          el("td", { class: "num", text: pct(row.micro) }),
          el("td", { class: "num", text: `${count(row.num)} / ${count(row.den)}` }))))))));
  }
  return out;
}

function renderDocuments(run, params, data) {
  const out = [el("h2", { text: "Documents, worst first" })];
  const facets = { ...data.facets, verdict: VERDICTS, outcome: OUTCOMES.filter((o) => o !== "unscored") };
  const available = data.scored ? FILTERS : ["tier", "doc_type", "format", "status"];
  out.push(el("div", { class: "filters" }, available.map((name) =>
    el("label", {}, name.replace("_", " "),
      el("select", {
        name, "data-filter": name,
        onchange: (event) => {
          const next = { ...params, [name]: event.target.value };
          delete next.offset;
          location.hash = link(["run", String(run)], next);
        },
      }, el("option", { value: "", text: "all" }),
      (facets[name] || []).map((value) => el("option", { value, text: value, selected: params[name] === value })))))));
  const offset = Number(params.offset || 0);
  const last = Math.min(offset + data.rows.length, data.total);
  const pager = el("div", { class: "pager" },
    el("span", { id: "total", text: data.total ? `${count(offset + 1)}–${count(last)} of ${count(data.total)} documents` : "no documents match" }),
    offset > 0 ? el("a", { href: link(["run", String(run)], { ...params, offset: Math.max(0, offset - PAGE_SIZE) }), text: "‹ previous" }) : null,
    last < data.total ? el("a", { href: link(["run", String(run)], { ...params, offset: offset + PAGE_SIZE }), text: "next ›" }) : null);
  out.push(pager);
  const heads = data.scored
    ? ["document", "packet", "type", "format", "tier", "hallucinated", "wrong", "omitted", "stale", "claims", "patterns"]
    : ["document", "packet", "type", "format", "tier", "status"];
  out.push(el("table", { id: "document-list", "data-filters": new URLSearchParams(params).toString() },
    el("tr", {}, heads.map((h, i) => el("th", { class: i >= 5 && data.scored ? "num" : null, text: h }))),
    data.rows.map((row) => {
      const href = link(["run", String(run), "doc", row.packet_id, row.doc_id], params.verdict === "hallucinated" ? { show: "hallucinated" } : {});
      const cells = [
        el("td", {}, el("a", { href, class: "doc-link", text: row.doc_id })),
        el("td", { text: row.packet_id }), el("td", { text: row.doc_type }),
        el("td", { text: row.format }), el("td", { text: row.tier }),
      ];
      if (row.check && row.check !== "verified" && row.check !== "unchecked") {
        cells.push(el("td", { class: "error refused", colspan: data.scored ? 6 : 1, text: `refused: ${row.check}` }));
      } else if (data.scored && row.status === "scored") {
        cells.push(
          el("td", { class: "num", text: `${count(row.hallucinated)} / ${count(row.checked)}` }),
          el("td", { class: "num", text: count(row.wrong) }),
          el("td", { class: "num", text: count(row.omitted) }),
          el("td", { class: "num", text: count(row.stale) }),
          el("td", { class: "num", text: count(row.claims) }),
          el("td", { class: "num", text: count((row.patterns || []).length) }));
      } else {
        cells.push(el("td", { colspan: data.scored ? 6 : 1, text: `${row.status}${row.reason ? ": " + row.reason : ""}` }));
      }
      return el("tr", { class: "clickable", "data-document": `${row.packet_id}/${row.doc_id}`, onclick: (e) => { if (e.target.tagName !== "A") location.hash = href; } }, cells);
    })));
  return out;
}

// ---------------------------------------------------------------- a document
// The document shown: its summary, where its boxes are, its side table. A long document is
// never loaded whole: the boxes of a page are asked for when the page comes near the
// viewport, and the side table a chunk of rows at a time.
const view = { boxes: new Map(), rows: new Map(), zoom: 1.25, hiddenOutcomes: new Set(), data: null, token: 0 };

async function showDocument(run, packet, doc, params, mine) {
  const info = runsList[run];
  if (!info) throw new Error("no run " + run);
  const other = params.cmp !== undefined && params.cmp !== "" && runsList[Number(params.cmp)] ? Number(params.cmp) : null;
  // Parts of other documents are dropped: a long session keeps no more than it shows.
  const keep = [run, other].map((r) => `run-${r}/${packet}/${doc}/`);
  for (const key of [...parts.keys()]) if (!keep.some((prefix) => key.startsWith(prefix))) parts.delete(key);
  view.token += 1; // what this view draws later checks it is still the one shown
  view.zoom = Number(params.zoom || view.zoom) || 1.25;
  const [data, compared] = await Promise.all([
    getPart(run, packet, doc, "summary"),
    other !== null ? getPart(other, packet, doc, "summary").catch((e) => ({ error: String(e.message || e) })) : null,
  ]);
  if (compared && !compared.error && compared.file_sha256 !== data.file_sha256) {
    compared.error = "the other run was extracted from another version of this document";
  }
  const comparing = compared && !compared.error ? other : null;
  const rows = comparing === null ? chunkedRows(run, data) : await mergedRows(run, comparing, data, compared);
  if (stale(mine)) return; // another page, or this one again, was asked for since
  Object.assign(view, { run, packet, doc, data, other: comparing, source: rows, boxes: new Map(), rows: new Map(), drawn: new Map() });
  view.hiddenOutcomes = new Set(params.show ? OUTCOMES.filter((o) => !params.show.split(",").includes(o)) : []);
  setCrumbs(el("a", { href: "#/", text: "runs" }), el("a", { href: link(["run", String(run)]), text: info.name }),
    el("span", { text: `${packet} / ${doc}` }));
  const app = document.getElementById("app");
  app.className = "document";
  const viewer = el("div", { id: "viewer" });
  const side = el("div", { id: "side" });
  app.replaceChildren(docBar(run, packet, doc, params, data, compared, other), el("div", { class: "split" }, viewer, side));
  if (data.format === "pdf") renderPages(viewer, data);
  else renderGrid(viewer, run, data);
  renderSide(side, run, data, params);
}

// The side table's rows of one run, worst first, fetched a chunk at a time. Each outcome is
// one run of rows in that order (the summary counts them), so the rows of the outcomes the
// legend shows are found without fetching the others.
function chunkedRows(run, data) {
  const visible = () => {
    const ranges = [];
    let at = 0;
    for (const [outcome, n] of data.outcomes) {
      if (!view.hiddenOutcomes.has(outcome)) ranges.push([at, at + n]);
      at += n;
    }
    return ranges;
  };
  return {
    counts: Object.fromEntries(data.outcomes),
    total: data.fields_total,
    shown: () => visible().reduce((sum, [a, b]) => sum + b - a, 0),
    async slice(start, end) {
      const wanted = [];
      let seen = 0;
      for (const [a, b] of visible()) {
        const from = Math.max(a, a + start - seen);
        const to = Math.min(b, a + end - seen);
        for (let i = from; i < to; i++) wanted.push(i);
        seen += b - a;
        if (seen >= end) break;
      }
      const chunks = [...new Set(wanted.map((i) => Math.floor(i / data.chunk)))];
      const loaded = new Map(await Promise.all(chunks.map(async (k) => [k, await getPart(run, data.packet_id, data.doc_id, `fields-${k}`)])));
      return wanted.map((i) => {
        const row = loaded.get(Math.floor(i / data.chunk))[i % data.chunk];
        return { ...row, key: row.path };
      });
    },
    async onPage(number) {
      const rows = data.format === "pdf" ? await getPart(run, data.packet_id, data.doc_id, `page-${number}`) : await getPart(run, data.packet_id, data.doc_id, "cells");
      return rows.map((row) => ({ ...row, key: row.path }));
    },
  };
}

async function allFields(run, data) {
  const chunks = [];
  for (let k = 0; k * data.chunk < data.fields_total; k++) chunks.push(getPart(run, data.packet_id, data.doc_id, `fields-${k}`));
  return (await Promise.all(chunks)).flat();
}

// Two runs of one document: one row per truth field (and per claim at no truth field), the
// other run's value and outcome beside, the rows where the runs differ first. Both runs'
// rows are needed to find the differences, so both are fetched whole.
async function mergedRows(run, other, data, compared) {
  const [mine, theirs] = await Promise.all([allFields(run, data), allFields(other, compared)]);
  const rows = mine.map((f, i) => ({ ...f, key: f.path, order: i }));
  const byPath = new Map(theirs.map((f) => [f.path, f]));
  const known = new Set(rows.map((r) => r.path));
  for (const f of theirs) if (!known.has(f.path)) rows.push({ ...f, value: null, verdict: null, outcome: "unscored", key: f.path, order: rows.length });
  for (const row of rows) {
    const found = byPath.get(row.path);
    row.other = found ? { value: found.value, outcome: found.outcome, verdict: found.verdict } : { value: null, outcome: "unscored", verdict: null };
    row.differs = row.other.outcome !== row.outcome || shown(row.other.value) !== shown(row.value);
  }
  rows.sort((a, b) => Number(b.differs) - Number(a.differs) || a.order - b.order);
  const counts = {};
  for (const row of rows) counts[row.outcome] = (counts[row.outcome] || 0) + 1;
  const onPage = new Map();
  for (const row of rows) {
    for (const location of row.locations || []) {
      const page = data.format === "pdf" ? location.page : 0;
      if (page === undefined || (data.format === "pdf" && !location.bbox)) continue;
      if (!onPage.has(page)) onPage.set(page, new Map());
      const placed = onPage.get(page);
      if (!placed.has(row.key)) placed.set(row.key, { ...row, locations: [] });
      placed.get(row.key).locations.push(location);
    }
  }
  const visible = () => rows.filter((row) => !view.hiddenOutcomes.has(row.outcome));
  return {
    counts,
    total: rows.length,
    shown: () => visible().length,
    slice: async (start, end) => visible().slice(start, end),
    onPage: async (number) => [...(onPage.get(data.format === "pdf" ? number : 0) || new Map()).values()],
  };
}

function docBar(run, packet, doc, params, data, compared, other) {
  const record = data.document || {};
  const status = record.status === "scored" ? "" : ` · ${record.status}${record.reason ? ": " + record.reason : ""}`;
  const choices = runsList.filter((r) => r.index !== run);
  const go = (changes) => (location.hash = link(["run", String(run), "doc", packet, doc], { ...params, ...changes }));
  return el("div", { class: "docbar" },
    el("span", { class: "title", text: `${data.doc_id}` }),
    el("span", { class: "muted", text: `${data.doc_type} · ${data.format} · ${data.tier} · ${data.packet_id}${data.superseded_by ? " · superseded by " + data.superseded_by : ""}${status}` }),
    data.format === "pdf" ? el("span", {},
      el("button", { type: "button", id: "zoom-out", onclick: () => go({ zoom: Math.max(0.5, view.zoom - 0.25) }), text: "−" }),
      el("span", { text: ` ${Math.round(view.zoom * 100)} % ` }),
      el("button", { type: "button", id: "zoom-in", onclick: () => go({ zoom: Math.min(3, view.zoom + 0.25) }), text: "+" })) : null,
    choices.length ? el("label", {}, "compare with ",
      el("select", { id: "compare", onchange: (e) => go({ cmp: e.target.value }) },
        el("option", { value: "", text: "—" }),
        choices.map((r) => el("option", { value: r.index, text: r.name, selected: other === r.index })))) : null,
    compared && compared.error ? el("span", { class: "error", text: compared.error }) : null,
    compared && !compared.error ? el("span", { class: "muted", text: `boxes: left and top edge ${runsList[run].name}, right and bottom edge ${runsList[other].name}` }) : null);
}

function tip(row) {
  let text = `${row.path} (${row.outcome})\ntruth: ${truthText(row)}\nmodel: ${valueText(row.value, row.kind)}`;
  if (row.other) text += `\nother run: ${valueText(row.other.value, row.kind)} (${row.other.outcome})`;
  return text;
}

function addBox(row, node) {
  if (!view.boxes.has(row.key)) view.boxes.set(row.key, []);
  view.boxes.get(row.key).push(node);
}

// Boxes are drawn page by page as pages come near the viewport (a long document has tens of
// thousands), each page's fields asked for then; and at once for a page a row's click
// scrolls to.
function renderPages(viewer, data) {
  const token = view.token;
  const pages = data.pages.map((geometry, i) => {
    const page = el("div", { class: "page", "data-page": i + 1 });
    page.style.width = `${geometry.width * view.zoom}px`;
    page.style.height = `${geometry.height * view.zoom}px`;
    page.appendChild(el("img", { src: pageImage(data.file_sha256, i + 1, view.zoom), loading: "lazy", alt: `page ${i + 1}`, draggable: "false" }));
    page.appendChild(el("span", { class: "label", text: `page ${i + 1} of ${data.pages.length}` }));
    return page;
  });
  viewer.replaceChildren(...pages);
  const place = (box, bbox, geometry) => {
    const top = geometry.bottom + geometry.height;
    box.style.left = `${(bbox[0] - geometry.left) * view.zoom}px`;
    box.style.top = `${(top - bbox[3]) * view.zoom}px`;
    box.style.width = `${Math.max(2, (bbox[2] - bbox[0]) * view.zoom)}px`;
    box.style.height = `${Math.max(2, (bbox[3] - bbox[1]) * view.zoom)}px`;
  };
  view.drawPage = (number) => {
    if (!pages[number - 1] || !data.boxes[number - 1]) return Promise.resolve();
    if (!view.drawn.has(number)) {
      view.drawn.set(number, view.source.onPage(number).then((rows) => {
        if (token !== view.token) return;
        const geometry = data.pages[number - 1];
        const fragment = document.createDocumentFragment();
        for (const row of rows) {
          for (const location of row.locations) {
            const classes = ["box", `b-${row.outcome}`];
            if (row.other) classes.push(`r-${row.other.outcome}`);
            if (view.hiddenOutcomes.has(row.outcome)) classes.push("dim");
            const box = el("div", { class: classes.join(" "), title: tip(row), "data-path": row.path, "data-outcome": row.outcome, onclick: () => focusRow(row) });
            place(box, location.bbox, geometry);
            fragment.appendChild(box);
            addBox(row, box);
          }
        }
        pages[number - 1].appendChild(fragment);
      }));
    }
    return view.drawn.get(number);
  };
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) if (entry.isIntersecting) view.drawPage(Number(entry.target.dataset.page)).catch(fail);
  }, { root: viewer, rootMargin: "300px 0px" });
  pages.forEach((page) => observer.observe(page));
  view.place = (bbox, page, className, title) => {
    const geometry = data.pages[page - 1];
    if (!geometry) return null;
    const box = el("div", { class: `box ${className}`, title });
    place(box, bbox, geometry);
    pages[page - 1].appendChild(box);
    return box;
  };
}

function cellIndex(location) {
  if (location.sheet !== undefined) {
    const match = /^([A-Z]+)(\d+)$/.exec(location.cell || "");
    if (!match) return null;
    let column = 0;
    for (const ch of match[1]) column = column * 26 + (ch.charCodeAt(0) - 64);
    return { sheet: location.sheet, row: Number(match[2]) - 1, column: column - 1 };
  }
  if (location.row !== undefined) return { sheet: "", row: location.row, column: location.column };
  return null;
}

async function renderGrid(viewer, run, data) {
  const token = view.token;
  viewer.replaceChildren(el("p", { class: "muted", text: "Loading the grid…" }));
  view.place = null;
  let done = null;
  view.drawPage = () => done || Promise.resolve();
  const [grid, rows] = await Promise.all([getGrid(run, data.packet_id, data.doc_id, data.file_sha256), view.source.onPage(0)]);
  if (token !== view.token) return;
  const cells = new Map();
  const sheets = grid.kind === "xlsx"
    ? grid.sheets
    : [{ name: "", hidden: false, rows: grid.rows, preamble: grid.preamble, columns: null, hidden_rows: [], hidden_columns: [], total_rows: grid.total_rows }];
  const tables = sheets.map((sheet) => {
    const hiddenRows = new Set(sheet.hidden_rows || []);
    const hiddenColumns = new Set(sheet.hidden_columns || []);
    const width = Math.max(0, ...sheet.rows.map((r) => r.length));
    const head = el("tr", {}, el("th", { class: "rowhead" }),
      Array.from({ length: width }, (_, c) => el("th", { text: sheet.columns ? sheet.columns[c] || "" : String(c) })));
    const body = [];
    for (const line of sheet.preamble || []) body.push(el("tr", { class: "preamble" }, el("th", { class: "rowhead", text: "–" }), el("td", { colspan: width, text: line.join(grid.delimiter === "tab" ? "\t" : ", ") })));
    sheet.rows.forEach((values, r) => {
      const number = grid.kind === "xlsx" ? r + 1 : r;
      const tr = el("tr", { class: hiddenRows.has(number) ? "hidden-row" : null }, el("th", { class: "rowhead", text: String(number) }));
      for (let c = 0; c < width; c++) {
        const letter = sheet.columns ? sheet.columns[c] : null;
        const td = el("td", { class: letter && hiddenColumns.has(letter) ? "hidden-col" : null, text: values[c] ?? "" });
        cells.set(`${sheet.name}|${r}|${c}`, td);
        tr.appendChild(td);
      }
      body.push(tr);
    });
    const note = sheet.total_rows > sheet.rows.length ? el("p", { class: "muted", text: `first ${sheet.rows.length} of ${sheet.total_rows} rows` }) : null;
    return el("div", { class: "grid-sheet" },
      sheet.name ? el("h3", { text: `${sheet.name}${sheet.hidden ? " (hidden sheet: not sent to the model)" : ""}` }) : null,
      el("table", { class: "grid" }, head, body), note);
  });
  viewer.replaceChildren(...tables);
  for (const row of rows) {
    for (const location of row.locations || []) {
      const at = cellIndex(location);
      const td = at && cells.get(`${at.sheet}|${at.row}|${at.column}`);
      if (!td) continue;
      td.classList.add("cell", `b-${row.outcome}`, "box-cell");
      td.dataset.outcome = row.outcome;
      td.dataset.path = row.path;
      td.title = tip(row);
      td.addEventListener("click", () => focusRow(row));
      addBox(row, td);
    }
  }
  done = Promise.resolve();
  applyOutcomeFilter();
}

function applyOutcomeFilter() {
  for (const boxes of view.boxes.values()) {
    for (const box of boxes) box.classList.toggle("dim", view.hiddenOutcomes.has(box.dataset.outcome));
  }
}

function scrollToBox(box) {
  const viewer = document.getElementById("viewer");
  const target = box.getBoundingClientRect();
  const frame = viewer.getBoundingClientRect();
  viewer.scrollBy({ top: target.top - frame.top - frame.height / 2 + target.height / 2, left: target.left - frame.left - frame.width / 2 + target.width / 2, behavior: "instant" });
}

function focusBoxes(boxes) {
  document.querySelectorAll(".focus").forEach((n) => n.classList.remove("focus"));
  if (!boxes.length) return;
  for (const box of boxes) box.classList.add("focus");
  scrollToBox(boxes[0]);
}

// Scroll the page to a row's boxes (drawing their pages first) and mark its row.
async function focusRow(row) {
  const pages = new Set((row.locations || []).map((l) => (view.data.format === "pdf" ? l.page : 0)).filter((p) => p !== undefined));
  await Promise.all([...pages].map((page) => view.drawPage(page)));
  focusBoxes(view.boxes.get(row.key) || []);
  const tr = view.rows.get(row.key);
  if (tr) {
    tr.classList.add("focus");
    tr.scrollIntoView({ block: "nearest" });
  }
}

let extraBoxes = [];
function showExtra(items, className) {
  for (const box of extraBoxes) box.remove();
  extraBoxes = [];
  if (!view.place) return;
  for (const item of items) {
    const box = view.place(item.bbox, item.page, className, item.title);
    if (box) extraBoxes.push(box);
  }
  focusBoxes(extraBoxes);
}

function renderSide(side, run, data, params) {
  const tab = params.tab || "fields";
  const go = (changes) => (location.hash = link(["run", String(run), "doc", data.packet_id, data.doc_id], { ...params, ...changes }));
  const tabs = el("div", { class: "tabs" },
    [["fields", `Fields (${count(view.source.total)})`], ["claims", `Claims (${count(data.claims_total)})`], ["page", `Patterns and hidden text (${data.patterns.length + data.hidden.length})`]].map(([name, label]) =>
      el("button", { type: "button", "data-tab": name, class: tab === name ? "active" : null, onclick: () => go({ tab: name }), text: label })));
  const counts = view.source.counts;
  let body = el("div");
  const legend = el("div", { class: "legend", id: "legend" }, OUTCOMES.filter((o) => counts[o]).map((outcome) =>
    el("label", { title: OUTCOME_HELP[outcome] },
      el("input", {
        type: "checkbox", "data-outcome": outcome, checked: !view.hiddenOutcomes.has(outcome),
        onchange: (e) => {
          if (e.target.checked) view.hiddenOutcomes.delete(outcome);
          else view.hiddenOutcomes.add(outcome);
          applyOutcomeFilter();
          if (tab === "fields") {
            const next = fieldsTable();
            body.replaceWith(next);
            body = next;
          }
        },
      }), dot(outcome), `${outcome} ${count(counts[outcome])}`)));
  const record = data.document || {};
  const summary = el("div", { class: "panel muted" },
    record.record_status ? `record ${record.record_status}` : "",
    record.latency_s !== undefined ? ` · ${Number(record.latency_s).toFixed(2)} s` : "",
    record.output_tokens !== undefined ? ` · ${count(record.input_tokens)} in, ${count(record.output_tokens)} out tokens` : "");
  if (tab === "claims") body = claimsTable(run, data);
  else if (tab === "page") body = pagePanel(data);
  else body = fieldsTable();
  side.replaceChildren(tabs, legend, summary, body);
}

const STEP = 200; // side-table rows drawn at a time (fetched `data.chunk` at a time)

// Rows are asked for and drawn STEP at a time; "show more" draws the next.
function moreRows(table, columns, total, slice, draw) {
  let next = 0;
  const token = view.token;
  const button = el("button", { type: "button" });
  const more = el("tr", { class: "more" }, el("td", { colspan: columns }, button));
  const add = async () => {
    button.disabled = true;
    const rows = await slice(next, next + STEP);
    if (token !== view.token) return;
    const fragment = document.createDocumentFragment();
    for (const row of rows) fragment.appendChild(draw(row));
    next += rows.length;
    more.remove();
    table.appendChild(fragment);
    if (next < total && rows.length) {
      button.disabled = false;
      button.textContent = `show ${count(Math.min(STEP, total - next))} more of ${count(total - next)}`;
      table.appendChild(more);
    }
  };
  button.addEventListener("click", () => add().catch(fail));
  add().catch(fail);
}

function fieldsTable() {
  const compared = view.other !== null;
  const names = compared
    ? [["", "dot"], ["field", "path"], ["truth", "value"], ["this run", "value"], ["", "dot"], ["other run", "value"]]
    : [["", "dot"], ["field", "path"], ["truth", "value"], ["model · verdict", "value"]];
  const table = el("table", { id: "fields" }, headRow(names));
  view.rows = new Map();
  moreRows(table, names.length, view.source.shown(), view.source.slice, (row) => {
    const located = (row.locations || []).length > 0;
    const truth = row.rendered_as ?? row.truth;
    // A truth value the page's record does not locate (an imported run's, where the reference
    // gives no box) is listed all the same, marked.
    const unlocated = !located && truth !== null && truth !== undefined;
    const cells = [el("td", {}, dot(row.outcome)), el("td", { class: "path" }, ...breakable(row.path)),
      el("td", { class: "value" }, truthText(row), unlocated ? el("span", { class: "tag unlocated", text: "not located", title: "no box: the truth does not say where this value is drawn" }) : null,
        row.below_resolution ? el("span", { class: "tag below", text: "below resolution", title: "legible in the file, not on the page as this run delivered it: an abstention test (docs/resolution.md)" }) : null),
      el("td", { class: "value" }, valueText(row.value, row.kind),
        // the verdict folds under the model's value: a column of its own would not fit
        !compared && row.verdict ? el("div", { class: "verdict", text: `${row.verdict}${row.grounded_in ? " · " + row.grounded_in : ""}` }) : null)];
    if (compared) cells.push(el("td", {}, dot(row.other.outcome)), el("td", { class: "value", text: valueText(row.other.value, row.kind) }));
    const tr = el("tr", {
      class: located ? "clickable" : null, "data-path": row.path, "data-outcome": row.outcome,
      "data-located": located ? "yes" : "no", title: `${row.outcome}: ${OUTCOME_HELP[row.outcome] || ""}`,
      onclick: () => focusRow(row).catch(fail),
    }, cells);
    view.rows.set(row.key, tr);
    return tr;
  });
  return table;
}

function claimsTable(run, data) {
  const table = el("table", { id: "claims" },
    headRow([["claim", "path"], ["value", "value"], ["truth", "value"], ["verdict · where", "value"]]));
  const slice = async (start, end) => {
    const chunks = [];
    for (let k = Math.floor(start / data.chunk); k * data.chunk < Math.min(end, data.claims_total); k++) chunks.push(getPart(run, data.packet_id, data.doc_id, `claims-${k}`));
    const rows = (await Promise.all(chunks)).flat();
    const first = Math.floor(start / data.chunk) * data.chunk;
    return rows.slice(start - first, end - first);
  };
  moreRows(table, 4, data.claims_total, slice, (claim) => {
    const where = [];
    const truth = claim.truth_at;
    if (truth) where.push(truth.page ? `truth on p${truth.page}` : `truth at ${truth.cell || "row " + truth.row}`);
    for (const found of claim.found_at || []) where.push(`drawn at ${found.path}${found.page ? " p" + found.page : ""}`);
    return el("tr", {
      class: "clickable", "data-path": claim.path, "data-verdict": claim.verdict,
      onclick: () => {
        if (truth) focusRow({ key: claim.path, locations: [truth] }).catch(fail);
        else if (claim.found_at && claim.found_at.length) showExtra(claim.found_at.filter((f) => f.bbox).map((f) => ({ ...f, title: `drawn at ${f.path}` })), "pattern");
      },
    },
    el("td", { class: "path" }, ...breakable(claim.path)), el("td", { class: "value", text: valueText(claim.value, claim.kind) }),
    el("td", { class: "value", text: valueText(claim.truth, claim.kind) }),
    // verdict, where it is grounded and where it is drawn fold into one column
    el("td", { class: "value" },
      el("div", { class: "verdict-name", text: claim.verdict + (claim.hallucinated ? " (hallucinated)" : "") }),
      el("div", { class: "verdict", text: `grounded in ${claim.grounded_in}` }),
      where.length ? el("div", { class: "verdict", text: where.join("; ") }) : null));
  });
  return table;
}

function pagePanel(data) {
  const patterns = el("table", { id: "patterns" },
    headRow([["pattern", "wide"], ["truth", "tiny"], ["pages", "tiny"], ["boxes", "tiny"], ["details", "value"]]),
    data.patterns.map((pattern) => el("tr", {
      class: "clickable", "data-pattern": pattern.id,
      onclick: () => showExtra(pattern.boxes.filter((b) => b.bbox).map((b) => ({ ...b, title: `${pattern.id}: ${b.path}` })), "pattern"),
    },
    el("td", {}, el("strong", {}, ...breakable(pattern.id)), el("br"), pattern.name),
    el("td", { text: pattern.truth }), el("td", { text: pattern.pages.join(", ") }),
    el("td", { class: "num", text: count(pattern.boxes.length) }), el("td", { text: pattern.details }))));
  const hidden = el("table", { id: "hidden" },
    headRow([["hidden text (not on the page, in no truth)", "value"], ["page", "short"], ["found in the text layer", "wide"]]),
    data.hidden.map((item) => el("tr", {
      class: "clickable",
      onclick: () => showExtra(item.boxes.map((bbox) => ({ bbox, page: item.page, title: `hidden: ${item.text}` })), "hidden-text"),
    }, el("td", { text: item.text }), el("td", { text: item.page ?? item.sheet ?? "" }), el("td", { text: item.boxes.length ? `${item.boxes.length} box(es)` : "no" }))));
  return el("div", {}, el("h2", { class: "panel", text: "Presentation patterns" }), patterns,
    el("h2", { class: "panel", text: "Hidden text" }), data.hidden.length ? hidden : el("p", { class: "panel muted", text: "none" }));
}
