// Hostile shapes in the browser (benchmark, not a test; issue 18): generates the shapes of
// crates/cli/tests/resources.rs at the issue's sizes, opens each in headless Chromium (by `#url=` link, and the
// deep one also by the file input), walks every view — flame, icicle, inverted (2), sandwich (3, a function
// selected), functions (4), search, Copy link, and the copied link in the same tab — and reports per step the
// longest main-thread task (PerformanceObserver 'longtask', tasks over 50 ms), how many long tasks there were,
// the step's wall time, and the peak resident memory of this script's Chromium renderer processes (the page and its
// workers; polled every 100 ms).
// Usage: [SCORCH_DIST=folder] node bench/hostile-browser.mjs [SCALE=1] [SHAPE…]   (SCALE 1 = the issue's sizes: a 5,000,000-frame
//   stack, 1,000,000 children, a 10 MB name, 1,000,000 perf events; after
//   `. scripts/env.sh && trunk build --release --features testing`)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, browser } from '../tests/e2e/harness.mjs';

const scale = Number(process.argv[2] || 1);
const only = process.argv.slice(3);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-hostile-'));

/** Each shape: file name, bytes, the total, a frame on every stack (search, sandwich). */
function shapes() {
  const n = (x) => Math.max(1, Math.round(x * scale));
  const out = [];
  const deep = n(5_000_000);
  out.push({ name: 'deep.folded', make: () => Buffer.concat([Buffer.from('f;'.repeat(deep - 1) + 'f'), Buffer.from(' 1\n')]), total: 1, frame: 'f' });
  const distinct = n(1_000_000);
  out.push({ name: 'deep-distinct.folded', make: () => { const a = ['f']; for (let i = 1; i < distinct; i++) a.push(`g${i}`); return Buffer.from(`${a.join(';')} 3\n`); }, total: 3, frame: 'f' });
  const wide = n(1_000_000);
  out.push({ name: 'wide.folded', make: () => { const a = []; for (let i = 0; i < wide; i++) a.push(`root;child${i} 2\n`); return Buffer.from(a.join('')); }, total: 2 * wide, frame: 'root' });
  out.push({ name: 'huge-name.folded', make: () => Buffer.concat([Buffer.alloc(n(10_000_000), 'n'), Buffer.from(';f 5\n')]), total: 5, frame: 'f' });
  const events = n(1_000_000);
  out.push({ name: 'perf-many.perf', make: () => { const a = []; for (let i = 0; i < events; i++) a.push(`prog 7 [000] ${Math.floor(i / 1000)}.${String(i % 1000 * 1000).padStart(6, '0')}: 1 cycles:\n\tffff work (/bin/prog)\n\tffff main (/bin/prog)\n\n`); return Buffer.from(a.join('')); }, total: events, frame: 'main' });
  out.push({ name: 'perf-ten-years.perf', make: () => Buffer.from(['0.25', '10.5', '315360000.5', '315360000.75'].map((t) => `prog 7 [000] ${t}: 1 cycles:\n\tffff work (/bin/prog)\n\tffff main (/bin/prog)\n\n`).join('')), total: 4, frame: 'main' });
  return out.filter((s) => only.length === 0 || only.some((o) => s.name.startsWith(o)));
}

/** RSS (MB) of the Chromium renderer processes started by this script (descendants of this node process: other
 * browsers on the machine, another helper's tests, are not counted). */
function rendererRss() {
  const parent = new Map();
  const pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone */ }
  }
  const ours = (pid) => { for (let p = pid, n = 0; p > 1 && n < 64; p = parent.get(p) ?? 0, n++) if (p === process.pid) return true; return false; };
  let total = 0;
  for (const pid of pids) {
    try {
      if (!ours(Number(pid))) continue;
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer')) continue;
      const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
      if (m) total += Number(m[1]);
    } catch { /* gone */ }
  }
  return total / 1024;
}

// SCORCH_DIST=folder serves another build (say, one from before a change) instead of dist/.
const server = await serve(process.env.SCORCH_DIST || undefined, '/', { '/hostile/': dir });
const b = await browser();
const { page } = b;
await page.addInitScript(() => {
  window.__longTasks = [];
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push([e.startTime, e.duration]); })
      .observe({ type: 'longtask', buffered: true });
  } catch { /* no longtask support */ }
});

// SCORCH_PHASES=1 (with a `testing` build): print the app's `scorch-phase NAME MS at START` timings and each
// long task's start and duration, to tell which call a long task was.
const phases = process.env.SCORCH_PHASES === '1';
if (phases) page.on('console', (m) => { if (m.text().startsWith('scorch-phase')) console.log(`  ${m.text()}`); });
const results = [];
// `fresh`: the step loads a new page (its clock starts again at 0), so every long task of the new page counts.
async function step(shape, name, act, fresh = false) {
  const t0 = fresh ? 0 : await page.evaluate(() => performance.now()).catch(() => 0);
  let peak = rendererRss();
  const poll = setInterval(() => { peak = Math.max(peak, rendererRss()); }, 100);
  const w0 = Date.now();
  let note = '';
  try { note = (await act()) ?? ''; } catch (e) { note = `FAILED: ${String(e.message || e).split('\n')[0]}`; }
  // Let the tasks the step caused finish, then read them.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))))).catch(() => {});
  const wall = Date.now() - w0;
  clearInterval(poll);
  peak = Math.max(peak, rendererRss());
  const all = await page.evaluate((t0) => window.__longTasks.filter(([s]) => s >= t0), t0).catch(() => []);
  if (phases) for (const [s, d] of all) console.log(`  long task at ${Math.round(s)}: ${Math.round(d)} ms`);
  const tasks = all.map(([, d]) => d);
  const row = { shape, step: name, longest_ms: Math.round(Math.max(0, ...tasks)), long_tasks: tasks.length,
    sum_ms: Math.round(tasks.reduce((a, x) => a + x, 0)), wall_ms: wall, rss_mb: Math.round(peak), note };
  results.push(row);
  console.log(JSON.stringify(row));
}

const status = () => page.evaluate(() => ({ ...document.querySelector('[data-testid=status]')?.dataset, text: document.querySelector('[data-testid=status]')?.textContent, error: document.querySelector('[data-testid=error]')?.textContent ?? null }));
const T = { timeout: 180_000 };
async function waitLoaded(name, loads) {
  await page.waitForFunction(([n, l]) => {
    const s = document.querySelector('[data-testid=status]');
    const e = document.querySelector('[data-testid=error]');
    return (s && s.dataset.format && s.textContent.startsWith(n) && s.dataset.loads !== l) || (e && e.textContent.includes(n));
  }, [name, loads], T);
  const s = await status();
  return `total ${s.total}${s.error ? ` error: ${s.error}` : ''}`;
}
const esc = () => page.evaluate(() => document.activeElement?.blur());

for (const s of shapes()) {
  const file = path.join(dir, s.name);
  fs.writeFileSync(file, s.make());
  const mb = (fs.statSync(file).size / 1e6).toFixed(1);
  console.log(`# ${s.name}: ${mb} MB, total ${s.total}`);
  await page.goto(server.url);
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.dataset.format, null, T);
  await page.waitForTimeout(300);
  const loads = (await status()).loads;
  await step(s.name, 'open #url=', async () => { await page.evaluate((u) => { location.hash = `#url=${encodeURIComponent(u)}`; }, `/hostile/${s.name}`); return waitLoaded(s.name, loads); });
  if (s.name.startsWith('deep.')) {
    await step(s.name, 'open file input', async () => { const l = (await status()).loads; await page.setInputFiles('[data-testid=open-file]', file); return waitLoaded(s.name, l); });
  }
  await step(s.name, 'icicle', async () => { await page.click('[data-testid=view-icicle]'); await page.waitForFunction(() => document.querySelector('[data-testid=flame-canvas]')?.dataset.orientation === 'icicle', null, T); });
  await step(s.name, 'flame', async () => { await page.click('[data-testid=view-flame]'); await page.waitForFunction(() => document.querySelector('[data-testid=flame-canvas]')?.dataset.orientation === 'flame', null, T); });
  await step(s.name, 'inverted (2)', async () => {
    await esc();
    const shown = await page.getAttribute('[data-testid=flame-canvas]', 'data-shown');
    await page.keyboard.press('2');
    await page.waitForSelector('[data-testid=view-mode-inverted].active', T);
    // Until the inverted graph (built in steps on a large profile) replaces the plain one.
    await page.waitForFunction((n) => document.querySelector('[data-testid=flame-canvas]')?.dataset.shown !== n, shown, T); await page.waitForSelector('[data-testid=flame-canvas]', T); return page.getAttribute('[data-testid=flame-canvas]', 'data-depth').then((d) => `depth ${d}`); });
  await step(s.name, 'sandwich (3)', async () => { await page.keyboard.press('3'); await page.waitForSelector('[data-testid=sandwich]', T); });
  await step(s.name, 'sandwich select', async () => {
    // The table lists the first rows only; the search filters it down to the frame.
    await page.fill('[data-testid=search]', s.frame);
    await page.click(`[data-testid=fn-row][data-name="${s.frame}"]`, T);
    await page.fill('[data-testid=search]', ''); await page.waitForSelector('[data-testid=callers-canvas]', T);
    await page.waitForFunction(() => ['callers', 'callees'].every((p) => Number(document.querySelector(`[data-testid=${p}-canvas]`)?.dataset.depth) > 0), null, T);
    return page.evaluate(() => ['callers', 'callees'].map((p) => `${p} depth ${document.querySelector(`[data-testid=${p}-canvas]`).dataset.depth}`).join(', '));
  });
  await step(s.name, 'functions (4)', async () => { await esc(); await page.keyboard.press('4'); await page.waitForSelector('[data-testid=function-count]', T); return page.textContent('[data-testid=function-count]'); });
  await step(s.name, 'flame (1)', async () => { await esc(); await page.keyboard.press('1'); await page.waitForSelector('[data-testid=flame-canvas]', T); });
  await step(s.name, 'search', async () => { await page.fill('[data-testid=search]', s.frame); await page.waitForSelector('[data-testid=matched]', T); return page.getAttribute('[data-testid=matched]', 'data-value'); });
  await step(s.name, 'clear search', async () => { await page.fill('[data-testid=search]', ''); await page.waitForSelector('[data-testid=matched]', { state: 'detached', ...T }); });
  let link = null;
  await step(s.name, 'copy link', async () => { await page.click('[data-testid=copy-link]'); await page.waitForSelector('[data-testid=copy-link-text], [data-testid=error]', T); link = await page.inputValue('[data-testid=copy-link-text]').catch(() => null); return `${link?.length ?? 0} chars`; });
  if (link) {
    await step(s.name, 'open link', async () => { await page.goto('about:blank'); await page.goto(link); await page.waitForFunction((t) => document.querySelector('[data-testid=status]')?.dataset.total === t || document.querySelector('[data-testid=error]'), String(s.total), T);
      const st = await status(); return `total ${st.total}${st.error ? ` error: ${st.error}` : ''}`; }, true);
  }
  fs.rmSync(file);
}

console.log('\n| shape | step | longest task ms | long tasks | wall ms | renderer RSS MB | note |\n|---|---|---|---|---|---|---|');
for (const r of results) console.log(`| ${r.shape} | ${r.step} | ${r.longest_ms} | ${r.long_tasks} | ${r.wall_ms} | ${r.rss_mb} | ${r.note} |`);
await b.close();
await server.close();
fs.rmSync(dir, { recursive: true, force: true });
