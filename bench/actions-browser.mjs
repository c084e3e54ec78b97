// Long tasks per user action (benchmark, not a test; issue 39's "no main-thread task over 50 ms … during a switch to
// each view, a search, a transform or a zoom"). Headless Chromium opens PROFILE by link (`#url=`) from a folder
// mounted beside DIST, then acts as a user does — hover, a zoom click and Esc, each view by its key (2 … 7) and back
// to the flame graph (1), a search typed and cleared, a click that selects a function, Merge on it and Ctrl+Z — and
// reports, per action, the main thread's tasks of 50 ms or more (PerformanceObserver 'longtask'), with `--why` the
// functions the CPU profiler sampled inside each of them (a Chrome trace's RunTask events and the CPU profile share
// one clock; wasm functions have names only in a build that keeps them, e.g. `wasm-bindgen --keep-debug` and
// `wasm-opt -g`). Each action is followed by WAIT ms of quiet so its late tasks (the engine's answer) count.
//   node bench/actions-browser.mjs [--dist DIR] [--profiles DIR] [--file NAME] [--reps N] [--wait MS] [--why]
// (defaults: dist/, /work/bench-profiles or target/bench-profiles, folded-100mb.collapsedstack.txt, 1, 2500)
import fs from 'node:fs';
import path from 'node:path';
import { serve, browser, ROOT, DIST } from '../tests/e2e/harness.mjs';

const args = process.argv.slice(2);
const opt = (n, d) => { const i = args.indexOf(n); return i >= 0 ? args[i + 1] : d; };
const dist = path.resolve(opt('--dist', DIST));
const profiles = path.resolve(opt('--profiles', fs.existsSync('/work/bench-profiles') ? '/work/bench-profiles' : path.join(ROOT, 'target', 'bench-profiles')));
const file = opt('--file', 'folded-100mb.collapsedstack.txt');
const reps = Number(opt('--reps', '1'));
const wait = Number(opt('--wait', '2500'));
const why = args.includes('--why');

const server = await serve(dist, '/', { '/p/': profiles });
const summary = new Map();
for (let rep = 0; rep < reps; rep++) {
  const b = await browser();
  const { page } = b;
  await page.addInitScript(() => {
    window.__lt = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push(Math.round(e.duration)); }).observe({ type: 'longtask', buffered: true });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  let events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));

  /** The sampled functions inside each main-thread task of 50 ms or more. */
  const inTasks = (profile) => {
    const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}/${e.tid}`));
    const tasks = events.filter((e) => e.ph === 'X' && /RunTask$/.test(e.name) && e.dur >= 50000 && mains.has(`${e.pid}/${e.tid}`));
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
    const times = [];
    let t = profile.startTime;
    profile.samples.forEach((id, i) => { t += profile.timeDeltas[i] || 0; times.push([t, id, profile.timeDeltas[i] || 0]); });
    // Where each task sits among the page's own marks (`bench:…`, in the trace through blink.user_timing).
    const marks = events.filter((e) => /^bench:/.test(e.name) && /user_timing/.test(e.cat || ''));
    const near = (ts) => {
      const before = marks.filter((m) => m.ts <= ts).sort((a, b) => b.ts - a.ts)[0];
      return before ? `${((ts - before.ts) / 1000).toFixed(0)} ms after ${before.name}` : 'before any bench: mark';
    };
    return tasks.map((task) => {
      const incl = new Map(), self = new Map();
      for (const [ts, id, dt] of times) {
        if (ts < task.ts || ts > task.ts + task.dur) continue;
        const seen = new Set();
        let x = id, first = true;
        while (x !== undefined) {
          const f = (byId.get(x).callFrame.functionName || '(anon)').replace(/::h[0-9a-f]{16}$/, '');
          if (first) { self.set(f, (self.get(f) || 0) + dt / 1000); first = false; }
          if (/scorch_|^\(/.test(f) && !seen.has(f)) { seen.add(f); incl.set(f, (incl.get(f) || 0) + dt / 1000); }
          x = parent.get(x);
        }
      }
      const fmt = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([f, v]) => `      ${v.toFixed(0).padStart(4)} ${f.slice(0, 120)}`).join('\n');
      return `  task ${(task.dur / 1000).toFixed(0)} ms, ${near(task.ts)}\n    self:\n${fmt(self, 6)}\n    inclusive:\n${fmt(incl, 10)}`;
    }).join('\n');
  };

  const step = async (name, act, ms = wait) => {
    await page.evaluate(() => { window.__lt = []; }).catch(() => {});
    events = [];
    let done;
    if (why) {
      done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
      await cdp.send('Tracing.start', { categories: 'toplevel,__metadata,blink.user_timing', transferMode: 'ReportEvents' });
      await cdp.send('Profiler.start');
    }
    await act();
    await page.waitForTimeout(ms);
    const lt = await page.evaluate(() => window.__lt);
    if (!summary.has(name)) summary.set(name, []);
    summary.get(name).push(lt);
    if (why) {
      const { profile } = await cdp.send('Profiler.stop');
      await cdp.send('Tracing.end');
      await done;
      console.log(`${name}: long tasks ${JSON.stringify(lt)}`);
      if (lt.length) console.log(inTasks(profile));
    }
  };

  await step('load by link', async () => {
    await page.goto(`${server.url}#url=p/${encodeURIComponent(file)}`);
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.dataset.format, null, { timeout: 180000 });
  }, wait + 500);
  const box = await page.evaluate(() => document.querySelector('[data-testid=flame-canvas]').getBoundingClientRect().toJSON());
  await page.mouse.move(box.left + 5, box.top + 5);
  await step('hover', () => page.mouse.move(box.left + box.width * 0.4, box.bottom - 30), 1000);
  await step('zoom click', () => page.mouse.click(box.left + box.width * 0.4, box.bottom - 50));
  await step('Esc', () => page.keyboard.press('Escape'));
  for (const k of ['2', '3', '4', '5', '6', '7']) {
    await step(`key ${k}`, () => page.keyboard.press(k), wait + 1500);
    await step(`key 1 after ${k}`, () => page.keyboard.press('1'), wait + 1500);
  }
  await step('search typed', () => page.fill('[data-testid=search]', 'a'));
  await step('search cleared', () => page.fill('[data-testid=search]', ''));
  await step('click (select)', () => page.mouse.click(box.left + box.width * 0.3, box.bottom - 70));
  await step('Merge', () => page.click('[data-testid=tx-merge]'), wait + 2500);
  await step('Ctrl+Z', () => page.keyboard.press('Control+z'), wait + 1500);
  await b.close();
}
await server.close();
console.log(`${file}, ${reps} run(s): per action, the long tasks (ms) of each run`);
for (const [name, runs] of summary) console.log(`  ${name.padEnd(16)} ${runs.map((r) => (r.length ? r.join(' ') : '–')).join(' | ')}`);
