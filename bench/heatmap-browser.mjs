// In-browser heatmap benchmark (not a test): headless Chromium, the release build in dist/.
//   1. a synthetic profile of 10 M timestamped samples: time to compute its heatmap (wasm, median of 5);
//   2. a synthetic profile of 1 M samples: from releasing the mouse on a heatmap selection of one second to the
//      painted flame graph of that range (median of 7 selections).
// Usage: node bench/heatmap-browser.mjs   (after ./scripts/test.sh or
//   `. scripts/env.sh && trunk build --release --features testing`: the hooks it calls are in test builds only)
import { serve, browser } from '../tests/e2e/harness.mjs';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const server = await serve();
const b = await browser();
const { page } = b;
await page.goto(server.url);
await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.dataset.format);
if (!(await page.evaluate(() => typeof window.__scorchBenchLoad === 'function'))) {
  console.error('dist/ has no benchmark hooks: build it with `trunk build --release --features testing` (or ./scripts/test.sh)');
  process.exit(2);
}

async function load(n) {
  const t0 = Date.now();
  await page.evaluate((n) => window.__scorchBenchLoad(n), n);
  await page.waitForFunction((n) => document.querySelector('[data-testid=status]').dataset.samples === String(n), n, { timeout: 600000 });
  await page.waitForFunction(() => document.querySelector('[data-testid=heatmap-canvas]')?.dataset.columns);
  return Date.now() - t0;
}

const results = {};
results.load10M_ms = await load(10_000_000);
const times = [];
for (let i = 0; i < 5; i++) times.push(await page.evaluate(() => window.__scorchBenchHeatmap(50)));
results.heatmap10M_ms = { median: median(times), all: times.map((x) => Math.round(x)) };

results.load1M_ms = await load(1_000_000);
const sel = [];
for (const c of [3, 10, 17, 24, 31, 38, 45]) {
  const ms = await page.evaluate(async (c) => {
    const cv = document.querySelector('[data-testid=heatmap-canvas]');
    const rect = cv.getBoundingClientRect();
    const cols = Number(cv.dataset.columns), rows = Number(cv.dataset.rows);
    const cw = rect.width / cols, ch = rect.height / rows;
    const at = (r) => ({ clientX: rect.left + (c + 0.5) * cw, clientY: rect.top + (rows - 1 - r + 0.5) * ch, bubbles: true });
    cv.dispatchEvent(new MouseEvent('mousedown', at(0)));
    const before = performance.getEntriesByName('bench:paint').at(-1)?.startTime ?? 0;
    const t0 = performance.now();
    cv.dispatchEvent(new MouseEvent('mouseup', at(rows - 1)));
    for (;;) {
      await new Promise((r) => setTimeout(r, 5));
      const m = performance.getEntriesByName('bench:paint').at(-1);
      if (m && m.startTime > before && m.startTime > t0) return m.startTime - t0;
    }
  }, c);
  sel.push(ms);
}
results.rangeSelect1M_ms = { median: median(sel), all: sel.map((x) => Math.round(x)) };
console.log(JSON.stringify(results, null, 2));
await b.close();
await server.close();
