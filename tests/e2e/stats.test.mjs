// Lost events and sampling error in the browser, on a real perf recording that lost events
// (crates/core/tests/data/perf-made/lost.txt): the status line's lost count equals perf's own report, the heatmap
// marks the seconds with losses, and the tooltip and function table carry the 95 % intervals of the independent
// oracle (tests/oracles/wilson.py, statsmodels).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { openApp, openFile, settle, outFile, ROOT } from './harness.mjs';

const FILE = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'perf-made', 'lost.txt');
const PERF = fs.readFileSync(path.join(ROOT, 'crates', 'core', 'tests', 'data', 'perf-made', 'lost-oracle.txt'), 'utf8');
const ORACLE = JSON.parse(fs.readFileSync(path.join(ROOT, 'crates', 'cli', 'tests', 'data', 'wilson', 'perf-lost.json'), 'utf8'));

let app, b;
before(async () => { app = await openApp(); b = app.b; });
after(async () => { await app?.close(); });

test('lost events: the status line gives perf report\'s counts, the heatmap marks their seconds', async () => {
  const { page } = b;
  const s = await openFile(page, FILE, 'lost.txt');
  // perf report: "# Total Lost Samples: 600", "Processed 1063 events and lost 16 chunks!", "lost 38.34%!".
  assert.equal(s.lost, PERF.match(/Total Lost Samples: (\d+)/)[1]);
  assert.equal(s.lostChunks, PERF.match(/events and lost (\d+) chunks/)[1]);
  const pct = Number(PERF.match(/samples and lost ([\d.]+)%/)[1]).toFixed(1);
  assert.ok(s.text.includes(`lost 600 events (${pct} %, 16 chunks)`), s.text);
  // 965 samples: the few-samples notice; its ± is statsmodels' Wilson half-width for 482 of 965 (3.148 pp).
  assert.equal(await page.textContent('[data-testid=few-samples]'), 'few samples (965): shares are ± 3.1 pp');
  // The badge does not make the status line taller: a taller line moved the graph above it up and resized the
  // graph's canvas for the first picture (4 px, a new backing store).
  const [withBadge, without] = await page.evaluate(() => {
    const status = document.querySelector('[data-testid=status]');
    const badge = status.querySelector('[data-testid=few-samples]');
    const h = () => status.getBoundingClientRect().height;
    const a = h();
    badge.style.display = 'none';
    const b = h();
    badge.style.display = '';
    return [a, b];
  });
  assert.equal(withBadge, without);
  // The heatmap: one mark per second with losses (the oracle's seconds 11305–11307 are columns 0–2; the last
  // column, 11308, has none).
  const seconds = [...PERF.matchAll(/^ {2}(\d+) \d+$/gm)].map((m) => Number(m[1]));
  assert.deepEqual(seconds, [11305, 11306, 11307]);
  const marks = await page.evaluate(() => {
    const c = document.querySelector('[data-testid=heatmap-canvas]');
    const cols = Number(c.dataset.columns);
    const r = c.getBoundingClientRect();
    const sx = c.width / r.width, sy = c.height / r.height;
    const cw = r.width / cols;
    const ctx = c.getContext('2d');
    return Array.from({ length: cols }, (_, i) => {
      const d = ctx.getImageData(Math.floor((i + 0.5) * cw * sx), Math.floor(1 * sy), 1, 1).data;
      return d[0] === 109 && d[1] === 40 && d[2] === 217;
    });
  });
  assert.deepEqual(marks, [true, true, true, false]);
  await page.screenshot({ path: outFile('lost.png') });
});

test('error bars: the tooltip and the function table carry the oracle\'s intervals', async () => {
  const { page } = b;
  await openFile(page, FILE, 'lost.txt');
  // `inner` is one node (bursts;[unknown];work;inner): its samples are the function's.
  const inner = ORACLE.functions.inner;
  const p = await page.evaluate(() => window.__scorchFramePoint('inner'));
  await page.mouse.move(p[0], p[1]);
  await page.waitForSelector('[data-testid=tooltip-interval]');
  const pc = (x) => (x * 100).toFixed(1);
  assert.equal(await page.textContent('[data-testid=tooltip-interval]'),
    `95 %: ${pc(inner.cum_interval.lo)}–${pc(inner.cum_interval.hi)} % (${inner.cum_samples} of ${ORACLE.samples} samples)`);
  await page.screenshot({ path: outFile('interval-tooltip.png') });
  await page.mouse.move(0, 0);
  await page.click('[data-testid=view-mode-functions]');
  await settle(page); // the table comes from the view engine
  const row = page.locator('[data-testid=fn-row][data-name=inner]');
  await row.waitFor();
  const cells = await row.locator('td').allTextContents();
  const half = ((inner.cum_interval.hi - inner.cum_interval.lo) * 50).toFixed(1);
  assert.equal(cells[4], `±${half}`);
  assert.equal(await row.locator('td.ci').getAttribute('title'),
    `95 %: ${pc(inner.cum_interval.lo)}–${pc(inner.cum_interval.hi)} %`);
  await page.screenshot({ path: outFile('interval-table.png') });
  await page.click('[data-testid=view-mode-flame]');
  await settle(page);
  assert.deepEqual(b.errors.filter((e) => !e.includes('Failed to load resource')), []);
});
