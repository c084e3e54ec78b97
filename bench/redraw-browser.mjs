// Redraw benchmark (not a test): headless Chromium, the release build in dist/. Opens a synthetic profile whose
// call tree has about one million nodes (`__scorchBenchTree`), then
//   - zoom: clicks a frame (zoom in) and presses Esc (zoom out), 40 times at seeded random points;
//   - hover: moves the mouse to 200 seeded random points over the graph (and times the tooltip's change too);
// and reports, per kind, the time the paint took — for a zoom the whole graph (wasm: layout to pixels to canvas,
// `__scorchPaintTimes`), for a hover the outline on the overlay canvas (`__scorchOverlayTimes`) — and the time
// from the event to the end of the paint it caused (the `bench:paint` mark), median and 95th percentile.
// Usage: [SCORCH_DIST=folder] node bench/redraw-browser.mjs [NODES]   (after ./scripts/test.sh or
//   `. scripts/env.sh && trunk build --release --features testing`: the hooks it calls are in test builds only)
import { serve, browser } from '../tests/e2e/harness.mjs';

const nodes = Number(process.argv[2] || 1_000_000);
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const stats = (xs) => ({ n: xs.length, median: +pct(xs, 0.5).toFixed(2), p95: +pct(xs, 0.95).toFixed(2), max: +Math.max(...xs).toFixed(2) });
let seed = 12345;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };

const server = await serve(process.env.SCORCH_DIST || undefined);
const b = await browser();
const { page } = b;
await page.goto(server.url);
await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.dataset.format);
if (!(await page.evaluate(() => typeof window.__scorchBenchTree === 'function'))) {
  console.error('dist/ has no benchmark hooks: build it with `trunk build --release --features testing` (or ./scripts/test.sh)');
  process.exit(2);
}
const t0 = Date.now();
const treeNodes = await page.evaluate((n) => window.__scorchBenchTree(n), nodes);
const loadMs = Date.now() - t0;
await page.waitForTimeout(500);
const box = await page.evaluate(() => document.querySelector('[data-testid=flame-canvas]').getBoundingClientRect().toJSON());

// The tooltip's last change (its text or its place), for hover → tooltip shown.
await page.evaluate(() => {
  window.__tipChanged = 0;
  new MutationObserver((ms) => {
    if (ms.some((m) => (m.target.closest?.('[data-testid=tooltip]') ?? m.target.parentElement?.closest('[data-testid=tooltip]'))
      || [...m.addedNodes].some((n) => n.matches?.('[data-testid=tooltip]') || n.querySelector?.('[data-testid=tooltip]')))) {
      window.__tipChanged = performance.now();
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['style'] });
});

/** Runs `act` (which dispatches one event) and waits for the paint it causes: [paint ms, event→painted ms,
 *  event→tooltip changed ms (hover only; null when the tooltip did not change, e.g. over no frame)]. */
async function measure(act, which) {
  await page.evaluate(() => { window.__scorchPaintTimes(); window.__scorchOverlayTimes(); window.__tipChanged = 0; });
  const before = await page.evaluate(() => performance.getEntriesByName('bench:paint').at(-1)?.startTime ?? 0);
  const start = await page.evaluate(() => performance.now());
  await act();
  const end = await page.evaluate(async (before) => {
    for (let i = 0; i < 400; i++) {
      await new Promise((r) => requestAnimationFrame(r));
      const m = performance.getEntriesByName('bench:paint').at(-1);
      if (m && m.startTime > before) return m.startTime;
    }
    return null;
  }, before);
  const paints = await page.evaluate((w) => (w === 'hover' ? window.__scorchOverlayTimes() : window.__scorchPaintTimes()), which);
  const tip = await page.evaluate(() => window.__tipChanged);
  return end === null || paints.length === 0 ? null : [paints.at(-1), end - start, tip > start ? tip - start : null];
}

const zoomPaint = [], zoomLatency = [], hoverPaint = [], hoverLatency = [], tipLatency = [];
for (let i = 0; i < (process.env.ZOOMS ? +process.env.ZOOMS : 40); i++) {
  const x = box.left + rand() * box.width, y = box.top + box.height * (0.55 + rand() * 0.4);
  for (const act of [() => page.mouse.click(x, y), () => page.keyboard.press('Escape')]) {
    const r = await measure(act, 'zoom');
    if (r) { zoomPaint.push(r[0]); zoomLatency.push(r[1]); }
  }
}
for (let i = 0; i < (process.env.HOVERS ? +process.env.HOVERS : 200); i++) {
  const x = box.left + rand() * box.width, y = box.top + box.height * (0.3 + rand() * 0.7);
  const r = await measure(() => page.mouse.move(x, y), 'hover');
  if (r) { hoverPaint.push(r[0]); hoverLatency.push(r[1]); if (r[2] !== null) tipLatency.push(r[2]); }
}
console.log(JSON.stringify({
  nodes: treeNodes, load_ms: loadMs, canvas: `${Math.round(box.width)}×${Math.round(box.height)} CSS px`,
  zoom: { paint_ms: stats(zoomPaint), event_to_painted_ms: stats(zoomLatency) },
  hover: { paint_ms: stats(hoverPaint), event_to_painted_ms: stats(hoverLatency), event_to_tooltip_ms: stats(tipLatency) },
}, null, 2));
await b.close();
await server.close();
