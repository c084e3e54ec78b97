// Call-graph layout benchmark (not a test): the release build in dist/ (with the `testing` feature), in the browser
// SCORCH_BROWSER picks. A folded profile whose call graph has NODES functions and EDGES distinct calls (each line
// `caller;callee W`, the pairs drawn from the core's `layout_benchmark` shape: 60 levels, a tree of calls one level
// down, more one to three levels down, one in twenty back up; xorshift seed 7, duplicates skipped) is opened by
// `#url=` with pruning off (`gn=0&gnf=0&gef=0`); then the graph view is switched to (key 7), which the view engine
// (the app's worker) builds and lays out and the page draws. Per run (a fresh page each), it reports:
// - the build and the layout time in the worker (`window.__scorchGraphInfo()`'s build_ms and layout_ms, timed there),
// - the time from the key to the graph drawn (two animation frames after it is on the page),
// - the page's main thread while that happened: the longest task and the tasks over 50 ms as a PerformanceObserver
//   sees them ('longtask'; Chromium only: Firefox has no such entries), and the longest gap of a setTimeout(0)
//   chain (both engines: a gap is a task that held the thread; about 4 ms of it is the timer's own clamp),
// - then the same for the whole graph zoomed out to 0.05 (everything on screen: every box and edge drawn), and for
//   a drag across it (ten pointer moves, each a redraw).
// Usage: node bench/graph-layout-browser.mjs [NODES] [EDGES] [RUNS]  (after `trunk build --release --features testing`);
// SCORCH_PHASES=1 also prints the page's own timed calls (taking the worker's answer, building draw data, painting).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, browser, waitForProfile, ENGINE } from '../tests/e2e/harness.mjs';

const n = Number(process.argv[2] || 10_000), m = Number(process.argv[3] || 40_000), runs = Number(process.argv[4] || 5);

/** The core's `levelled_graph` (crates/core/src/analysis/callgraph/layout.rs, test-only there), its u64 xorshift in
 *  BigInt, until `m` distinct pairs (the core's keeps duplicates; a call graph has each pair once). */
function levelled(n, m, levels, seed) {
  const M64 = (1n << 64n) - 1n;
  let x = BigInt(seed) | 1n;
  const next = (k) => {
    x ^= (x << 13n) & M64; x ^= x >> 7n; x ^= (x << 17n) & M64;
    return Number(x % BigInt(Math.max(1, k)));
  };
  const per = Math.ceil(n / levels);
  const start = (l) => Math.min(l * per, n);
  const pick = (l, r) => { const a = start(l), b = start(l + 1); return Math.min(a + (r % Math.max(1, b - a)), n - 1); };
  const seen = new Set(), edges = [];
  const add = (a, b) => { const k = a * n + b; if (a !== b && !seen.has(k)) { seen.add(k); edges.push([a, b]); } };
  for (let v = per; v < n; v++) add(pick(Math.floor(v / per) - 1, next(per)), v);
  for (let tries = 0; edges.length < m && tries < 50 * m; tries++) {
    const a = next(n), l = Math.floor(a / per);
    if (next(20) === 0 && l > 0) add(a, pick(next(l), next(per)));
    else add(a, pick(Math.min(l + 1 + next(3), levels - 1), next(per)));
  }
  return edges;
}

/** Function `i`'s name: 10 to 39 characters, as the core benchmark's box widths vary. */
const name = (i) => `pkg${i % 97}.F${i}_`.padEnd(10 + (i % 30), 'x');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-graph-bench-'));
const edges = levelled(n, m, 60, 7);
let w = 1;
const text = edges.map(([a, b]) => { w = (w * 48271) % 2147483647; return `${name(a)};${name(b)} ${1 + (w % 50)}`; });
fs.writeFileSync(path.join(dir, 'graph.folded'), text.join('\n') + '\n');

/** Starts watching the main thread: long tasks (where the engine has them) and a setTimeout(0) chain's gaps. */
const watch = () => {
  const w = { tasks: [], at: [], gaps: [], last: performance.now(), stop: false };
  // Firefox accepts the observer but has no such entries: only where the engine lists the type.
  if (PerformanceObserver.supportedEntryTypes?.includes('longtask')) {
    w.obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) { w.tasks.push(e.duration); w.at.push(Math.round(e.startTime)); } });
    w.obs.observe({ type: 'longtask' });
    w.longtask = true;
  } else w.longtask = false;
  const tick = () => {
    const t = performance.now();
    w.gaps.push(t - w.last);
    w.last = t;
    if (!w.stop) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  window.__benchWatch = w;
};
/** Stops watching; the longest task and gap and the counts over 50 ms. */
const unwatch = () => new Promise((resolve) => setTimeout(() => {
  const w = window.__benchWatch;
  w.stop = true;
  w.obs?.disconnect();
  const max = (v) => v.reduce((a, b) => Math.max(a, b), 0);
  resolve({ longtask: w.longtask, long: w.tasks.map((d, i) => `${Math.round(d)} ms at ${w.at[i]}`).join(', '), maxTask: max(w.tasks), tasksOver50: w.tasks.filter((d) => d > 50).length,
    maxGap: max(w.gaps), gapsOver50: w.gaps.filter((d) => d > 50).length });
}, 100));
const frames = (k) => new Promise((r) => { const f = () => (k-- <= 0 ? r() : requestAnimationFrame(f)); requestAnimationFrame(f); });

// SCORCH_DIST=DIR: another build (e.g. one without wasm-opt, whose functions keep their names in a trace).
const server = await serve(process.env.SCORCH_DIST || undefined, '/', { '/bench/': dir });
const rows = [];
try {
  for (let run = 0; run < runs; run++) {
    const b = await browser();
    try {
      const { page } = b;
      // SCORCH_PHASES=1: the app's `scorch-phase NAME MS` logs (test builds: the page's calls of 10 ms or more).
      if (process.env.SCORCH_PHASES === '1') page.on('console', (m) => { if (m.text().startsWith('scorch-phase')) console.log(`  ${m.text()}`); });
      await page.goto(`${server.url}#url=${encodeURIComponent('/bench/graph.folded')}&gn=0&gnf=0&gef=0`);
      await waitForProfile(page, 'graph.folded');
      // Let the load's own tasks (the flame graph's first paints) finish before watching.
      await page.evaluate(frames, 2);
      await page.waitForTimeout(500);
      await page.evaluate(watch);
      // SCORCH_TRACE=FILE (Chromium): a Chrome trace of the page from the key to the graph drawn, run 1 only.
      const trace = process.env.SCORCH_TRACE && run === 0 && page.context().newCDPSession ? await page.context().newCDPSession(page) : null;
      const traced = [];
      if (trace) {
        trace.on('Tracing.dataCollected', (e) => traced.push(...e.value));
        await trace.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8,v8.wasm,blink.user_timing,' + (process.env.SCORCH_TRACE_CATS || 'disabled-by-default-v8.cpu_profiler'), transferMode: 'ReportEvents' });
      }
      const t0 = await page.evaluate(() => performance.now());
      if (process.env.SCORCH_PHASES === '1') console.log(`  key 7 at ${t0.toFixed(0)}`);
      await page.keyboard.press('7');
      await page.waitForFunction(() => window.__scorchGraphInfo?.()?.nodes > 0
        && !document.querySelector('[data-testid=graph-building]'), null, { timeout: 120000 });
      await page.evaluate(frames, 2);
      const shown = await page.evaluate(() => performance.now());
      const open = await page.evaluate(unwatch);
      if (trace) {
        const done = new Promise((r) => trace.on('Tracing.tracingComplete', r));
        await trace.send('Tracing.end');
        await done;
        fs.writeFileSync(process.env.SCORCH_TRACE, JSON.stringify(traced));
      }
      const info = await page.evaluate(() => window.__scorchGraphInfo());
      // The whole graph on screen: one wheel step to the smallest scale, then a drag across it.
      await page.evaluate(watch);
      await page.evaluate(() => {
        const c = document.querySelector('[data-testid=graph-canvas]');
        const r = c.getBoundingClientRect();
        c.dispatchEvent(new WheelEvent('wheel', { deltaY: 5000, clientX: r.left + r.width / 2, clientY: r.top + 20,
          bubbles: true, cancelable: true }));
      });
      await page.evaluate(frames, 3);
      const zoomed = await page.evaluate(unwatch);
      const scale = (await page.evaluate(() => window.__scorchGraphInfo())).scale;
      await page.evaluate(watch);
      const r = await page.evaluate(() => {
        const c = document.querySelector('[data-testid=graph-canvas]').getBoundingClientRect();
        return { x: c.left + c.width / 2, y: c.top + c.height / 2 };
      });
      await page.mouse.move(r.x, r.y);
      await page.mouse.down();
      for (let k = 1; k <= 10; k++) await page.mouse.move(r.x + 20 * k, r.y + 8 * k);
      await page.mouse.up();
      await page.evaluate(frames, 2);
      const dragged = await page.evaluate(unwatch);
      const row = { ...info, toDrawn: shown - t0, open, zoomed, scale, dragged };
      rows.push(row);
      const f = (x) => x.toFixed(0);
      const watchText = (w) => `${w.longtask ? `longest task ${f(w.maxTask)} ms, ${w.tasksOver50} over 50 ms; ` : ''}longest gap ${f(w.maxGap)} ms, ${w.gapsOver50} over 50 ms`;
      console.log(`${ENGINE} run ${run + 1}: ${info.nodes} nodes, ${info.edges} edges · worker: build ${f(info.build_ms)} ms, layout ${f(info.layout_ms)} ms · key → drawn ${f(row.toDrawn)} ms`);
      console.log(`  page while building and drawing: ${watchText(open)}`);
      if (process.env.SCORCH_PHASES === '1' && open.long) console.log(`  long tasks: ${open.long}`);
      console.log(`  zoomed out to ${scale} (all on screen): ${watchText(zoomed)}`);
      console.log(`  dragging it (10 moves): ${watchText(dragged)}`);
    } finally { await b.close(); }
  }
  const med = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  const span = (k) => { const v = rows.map(k); return `${Math.min(...v).toFixed(0)}–${Math.max(...v).toFixed(0)} (median ${med(v).toFixed(0)})`; };
  console.log(`${ENGINE}, ${runs} runs: layout in the worker ${span((r) => r.layout_ms)} ms, build ${span((r) => r.build_ms)} ms, key → drawn ${span((r) => r.toDrawn)} ms`);
  if (rows[0].open.longtask) console.log(`  longest main-thread task: opening ${span((r) => r.open.maxTask)} ms, zoomed out ${span((r) => r.zoomed.maxTask)} ms, dragging ${span((r) => r.dragged.maxTask)} ms; tasks over 50 ms: ${rows.map((r) => r.open.tasksOver50 + r.zoomed.tasksOver50 + r.dragged.tasksOver50).join(', ')}`);
  console.log(`  longest setTimeout(0) gap: opening ${span((r) => r.open.maxGap)} ms, zoomed out ${span((r) => r.zoomed.maxGap)} ms, dragging ${span((r) => r.dragged.maxGap)} ms; gaps over 50 ms: ${rows.map((r) => r.open.gapsOver50 + r.zoomed.gapsOver50 + r.dragged.gapsOver50).join(', ')}`);
} finally {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
