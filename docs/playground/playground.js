// The playground page: runs shguard (WebAssembly, ../../playground) on
// the text as it is typed and shows the findings, the fix, the diff and
// the rules' explanations. State lives in the URL's fragment, so a link
// reproduces the input; nothing leaves the page.
"use strict";

const $ = (id) => document.getElementById(id);
const fields = ["shell", "caller", "mode", "style", "binsh"];
const timing = (window.shguardTiming = { start: performance.now() });

// The fragment holds the input as base64url of UTF-8 JSON.
function encodeState(state) {
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function decodeState(frag) {
  try {
    const bin = atob(frag.replace(/-/g, "+").replace(/_/g, "/"));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
  } catch (e) {
    return null;
  }
}
function currentState() {
  const s = { source: $("source").value };
  for (const f of fields) s[f] = $(f).value;
  return s;
}
function loadState() {
  const s = location.hash.length > 1 && decodeState(location.hash.slice(1));
  if (!s) return;
  if (typeof s.source === "string") $("source").value = s.source;
  for (const f of fields) if (s[f] && [...$(f).options].some((o) => o.value === s[f])) $(f).value = s[f];
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

// annotate shows the source with each finding underlined; offsets are
// UTF-8 bytes, as the analyzer reports them.
function annotate(source, findings) {
  const bytes = new TextEncoder().encode(source);
  const dec = new TextDecoder();
  const pre = $("annotated");
  pre.replaceChildren();
  const spans = findings
    .filter((f) => f.start_offset >= 0)
    .map((f) => ({ s: f.start_offset, e: Math.max(f.end_offset, f.start_offset + 1), f }))
    .sort((a, b) => a.s - b.s);
  let at = 0;
  for (const sp of spans) {
    if (sp.s < at) continue; // nested in the previous one: listed below
    const e = Math.min(sp.e, bytes.length);
    pre.append(dec.decode(bytes.slice(at, sp.s)));
    const m = el("mark", { class: sp.f.severity, title: `${sp.f.rule}: ${sp.f.message}` }, dec.decode(bytes.slice(sp.s, e)) || " ");
    pre.append(m);
    at = Math.max(e, sp.s);
  }
  pre.append(dec.decode(bytes.slice(at)));
}

function showDiff(diff) {
  const pre = $("diff");
  pre.replaceChildren();
  if (!diff) {
    pre.append("(no change)");
    return;
  }
  for (const line of diff.split(/(?<=\n)/)) {
    let cls = "";
    if (line.startsWith("@@")) cls = "hunk";
    else if (line.startsWith("+") && !line.startsWith("+++")) cls = "add";
    else if (line.startsWith("-") && !line.startsWith("---")) cls = "del";
    pre.append(cls ? el("span", { class: cls }, line) : line);
  }
}

function render(state, r) {
  if (r.error) {
    $("status").textContent = "Error: " + r.error;
    return;
  }
  annotate(state.source, r.findings);
  const list = $("findings");
  list.replaceChildren();
  for (const f of r.findings) {
    const li = el("li", { class: "finding", "data-rule": f.rule },
      el("span", { class: "sev " + f.severity }, f.severity), " ",
      el("a", { href: f.url, class: "rule" }, f.rule), ` ${f.line}:${f.column} `,
      el("span", { class: "message" }, f.message));
    if (f.suggestion) li.append(el("div", { class: "suggestion" }, "Suggestion: " + f.suggestion));
    for (const fx of f.fixes) li.append(el("div", { class: "suggestion" }, "Fix: " + fx.message));
    list.append(li);
  }
  const n = r.findings.length;
  $("verdict").textContent = r.parse_error ? `(not valid ${r.shell})` : `(${n} for ${r.shell}${n ? "" : ": nothing hangs or leaks"})`;
  $("fixed").textContent = r.parse_error ? "(not valid shell: nothing to fix)" : r.fixed;
  showDiff(r.diff);
  const rules = $("rules");
  rules.replaceChildren();
  for (const id of Object.keys(r.rules).sort()) {
    const rule = r.rules[id];
    rules.append(el("details", { class: "rule", "data-rule": id },
      el("summary", {}, `${id} ${rule.name} (${rule.severity}): ${rule.summary}`),
      el("pre", { class: "code" }, rule.explain)));
  }
  $("json").textContent = r.json;
  $("status").textContent = `${n} finding${n === 1 ? "" : "s"} · ${r.applied} fixed by --fix`;
}

let pending = 0;
function check() {
  const state = currentState();
  const frag = "#" + encodeState(state);
  history.replaceState(null, "", frag);
  $("share").href = frag;
  if (!window.shguardCheck) return;
  const r = JSON.parse(window.shguardCheck(JSON.stringify({
    source: state.source, shell: state.shell, caller: state.caller, style: state.style, script: state.mode === "script",
  })));
  render(state, r);
  if (!timing.firstResult) timing.firstResult = performance.now();
  document.body.dataset.checked = String(++checkedCount);
}
let checkedCount = 0;
function later() {
  clearTimeout(pending);
  pending = setTimeout(check, 120);
}

window.shguardReady = () => {
  timing.wasmReady = performance.now();
  check();
};

loadState();
$("source").addEventListener("input", later);
for (const f of fields) if (f !== "binsh") $(f).addEventListener("change", check);
window.addEventListener("hashchange", () => location.reload()); // binsh may differ

// Offline once loaded: the module and the page are cached by a service
// worker where the browser allows one (https or localhost).
if ("serviceWorker" in navigator && (location.protocol === "https:" || location.hostname === "localhost" || location.hostname === "127.0.0.1")) {
  navigator.serviceWorker.register("sw.js").catch(() => {});
}

// The analyzer asks this machine what /bin/sh is: it is the shell of
// `sh`, and the script shell npm and make run their commands with, which
// decides whether a kill of `npm run dev &`'s $! reaches the server (dash
// leaves it running; bash execs it in the shell's place). A page has no
// /bin/sh, so Go's file system calls (wasm_exec.js's fs object) are
// answered for those paths as the chosen kind of machine would: dash, as
// on Debian, Ubuntu and in most CI and agent containers (and as the CLI
// sees it there), or bash, as on macOS and Fedora. The analyzer reads it
// once per module, so a change reloads the page.
function answerBinSh(fs, target) {
  const DIR = 0o40755, LNK = 0o120777, REG = 0o100755;
  const st = (mode) => ({ dev: 1, ino: 1, mode, nlink: 1, uid: 0, gid: 0, rdev: 0, size: 0, blksize: 4096, blocks: 0,
    atimeMs: 0, mtimeMs: 0, ctimeMs: 0, isDirectory: () => mode === DIR });
  const kinds = { "/": DIR, "/bin": DIR, "/bin/sh": LNK, ["/bin/" + target]: REG };
  const { lstat, stat, readlink } = fs;
  fs.lstat = (p, cb) => (p in kinds ? cb(null, st(kinds[p])) : lstat(p, cb));
  fs.stat = (p, cb) => (p in kinds ? cb(null, st(kinds[p] === LNK ? REG : kinds[p])) : stat(p, cb));
  fs.readlink = (p, cb) => (p === "/bin/sh" ? cb(null, target) : readlink(p, cb));
}
answerBinSh(globalThis.fs, $("binsh").value);
$("binsh").addEventListener("change", () => {
  history.replaceState(null, "", "#" + encodeState(currentState()));
  location.reload();
});

const go = new Go();
const load = WebAssembly.instantiateStreaming
  ? WebAssembly.instantiateStreaming(fetch("shguard.wasm"), go.importObject).catch(async () =>
      WebAssembly.instantiate(await (await fetch("shguard.wasm")).arrayBuffer(), go.importObject))
  : fetch("shguard.wasm").then((r) => r.arrayBuffer()).then((b) => WebAssembly.instantiate(b, go.importObject));
load.then((m) => { timing.wasmLoaded = performance.now(); go.run(m.instance); })
  .catch((e) => { $("status").textContent = "Could not load shguard.wasm: " + e; });
