// The subsecond heatmap: select a range, the flame graph holds exactly its samples; adjacent selections share
// none; two-click selection, stepping, Esc, comparing two ranges, and profiles without timestamps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openApp, nativeInfo, waitForProfile, outFile, ROOT, settle } from './harness.mjs';

const FILE = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'perf', 'fg-example-perf-stacks.txt.gz');
const CLI = path.join(ROOT, 'target', 'debug', 'scorch');
let app, b;
before(async () => { app = await openApp(); b = app.b; });
after(async () => { await app?.close(); });

/** Samples in [start, end) seconds after the heatmap origin, by the native CLI. */
function cliCount(start, end) {
  const out = execFileSync(CLI, ['fold', '--count', '--range', start, end, FILE], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return out.split('\n').filter(Boolean).reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}
const cell = (page, c, r) => page.evaluate(([c, r]) => {
  const cv = document.querySelector('[data-testid=heatmap-canvas]');
  const rect = cv.getBoundingClientRect();
  const cols = Number(cv.dataset.columns), rows = Number(cv.dataset.rows);
  const cw = rect.width / cols, ch = rect.height / rows;
  return { x: rect.left + (c + 0.5) * cw, y: rect.top + (rows - 1 - r + 0.5) * ch };
}, [c, r]);
async function drag(page, a, z) {
  const p = await cell(page, ...a), q = await cell(page, ...z);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(q.x, q.y);
  await page.mouse.up();
}
const state = (page) => page.evaluate(() => ({
  ...document.querySelector('[data-testid=heatmap-canvas]').dataset,
  ...Object.fromEntries(Object.entries(document.querySelector('[data-testid=status]').dataset).map(([k, v]) => ['status_' + k, v])),
}));
async function waitRange(page, prev) {
  await page.waitForFunction((p) => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs !== p
    || document.querySelector('[data-testid=status]').dataset.total !== undefined, prev);
  await page.waitForTimeout(50);
  return state(page);
}

test('a selection shows exactly its samples; adjacent selections share none', async () => {
  const { page } = b;
  await page.setInputFiles('[data-testid=open-file]', FILE);
  await waitForProfile(page, 'fg-example-perf-stacks.txt.gz');
  await page.selectOption('[data-testid=weight-select]', 'count');
  await settle(page);
  let s = await state(page);
  assert.deepEqual([s.columns, s.rows], ['11', '50']);
  const origin = BigInt(s.originNs);

  // Hover says which second, which milliseconds and how many samples.
  const h = await cell(page, 4, 31);
  await page.mouse.move(h.x, h.y);
  await page.waitForFunction(() => document.querySelector('[data-testid=heatmap-hover]').textContent !== '');
  const grid = JSON.parse(execFileSync(CLI, ['heatmap', '--json', FILE], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const n = grid.counts[4][31];
  assert.equal(await page.textContent('[data-testid=heatmap-hover]'), `second 4 · 620–640 ms · ${n} sample${n === 1 ? '' : 's'}`);

  await drag(page, [2, 0], [2, 24]);
  await page.waitForFunction(() => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeEndNs !== '');
  // The range's graph comes from the view engine: the total is read once it is shown.
  await settle(page);
  s = await state(page);
  assert.equal(BigInt(s.rangeStartNs), origin + 2000000000n);
  assert.equal(BigInt(s.rangeEndNs), origin + 2500000000n);
  const a = Number(s.status_total);
  assert.equal(a, cliCount('2', '2.5'), 'flame graph total = samples in [2, 2.5)');
  assert.ok(a > 0);
  await page.screenshot({ path: outFile('heatmap.png') });

  await drag(page, [2, 25], [2, 49]);
  await page.waitForFunction((x) => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs === x, String(origin + 2500000000n));
  await settle(page);
  const bb = Number((await state(page)).status_total);
  assert.equal(bb, cliCount('2.5', '3'));
  await drag(page, [2, 49], [2, 0]); // backwards: the same whole second
  await page.waitForFunction((x) => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeEndNs === x, String(origin + 3000000000n));
  await settle(page);
  assert.equal(Number((await state(page)).status_total), a + bb, 'the halves add up: no sample in both');
});

test('two clicks, stepping by the range length, Esc', async () => {
  const { page } = b;
  const origin = BigInt((await state(page)).originNs);
  let p = await cell(page, 5, 10);
  await page.mouse.click(p.x, p.y);
  p = await cell(page, 6, 4);
  await page.mouse.click(p.x, p.y);
  await page.waitForFunction((x) => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs === x, String(origin + 5200000000n));
  await settle(page);
  let s = await state(page);
  assert.equal(BigInt(s.rangeEndNs), origin + 6100000000n);
  assert.equal(Number(s.status_total), cliCount('5.2', '6.1'));
  await page.click('[data-testid=heatmap-next]');
  await page.waitForFunction((x) => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs === x, String(origin + 6100000000n));
  await settle(page);
  s = await state(page);
  assert.equal(BigInt(s.rangeEndNs), origin + 7000000000n);
  assert.equal(Number(s.status_total), cliCount('6.1', '7'));
  await page.keyboard.press('[');
  await page.waitForFunction((x) => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs === x, String(origin + 5200000000n));
  await page.mouse.move(5, 5);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs === '');
  await settle(page);
});

test('compare two ranges: B against A', async () => {
  const { page } = b;
  await drag(page, [1, 0], [1, 49]);
  await page.waitForFunction(() => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs !== '');
  await settle(page);
  await page.click('[data-testid=heatmap-set-a]');
  await settle(page);
  await drag(page, [8, 0], [8, 49]);
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.format === 'diff');
  await settle(page);
  const l = await page.evaluate(() => ({ ...document.querySelector('[data-testid=diff-legend]').dataset }));
  assert.match(l.base, /\[1\.000–2\.000 s\]$/);
  assert.match(l.target, /\[8\.000–9\.000 s\]$/);
  const st = await state(page);
  assert.equal(Number(st.status_baseTotal), cliCount('1', '2'));
  assert.equal(Number(st.status_total), cliCount('8', '9'));
  await page.screenshot({ path: outFile('heatmap-compare.png') });
  await page.click('[data-testid=diff-exit]');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.format === 'perf-script');
  await settle(page);
});

test('a profile without timestamps says why there is no heatmap', async () => {
  const { page } = b;
  await page.setInputFiles('[data-testid=open-file]', path.join(ROOT, 'tests', 'e2e', 'fixtures', 'simple.folded'));
  await waitForProfile(page, 'simple.folded');
  assert.match(await page.textContent('[data-testid=heatmap-unavailable]'), /no timestamps/);
  assert.equal(await page.locator('[data-testid=heatmap-canvas]').count(), 0);
  assert.deepEqual(b.errors, []);
});

// Dense cells are written into a pixel buffer, a few filled one by one (render/heatmap.rs): a file of each.
for (const [file, lossMarks] of [[FILE, false], [path.join(ROOT, 'crates', 'core', 'tests', 'data', 'perf-made', 'lost.txt'), true]]) {
  test(`every cell is painted in the ramp colour of its count (the CLI's grid), the background when empty, red at the largest: ${path.basename(file)}`, async () => {
    const { page } = b;
    await page.setInputFiles('[data-testid=open-file]', file);
    await waitForProfile(page, path.basename(file));
    await settle(page);
    const grid = JSON.parse(execFileSync(CLI, ['heatmap', '--json', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    // Each cell's pixel a little left of its centre (a cell is drawn half a CSS px narrower than its column), and
    // the top of the cell's y in CSS px (the marks of lost events cover the top 10 px of their columns).
    const shown = await page.evaluate(() => {
      const c = document.querySelector('[data-testid=heatmap-canvas]');
      const r = c.getBoundingClientRect();
      const cols = Number(c.dataset.columns), rows = Number(c.dataset.rows);
      const sx = c.width / r.width, sy = c.height / r.height, cw = r.width / cols, ch = r.height / rows;
      const ctx = c.getContext('2d');
      return {
        sparse: document.querySelector('[data-testid=heatmap-sparse]').checked,
        px: Array.from({ length: cols }, (_, col) => Array.from({ length: rows }, (_, row) => ({
          y: (rows - 1 - row) * ch,
          rgb: Array.from(ctx.getImageData(Math.floor((col + 0.4) * cw * sx), Math.floor((rows - 1 - row + 0.5) * ch * sy), 1, 1).data).slice(0, 3),
        }))),
      };
    });
    assert.equal(shown.px.length, grid.columns);
    const cells = grid.counts.flatMap((col, c) => col.map((n, r) => ({ n, c, r, ...shown.px[c][r] })))
      .filter((x) => !lossMarks || x.y > 12);
    const empty = cells.filter((x) => x.n === 0);
    assert.ok(empty.length > 0 && cells.some((x) => x.n === grid.max));
    const bg = empty[0].rgb;
    for (const x of empty) assert.deepEqual(x.rgb, bg, `empty cell ${x.c},${x.r}`);
    const red = [220, 20, 20];
    for (const x of cells.filter((y) => y.n > 0)) {
      const a = shown.sparse && x.n <= 3 ? Math.max(x.n / grid.max, 0.3) : x.n / grid.max;
      const want = bg.map((v, k) => v + (red[k] - v) * a);
      assert.ok(x.rgb.every((v, k) => Math.abs(v - want[k]) <= 1), `cell ${x.c},${x.r} (${x.n} of ${grid.max}): ${x.rgb} for ${want.map(Math.round)}`);
    }
    assert.deepEqual(b.errors, []);
  });
}
