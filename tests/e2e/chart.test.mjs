// The stack chart (issue 21 item 1) on a real three-thread perf recording (crates/core/tests/data/perf-made/
// threads.txt). Oracle: the perf script text itself, parsed here: each sample's header (comm, tid, timestamp) and
// its frames leaf first below it, names without their +0x offsets, under the process root (comm) as the flame
// graph has it. The chart at a sample's time must draw exactly that sample's stack (read back from the chart's
// boxes through `__scorchChartStackAt`). A heatmap selection zooms the chart to the same range; a drag on the
// chart's ruler sets the heatmap's range (the data attributes agree).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, browser, waitForProfile, settle, outFile, ROOT, FIXTURES } from './harness.mjs';

const MADE = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'perf-made');
let server;
before(async () => { server = await serve(undefined, '/', { '/made/': MADE }); });
after(async () => { await server?.close(); });

/** The samples of a perf script text: { t (ns, as a BigInt), w (period), stack (root first, the comm at the root) }. */
function samples(text) {
  const out = [];
  let cur = null;
  for (const line of text.split('\n')) {
    const h = line.match(/^(\S+)\s+\d+\/(\d+)\s+(\d+)\.(\d+):\s+(\d+) /);
    if (h) {
      cur = { t: BigInt(h[3]) * 1000000000n + BigInt(h[4].padEnd(9, '0')), leafFirst: [], comm: h[1], tid: Number(h[2]),
        w: BigInt(h[5]) };
      out.push(cur);
      continue;
    }
    const f = line.match(/^\s+[0-9a-f]+ (.+?) \(.*\)$/);
    if (f && cur) cur.leafFirst.push(f[1].replace(/\+0x[0-9a-f]+$/, ''));
  }
  return out.map((s) => ({ t: s.t, w: s.w, tid: s.tid, stack: [s.comm, ...s.leafFirst.reverse()] }));
}
const SAMPLES = samples(fs.readFileSync(path.join(MADE, 'threads.txt'), 'utf8'));

const chartData = (page) => page.evaluate(() => ({ ...document.querySelector('[data-testid=chart-canvas]').dataset }));
const heatData = (page) => page.evaluate(() => ({ ...document.querySelector('[data-testid=heatmap-canvas]').dataset }));

async function openChart(page) {
  await page.goto(`${server.url}#url=${encodeURIComponent('/made/threads.txt')}`);
  await waitForProfile(page, 'threads.txt');
  await page.click('[data-testid=view-mode-chart]');
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid=chart-canvas]');
    return c && Number(c.dataset.boxes) > 0 && c.width > 0;
  });
  await settle(page);
}

test('the chart at a sample\'s time draws exactly that sample\'s stack', async () => {
  const b = await browser();
  const { page } = b;
  await openChart(page);
  const d = await chartData(page);
  const times = SAMPLES.map((s) => s.t);
  assert.equal(d.startNs, String(times.reduce((a, x) => (x < a ? x : a))));
  // Samples spread over the recording (every thread, the kernel frames' sample too), each at its own timestamp.
  const unique = SAMPLES.filter((s) => times.filter((t) => t === s.t).length === 1);
  const chosen = [0, 1, 2, 37, 100, 211, 300, unique.length - 1].map((i) => unique[i]);
  chosen.push(...unique.filter((s) => s.stack.includes('irqentry_exit_to_user_mode')));
  assert.ok(chosen.length >= 9);
  for (const s of chosen) {
    const got = await page.evaluate((t) => window.__scorchChartStackAt(t), String(s.t));
    assert.deepEqual(got, s.stack, `at ${s.t}`);
  }
  // Hovering the leaf of one of them says its name.
  const s = chosen[4];
  const pt = await page.evaluate(([t, depth]) => window.__scorchChartPoint(t, depth), [String(s.t), s.stack.length - 1]);
  assert.ok(pt, 'the sample is in the window');
  await page.mouse.move(pt[0] + 0.5, pt[1]);
  await page.waitForFunction(() => document.querySelector('[data-testid=chart-tooltip]'));
  assert.equal(await page.textContent('[data-testid=chart-tooltip] .tt-name'), s.stack.at(-1));
  await page.screenshot({ path: outFile('chart-light.png') });
  assert.deepEqual(b.errors, []);
  await b.close();
});

test('a heatmap selection zooms the chart; a ruler drag sets the heatmap range', async () => {
  const b = await browser();
  const { page } = b;
  await openChart(page);
  const whole = await chartData(page);
  // Heatmap: drag from the 10th to the 20th 20-ms cell of the one second (inside the recording's 0.16–0.56 s).
  const cell = (r) => page.evaluate((r) => {
    const cv = document.querySelector('[data-testid=heatmap-canvas]');
    const rect = cv.getBoundingClientRect();
    const cols = Number(cv.dataset.columns), rows = Number(cv.dataset.rows);
    return { x: rect.left + 0.5 * rect.width / cols, y: rect.top + (rows - 1 - r + 0.5) * rect.height / rows };
  }, r);
  const p = await cell(10), q = await cell(20);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(q.x, q.y);
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs !== '');
  let h = await heatData(page);
  await page.waitForFunction((s) => document.querySelector('[data-testid=chart-canvas]').dataset.windowStartNs === s,
    h.rangeStartNs);
  let c = await chartData(page);
  assert.equal(BigInt(h.rangeEndNs) - BigInt(h.rangeStartNs), 220000000n, 'eleven 20-ms cells');
  assert.deepEqual([c.windowStartNs, c.windowEndNs], [h.rangeStartNs, h.rangeEndNs]);
  assert.notDeepEqual([c.windowStartNs, c.windowEndNs], [whole.windowStartNs, whole.windowEndNs]);

  // The ruler: drag from 30 % to 60 % of the window; the heatmap's range becomes that, the chart zooms to it.
  const w0 = BigInt(c.windowStartNs), w1 = BigInt(c.windowEndNs);
  const ta = w0 + (w1 - w0) * 3n / 10n, tb = w0 + (w1 - w0) * 6n / 10n;
  const a = await page.evaluate((t) => window.__scorchChartPoint(t, -1), String(ta));
  const z = await page.evaluate((t) => window.__scorchChartPoint(t, -1), String(tb));
  await page.mouse.move(a[0], a[1]);
  await page.mouse.down();
  await page.mouse.move((a[0] + z[0]) / 2, a[1]);
  await page.mouse.move(z[0], z[1]);
  await page.mouse.up();
  await page.waitForFunction((s) => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs !== s,
    h.rangeStartNs);
  h = await heatData(page);
  await page.waitForFunction((s) => document.querySelector('[data-testid=chart-canvas]').dataset.windowStartNs === s,
    h.rangeStartNs);
  c = await chartData(page);
  assert.deepEqual([c.windowStartNs, c.windowEndNs], [h.rangeStartNs, h.rangeEndNs]);
  // Within a pixel's time of where the drag went (the window was 220 ms over about 1,250 px).
  const px = (w1 - w0) / 1000n;
  for (const [got, want] of [[BigInt(h.rangeStartNs), ta], [BigInt(h.rangeEndNs), tb]]) {
    const off = got > want ? got - want : want - got;
    assert.ok(off <= px, `${got} is within ${px} ns of ${want}`);
  }
  // The flame graph shows that range too: the status line's total is the oracle's weight of the samples in it.
  const inRange = SAMPLES.filter((s) => s.t >= BigInt(h.rangeStartNs) && s.t < BigInt(h.rangeEndNs))
    .reduce((sum, s) => sum + s.w, 0n);
  await page.waitForFunction((n) => document.querySelector('[data-testid=status]').dataset.total === n, String(inRange));
  await settle(page);

  // Keyboard: + zooms in around the middle, 0 shows the whole chart.
  await page.focus('[data-testid=chart-canvas]');
  await page.keyboard.press('+');
  await page.waitForFunction((s) => document.querySelector('[data-testid=chart-canvas]').dataset.windowStartNs !== s,
    c.windowStartNs);
  const zoomed = await chartData(page);
  assert.ok(BigInt(zoomed.windowEndNs) - BigInt(zoomed.windowStartNs) < BigInt(c.windowEndNs) - BigInt(c.windowStartNs));
  await page.keyboard.press('0');
  await page.waitForFunction((s) => document.querySelector('[data-testid=chart-canvas]').dataset.windowStartNs === s,
    whole.windowStartNs);
  assert.deepEqual(b.errors, []);
  await b.close();
});

test('the chart\'s zoom window travels in the link (cw=) and a reader opening it sees the same window', async () => {
  const b = await browser();
  const { page } = b;
  await openChart(page);
  const whole = await chartData(page);
  await page.focus('[data-testid=chart-canvas]');
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await page.waitForFunction((s) => document.querySelector('[data-testid=chart-canvas]').dataset.windowStartNs !== s,
    whole.windowStartNs);
  const zoomed = await chartData(page);
  assert.ok(BigInt(zoomed.windowEndNs) - BigInt(zoomed.windowStartNs) < BigInt(whole.windowEndNs) - BigInt(whole.windowStartNs));
  await page.waitForFunction(() => /[#&]cw=\d+-\d+/.test(location.hash));
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /mode=chart/);
  // A reader: a fresh browser given the link.
  const r = await browser();
  await r.page.goto(`${server.url}${hash}`);
  await waitForProfile(r.page, 'threads.txt');
  await r.page.waitForFunction(() => Number(document.querySelector('[data-testid=chart-canvas]')?.dataset.boxes) > 0);
  const seen = await chartData(r.page);
  assert.deepEqual([seen.windowStartNs, seen.windowEndNs], [zoomed.windowStartNs, zoomed.windowEndNs]);
  assert.deepEqual(r.errors, []);
  await r.close();
  assert.deepEqual(b.errors, []);
  await b.close();
});

test('dark theme screenshot', async () => {
  const b = await browser({ colorScheme: 'dark' });
  const { page } = b;
  await openChart(page);
  await page.screenshot({ path: outFile('chart-dark.png') });
  assert.deepEqual(b.errors, []);
  await b.close();
});

test('a profile without timestamps says it has no stack chart', async () => {
  const b = await browser();
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  await page.setInputFiles('[data-testid=open-file]', path.join(FIXTURES, 'simple.folded'));
  await waitForProfile(page, 'simple.folded');
  await page.click('[data-testid=view-mode-chart]');
  await page.locator('[data-testid=chart-untimed]').waitFor();
  assert.equal(await page.evaluate(() => window.__scorchChartStackAt('0')), null);
  assert.deepEqual(b.errors, []);
  await b.close();
});


test('two threads chosen: one lane each, a lane at a sample\'s time draws that thread\'s sample; a click selects', async () => {
  const b = await browser();
  const { page } = b;
  // The two busiest threads, from the perf script text.
  const count = new Map();
  for (const s of SAMPLES) count.set(s.tid, (count.get(s.tid) || 0) + 1);
  const [ta, tb] = [...count.entries()].sort((x, y) => y[1] - x[1]).slice(0, 2).map((e) => e[0]).sort((x, y) => x - y);
  await page.goto(`${server.url}#url=${encodeURIComponent('/made/threads.txt')}&th=${ta},${tb}&mode=chart`);
  await waitForProfile(page, 'threads.txt');
  await page.waitForFunction(() => (window.__scorchChartLanes?.() || []).length === 2);
  const lanes = await page.evaluate(() => window.__scorchChartLanes());
  assert.deepEqual(lanes.map((l) => l.tid), [ta, tb]);
  assert.deepEqual(lanes.map((l) => l.samples), [count.get(ta), count.get(tb)]);
  assert.equal(lanes[1].header, lanes[0].header + 1 + lanes[0].depth, 'lane 2 follows lane 1');
  for (const [k, tid] of [ta, tb].entries()) {
    const own = SAMPLES.filter((s) => s.tid === tid);
    // A thread's samples at times no other sample of that thread shares; the last one and nine spread between.
    const unique = own.filter((s) => own.filter((o) => o.t === s.t).length === 1);
    const picks = [0, 1, 2, 3, 5, 8, 13, 21, 34, unique.length - 1].filter((i) => i < unique.length).map((i) => unique[i]);
    assert.ok(picks.length >= 8, `${tid}: ${unique.length} samples`);
    for (const s of picks) {
      const got = await page.evaluate(([t, k]) => window.__scorchChartStackAt(t, k), [String(s.t), k]);
      assert.deepEqual(got, s.stack, `lane ${k} (tid ${tid}) at ${s.t}`);
    }
  }
  // Hovering a box of the second lane names its thread; a click on it selects its function.
  const s = SAMPLES.filter((x) => x.tid === tb && x.stack.length >= 3)[10];
  const depth = lanes[1].header + 1 + s.stack.length - 1;
  const pt = await page.evaluate(([t, d]) => window.__scorchChartPoint(t, d), [String(s.t), depth]);
  assert.ok(pt, 'in the window');
  await page.mouse.move(pt[0] + 0.5, pt[1]);
  await page.waitForFunction(() => document.querySelector('[data-testid=chart-tooltip-lane]'));
  assert.match(await page.textContent('[data-testid=chart-tooltip-lane]'), new RegExp(`\\(tid ${tb}\\)`));
  await page.mouse.down();
  await page.mouse.up();
  await page.waitForFunction((name) => decodeURIComponent(location.hash).includes(`sel=${name}`), s.stack.at(-1));
  await page.screenshot({ path: outFile('chart-lanes.png') });
  assert.deepEqual(b.errors, []);
  await b.close();
});

test('the chart shown and left within one frame: no page error, and the page goes on', async () => {
  // The chart asks for a paint when it mounts; left before that frame, the paint found its signals disposed and
  // panicked, which ends the page's wasm (the previous build, both engines).
  const b = await browser();
  const { page } = b;
  await page.goto(`${server.url}#url=${encodeURIComponent('/made/threads.txt')}`);
  await waitForProfile(page, 'threads.txt');
  await page.evaluate(() => new Promise((resolve) => {
    document.querySelector('[data-testid=view-mode-chart]').click();
    setTimeout(() => { document.querySelector('[data-testid=view-mode-flame]').click(); resolve(); }, 0);
  }));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.deepEqual(b.errors, []);
  await settle(page);
  await page.click('[data-testid=view-mode-chart]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=chart-canvas]')?.dataset.boxes) > 0);
  assert.deepEqual(b.errors, []);
  await b.close();
});
