// The studio's page: packs kept in this browser's storage, edited with line
// numbers, highlighting and the server's check marked at its lines; a
// board set up by clicking that the rules answer; the pack's scenarios
// run; a game started with the pack; a comparison run in the background.
// Every request carries the packs' files (`pack_files`), as a game log
// carries them: the server keeps nothing of them.
//
// The editor is a textarea laid over its own text highlighted (and a
// gutter of line numbers), written here rather than a vendored editor:
// the textarea keeps the browser's own editing (undo, selection, phone
// keyboards, screen readers) and the page stays a few kilobytes served
// from the binary, while Rhai and TOML need only a small tokenizer each
// for colour (no editor ships a Rhai mode).
//
// A module: nothing is global but `window.studio`, the page's state for
// the browser tests and the console.
import { el, api } from "/shared.js";

/**
 * The element a selector finds (the page's own, known to be there).
 * @param {string} s
 * @returns {any}
 */
const $ = (s) => document.querySelector(s);
/**
 * Every element a selector finds.
 * @param {string} s
 * @returns {NodeListOf<HTMLElement>}
 */
const $$ = (s) => document.querySelectorAll(s);
const STORE = "towerlab.studio";
const CHECK_DELAY = 350;
const ASK_DELAY = 250;

// What this browser keeps: every pack's files by name, the pack and file
// open.
/** @type {{ packs: Record<string, { files: Record<string, string> }>, pack: string | null, file: string | null }} */
let kept = { packs: {}, pack: null, file: null };
/** @type {any[]} */
let starts = [];
/** @type {any} */
let reference = null;
/** @type {any} */
let catalog = null;
let lastCheck = { problems: [], warnings: [] };
let lastCheckNotes = [];
let checkTimer = null;
let checkSeq = 0;

// ---- the packs kept in the browser -------------------------------------

function load() {
  try {
    const k = JSON.parse(localStorage.getItem(STORE) ?? "null");
    if (k && typeof k.packs === "object") kept = k;
  } catch {
    // Nothing kept, or a private window.
  }
}

function save() {
  try {
    localStorage.setItem(STORE, JSON.stringify(kept));
  } catch {
    $("#pack-error").textContent = "this browser keeps nothing (a private window?): download your pack before you leave";
  }
}

function pack() {
  return kept.packs[kept.pack];
}

// The pack open and the packs of this browser it requires, as requests
// carry them.
function packFiles() {
  return packOrder(kept.pack).map((name) => ({ pack: name, files: kept.packs[name].files }));
}

// The packs a pack sent needs: packs of this browser it names in
// `requires`, before it (the server finds the others by name).
function packOrder(name, seen = new Set()) {
  if (seen.has(name) || !kept.packs[name]) return [];
  seen.add(name);
  const requires = manifestList(kept.packs[name].files["pack.toml"] ?? "", "requires");
  return [...requires.flatMap((r) => packOrder(r, seen)), name];
}

function manifestList(text, key) {
  const m = text.match(new RegExp(`^\\s*${key}\\s*=\\s*\\[([^\\]]*)\\]`, "m"));
  if (!m) return [];
  return [...m[1].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
}

function addPack(name, files) {
  kept.packs[name] = { files: { ...files } };
  kept.pack = name;
  kept.file = firstFile(files);
  save();
  showPacks();
}

function firstFile(files) {
  const names = Object.keys(files);
  return names.find((n) => n.endsWith(".rhai")) ?? names.find((n) => n === "pack.toml") ?? names[0] ?? null;
}

// A pack's manifest with its `name` set to `name`.
function renamed(manifest, name) {
  return manifest.replace(/^(\s*name\s*=\s*)"[^"]*"/m, `$1"${name}"`);
}

// A scenario file's `params` of pack `from` set under `to` instead: the
// inline table (`params = { from = { … } }`), the table header
// (`[scenario.params.from]`) and the dotted key (`params.from.x = …`).
function paramsRenamed(text, from, to) {
  const key = (n) => (/^[A-Za-z0-9_-]+$/.test(n) ? n : `"${n}"`);
  const esc = from.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const old = `(?:${esc}|"${esc}")`;
  return text
    .replace(new RegExp(`(params\\s*=\\s*\\{(?:[^\\n]*?,)?\\s*)${old}(\\s*=)`, "g"), `$1${key(to)}$2`)
    .replace(new RegExp(`(\\[\\s*scenario\\.params\\.)${old}(\\s*\\])`, "g"), `$1${key(to)}$2`)
    .replace(new RegExp(`(^\\s*params\\.)${old}(\\.)`, "gm"), `$1${key(to)}$2`);
}

const PACK_NAME = /^[A-Za-z0-9_-]{1,64}(\/[A-Za-z0-9_-]{1,64})?$/;

function checkName(name) {
  if (!PACK_NAME.test(name) || name === "base") {
    throw new Error("a pack's name is one or two parts (my-rule, house/my-rule) of letters, digits, - and _");
  }
}

function showPacks() {
  const select = $("#pack");
  select.replaceChildren();
  for (const name of Object.keys(kept.packs).sort()) {
    select.append(el("option", { value: name }, name));
  }
  select.value = kept.pack ?? "";
  const has = !!pack();
  for (const id of ["#rename", "#delete", "#download", "#add-file", "#remove-file"]) $(id).disabled = !has;
  $("#editor").hidden = !has;
  if (!has) $("#start-box").open = true;
  showFiles();
  showStartsFor();
  scheduleCheck(0);
  showBoardKinds();
}

// ---- starting a pack ---------------------------------------------------

async function loadStarts() {
  starts = (await api("GET", "/api/studio/starts")).starts;
  const select = $("#start");
  const groups = { template: "Templates: a kind of rule", example: "Examples of the docs", shipped: "Shipped packs" };
  for (const [kind, label] of Object.entries(groups)) {
    const g = el("optgroup", { label });
    starts.forEach((s, i) => {
      if (s.kind === kind) g.append(el("option", { value: String(i) }, `${s.pack}${s.title ? ` — ${s.title}` : ""}`));
    });
    select.append(g);
  }
  select.addEventListener("change", showStartsFor);
  showStartsFor();
}

function showStartsFor() {
  const s = starts[Number($("#start").value)];
  if (!s) return;
  $("#start-about").textContent = s.description;
  if (!$("#start-name").value || $("#start-name").dataset.auto === "1") {
    let name = s.kind === "shipped" ? `my-${s.pack.replace("/", "-")}` : s.pack;
    $("#start-name").value = name;
    $("#start-name").dataset.auto = "1";
  }
}

function startPack() {
  $("#pack-error").textContent = "";
  try {
    const s = starts[Number($("#start").value)];
    const name = $("#start-name").value.trim();
    checkName(name);
    if (kept.packs[name] && !confirm(`Replace your pack ${name}?`)) return;
    const files = { ...s.files };
    // A shipped pack copied under a new name: its manifest says the name,
    // and its scenarios set its parameters under that name.
    if (files["pack.toml"]) files["pack.toml"] = renamed(files["pack.toml"], name);
    if (name !== s.pack) {
      for (const f of Object.keys(files).filter((f) => f.startsWith("tests/") && f.endsWith(".toml"))) {
        files[f] = paramsRenamed(files[f], s.pack, name);
      }
    }
    addPack(name, files);
    $("#start-box").open = false;
  } catch (e) {
    $("#pack-error").textContent = e.message;
  }
}

// ---- the editor --------------------------------------------------------

function showFiles() {
  const tabs = $("#file-tabs");
  tabs.replaceChildren();
  const p = pack();
  if (!p) return;
  if (!(kept.file in p.files)) kept.file = firstFile(p.files);
  const bad = new Set(lastCheck.problems.map((x) => x.file));
  for (const name of Object.keys(p.files).sort()) {
    const b = el("button", { type: "button", "aria-selected": String(name === kept.file) }, name);
    if (bad.has(`${kept.pack}/${name}`)) b.classList.add("bad");
    b.addEventListener("click", () => openFile(name));
    tabs.append(b);
  }
  const source = $("#source");
  source.value = p.files[kept.file] ?? "";
  paint();
}

function openFile(name, line) {
  kept.file = name;
  save();
  showFiles();
  if (line) goToLine(line);
}

function goToLine(line) {
  const source = $("#source");
  const lines = source.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  source.focus();
  source.setSelectionRange(at, at + (lines[line - 1]?.length ?? 0));
  const lh = parseFloat(getComputedStyle(source).lineHeight) || 18;
  source.scrollTop = Math.max(0, (line - 3) * lh);
  syncScroll();
}

function edited() {
  const p = pack();
  if (!p) return;
  p.files[kept.file] = $("#source").value;
  save();
  paint();
  scheduleCheck(CHECK_DELAY);
}

// The highlighted text and the gutter, with each problem's line marked.
function paint() {
  const text = $("#source").value;
  const file = `${kept.pack}/${kept.file}`;
  const marks = new Map();
  for (const [kind, list] of [["warn", lastCheck.warnings], ["bad", lastCheck.problems]]) {
    for (const x of list) {
      if (x.file === file && x.line) marks.set(x.line, { kind, message: x.message });
    }
  }
  const tokens = kept.file?.endsWith(".rhai") ? rhaiTokens(text) : tomlTokens(text);
  const pre = $("#highlight");
  pre.replaceChildren();
  const gutter = $("#gutter");
  gutter.replaceChildren();
  let line = el("span", { class: "hl-line" });
  let n = 1;
  const endLine = () => {
    const mark = marks.get(n);
    const g = el("div", {}, String(n));
    if (mark) {
      line.classList.add(mark.kind);
      g.classList.add(mark.kind);
      g.title = mark.message;
      line.title = mark.message;
    }
    if (line.childNodes.length === 0) line.append("\u200b");
    pre.append(line);
    gutter.append(g);
  };
  for (const [kind, piece] of tokens) {
    const parts = piece.split("\n");
    parts.forEach((part, i) => {
      if (i > 0) {
        endLine();
        n += 1;
        line = el("span", { class: "hl-line" });
      }
      if (part) line.append(kind ? el("span", { class: `t-${kind}` }, part) : document.createTextNode(part));
    });
  }
  endLine();
  syncScroll();
}

function syncScroll() {
  const source = $("#source");
  $("#highlight").scrollTop = source.scrollTop;
  $("#highlight").scrollLeft = source.scrollLeft;
  $("#gutter").scrollTop = source.scrollTop;
}

const RHAI_KEYWORDS = new Set("fn let const if else while loop for in return true false break continue switch do until throw try catch private import export as this".split(" "));

// Rhai as [kind, text] pieces: comments, strings, numbers, keywords,
// hooks (from the hook table) and calls.
function rhaiTokens(text) {
  const hooks = new Set((reference?.hooks ?? []).map((h) => h.name));
  const out = [];
  const re = /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|("(?:[^"\\\n]|\\.)*"?|`[^`]*`?|'(?:[^'\\\n]|\\.)*'?)|(\b\d[\d_]*(?:\.\d+)?\b)|([A-Za-z_][A-Za-z0-9_]*)(\s*\()?/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push([null, text.slice(last, m.index)]);
    if (m[1]) out.push(["com", m[1]]);
    else if (m[2]) out.push(["str", m[2]]);
    else if (m[3]) out.push(["num", m[3]]);
    else {
      const word = m[4];
      const kind = RHAI_KEYWORDS.has(word) ? "kw" : hooks.has(word) ? "hook" : m[5] ? "fn" : null;
      out.push([kind, word]);
      if (m[5]) out.push([null, m[5]]);
    }
    last = m.index + m[0].length;
  }
  out.push([null, text.slice(last)]);
  return out;
}

// TOML as [kind, text] pieces: comments, table headers, keys, strings
// (multi-line too), numbers and booleans.
function tomlTokens(text) {
  const out = [];
  const re = /(#[^\n]*)|(^[ \t]*\[\[?[^\]\n]*\]\]?)|("""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:[^"\\\n]|\\.)*"?|'[^'\n]*'?)|(^[ \t]*[A-Za-z0-9_.-]+(?=\s*=)|(?<=[{,]\s*)[A-Za-z0-9_-]+(?=\s*=))|(\b(?:true|false)\b|[-+]?\b\d[\d_]*(?:\.\d+)?\b)/gm;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push([null, text.slice(last, m.index)]);
    const kind = m[1] ? "com" : m[2] ? "head" : m[3] ? "str" : m[4] ? "key" : "num";
    out.push([kind, m[0]]);
    last = m.index + m[0].length;
  }
  out.push([null, text.slice(last)]);
  return out;
}

function addFile() {
  const name = prompt("The new file's name, in the pack's folder (e.g. tests/more.toml):", "tests/new.toml");
  if (!name) return;
  if (!/^[A-Za-z0-9_.\/-]+\.(toml|rhai)$/.test(name) || name.includes("..") || name.startsWith("/")) {
    $("#pack-error").textContent = "a pack holds .toml and .rhai files, named inside its folder";
    return;
  }
  const p = pack();
  if (!(name in p.files)) p.files[name] = name.startsWith("tests/") ? "[[scenario]]\nname = \"\"\n" : "";
  openFile(name);
}

function removeFile() {
  if (kept.file === "pack.toml") {
    $("#pack-error").textContent = "a pack needs its pack.toml";
    return;
  }
  if (!confirm(`Remove ${kept.file}?`)) return;
  delete pack().files[kept.file];
  kept.file = firstFile(pack().files);
  save();
  showFiles();
  scheduleCheck(0);
}

// ---- the check, as you type --------------------------------------------

function scheduleCheck(delay) {
  clearTimeout(checkTimer);
  if (!pack()) return;
  checkTimer = setTimeout(() => runCheck(0), delay);
}

async function runCheck(games) {
  const seq = ++checkSeq;
  const name = kept.pack;
  $("#check-status").textContent = games ? `checking with ${games} test games…` : "checking…";
  $("#check-status").className = "";
  try {
    const report = await api("POST", "/api/studio/check", { pack_files: packFiles(), pack: name, games });
    if (seq !== checkSeq) return;
    showCheck(report);
  } catch (e) {
    if (seq !== checkSeq) return;
    lastCheck = { problems: [{ file: null, line: null, col: null, message: e.message }], warnings: [] };
    showCheck({ ...lastCheck, summary: "" });
  }
}

function showCheck(report) {
  lastCheck = { problems: report.problems, warnings: report.warnings ?? [] };
  // The notes say the floor kinds, which the board offers.
  lastCheckNotes = report.notes ?? [];
  showBoardKinds();
  markDefinedHooks();
  const status = $("#check-status");
  if (report.problems.length === 0) {
    status.textContent = `✓ ${report.summary || "no problems"}`;
    status.className = "ok";
  } else {
    status.textContent = `${report.problems.length} problem${report.problems.length > 1 ? "s" : ""}`;
    status.className = "error";
  }
  // With test games, what the hooks cost: the costliest and its share.
  $("#check-cost").textContent = report.cost ?? "";
  $("#check-cost").hidden = !report.cost;
  listProblems($("#problems"), lastCheck.problems);
  listProblems($("#warnings"), lastCheck.warnings);
  $("#warnings-title").textContent = `Warnings (${lastCheck.warnings.length})`;
  $("#warnings-box").hidden = lastCheck.warnings.length === 0;
  const at = $("#source").selectionStart;
  showFiles();
  $("#source").setSelectionRange(at, at);
}

function listProblems(list, problems) {
  list.replaceChildren();
  for (const p of problems) {
    const where = p.file ? `${p.file}:${p.line}:${p.col}` : "";
    const li = el("li", {}, p.message);
    if (where) li.title = `go to ${where}`;
    li.addEventListener("click", () => {
      if (!p.file) return;
      const [packName, ...rest] = splitFile(p.file);
      if (packName !== kept.pack) return;
      openFile(rest.join("/"), p.line);
    });
    list.append(li);
  }
}

// `pack/file` split at the pack's name (which may hold one `/`).
function splitFile(path) {
  for (const name of Object.keys(kept.packs)) {
    if (path.startsWith(`${name}/`)) return [name, path.slice(name.length + 1)];
  }
  return [null, path];
}

// ---- the reference -----------------------------------------------------

async function loadReference() {
  reference = await api("GET", "/api/studio/reference");
  const hooks = $("#hooks");
  for (const h of reference.hooks) {
    const li = el("li");
    li.append(el("code", {}, `${h.name}(${h.params.join(", ")})`), " ");
    if (h.event) li.append(el("span", { class: "hook-event" }, "event"), " ");
    li.append(el("span", { class: "hook-defined", hidden: "" }, "defined here"), " ");
    li.append(markdown(h.doc));
    li.dataset.hook = h.name;
    hooks.append(li);
  }
  for (const r of reference.reads) {
    const li = el("li");
    li.append(markdown(r));
    $("#reads").append(li);
  }
  for (const e of reference.effects) {
    const li = el("li");
    li.append(markdown(`${e.call}: ${e.does}`), el("br"), el("small", {}, `refused: ${e.refused.replaceAll("`", "")}`));
    $("#effects").append(li);
  }
  showScenarioFormat(reference.scenario);
  showTileKinds();
  markDefinedHooks();
  paint();
}

// The scenario file's format, every key with an entry (docs/scenarios.md).
function showScenarioFormat(doc) {
  $("#scenario-example").textContent = doc.example;
  for (const [id, keys] of [["#scenario-position", doc.position], ["#scenario-expect", doc.expect]]) {
    const table = $(id);
    for (const k of keys) {
      const tr = el("tr");
      const key = el("th");
      key.append(el("code", {}, k.key));
      const entry = el("td");
      entry.append(markdown(k.entry));
      const does = el("td");
      does.append(markdown(k.does));
      tr.append(key, entry, does);
      table.append(tr);
    }
  }
}

function markDefinedHooks() {
  const text = Object.entries(pack()?.files ?? {})
    .filter(([n]) => n.endsWith(".rhai"))
    .map(([, t]) => t)
    .join("\n");
  for (const li of $$("#hooks li")) {
    const defined = new RegExp(`\\bfn\\s+${li.dataset.hook}\\s*\\(`).test(text);
    /** @type {HTMLElement} */ (li.querySelector(".hook-defined")).hidden = !defined;
  }
}

// Markdown's code spans as <code>, the rest as text.
function markdown(text) {
  const span = el("span");
  text.split(/(`[^`]*`)/).forEach((part) => {
    if (part.startsWith("`") && part.endsWith("`") && part.length > 1) span.append(el("code", {}, part.slice(1, -1)));
    else span.append(part.replace(/\*\*|\[([^\]]*)\]\([^)]*\)/g, (m, t) => t ?? ""));
  });
  return span;
}

// ---- upload and download -----------------------------------------------

async function uploadFolder(event) {
  const files = [...event.target.files];
  event.target.value = "";
  const read = {};
  for (const f of files) {
    const path = f.webkitRelativePath || f.name;
    read[path] = await f.text();
  }
  takeUploaded(read);
}

async function uploadZip(event) {
  const file = event.target.files[0];
  event.target.value = "";
  if (!file) return;
  try {
    takeUploaded(await unzip(new Uint8Array(await file.arrayBuffer())));
  } catch (e) {
    $("#pack-error").textContent = `that zip cannot be read: ${e.message}`;
  }
}

// Files by path: the folder holding pack.toml is the pack; its files are
// kept by path relative to it (only .toml and .rhai files).
function takeUploaded(read) {
  $("#pack-error").textContent = "";
  const manifest = Object.keys(read)
    .filter((p) => p === "pack.toml" || p.endsWith("/pack.toml"))
    .sort((a, b) => a.length - b.length)[0];
  if (!manifest) {
    $("#pack-error").textContent = "no pack.toml in what was uploaded: a pack's folder holds one";
    return;
  }
  const root = manifest.slice(0, -"pack.toml".length);
  const files = {};
  for (const [path, text] of Object.entries(read)) {
    if (!path.startsWith(root)) continue;
    const rel = path.slice(root.length);
    if (/\.(toml|rhai)$/.test(rel)) files[rel] = text;
  }
  const named = read[manifest].match(/^\s*name\s*=\s*"([^"]*)"/m)?.[1];
  const folder = root.replace(/\/$/, "").split("/").pop();
  let name = PACK_NAME.test(named ?? "") ? named : folder;
  try {
    checkName(name);
  } catch (e) {
    $("#pack-error").textContent = e.message;
    return;
  }
  if (kept.packs[name] && !confirm(`Replace your pack ${name}?`)) return;
  addPack(name, files);
}

function download() {
  const p = pack();
  if (!p) return;
  const folder = kept.pack.split("/").pop();
  const entries = Object.entries(p.files).map(([name, text]) => [`${folder}/${name}`, text]);
  const blob = new Blob([zip(entries)], { type: "application/zip" });
  saveFile(blob, `${folder}.zip`);
  const n = entries.length;
  downloaded($("#download-status"), `${folder}.zip (${n} file${n === 1 ? "" : "s"})`);
}

// A file handed to the browser's downloads.
function saveFile(blob, name) {
  const a = /** @type {HTMLAnchorElement} */ (el("a", { href: URL.createObjectURL(blob), download: name }));
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// The sign that a file went to the browser's downloads.
function downloaded(status, what) {
  status.textContent = `⬇ ${what} saved to your downloads`;
}

// A zip archive of [path, text] entries, stored (not compressed): small
// text files, and any unzip tool reads it.
function zip(entries) {
  const enc = new TextEncoder();
  const parts = [];
  const central = [];
  let offset = 0;
  for (const [path, text] of entries) {
    const name = enc.encode(path);
    const data = enc.encode(text);
    const crc = crc32(data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(6, 0x0800, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, data.length, true);
    local.setUint16(26, name.length, true);
    const dir = new DataView(new ArrayBuffer(46));
    dir.setUint32(0, 0x02014b50, true);
    dir.setUint16(4, 20, true);
    dir.setUint16(6, 20, true);
    dir.setUint16(8, 0x0800, true);
    dir.setUint32(16, crc, true);
    dir.setUint32(20, data.length, true);
    dir.setUint32(24, data.length, true);
    dir.setUint16(28, name.length, true);
    dir.setUint32(42, offset, true);
    parts.push(new Uint8Array(local.buffer), name, data);
    central.push(new Uint8Array(dir.buffer), name);
    offset += 30 + name.length + data.length;
  }
  const size = central.reduce((n, c) => n + c.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, size, true);
  end.setUint32(16, offset, true);
  return new Blob([...parts, ...central, new Uint8Array(end.buffer)]);
}

let crcTable = null;
function crc32(bytes) {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const b of bytes) crc = crcTable[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// The text files of a zip archive, by path: stored or deflated entries,
// read through its central directory.
async function unzip(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65557); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error("no zip directory");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const dec = new TextDecoder();
  const out = {};
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("a broken zip directory");
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLen = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = dec.decode(bytes.subarray(at + 46, at + 46 + nameLen));
    at += 46 + nameLen + extra + comment;
    if (name.endsWith("/") || !/\.(toml|rhai)$/.test(name)) continue;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + size);
    if (method === 0) out[name] = dec.decode(data);
    else if (method === 8) {
      const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
      out[name] = await new Response(stream).text();
    } else throw new Error(`${name} is compressed in a way this page does not read`);
  }
  return out;
}

// ---- see it answer: the board ------------------------------------------

const SIDE = 9;
const HALF = (SIDE - 1) / 2;
// The board: cells by "x,y" — a tile of a kind turned `rot` degrees, a
// tower's floors, a meeple of a seat on a segment (or the tower's top).
/** @type {{ cells: Record<string, any>, figures: Record<string, string>, players: number, scores: string, current: number, selected: string | null }} */
let board = { cells: {}, figures: {}, players: 2, scores: "", current: 0, selected: null };
/** @type {any} */
let answers = null;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let askTimer;
let askSeq = 0;
// The tile a tap puts, and its turn in degrees clockwise.
let chosen = { tile: "base/L", rot: 0 };
/** @type {Map<string, any>} */
const tileKinds = new Map();
/** @type {Map<string, string>} */
const tilePictures = new Map();

// A meeple stands on the first of these the tile has, until another
// feature is chosen.
const FIRST_FEATURES = ["cloister", "road", "city", "field"];

function seatColour(seat) {
  const colours = reference?.seat_colours ?? [];
  return colours[seat % Math.max(colours.length, 1)] ?? "#888";
}

function floorKinds() {
  // The pack's floors and the Tower's own: the kinds the check reported.
  const note = lastCheckNotes.find((n) => n.startsWith("packs: "));
  const m = note?.match(/floor kinds: ([^;]*)/);
  return m ? m[1].split(", ").filter(Boolean) : ["regular"];
}

function showBoardKinds() {
  fillNames($("#floor-kind"), floorKinds());
  const figures = figureNames();
  fillNames($("#figure-name"), figures);
  $("#figure-tool").hidden = figures.length === 0;
  for (const name of Object.keys(board.figures)) {
    if (!figures.includes(name)) delete board.figures[name];
  }
}

function fillNames(select, names) {
  const had = select.value;
  select.replaceChildren();
  for (const n of names) select.append(el("option", { value: n }, n));
  if (names.includes(had)) select.value = had;
}

// The tiles the board offers (the reference's), each with its picture.
function showTileKinds() {
  const select = $("#tile-kind");
  select.replaceChildren();
  for (const t of reference.tiles) {
    tileKinds.set(t.name, t);
    tilePictures.set(t.name, URL.createObjectURL(new Blob([t.svg], { type: "image/svg+xml" })));
    select.append(el("option", { value: t.name }, `${t.name}: ${t.words}`));
  }
  select.value = chosen.tile;
  showChosen();
}

function showChosen() {
  const preview = $("#tile-preview");
  preview.replaceChildren(tilePicture(chosen.tile, chosen.rot));
  $("#tile-turn").textContent = `turned ${chosen.rot}°`;
}

function tilePicture(name, rot) {
  const img = el("img", { src: tilePictures.get(name) ?? "", alt: "", class: "tile-picture" });
  img.style.transform = `rotate(${rot}deg)`;
  return img;
}

function isTower(name) {
  return (tileKinds.get(name)?.segments ?? []).some((s) => s.kind === "foundation");
}

// The segments a meeple may stand on, with where they lie at `rot`.
function standable(name, rot) {
  const segments = tileKinds.get(name)?.segments ?? [];
  return segments
    .map((s, i) => ({ segment: i, kind: s.kind, words: s.words[(rot / 90) % 4] }))
    .filter((s) => s.kind !== "foundation");
}

function firstSegment(name) {
  const list = standable(name, 0);
  for (const kind of FIRST_FEATURES) {
    const s = list.find((x) => x.kind === kind);
    if (s) return s.segment;
  }
  return list[0]?.segment ?? null;
}

// The neutral figures the pack open and the packs of this browser it
// requires declare (`[figure.NAME]` in a manifest).
function figureNames() {
  if (!pack()) return [];
  return packOrder(kept.pack).flatMap((name) =>
    [...(kept.packs[name].files["pack.toml"] ?? "").matchAll(/^\s*\[figure\.([A-Za-z0-9_-]+)\]/gm)].map((m) => m[1]),
  );
}

function setupBoardControls() {
  const fill = (select, from, to, value) => {
    select.replaceChildren();
    for (let i = from; i <= to; i++) select.append(el("option", { value: String(i) }, String(i)));
    select.value = String(value);
  };
  const max = catalog?.players?.max ?? 6;
  fill($("#players"), 2, max, board.players);
  fill($("#play-players"), 2, max, 2);
  fill($("#compare-players"), 2, max, 2);
  const seats = () => {
    fill($("#meeple-seat"), 0, board.players - 1, Math.min(Number($("#meeple-seat").value || 1), board.players - 1));
    fill($("#current"), 0, board.players - 1, Math.min(board.current, board.players - 1));
  };
  seats();
  $("#players").addEventListener("change", () => {
    board.players = Number($("#players").value);
    for (const [at, c] of Object.entries(board.cells)) {
      if (c.meeple !== undefined && c.meeple >= board.players) delete c.meeple;
      if (!c.tile) delete board.cells[at];
    }
    seats();
    boardChanged();
  });
  $("#current").addEventListener("change", () => {
    board.current = Number($("#current").value);
    boardChanged();
  });
  $("#scores").addEventListener("input", () => {
    board.scores = $("#scores").value;
    boardChanged();
  });
  $("#clear-board").addEventListener("click", () => {
    board.cells = {};
    board.figures = {};
    board.selected = null;
    boardChanged();
  });
  $("#tile-kind").addEventListener("change", () => {
    chosen.tile = $("#tile-kind").value;
    showChosen();
  });
  $("#turn-tile").addEventListener("click", () => {
    chosen.rot = (chosen.rot + 90) % 360;
    showChosen();
  });
  $("#meeple-on").addEventListener("change", () => {
    const c = board.cells[board.selected ?? ""];
    if (!c || c.meeple === undefined) return;
    const v = $("#meeple-on").value;
    c.segment = v === "tower" ? "tower" : Number(v);
    boardChanged();
  });
  drawGrid();
}

// The grid's cells, made once, with the x coordinates above and the y
// coordinates beside: a redraw (after each tap, and when the rules'
// answers come back) changes the cells in place, so a tap that lands
// while answers arrive still reaches the cell it was aimed at.
function gridCells() {
  const grid = $("#grid");
  if (grid.querySelectorAll("button").length !== SIDE * SIDE) {
    grid.style.gridTemplateColumns = `auto repeat(${SIDE}, auto)`;
    grid.replaceChildren(el("span", { class: "axis", "aria-hidden": "true" }, "y\\x"));
    for (let x = -HALF; x <= HALF; x++) grid.append(el("span", { class: "axis", "aria-hidden": "true" }, String(x)));
    for (let y = HALF; y >= -HALF; y--) {
      grid.append(el("span", { class: "axis", "aria-hidden": "true" }, String(y)));
      for (let x = -HALF; x <= HALF; x++) {
        const b = el("button", { type: "button", "data-at": `${x},${y}` });
        b.addEventListener("click", () => clickCell(x, y));
        grid.append(b);
      }
    }
  }
  return grid.querySelectorAll("button");
}

function drawGrid() {
  const cells = gridCells();
  const tower = answers?.towers?.find((t) => `${t.at[0]},${t.at[1]}` === board.selected) ?? answers?.towers?.find((t) => t.floors.length > 0);
  const inRange = new Set((tower?.range ?? []).map(([dx, dy]) => `${tower.at[0] + dx},${tower.at[1] + dy}`));
  const taken = new Set((tower?.captures ?? []).map(([x, y]) => `${x},${y}`));
  let i = 0;
  for (let y = HALF; y >= -HALF; y--) {
    for (let x = -HALF; x <= HALF; x++) {
      const at = `${x},${y}`;
      const c = board.cells[at];
      const b = cells[i++];
      b.setAttribute("aria-label", cellWords(x, y, c));
      b.className = "";
      b.replaceChildren();
      if (c) {
        b.classList.add(c.tower ? "tower" : "tile");
        b.append(tilePicture(c.tile, c.rot));
        if (c.tower) b.append(el("span", { class: "floors" }, String(c.floors.length)));
      }
      if (c?.meeple !== undefined) {
        const m = el("span", { class: "m" });
        m.style.background = seatColour(c.meeple);
        b.append(m);
      }
      for (const [name, where] of Object.entries(board.figures)) {
        if (where === at) b.append(el("span", { class: "figure", title: name }, "◆"));
      }
      if (inRange.has(at)) b.classList.add("range");
      if (taken.has(at)) b.classList.add("taken");
      if (tower && at === `${tower.at[0]},${tower.at[1]}`) b.classList.add("selected");
    }
  }
  showMeepleChoice();
}

// The feature the meeple of the cell chosen stands on, to choose another.
function showMeepleChoice() {
  const c = board.cells[board.selected ?? ""];
  const box = $("#meeple-on-box");
  if (!c || c.meeple === undefined) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $("#meeple-cell").textContent = `[${board.selected?.replace(",", ", ")}]`;
  const select = $("#meeple-on");
  select.replaceChildren();
  for (const s of standable(c.tile, c.rot)) select.append(el("option", { value: String(s.segment) }, s.words));
  if (c.tower) select.append(el("option", { value: "tower" }, "the tower's top"));
  select.value = String(c.segment);
}

function cellWords(x, y, c) {
  const parts = [`${x}, ${y}`];
  if (c) parts.push(`${c.tile} turned ${c.rot}°`);
  if (c?.tower) parts.push(`tower of ${c.floors.length} floors${c.floors.length ? `: ${c.floors.join(", ")}` : ""}`);
  if (c?.meeple !== undefined) parts.push(`meeple of seat ${c.meeple} on ${meepleWhere(c)}`);
  for (const [name, where] of Object.entries(board.figures)) {
    if (where === `${x},${y}`) parts.push(`the ${name}`);
  }
  return parts.join(", ");
}

function meepleWhere(c) {
  if (c.segment === "tower") return "the tower's top";
  return standable(c.tile, c.rot).find((s) => s.segment === c.segment)?.words ?? `segment ${c.segment}`;
}

function clickCell(x, y) {
  const at = `${x},${y}`;
  const tool = $("input[name=tool]:checked").value;
  const c = board.cells[at];
  if (tool === "tile") {
    // A tap on a tile turns it; on a free cell it puts the tile chosen.
    if (c) c.rot = (c.rot + 90) % 360;
    else board.cells[at] = newCell(chosen.tile, chosen.rot);
    board.selected = at;
  } else if (tool === "tower") {
    if (c?.tower) c.floors.push($("#floor-kind").value);
    else board.cells[at] = { ...newCell(isTower(chosen.tile) ? chosen.tile : "tower/F", 0), meeple: c?.meeple };
    if (board.cells[at].meeple === undefined) delete board.cells[at].meeple;
    else board.cells[at].segment = firstSegment(board.cells[at].tile);
    board.selected = at;
  } else if (tool === "meeple") {
    if (!c) return;
    const seat = Number($("#meeple-seat").value);
    if (c.meeple === seat) delete c.meeple;
    else {
      c.meeple = seat;
      c.segment ??= firstSegment(c.tile);
    }
    board.selected = at;
  } else if (tool === "figure") {
    if (!c) return;
    const name = $("#figure-name").value;
    if (board.figures[name] === at) delete board.figures[name];
    else board.figures[name] = at;
  } else if (tool === "erase") {
    const figure = Object.keys(board.figures).find((n) => board.figures[n] === at);
    if (figure) delete board.figures[figure];
    else if (c?.tower && c.floors.length > 0) c.floors.pop();
    else if (c?.meeple !== undefined) delete c.meeple;
    else delete board.cells[at];
  }
  // A figure stands on a tile: one whose tile went leaves the board.
  for (const [name, where] of Object.entries(board.figures)) {
    if (!board.cells[where]) delete board.figures[name];
  }
  boardChanged();
}

function newCell(tile, rot) {
  return isTower(tile) ? { tile, rot, tower: true, floors: [] } : { tile, rot };
}

function boardChanged() {
  drawGrid();
  clearTimeout(askTimer);
  askTimer = setTimeout(ask, ASK_DELAY);
}

// The board as a scenario position (docs/scenarios.md): each tile by its
// name, turn and cell; a meeple on the feature chosen (`on` where the
// tile has one of its kind, else `segment`, with its words); a neutral
// figure where it stands (`state`).
function scenarioText(name, expect) {
  const tiles = [];
  const towers = [];
  const meeples = [];
  for (const [at, c] of Object.entries(board.cells)) {
    const cell = `[${at.replace(",", ", ")}]`;
    tiles.push(`  { tile = "${c.tile}", at = ${cell}${c.rot ? `, rot = ${c.rot}` : ""} },`);
    if (c.tower && c.floors.length) towers.push(`  { at = ${cell}, floors = [${c.floors.map((f) => `"${f}"`).join(", ")}] },`);
    if (c.meeple !== undefined) meeples.push(`  { owner = ${c.meeple}, at = ${cell}, ${meepleKey(c)} }, # ${meepleWhere(c)}`);
  }
  const lines = ["[[scenario]]", `name = ${JSON.stringify(name)}`, `players = ${board.players}`];
  if (board.current) lines.push(`current = ${board.current}`);
  const scores = parseScores();
  if (scores) lines.push(`scores = [${scores.join(", ")}]`);
  const list = (key, items) => {
    if (items.length) lines.push(`${key} = [`, ...items, "]");
  };
  list("tiles", tiles);
  list("towers", towers);
  list("meeples", meeples);
  list(
    "state",
    Object.entries(board.figures).map(([name, at]) => `  { name = "${name}", at = [${at.replace(",", ", ")}] },`),
  );
  if (expect) lines.push("[scenario.expect]", ...expect);
  return lines.join("\n") + "\n";
}

// Where a meeple stands, as a scenario writes it.
function meepleKey(c) {
  if (c.segment === "tower") return `on = "tower"`;
  const list = standable(c.tile, c.rot);
  const kind = list.find((s) => s.segment === c.segment)?.kind;
  const alone = list.filter((s) => s.kind === kind).length === 1;
  return alone ? `on = "${kind}"` : `segment = ${c.segment}`;
}

function parseScores() {
  const text = board.scores.trim();
  if (!text) return null;
  const scores = text.split(/[\s,]+/).filter(Boolean).map(Number);
  if (scores.length !== board.players || scores.some((s) => !Number.isInteger(s) || s < 0)) return null;
  return scores;
}

// A tile of the board whose edges do not match a neighbour's (G1), the
// one tapped last first, in words with the turns that fit; or null: the
// board says it before it asks the rules.
function misfit() {
  const edge = (c, dir) => tileKinds.get(c.tile)?.edges[(dir - c.rot / 90 + 4) % 4];
  const step = [[0, 1], [1, 0], [0, -1], [-1, 0]];
  const fits = (at, c) => {
    const [x, y] = at.split(",").map(Number);
    return step.every(([dx, dy], dir) => {
      const n = board.cells[`${x + dx},${y + dy}`];
      return !n || edge(c, dir) === edge(n, (dir + 2) % 4);
    });
  };
  // The cell tapped last first: the tile just put or turned.
  const cells = Object.entries(board.cells).sort(([a], [b]) => Number(b === board.selected) - Number(a === board.selected));
  for (const [at, c] of cells) {
    if (fits(at, c)) continue;
    const turns = [0, 90, 180, 270].filter((rot) => fits(at, { ...c, rot }));
    const cell = `[${at.replace(",", ", ")}]`;
    return turns.length
      ? `tile ${c.tile} at ${cell} turned ${c.rot}° does not match the edges of the tiles around it (G1): tap it to turn it; turned ${turns.join("° or ")}° it fits (\`rot = ${turns.join("` or `rot = ")}\` in a scenario)`
      : `tile ${c.tile} at ${cell} fits there at no turn (G1): erase it, or choose another tile`;
  }
  return null;
}

async function ask() {
  if (!pack()) return;
  const seq = ++askSeq;
  const wrong = misfit();
  if (wrong) {
    answers = null;
    $("#answer-status").textContent = wrong;
    $("#answer-status").className = "error";
    $("#answers").replaceChildren();
    drawGrid();
    return;
  }
  $("#answer-status").textContent = "asking the rules…";
  try {
    const got = await api("POST", "/api/studio/ask", {
      pack_files: packFiles(),
      pack: kept.pack,
      scenario: scenarioText("board"),
    });
    if (seq !== askSeq) return;
    answers = got;
    $("#answer-status").textContent = "";
    showAnswers();
  } catch (e) {
    if (seq !== askSeq) return;
    answers = null;
    // The board's scenario has no file: its place is left out.
    $("#answer-status").textContent = e.message.replace(/^[^:]*board\.toml:\d+:\d+: /, "");
    $("#answer-status").className = "error";
    $("#answers").replaceChildren();
  }
  drawGrid();
}

const cellList = (cells) => cells.map(([x, y]) => `[${x}, ${y}]`).join(" ");

function showAnswers() {
  $("#answer-status").className = "";
  const box = $("#answers");
  box.replaceChildren();
  const seats = (list) => (list.length ? list.map((s) => `seat ${s}`).join(", ") : "no one");
  for (const t of answers.towers) {
    const h = el("h3", {}, `Tower at [${t.at[0]}, ${t.at[1]}]: ${t.floors.length ? t.floors.join(", ") : "a bare foundation"}`);
    const table = el("table");
    const row = (k, v) => {
      const tr = el("tr");
      tr.append(el("th", {}, k), el("td", {}, v));
      table.append(tr);
    };
    if (t.floors.length) {
      // The range is given from the tower; shown as the board's cells.
      row("reaches", `${t.range.length} cells: ${cellList(t.range.map(([dx, dy]) => [t.at[0] + dx, t.at[1] + dy]))}`);
      row("may capture", t.captures.length ? t.captures.map(([x, y]) => `the meeple at [${x}, ${y}]`).join(", ") : "no meeple");
    }
    for (const b of t.build) row(`may build ${b.kind}`, seats(b.seats));
    row("may top it", seats(t.top));
    box.append(h, table);
  }
  if (answers.towers.length === 0) box.append(el("p", { class: "small" }, "Put a tower on the board to see its range and who may build."));
  const ransoms = el("table");
  const head = el("tr");
  head.append(el("th", {}, "ransom: payer → captor"), el("th", {}, "cost"));
  ransoms.append(head);
  for (const r of answers.ransoms) {
    const tr = el("tr");
    tr.append(el("td", {}, `seat ${r.payer} → seat ${r.captor}`), el("td", {}, r.cost === null ? "no ransom" : `${r.cost} points`));
    ransoms.append(tr);
  }
  box.append(el("h3", {}, "Ransoms"), ransoms);
}

// The board as a scenario whose expectations are what the rules answer
// now, added to the pack's tests/studio.toml.
function saveScenario() {
  if (!answers || !pack()) return;
  const expect = { range: [], capturable: [], floors: [], top: [], ransom: [] };
  for (const t of answers.towers) {
    const at = `[${t.at[0]}, ${t.at[1]}]`;
    if (t.floors.length) {
      expect.range.push(`  { tower = ${at}, cells = [${t.range.map(([x, y]) => `[${x}, ${y}]`).join(", ")}] },`);
      expect.capturable.push(`  { tower = ${at}, meeples = [${t.captures.map(([x, y]) => `[${x}, ${y}]`).join(", ")}] },`);
    }
    for (const b of t.build) expect.floors.push(`  { tower = ${at}, kind = "${b.kind}", seats = [${b.seats.join(", ")}] },`);
    expect.top.push(`  { tower = ${at}, seats = [${t.top.join(", ")}] },`);
  }
  for (const r of answers.ransoms) {
    expect.ransom.push(`  { payer = ${r.payer}, captor = ${r.captor}, cost = ${r.cost === null ? '"none"' : r.cost} },`);
  }
  const lines = [];
  for (const [key, items] of Object.entries(expect)) {
    if (items.length) lines.push(`${key} = [`, ...items, "]");
  }
  const text = scenarioText($("#scenario-name").value.trim() || "a position from the studio", lines);
  const file = "tests/studio.toml";
  const p = pack();
  p.files[file] = p.files[file] ? `${p.files[file].trimEnd()}\n\n${text}` : text;
  save();
  $("#scenario-toml").hidden = false;
  $("#scenario-toml").textContent = `added to ${file}:\n\n${text}`;
  showFiles();
  scheduleCheck(0);
}

// ---- test it -----------------------------------------------------------

async function runTests() {
  const summary = $("#tests-summary");
  summary.textContent = "running…";
  $("#tests").replaceChildren();
  try {
    const got = await api("POST", "/api/studio/test", { pack_files: packFiles(), pack: kept.pack });
    summary.textContent = got.total === 0
      ? "no scenarios: add a file under tests/, or save a board as one"
      : `${got.passed} of ${got.total} passed`;
    for (const f of got.files) showTestedFile(f);
  } catch (e) {
    summary.textContent = e.message;
  }
}

function showTestedFile(f) {
  const list = $("#tests");
  const fileName = splitFile(f.file)[1];
  if (f.error) {
    const li = el("li", { class: "fail" }, `${f.file}: ${f.error.message}`);
    if (f.advice) li.append(el("p", { class: "advice" }, f.advice));
    li.addEventListener("click", () => openFile(fileName, f.error.line));
    list.append(li);
  }
  for (const s of f.scenarios) {
    const li = el("li", { class: s.passed ? "pass" : "fail" });
    li.append(`${s.passed ? "✓ pass" : "✗ fail"}: ${s.name} (${f.file}:${s.line})`);
    // What failed and what to do, in plain words, before the details.
    if (s.advice) li.append(el("p", { class: "advice" }, s.advice));
    if (s.error) li.append(el("pre", {}, s.error.message));
    for (const x of s.failures) {
      const box = el("div", { class: "failure" });
      box.append(el("div", {}, `${x.what} (${x.at})`));
      const both = el("div", { class: "expected-got" });
      const side = (title, text) => {
        const d = el("div");
        d.append(el("b", {}, title), el("pre", {}, text.replace(/^\n/, "")));
        return d;
      };
      both.append(side("expected", x.expected), side("got", x.got));
      box.append(both);
      li.append(box);
    }
    li.addEventListener("click", () => openFile(fileName, s.line));
    list.append(li);
  }
}

// ---- play it -----------------------------------------------------------

async function play() {
  $("#play-error").textContent = "";
  try {
    const players = Number($("#play-players").value);
    // Friends play the other seats from their links (the game's page
    // lists them); bots play them here.
    const others = $("#play-bot").value;
    const seats = ["person", ...Array(players - 1).fill(others === "friends" ? "person" : others)];
    const state = await api("POST", "/api/games", {
      packs: packOrder(kept.pack),
      pack_files: packFiles(),
      seats,
    });
    // Kept as the game's page keeps the seats it plays.
    const here = {};
    const away = {};
    for (const k of state.keys ?? []) (k.seat === 0 ? here : away)[k.seat] = k.key;
    localStorage.setItem(`towerlab.game.${state.id}`, JSON.stringify({ here, away, maker: state.maker_key }));
    location.href = `/game/${state.id}`;
  } catch (e) {
    $("#play-error").textContent = e.message;
  }
}

// ---- compare it --------------------------------------------------------

let comparing = null;

async function compare() {
  $("#compare-status").textContent = "";
  $("#compare-status").className = "";
  $("#compare-verdict").replaceChildren();
  $("#compare-plain").replaceChildren();
  $("#compare-details").hidden = true;
  $("#compare-report").hidden = true;
  $("#report-status").textContent = "";
  try {
    const job = await api("POST", "/api/studio/compare", {
      pack_files: packFiles(),
      packs: packOrder(kept.pack),
      against: $("#against").value,
      games: Number($("#compare-games").value),
      players: Number($("#compare-players").value),
    });
    comparing = job.id;
    $("#compare").disabled = true;
    $("#compare-cancel").hidden = false;
    $("#compare-progress").hidden = false;
    followCompare(job);
  } catch (e) {
    $("#compare-status").textContent = e.message;
    $("#compare-status").className = "error";
  }
}

async function followCompare(job) {
  const bar = $("#compare-progress");
  bar.max = job.total;
  bar.value = job.done;
  $("#compare-status").textContent = `${job.done} of ${job.total} games played`;
  if (job.status === "running") {
    setTimeout(async () => {
      try {
        followCompare(await api("GET", `/api/studio/compare/${job.id}`));
      } catch (e) {
        compareEnded(e.message, true);
      }
    }, 500);
    return;
  }
  if (job.status === "done") {
    compareEnded(`${job.total} games played: done`, false);
    showComparison(job);
  } else {
    compareEnded(job.status === "cancelled" ? "cancelled" : `failed: ${job.error}`, job.status !== "cancelled");
  }
}

/** @type {string | null} */
let reportUrl = null;

// A player's answers first (what changed, in plain words), the numbers
// and the method behind a fold, the full report in its own tab or saved.
function showComparison(job) {
  for (const line of job.plain ?? []) $("#compare-plain").append(el("li", {}, line));
  $("#compare-verdict").append(el("p", {}, job.verdict ?? ""));
  $("#compare-details").hidden = false;
  if (!job.report) return;
  if (reportUrl) URL.revokeObjectURL(reportUrl);
  reportUrl = URL.createObjectURL(new Blob([job.report], { type: "text/html" }));
  $("#report-save").href = reportUrl;
  $("#report-save").download = `${kept.pack?.replace("/", "-")}-against-${$("#against").value}.html`;
  $("#compare-report").hidden = false;
}

function compareEnded(text, bad) {
  comparing = null;
  $("#compare").disabled = false;
  $("#compare-cancel").hidden = true;
  $("#compare-status").textContent = text;
  $("#compare-status").className = bad ? "error" : "";
}

async function cancelCompare() {
  if (!comparing) return;
  try {
    await api("POST", `/api/studio/compare/${comparing}/cancel`, {});
  } catch (e) {
    $("#compare-status").textContent = e.message;
  }
}

// ---- the page ----------------------------------------------------------

// A tool's tab; on a phone, `code` shows the editor and the tools'
// tabs stay in a bar at the bottom, so the code and the results are a tap
// apart.
function showTab(name) {
  document.body.dataset.view = name === "code" ? "code" : "tools";
  if (name === "code") {
    $("#tool-tabs button[data-tab=code]").setAttribute("aria-selected", "true");
    for (const b of $$("#tool-tabs button:not([data-tab=code])")) b.setAttribute("aria-selected", "false");
    return;
  }
  for (const b of $$("#tool-tabs button")) b.setAttribute("aria-selected", String(b.dataset.tab === name));
  for (const t of $$(".tab")) t.hidden = t.id !== `tab-${name}`;
  if (name === "board") ask();
}

async function loadCatalog() {
  catalog = await api("GET", "/api/catalog");
  for (const v of catalog.variants) $("#against").append(el("option", { value: v }, v));
  $("#against").value = catalog.variants.includes("tower") ? "tower" : catalog.variants[0];
  for (const b of catalog.bots) $("#play-bot").append(el("option", { value: b }, `${b} bots`));
  $("#play-bot").append(el("option", { value: "friends" }, "friends, from their links"));
  $("#play-bot").value = "greedy";
}

async function main() {
  load();
  const source = $("#source");
  source.addEventListener("input", edited);
  source.addEventListener("scroll", syncScroll);
  source.addEventListener("keydown", (e) => {
    if (e.key === "Tab" && !e.shiftKey) {
      e.preventDefault();
      document.execCommand("insertText", false, "    ");
    }
  });
  $("#pack").addEventListener("change", () => {
    kept.pack = $("#pack").value;
    kept.file = null;
    save();
    showPacks();
  });
  $("#start-name").addEventListener("input", () => ($("#start-name").dataset.auto = "0"));
  $("#start-go").addEventListener("click", startPack);
  $("#rename").addEventListener("click", () => {
    const name = prompt("The pack's new name:", kept.pack);
    if (!name || name === kept.pack) return;
    try {
      checkName(name);
      const p = pack();
      if (p.files["pack.toml"]) p.files["pack.toml"] = renamed(p.files["pack.toml"], name);
      delete kept.packs[kept.pack];
      addPack(name, p.files);
    } catch (e) {
      $("#pack-error").textContent = e.message;
    }
  });
  $("#delete").addEventListener("click", () => {
    if (!confirm(`Delete your pack ${kept.pack} from this browser?`)) return;
    delete kept.packs[kept.pack];
    kept.pack = Object.keys(kept.packs)[0] ?? null;
    kept.file = null;
    save();
    showPacks();
  });
  $("#upload-dir").addEventListener("change", uploadFolder);
  $("#upload-zip").addEventListener("change", uploadZip);
  $("#download").addEventListener("click", download);
  $("#add-file").addEventListener("click", addFile);
  $("#remove-file").addEventListener("click", removeFile);
  $("#full-check").addEventListener("click", () => runCheck(25));
  for (const b of $$("#tool-tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));
  $("#save-scenario").addEventListener("click", saveScenario);
  $("#run-tests").addEventListener("click", runTests);
  $("#play").addEventListener("click", play);
  $("#compare").addEventListener("click", compare);
  $("#compare-cancel").addEventListener("click", cancelCompare);
  $("#report-open").addEventListener("click", () => window.open(reportUrl ?? "", "_blank"));
  $("#report-save").addEventListener("click", () => downloaded($("#report-status"), $("#report-save").download));
  try {
    await Promise.all([loadStarts(), loadReference(), loadCatalog()]);
  } catch (e) {
    $("#pack-error").textContent = `the server did not answer: ${e.message}`;
  }
  setupBoardControls();
  showPacks();
}

// The page's state and its workings, for the browser tests and the
// console: the one name this module puts on `window`.
Object.assign(window, {
  studio: {
    get kept() {
      return kept;
    },
    get answers() {
      return answers;
    },
    get catalog() {
      return catalog;
    },
    get board() {
      return board;
    },
    scenarioText,
    download,
    zip,
    unzip,
  },
});

main();
