// Load benchmark, scorch against speedscope in the same run: navigation → drawn flame graph, main-thread long
// tasks and renderer peak memory, for generated perf script, folded and pprof profiles of 1–400 MB.
//
//   bench/load.sh [--sizes 1,10,100,400] [--kinds perf,folded,pprof,cpuprofile,trace] [--reps 3] [--apps scorch,speedscope]
//
// Method (the same as ../shared/tools/viewer-bench, whose generator makes the profiles): every run is a fresh
// headless Chromium with an empty profile directory and a 1600×1000 viewport; the app is opened with the
// profile's URL in its fragment (scorch `#url=`, speedscope `#profileURL=`) on a local server that sends
// Content-Length and streams in 1 MiB chunks. Times are page times (origin = navigation start):
//   import  — scorch's `bench:import-done` mark / speedscope's console.timeEnd('import');
//   drawn   — end of the last task that drew on a canvas (2D or WebGL) after import, once no draw happened
//             for 1 s: the first frame with the whole flame graph (speedscope draws it in its 2nd task);
//   longest — the longest main-thread task (PerformanceObserver 'longtask') from navigation to drawn, and
//             how many exceeded 50 ms; the app's boot task (scorch: a long task that started before its
//             `bench:booted` mark; speedscope: its first long task in the first second) is reported apart;
//   peak    — the renderer process's VmHWM (peak RSS: JS heap, wasm memory, workers, canvases).
// The page is not read while it loads: it says through a binding when it has settled (or shows an error), and the
// bench reads it then. (A first `page.evaluate` makes Playwright evaluate its own script in the page: a task of
// 22–65 ms on this machine in the middle of a load, counted as the app's long task before.)
// Runs alternate between the apps file by file, so both see the same machine load. Results: JSON in
// target/bench/load.json and a markdown table on stdout.
// `--against DIR`: a second build of scorch (the one before a change) as the app `before`, loaded right after
// `scorch` in every round, so the two share the machine's moods; a table of both builds' medians follows. Its
// figures are the ones to judge a change by: the same build's medians move more between runs than most changes.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const sizes = opt('--sizes', '1,10,100,400').split(',');
const kinds = opt('--kinds', 'perf,folded,pprof').split(',');
const reps = Number(opt('--reps', '3'));
const apps = opt('--apps', 'scorch,speedscope').split(',');
const profiles = path.resolve(opt('--profiles', path.join(root, 'target', 'bench-profiles')));
const timeoutMs = Number(opt('--timeout', '240')) * 1000;
// `--load file`: open the app first, then hand the file to its file input (as a user dropping a file does);
// times then count from the hand-over, and no network transfer is involved.
const loadMode = opt('--load', 'url');
const against = opt('--against', null);
if (against && apps.includes('scorch') && !apps.includes('before')) apps.splice(apps.indexOf('scorch') + 1, 0, 'before');
const out = path.join(root, 'target', 'bench');
const jsonName = opt('--load', 'url') === 'file' ? 'load-file.json' : 'load.json';
fs.mkdirSync(out, { recursive: true });

const FILE = { perf: (s) => `perf-${s}mb.linux-perf.txt`, folded: (s) => `folded-${s}mb.collapsedstack.txt`, pprof: (s) => `pprof-${s}mb.pb.gz`,
  // V8 profiles from bench/gen-v8.py (load.sh makes them when these kinds are asked for).
  cpuprofile: (s) => `v8-${s}mb.cpuprofile`, trace: (s) => `trace-${s}mb.json` };
/** A build of scorch in `dir`, served under `/NAME/`. */
const scorchAt = (name, dir) => ({
  dir, url: (b, p) => `${b}/${name}/index.html#url=${encodeURIComponent(p)}`,
  home: (b) => `${b}/${name}/index.html`, input: '[data-testid=open-file]',
  ready: () => !!document.querySelector('[data-testid=status]')?.dataset.format,
});
const APPS = {
  // Opens with its demo profile (which makes no `bench:` marks); the file goes to the Open file… input once
  // that is shown.
  scorch: scorchAt('scorch', path.resolve(opt('--dist', path.join(root, 'dist')))),
  // `--against`: scorch as it was before a change.
  before: scorchAt('before', against ? path.resolve(against) : null),
  // The floor (issue #19): ../shared/tools/viewer-bench's page that fetches or reads the profile and touches every
  // byte once, with no parsing, then draws one rectangle.
  baseline: {
    dir: path.join(root, '..', 'shared', 'tools', 'viewer-bench', 'baseline'),
    url: (b, p) => `${b}/baseline/index.html#url=${encodeURIComponent(p)}`,
    home: (b) => `${b}/baseline/index.html`, input: '#f', ready: () => true,
  },
  speedscope: {
    dir: path.join(here, 'node_modules', 'speedscope', 'dist', 'release'),
    url: (b, p) => `${b}/speedscope/index.html#profileURL=${encodeURIComponent(p)}`,
    home: (b) => `${b}/speedscope/index.html`, input: 'input[type=file]', ready: () => true,
  },
};
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml', '.json': 'application/json', '.woff2': 'font/woff2', '.png': 'image/png' };

function serve() {
  const mounts = { '/scorch/': APPS.scorch.dir, '/speedscope/': APPS.speedscope.dir, '/baseline/': APPS.baseline.dir,
    '/profiles/': profiles, ...(against ? { '/before/': APPS.before.dir } : {}) };
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const prefix = Object.keys(mounts).find((m) => p.startsWith(m));
    const dir = prefix && mounts[prefix];
    const file = dir && path.resolve(dir, p.slice(prefix.length) || 'index.html');
    if (!file || !file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
      'Content-Length': fs.statSync(file).size, 'Cache-Control': 'no-store' });
    fs.createReadStream(file, { highWaterMark: 1 << 20 }).pipe(res);
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

// Injected before any page script: draw hooks, the import signal, long tasks.
const INSTRUMENT = `(() => {
  const B = window.__bench = { importDone: null, rendered: null, lastDraw: null, lastDrawTaskEnd: null, tasks: 0, long: [] };
  let cur = false;
  const onDraw = () => {
    if (B.importDone === null) return;
    B.lastDraw = performance.now();
    if (!cur) { cur = true; B.tasks++; setTimeout(() => { B.lastDrawTaskEnd = performance.now(); cur = false; }, 0); }
  };
  const wrap = (P, names) => { if (!P) return; for (const n of names) { const o = P.prototype[n]; if (typeof o !== 'function') continue;
    P.prototype[n] = function (...a) { onDraw(); return o.apply(this, a); }; } };
  wrap(window.CanvasRenderingContext2D, ['fillRect', 'fillText', 'strokeText', 'drawImage', 'putImageData', 'fill', 'stroke']);
  for (const P of [window.WebGLRenderingContext, window.WebGL2RenderingContext]) wrap(P, ['drawArrays', 'drawElements', 'drawArraysInstanced', 'drawElementsInstanced']);
  // The marks are taken when made, not when a PerformanceObserver delivers them: under load Chromium delivers
  // them late, after the first paint, and a paint before the import was known would never be counted.
  const pm = performance.mark.bind(performance);
  performance.mark = (name, ...rest) => { const m = pm(name, ...rest);
    if (name === 'bench:import-done' && B.importDone === null) B.importDone = m.startTime;
    if (name === 'bench:booted' && B.booted === undefined) B.booted = m.startTime;
    return m; };
  const te = console.timeEnd;
  console.timeEnd = function (label, ...rest) { if (label === 'import' && B.importDone === null) B.importDone = performance.now(); return te.call(this, label, ...rest); };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) {
    if (e.name === 'bench:import-done' && B.importDone === null) B.importDone = e.startTime;
    if (e.name === 'bench:rendered' && B.rendered === null) B.rendered = e.startTime;
    if (e.name === 'bench:booted' && B.booted === undefined) B.booted = e.startTime;
  } }).observe({ type: 'mark', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!(e.startTime < (B.origin || 0))) B.long.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  // What ran in each frame of over 50 ms (Chromium's long animation frames): the scripts by invoker, to tell the
  // page's own work from the rest (a worker's message, a timer, a frame's layout).
  B.loaf = [];
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!(e.startTime < (B.origin || 0)) && B.loaf.length < 50) B.loaf.push({
      start: Math.round(e.startTime), ms: Math.round(e.duration), blocking: Math.round(e.blockingDuration), render: Math.round(e.startTime + e.duration - e.renderStart),
      scripts: e.scripts.map((x) => [x.invoker, x.sourceFunctionName, Math.round(x.duration), Math.round(x.forcedStyleAndLayoutDuration)]) }); }).observe({ type: 'long-animation-frame', buffered: true });
  } catch { /* not in this browser */ }
  // The page says when it has settled (a draw after import, then 1 s without any) or shows an error, through a
  // binding: the bench reads the page only then. Reading it during the load (page.evaluate) made Playwright
  // evaluate its injected script in the page at its first read, a main-thread task of 22-65 ms in the middle of
  // the load on this machine, which the long-task figures counted as the app's.
  // (textContent, not innerText: innerText lays the page out, in the middle of the load measured.)
  setInterval(() => {
    const error = document.querySelector('[data-testid=error]')?.textContent
      || (document.body?.textContent.includes('Something went wrong') ? 'speedscope error view' : null);
    if (error || (B.lastDrawTaskEnd !== null && performance.now() - B.lastDraw > 1000)) window.__benchSettled?.(error || null);
  }, 100);
})();`;

function procTree() {
  const kids = new Map();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const st = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[1]);
      if (!kids.has(ppid)) kids.set(ppid, []);
      kids.get(ppid).push(Number(e));
    } catch { /* gone */ }
  }
  const all = [], stack = [process.pid];
  while (stack.length) for (const k of kids.get(stack.pop()) || []) { all.push(k); stack.push(k); }
  return all;
}
function rendererPeakMB() {
  let peak = 0;
  for (const pid of procTree()) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const m = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]) / 1024);
    } catch { /* gone */ }
  }
  return peak;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function run(app, base, file) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-bench-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    viewport: { width: 1600, height: 1000 }, deviceScaleFactor: 1,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', ...(process.env.SCORCH_CHROMIUM_ARGS || '').split(' ').filter(Boolean)],
  });
  const res = { app, file };
  let peak = 0;
  const sampler = setInterval(() => { peak = Math.max(peak, rendererPeakMB()); }, 200);
  try {
    const page = ctx.pages()[0] || (await ctx.newPage());
    let crashed = false;
    page.on('crash', () => { crashed = true; });
    page.on('dialog', (d) => { res.failure = `dialog: ${d.message()}`; d.dismiss().catch(() => {}); });
    let settled = false;
    await page.exposeBinding('__benchSettled', (_, error) => { settled = true; if (error) res.failure = error; });
    await page.addInitScript({ content: INSTRUMENT });
    const t0 = Date.now();
    let origin = 0;
    if (loadMode === 'file') {
      await page.goto(APPS[app].home(base), { waitUntil: 'load' });
      await page.waitForFunction(APPS[app].ready, null, { timeout: 60000 });
      await page.waitForSelector(APPS[app].input, { state: 'attached' });
      await sleep(1500);
      // Forget the start page's own load: count from the hand-over.
      origin = await page.evaluate(() => { const B = window.__bench; B.importDone = null; B.lastDraw = null;
        B.lastDrawTaskEnd = null; B.tasks = 0; B.long = []; B.rendered = null; B.origin = performance.now();
        performance.clearMarks(); return B.origin; });
      settled = false;
      await page.setInputFiles(APPS[app].input, path.join(profiles, file));
    } else {
      await page.goto(APPS[app].url(base, `${base}/profiles/${file}`), { waitUntil: 'commit' });
    }
    // Drawn: a draw after import, then 1 s without any.
    for (;;) {
      if (crashed) { res.failure = 'renderer crashed'; break; }
      if (res.failure) break;
      if (Date.now() - t0 > timeoutMs) {
        res.failure = 'timeout';
        // What the page showed and had recorded, to tell a hang from a page that never went quiet.
        res.atTimeout = await page.evaluate(() => ({ bench: window.__bench, status: document.querySelector('[data-testid=status]')?.textContent,
          busy: document.querySelector('[data-testid=busy]')?.textContent, error: document.querySelector('[data-testid=error]')?.textContent,
          marks: performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)]) })).catch((e) => String(e));
        await page.screenshot({ path: path.join(out, `timeout-${app}-${file}.png`) }).catch(() => {});
        break;
      }
      if (!settled) { await sleep(50); continue; }
      const s = await page.evaluate(() => ({ ...window.__bench, now: performance.now() })).catch(() => null);
      if (s && s.lastDrawTaskEnd !== null && s.now - s.lastDraw > 1000) {
        const first = s.long.length ? s.long[0] : null;
        const during = s.long.filter(([t]) => t <= s.lastDrawTaskEnd);
        // The app's boot task (script and wasm start, before the profile is requested) is reported apart.
        // scorch marks the end of its start (`bench:booted`, boot.js); for an app without the mark, the first
        // long task in the first second.
        const booted = s.booted !== undefined ? s.booted : 1000;
        const boot = loadMode === 'url' && first && first[0] < booted ? first : null;
        const load = during.filter((l) => l !== boot);
        Object.assign(res, {
          ok: true, importMs: s.importDone - origin, drawnMs: s.lastDrawTaskEnd - origin, renderedMark: s.rendered,
          drawTasks: s.tasks,
          bootTaskMs: boot ? boot[1] : 0, longestMs: load.reduce((m, [, d]) => Math.max(m, d), 0),
          over50: load.filter(([, d]) => d > 50).length, longTasks: during.map(([t, d]) => [Math.round(t), Math.round(d)]),
          longFrames: (s.loaf || []).filter((f) => f.start <= s.lastDrawTaskEnd && f.blocking > 0),
        });
        break;
      }
      await sleep(100);
    }
    if (res.ok && (app === 'scorch' || app === 'before')) {
      // Where the memory sits once drawn: the page's wasm memory, each worker's, the page's JS heap (Chromium).
      const mb = (x) => (x == null ? null : Math.round(x / 1048576));
      res.memory = await page.evaluate(() => ({ pageWasm: window.scorchBoot?.memory?.buffer.byteLength,
        jsHeap: performance.memory?.usedJSHeapSize })).catch(() => ({}));
      res.memory = { pageWasmMB: mb(res.memory.pageWasm), jsHeapMB: mb(res.memory.jsHeap), workerWasmMB: [] };
      for (const w of page.workers()) {
        const n = await w.evaluate(() => self.scorchMemory?.buffer.byteLength).catch(() => null);
        if (n != null) res.memory.workerWasmMB.push(mb(n));
      }
    }
    if (res.ok && process.env.BENCH_SHOTS) await page.screenshot({ path: path.join(out, `${app}-${file}.png`) });
  } catch (e) {
    res.failure = res.failure || String(e.message || e).split('\n')[0];
  } finally {
    clearInterval(sampler);
    res.peakMB = Math.max(peak, rendererPeakMB());
    res.loadavg = os.loadavg()[0];
    await ctx.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return res;
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? (s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN; };

const server = await serve();
const base = `http://127.0.0.1:${server.address().port}`;
const results = [];
// `--files a,b` names files in --profiles directly (the 2 GB / 1 GB runs).
const list = opt('--files', null)?.split(',') ?? sizes.flatMap((size) => kinds.map((kind) => FILE[kind](size)));
{
  for (const file of list) {
    if (!fs.existsSync(path.join(profiles, file))) { console.error(`missing ${file}`); continue; }
    for (let r = 0; r < reps; r++) {
      for (const app of apps) {
        const res = await run(app, base, file);
        results.push(res);
        console.error(`${app.padEnd(10)} ${file.padEnd(32)} ` + (res.ok
          ? `drawn ${res.drawnMs.toFixed(0)} ms, import ${res.importMs.toFixed(0)} ms, longest task ${res.longestMs.toFixed(0)} ms (${res.over50} over 50; boot ${res.bootTaskMs.toFixed(0)}), peak ${res.peakMB.toFixed(0)} MB${res.memory ? ` (page wasm ${res.memory.pageWasmMB} MB, workers' wasm ${res.memory.workerWasmMB.join('+')} MB, JS heap ${res.memory.jsHeapMB} MB)` : ''}`
          : `FAILED ${res.failure}, peak ${res.peakMB.toFixed(0)} MB${res.atTimeout ? ` ${JSON.stringify(res.atTimeout)}` : ''}`));
        fs.writeFileSync(path.join(out, jsonName), JSON.stringify(results, null, 1));
      }
    }
  }
}
server.close();

// Markdown: medians per file and app, and the ratios.
const rows = [];
rows.push('| file | scorch drawn | speedscope drawn | ratio | scorch peak | speedscope peak | ratio | scorch longest task (>50 ms) | speedscope longest task |');
rows.push('|---|---|---|---|---|---|---|---|---|');
const files = [...new Set(results.map((r) => r.file))];
const fmt = (x, u) => Number.isFinite(x) ? `${x.toFixed(0)} ${u}` : '—';
for (const f of files) {
  const pick = (app) => results.filter((r) => r.file === f && r.app === app);
  const m = (app, k) => median(pick(app).filter((r) => r.ok).map((r) => r[k]));
  const peak = (app) => median(pick(app).map((r) => r.peakMB));
  const fails = (app) => pick(app).filter((r) => !r.ok).length;
  const [sd, pd] = [m('scorch', 'drawnMs'), m('speedscope', 'drawnMs')];
  const [sp, pp] = [peak('scorch'), peak('speedscope')];
  const note = (app) => fails(app) ? ` (${fails(app)} failed)` : '';
  rows.push(`| ${f} | ${fmt(sd, 'ms')}${note('scorch')} | ${fmt(pd, 'ms')}${note('speedscope')} | ${Number.isFinite(sd / pd) ? (pd / sd).toFixed(1) + '×' : '—'} | ${fmt(sp, 'MB')} | ${fmt(pp, 'MB')} | ${Number.isFinite(sp / pp) ? (pp / sp).toFixed(1) + '×' : '—'} | ${fmt(m('scorch', 'longestMs'), 'ms')} (${m('scorch', 'over50')}) | ${fmt(m('speedscope', 'longestMs'), 'ms')} |`);
}
console.log(`${reps} runs per app and file, medians, loaded by ${loadMode}; ${new Date().toISOString()}, ${os.cpus().length} cores\n`);
console.log(rows.join('\n'));

// `--against`: the two builds, alternated.
if (apps.includes('before')) {
  const ab = ['', '| file | scorch drawn | before drawn | scorch ÷ before | loads with a task over 50 ms: scorch / before |', '|---|---|---|---|---|'];
  for (const f of files) {
    const pick = (app) => results.filter((r) => r.file === f && r.app === app && r.ok);
    const [sd, bd] = ['scorch', 'before'].map((a) => median(pick(a).map((r) => r.drawnMs)));
    const long = (a) => `${pick(a).filter((r) => r.over50 > 0).length} of ${pick(a).length}`;
    ab.push(`| ${f} | ${fmt(sd, 'ms')} | ${fmt(bd, 'ms')} | ${Number.isFinite(sd / bd) ? (sd / bd).toFixed(3) : '—'} | ${long('scorch')} / ${long('before')} |`);
  }
  console.log(ab.join('\n'));
}

// Against the floor (issue #19): scorch's time ÷ the baseline's, and memory above the baseline's peak.
if (apps.includes('baseline')) {
  const fl = ['', '| file | floor drawn | scorch drawn | scorch ÷ floor | floor peak | scorch above floor | speedscope above floor | scorch wasm: page / workers |',
    '|---|---|---|---|---|---|---|---|'];
  for (const f of files) {
    const pick = (app) => results.filter((r) => r.file === f && r.app === app);
    const m = (app, k) => median(pick(app).filter((r) => r.ok).map((r) => r[k]));
    const [bd, sd] = [m('baseline', 'drawnMs'), m('scorch', 'drawnMs')];
    const [bp, sp, pp] = ['baseline', 'scorch', 'speedscope'].map((a) => median(pick(a).map((r) => r.peakMB)));
    const mem = pick('scorch').filter((r) => r.memory).map((r) => r.memory);
    const wasm = mem.length ? `${median(mem.map((x) => x.pageWasmMB))} / ${median(mem.map((x) => x.workerWasmMB.reduce((a, b) => a + b, 0)))} MB` : '—';
    fl.push(`| ${f} | ${fmt(bd, 'ms')} | ${fmt(sd, 'ms')} | ${Number.isFinite(sd / bd) ? (sd / bd).toFixed(2) + '×' : '—'} | ${fmt(bp, 'MB')} | ${fmt(sp - bp, 'MB')} | ${fmt(pp - bp, 'MB')} | ${wasm} |`);
  }
  console.log(fl.join('\n'));
}
