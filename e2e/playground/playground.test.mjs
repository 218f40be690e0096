// The playground (docs/playground) in a real browser: Debian's Chromium,
// driven by playwright-core, loading the built page from a local static
// server. Opt-in: SHGUARD_E2E_BROWSER=1 (CHROMIUM names the browser,
// default /usr/bin/chromium). Run: node --test (in this directory).
//
// It types README's example and checks the findings, the fix, the diff and
// the link round trip, then holds the page to the CLI on a sample of the
// corpus: the JSON, the fixed text and the diff must be the CLI's bytes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, extname, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const on = !!process.env.SHGUARD_E2E_BROWSER;
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
let tmp, site, shguard, server, base, context, chromium;

// README's example command.
const example = "cd /tmp && python3 -m http.server &";

function cli(args, expectStatus = [0, 1, 2]) {
  try {
    return execFileSync(shguard, args, { encoding: "utf8", cwd: tmp, stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    if (!expectStatus.includes(e.status)) throw e;
    return e.stdout;
  }
}

before(async () => {
  if (!on) return;
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is missing (apt-get install chromium)`);
  ({ chromium } = await import("playwright-core"));
  tmp = mkdtempSync(join(tmpdir(), "shguard-playground-"));
  site = join(tmp, "site");
  execFileSync("bash", [join(root, "docs/playground/build.sh"), site], { stdio: "inherit" });
  shguard = join(tmp, "shguard");
  execFileSync("go", ["build", "-o", shguard, "./cmd/shguard"], { cwd: root, stdio: "inherit" });
  // A static file server: what GitHub Pages does, nothing more.
  const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };
  server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    const file = join(site, path.endsWith("/") ? path + "index.html" : path);
    if (!file.startsWith(site) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": types[extname(file)] || "application/octet-stream" });
    res.end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${server.address().port}/`;
  context = await chromium.launchPersistentContext(join(tmp, "profile"), {
    executablePath: chromiumPath,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  if (context) await context.close();
  if (server) server.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// checked waits for the page to finish its next check after action.
async function checked(page, action) {
  const n = Number((await page.evaluate(() => document.body.dataset.checked)) || 0);
  await action();
  await page.waitForFunction((n) => Number(document.body.dataset.checked || 0) > n, n, { timeout: 30000 });
}

async function open(url = base) {
  const page = await context.newPage();
  const began = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => Number(document.body.dataset.checked || 0) > 0, null, { timeout: 60000 });
  return { page, ms: Date.now() - began };
}

async function setInput(page, { source, shell = "bash", caller = "leader", mode = "command", style = "default" }) {
  for (const [id, v] of Object.entries({ shell, caller, mode, style })) {
    if ((await page.inputValue("#" + id)) !== v) await checked(page, () => page.selectOption("#" + id, v));
  }
  if ((await page.inputValue("#source")) !== source) await checked(page, () => page.fill("#source", source));
}

test("README's example: findings, fix, diff, link", { skip: !on && "set SHGUARD_E2E_BROWSER=1" }, async () => {
  const { page, ms } = await open();
  const timing = await page.evaluate(() => window.shguardTiming);
  console.log(`first result ${Math.round(timing.firstResult)} ms after navigation start (module loaded at ${Math.round(timing.wasmLoaded)} ms); page.goto to result ${ms} ms`);
  if (process.env.SHGUARD_E2E_TIMINGS) writeFileSync(process.env.SHGUARD_E2E_TIMINGS, JSON.stringify({ ...timing, gotoMs: ms }) + "\n", { flag: "a" });

  // typed, key by key, as a visitor would
  await page.click("#source");
  await checked(page, () => page.keyboard.type(example));
  assert.equal(await page.inputValue("#source"), example);
  const rules = await page.$$eval("#findings li", (ls) => ls.map((l) => l.dataset.rule));
  assert.deepEqual(rules, ["SG1002"]);
  assert.match(await page.textContent("#findings li .message"), /subshell that waits/);
  assert.equal(await page.$$eval("#annotated mark.error", (ms) => ms.map((m) => m.textContent).join("|")), example);
  assert.equal(await page.textContent("#fixed"), "cd /tmp && exec python3 -m http.server &");
  assert.equal(await page.textContent("#fixed"), cli(["--fix", "-c", example]));
  assert.equal(await page.textContent("#diff"), cli(["-f", "diff", "-c", example]));
  assert.equal(await page.textContent("#json"), cli(["-f", "json", "-c", example]));
  assert.match(await page.textContent("#rules details[data-rule=SG1002] pre"), /WRONG:/);
  assert.equal(await page.textContent("#rules details[data-rule=SG1002] pre"), cli(["explain", "SG1002"]));

  // the link reproduces the input, with every choice
  await setInput(page, { source: example + "\necho 'naïve ✓'", shell: "zsh", caller: "group", mode: "script", style: "brace" });
  const link = await page.getAttribute("#share", "href");
  const want = await page.textContent("#json");
  const { page: again } = await open(base + link);
  assert.equal(await again.inputValue("#source"), example + "\necho 'naïve ✓'");
  for (const [id, v] of Object.entries({ shell: "zsh", caller: "group", mode: "script", style: "brace" })) {
    assert.equal(await again.inputValue("#" + id), v, id);
  }
  assert.equal(await again.textContent("#json"), want);
  writeFileSync(join(tmp, "script.sh"), example + "\necho 'naïve ✓'");
  assert.equal(want, cli(["-f", "json", "-s", "zsh", "--caller", "group", "--norc", "script.sh"]));
  // /bin/sh as on macOS: npm's script shell execs a one-command script,
  // so a kill of npm's $! is advice enough (no setsid)
  await setInput(again, { source: "npm run dev &" });
  assert.match(await again.textContent("#json"), /setsid/);
  await again.selectOption("#binsh", "bash");
  await again.waitForFunction(() => Number(document.body.dataset.checked || 0) > 0 && document.getElementById("binsh").value === "bash", null, { timeout: 60000 });
  assert.equal(await again.inputValue("#source"), "npm run dev &");
  assert.doesNotMatch(await again.textContent("#json"), /setsid/);
  await again.close();

  // no server after the load: offline, it still checks
  await context.setOffline(true);
  try {
    await checked(page, () => page.fill("#source", "nohup ./worker &"));
    assert.ok((await page.$$eval("#findings li", (ls) => ls.map((l) => l.dataset.rule))).includes("SG2002"));
  } finally {
    await context.setOffline(false);
  }
  await page.close();
});

test("the page agrees with the CLI on a sample of the corpus", { skip: !on && "set SHGUARD_E2E_BROWSER=1" }, async () => {
  const every = process.env.SHGUARD_E2E_CORPUS_EVERY || "60";
  const sample = JSON.parse(execFileSync("go", ["run", "./e2e/playground/corpussample", "-every", every], { cwd: root, encoding: "utf8" }));
  assert.ok(sample.length >= 20, `only ${sample.length} entries`);
  const { page } = await open();
  let compared = 0;
  for (const e of sample) {
    await setInput(page, { source: e.cmd, shell: e.shell, caller: e.caller });
    const flags = ["-s", e.shell, "--caller", e.caller, "--norc", "-c", e.cmd];
    assert.equal(await page.textContent("#json"), cli(["-f", "json", ...flags]), `${e.id}: -f json`);
    const parseError = (await page.textContent("#verdict")).startsWith("(not valid");
    if (!parseError) {
      assert.equal(await page.textContent("#fixed"), cli(["--fix", ...flags]), `${e.id}: --fix`);
      const diff = cli(["-f", "diff", ...flags]);
      assert.equal(await page.textContent("#diff"), diff === "" ? "(no change)" : diff, `${e.id}: -f diff`);
    }
    compared++;
  }
  console.log(`${compared} corpus entries: the page printed the CLI's JSON, fix and diff byte for byte`);
  await page.close();
});
