// View-switch benchmark (issue 39: views of every size go through the view engine; not a test). Headless
// Chromium, a testing build (`. scripts/env.sh && trunk build --release --features testing`). For each profile,
// LOADS fresh page loads by link (`#url=`); after each, once drawn, the page idles IDLE ms (the engine may be
// started then), then each switch is timed from the key's event to the frame after the switched view is on the
// page (the canvas shows a new graph, the table's count or the chart's boxes are there; then one more animation
// frame, so the view has been painted): 2 (inverted), back to 1, 4 (function table), back to 1, 6 (stack chart),
// back to 1, then REPEATS times 2 and back to 1 again. The table and the chart are cached per profile, so only
// their first switch after a load builds them; the inverted tree is built at every switch to it.
// Also the renderer's resident memory (VmRSS of the largest renderer process: the page and its workers) once the
// profile is drawn and the page has idled, before any switch; and what an idle view engine costs: MEM more fresh
// loads, each read with the engine the page started when idle, then again 2 s after `__scorchEngineEnd()` ended
// it (a build without that hook, or without an engine started ahead, reports nothing).
// Reported per profile and view: p50 / p95 / worst in ms, n.
//   node bench/view-switch-browser.mjs [--dist DIR] [--profiles DIR] [--loads 10] [--repeats 2] [--idle 1500]
//     [--only NAME] [--mem 5]
// The small profile is the demo (`www/demo/service.perf.gz`, a perf script with timestamps, 8 KB gzip'd), the
// others perf-1mb.linux-perf.txt and folded-1mb.collapsedstack.txt from target/bench-profiles (`bench/load.sh`).
import fs from 'node:fs';
import path from 'node:path';
import { serve, browser, ROOT, DIST } from '../tests/e2e/harness.mjs';

const args = process.argv.slice(2);
const opt = (n, d) => { const i = args.indexOf(n); return i >= 0 ? args[i + 1] : d; };
const dist = path.resolve(opt('--dist', DIST));
const profiles = path.resolve(opt('--profiles', path.join(ROOT, 'target', 'bench-profiles')));
const loads = Number(opt('--loads', '10'));
const repeats = Number(opt('--repeats', '2'));
const idle = Number(opt('--idle', '1500'));
const only = opt('--only', null);
const mem = Number(opt('--mem', '5'));

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const stats = (xs) => xs.length ? `${pct(xs, 0.5).toFixed(1)} / ${pct(xs, 0.95).toFixed(1)} / ${Math.max(...xs).toFixed(1)} ms (n=${xs.length})` : '-';

function rendererRssMB() {
  let max = 0;
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (!fs.readFileSync(`/proc/${e}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${e}/status`, 'utf8'));
      if (m) max = Math.max(max, Number(m[1]) / 1024);
    } catch { /* gone */ }
  }
  return max;
}

const server = await serve(dist, '/', { '/profiles/': profiles });
const cases = [
  { name: 'service.perf.gz (demo, small)', hash: '' , file: 'service.perf.gz' },
  { name: 'perf-1mb.linux-perf.txt', hash: `#url=${encodeURIComponent('/profiles/perf-1mb.linux-perf.txt')}`, file: 'perf-1mb.linux-perf.txt' },
  { name: 'folded-1mb.collapsedstack.txt', hash: `#url=${encodeURIComponent('/profiles/folded-1mb.collapsedstack.txt')}`, file: 'folded-1mb.collapsedstack.txt' },
].filter((c) => !only || c.file.includes(only));

// In the page: press `key`, wait until `ready()` holds in an animation frame, then one more frame; ms from the key.
async function press(page, key, what) {
  return page.evaluate(async ([key, what]) => {
    const flame = () => document.querySelector('[data-testid=flame-canvas]')?.dataset.shown;
    const before = flame();
    const ready = {
      flame: () => flame() !== undefined && flame() !== before,
      table: () => !!document.querySelector('[data-testid=function-count]'),
      chart: () => !!document.querySelector('[data-testid=chart-untimed]')
        || Number(document.querySelector('[data-testid=chart-canvas]')?.dataset.boxes || 0) > 0,
    }[what];
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    await frame();
    const t0 = performance.now();
    window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    for (let i = 0; i < 6000 && !ready(); i++) await frame();
    if (!ready()) return -1;
    await frame();
    return performance.now() - t0;
  }, [key, what]);
}

for (const c of cases) {
  const b = await browser();
  const { page } = b;
  const t = { inverted_first: [], table_first: [], chart_first: [], inverted_again: [], flame_back: [] };
  const rss = [];
  try {
    for (let l = 0; l < loads; l++) {
      await page.goto('about:blank');
      await page.goto(server.url + c.hash);
      await page.waitForFunction((n) => {
        const s = document.querySelector('[data-testid=status]');
        return s?.dataset.format && s.textContent.startsWith(n) && !document.querySelector('[data-testid=busy]');
      }, c.file, { timeout: 60000, polling: 50 });
      await page.waitForTimeout(idle);
      rss.push(rendererRssMB());
      await page.evaluate(() => document.activeElement?.blur());
      t.inverted_first.push(await press(page, '2', 'flame'));
      t.flame_back.push(await press(page, '1', 'flame'));
      t.table_first.push(await press(page, '4', 'table'));
      await press(page, '1', 'flame');
      t.chart_first.push(await press(page, '6', 'chart'));
      await press(page, '1', 'flame');
      for (let r = 0; r < repeats; r++) {
        t.inverted_again.push(await press(page, '2', 'flame'));
        t.flame_back.push(await press(page, '1', 'flame'));
      }
    }
    const errs = await page.locator('[data-testid=error]').count();
    console.log(`${c.name}${errs ? `  (an error is shown: ${await page.textContent('[data-testid=error]')})` : ''}`);
    for (const [k, xs] of Object.entries(t)) {
      if (xs.some((x) => x < 0)) console.log(`  ${k}: ${xs.filter((x) => x < 0).length} switches never showed the view`);
      console.log(`  ${k.padEnd(15)} ${stats(xs.filter((x) => x >= 0))}`);
    }
    console.log(`  renderer RSS after load + ${idle} ms idle: median ${pct(rss, 0.5).toFixed(0)} MB (${rss.map((x) => x.toFixed(0)).join(', ')})`);
    const costs = [];
    for (let m = 0; m < mem; m++) {
      await page.goto('about:blank');
      await page.goto(server.url + c.hash);
      await page.waitForFunction((n) => {
        const s = document.querySelector('[data-testid=status]');
        return s?.dataset.format && s.textContent.startsWith(n) && !document.querySelector('[data-testid=busy]');
      }, c.file, { timeout: 60000, polling: 50 });
      await page.waitForTimeout(idle);
      const alive = await page.evaluate(() => typeof window.__scorchEngineEnd === 'function' && window.__scorchEngine()[2]);
      if (!alive) break;
      const withEngine = rendererRssMB();
      await page.evaluate(() => window.__scorchEngineEnd());
      await page.waitForTimeout(2000);
      costs.push(withEngine - rendererRssMB());
    }
    if (costs.length) console.log(`  idle engine: renderer RSS with it − 2 s after ending it: median ${pct(costs, 0.5).toFixed(1)} MB (${costs.map((x) => x.toFixed(1)).join(', ')})`);
  } finally {
    await b.close();
  }
}
await server.close();
