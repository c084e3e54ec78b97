// Stack-chart benchmark (not a test): headless Chromium, the release build in dist/. Opens a synthetic profile of
// N samples shaped for the chart (`__scorchBenchChart`: 10 kHz on one thread, a walk over 20,000 call paths, see
// crates/app/src/testing/bench.rs), switches to the stack chart, then
//   - pan: 50 drag steps of about 38 px across the chart body, back and forth (each one frame);
//   - zoom: 50 wheel events at seeded random points (in, then out, alternately 5 at a time);
// from windows of 1/2, 1/40 and 1/1000 of the span, and reports the time each paint took in wasm (boxes → pixels
// → canvas, labels, ruler: `__scorchChartTimes`), median and worst, plus how long building the chart took.
// Usage: node bench/chart-browser.mjs [SAMPLES]   (after `. scripts/env.sh && trunk build --release --features testing`)
import { serve, browser } from '../tests/e2e/harness.mjs';

const n = Number(process.argv[2] || 10_000_000);
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const stats = (xs) => ({ n: xs.length, median: +pct(xs, 0.5).toFixed(2), worst: +Math.max(...xs).toFixed(2) });
let seed = 4242;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };

const server = await serve();
const b = await browser();
const { page } = b;
await page.goto(server.url);
await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.dataset.format);
if (!(await page.evaluate(() => typeof window.__scorchBenchChart === 'function'))) {
  console.error('dist/ has no benchmark hooks: build it with `trunk build --release --features testing`');
  process.exit(2);
}
const t0 = Date.now();
await page.evaluate((n) => window.__scorchBenchChart(n), n);
await page.waitForFunction((n) => document.querySelector('[data-testid=status]')?.textContent.startsWith(`chart-${n}`),
  n, { timeout: 600000 });
const loadMs = Date.now() - t0;
await page.click('[data-testid=view-mode-chart]');
await page.waitForFunction(() => Number(document.querySelector('[data-testid=chart-canvas]')?.dataset.boxes) > 0,
  null, { timeout: 600000 });
await page.waitForTimeout(300);
const info = await page.evaluate(() => ({ ...document.querySelector('[data-testid=chart-canvas]').dataset,
  buildMs: window.__scorchChartBuildMs }));
const box = await page.evaluate(() => document.querySelector('[data-testid=chart-canvas]').getBoundingClientRect().toJSON());
const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
/** Runs `act` and returns the paint durations (ms) it caused. */
async function measure(act) {
  await page.evaluate(() => window.__scorchChartTimes());
  await act();
  await frame();
  return page.evaluate(() => window.__scorchChartTimes());
}

const result = { samples: n, load_ms: loadMs, chart_build_ms: +info.buildMs.toFixed(1), boxes: Number(info.boxes),
  depth: Number(info.depth), canvas: `${Math.round(box.width)}×${Math.round(box.height)} CSS px` };
for (const [label, zoomIn] of [['window 1/2 of the span', 2], ['window 1/40', 40], ['window 1/1000', 1000]]) {
  await page.focus('[data-testid=chart-canvas]');
  await page.keyboard.press('0');
  await frame();
  // The + key zooms by 0.8 around the middle.
  for (let i = 0; i < Math.round(Math.log(zoomIn) / Math.log(1.25)); i++) await page.keyboard.press('+');
  await frame();
  const pan = [];
  const y = box.top + box.height * 0.5;
  await page.mouse.move(box.left + box.width * 0.9, y);
  await page.mouse.down();
  for (let i = 0; i < 50; i++) {
    // Back and forth, so the window stays inside the chart.
    const x = box.left + box.width * (0.9 - 0.03 * (i % 25 < 13 ? i % 25 : 25 - (i % 25)));
    pan.push(...(await measure(() => page.mouse.move(x, y))));
  }
  await page.mouse.up();
  const zoom = [];
  for (let i = 0; i < 50; i++) {
    const x = box.left + rand() * box.width;
    await page.mouse.move(x, y);
    const dy = Math.floor(i / 5) % 2 === 0 ? -120 : 120;
    zoom.push(...(await measure(() => page.mouse.wheel(0, dy))));
  }
  result[label] = { pan_paint_ms: stats(pan), zoom_paint_ms: stats(zoom) };
}
console.log(JSON.stringify(result, null, 2));
await b.close();
await server.close();
