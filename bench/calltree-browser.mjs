// Call-tree table benchmark (not a test): headless Chromium, the release build in dist/. Opens a synthetic profile
// whose call tree has about one million nodes (`__scorchBenchTree`), shows the call-tree table (key 5), then
//   - expand: from the root row, `*` expands the heaviest path: time from the key event until the rows changed
//     and were laid out, 10 times (the root collapsed with Left in between);
//   - scroll: 100 animation frames, each scrolling the table by 5 rows; per frame the work (scrollTop set, the
//     scroll handler, the rows re-rendered — Leptos renders in microtasks, awaited here — and laid out: time until
//     forced layout returns) and the requestAnimationFrame delta (frame to frame), median and worst.
// Usage: node bench/calltree-browser.mjs [NODES]   (after `. scripts/env.sh && trunk build --release --features
//   testing`: the hooks it calls are in test builds only)
import { serve, browser } from '../tests/e2e/harness.mjs';

const nodes = Number(process.argv[2] || 1_000_000);
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const stats = (xs) => ({ n: xs.length, median: +pct(xs, 0.5).toFixed(2), p95: +pct(xs, 0.95).toFixed(2), worst: +Math.max(...xs).toFixed(2) });

const server = await serve();
const b = await browser();
const { page } = b;
// The table's own long calls (`state::timed`, 10 ms or more): its rows and the per-node sample counts.
const phases = [];
page.on('console', (m) => { if (m.text().startsWith('scorch-phase call tree')) phases.push(m.text()); });
await page.goto(server.url);
await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.dataset.format);
if (!(await page.evaluate(() => typeof window.__scorchBenchTree === 'function'))) {
  console.error('dist/ has no benchmark hooks: build it with `trunk build --release --features testing`');
  process.exit(2);
}
const treeNodes = await page.evaluate((n) => window.__scorchBenchTree(n), nodes);
await page.keyboard.press('5');
await page.waitForSelector('[data-testid=ct-row]');
await page.waitForTimeout(300);
const t0 = Date.now();
const expand = [];
let pathRows = 0;
for (let i = 0; i < 10; i++) {
  const r = await page.evaluate(async () => {
    const g = document.querySelector('[data-testid=call-tree]');
    g.focus();
    const key = (k) => g.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
    key('Home');
    key('ArrowLeft'); // collapse the root: the next `*` expands from nothing
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const start = performance.now();
    key('*');
    // The key handler expands the path and scrolls at once; Leptos renders in microtasks: wait for the focused
    // row (the path's leaf) to be in the DOM, then force layout.
    const leaf = () => document.getElementById(g.getAttribute('aria-activedescendant') || '-');
    for (let k = 0; k < 50 && !(leaf()?.getAttribute('aria-level') > 2); k++) await Promise.resolve();
    document.querySelector('.ct-row')?.getBoundingClientRect();
    const ms = performance.now() - start;
    const f = leaf();
    return [ms, Number(f?.getAttribute('aria-level') ?? 0), Number(g.dataset.rows)];
  });
  expand.push(r[0]);
  pathRows = r[1];
}
// Scroll from the top down the shown rows: expand the root's first 300 children's heaviest paths for a long list.
const shown = await page.evaluate(async () => {
  const g = document.querySelector('[data-testid=call-tree]');
  const key = (k) => g.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
  key('Home');
  key('ArrowRight');
  for (let i = 0; i < 300; i++) { key('ArrowDown'); key('*'); key('ArrowDown'); }
  await new Promise((r) => requestAnimationFrame(r));
  key('Home');
  return Number(g.dataset.rows);
});
const scroll = await page.evaluate(async () => {
  const body = document.querySelector('.ct-body');
  const work = [], delta = [], dom = [];
  let missed = 0;
  let last = null;
  for (let i = 0; i < 100; i++) {
    const t = await new Promise((r) => requestAnimationFrame(r));
    if (last !== null) delta.push(t - last);
    last = t;
    const start = performance.now();
    body.scrollTop += 5 * 22;
    body.dispatchEvent(new Event('scroll'));
    // The handler sets signals; Leptos re-renders the rows in microtasks (queued before these awaits resolve);
    // the first row in view must then be in the DOM, and forced layout lays the new rows out.
    // The last row drawn below the view (6 rows of overscan): new in this frame.
    const want = String(Math.min(Number(document.querySelector('[data-testid=call-tree]').dataset.rows) - 1,
      Math.ceil((body.scrollTop + body.clientHeight) / 22) + 5));
    for (let k = 0; k < 20 && !body.querySelector(`.ct-row[data-index="${want}"]`); k++) await Promise.resolve();
    if (!body.querySelector(`.ct-row[data-index="${want}"]`)) missed++;
    body.querySelector('.ct-row')?.getBoundingClientRect();
    work.push(performance.now() - start);
    dom.push(body.querySelectorAll('.ct-row').length);
  }
  return { work, delta, dom: Math.max(...dom), top: body.scrollTop, missed };
});
console.log(JSON.stringify({
  nodes: treeNodes, rows_shown_when_scrolling: shown, max_rows_in_dom: scroll.dom, scrolled_px: scroll.top, frames_not_rendered_in_microtasks: scroll.missed,
  heaviest_path_levels: pathRows,
  expand_heaviest_path_ms: stats(expand),
  scroll_frame_work_ms: stats(scroll.work), scroll_raf_delta_ms: stats(scroll.delta),
  wall_s: (Date.now() - t0) / 1000, phases,
}, null, 2));
await b.close();
await server.close();
