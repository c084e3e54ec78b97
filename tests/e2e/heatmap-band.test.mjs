// Heatmap bands (FlameScope's "horizontal band"): the same offsets in every second of a span. On a real periodic
// recording (a job busy 200–300 ms of every second, crates/core/tests/data/perf-made/periodic.txt), a band's flame
// graph total equals `scorch fold --range --offsets` (itself checked against an independent reading of the file in
// crates/cli/tests/band.rs); Shift+drag and the band switch; stepping; comparing a band with another; the link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openApp, browser, waitForProfile, settle, outFile, ROOT } from './harness.mjs';

const FILE = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'perf-made', 'periodic.txt');
const CLI = path.join(ROOT, 'target', 'debug', 'scorch');
let app, b;
before(async () => { app = await openApp(); b = app.b; });
after(async () => { await app?.close(); });

/** `scorch fold --count ARGS FILE`: total samples, and those with periodic_job on their stack. */
function cli(...args) {
  const out = execFileSync(CLI, ['fold', '--count', ...args, FILE], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  let total = 0, periodic = 0;
  for (const l of out.split('\n').filter(Boolean)) {
    const n = Number(l.slice(l.lastIndexOf(' ') + 1));
    total += n;
    if (l.split(';').some((f) => f.startsWith('periodic_job'))) periodic += n;
  }
  return { total, periodic };
}
const cell = (page, c, r) => page.evaluate(([c, r]) => {
  const cv = document.querySelector('[data-testid=heatmap-canvas]');
  const rect = cv.getBoundingClientRect();
  const cols = Number(cv.dataset.columns), rows = Number(cv.dataset.rows);
  return { x: rect.left + (c + 0.5) * rect.width / cols, y: rect.top + (rows - 1 - r + 0.5) * rect.height / rows };
}, [c, r]);
async function drag(page, a, z, shift = false) {
  const p = await cell(page, ...a), q = await cell(page, ...z);
  if (shift) await page.keyboard.down('Shift');
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(q.x, q.y);
  await page.mouse.up();
  if (shift) await page.keyboard.up('Shift');
}
const state = (page) => page.evaluate(() => ({
  ...document.querySelector('[data-testid=heatmap-canvas]').dataset,
  total: document.querySelector('[data-testid=status]').dataset.total,
  baseTotal: document.querySelector('[data-testid=status]').dataset.baseTotal,
  selection: document.querySelector('[data-testid=heatmap-selection]').textContent,
}));
/** Waits until the heatmap shows this range start and these offsets (strings; '' for none), then settles. */
async function waitSel(page, start, from) {
  await page.waitForFunction(([s, f]) => {
    const d = document.querySelector('[data-testid=heatmap-canvas]').dataset;
    return d.rangeStartNs === s && d.offsetsFromNs === f;
  }, [start, from]);
  await settle(page);
  return state(page);
}
const B200 = '200000000', B300 = '300000000';

test('Shift+drag selects a band: its total is the CLI\'s, and it holds the periodic job', async () => {
  const { page } = b;
  await page.setInputFiles('[data-testid=open-file]', FILE);
  await waitForProfile(page, 'periodic.txt');
  await page.selectOption('[data-testid=weight-select]', 'count');
  await settle(page);
  let s = await state(page);
  assert.deepEqual([s.columns, s.rows], ['11', '50']);
  const origin = BigInt(s.originNs);
  // Seconds 2..9, rows 10..14 (200–300 ms): drag from one corner to the other, bottom-right to top-left.
  await drag(page, [9, 10], [2, 14], true);
  s = await waitSel(page, String(origin + 2000000000n), B200);
  assert.equal(s.offsetsToNs, B300);
  assert.equal(BigInt(s.rangeEndNs), origin + 10000000000n);
  const want = cli('--range', '2', '10', '--offsets', '200', '300');
  assert.ok(want.total > 0 && want.periodic * 10 >= want.total * 9, JSON.stringify(want));
  assert.equal(Number(s.total), want.total);
  assert.equal(s.selection, 'band: 200–300 ms of each second in [2 s, 10 s)');
  await page.screenshot({ path: outFile('heatmap-band.png') });
  assert.deepEqual(b.errors, []);
});

test('the band switch: every second\'s band equals fold --offsets; switching back gives the range', async () => {
  const { page } = b;
  const origin = BigInt((await state(page)).originNs);
  await page.click('[data-testid=heatmap-band]');
  await drag(page, [0, 14], [10, 10]);
  let s = await waitSel(page, String(origin), B200);
  assert.equal(BigInt(s.rangeEndNs), origin + 11000000000n);
  assert.equal(Number(s.total), cli('--offsets', '200', '300').total);
  // Off: the same corners as a time range (from (0, 10) to (10, 14) in time order).
  await page.click('[data-testid=heatmap-band]');
  s = await waitSel(page, String(origin + 200000000n), '');
  assert.equal(BigInt(s.rangeEndNs), origin + 10300000000n);
  assert.equal(Number(s.total), cli('--range', '0.2', '10.3').total);
  await page.click('[data-testid=heatmap-clear]');
  await page.waitForFunction(() => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs === '');
  await settle(page);
});

test('stepping moves a band by its seconds, keeping its offsets', async () => {
  const { page } = b;
  const origin = BigInt((await state(page)).originNs);
  // Two clicks in band mode: seconds 2..3, rows 10..14.
  await page.click('[data-testid=heatmap-band]');
  let p = await cell(page, 2, 10);
  await page.mouse.click(p.x, p.y);
  p = await cell(page, 3, 14);
  await page.mouse.click(p.x, p.y);
  let s = await waitSel(page, String(origin + 2000000000n), B200);
  assert.equal(Number(s.total), cli('--range', '2', '4', '--offsets', '200', '300').total);
  await page.click('[data-testid=heatmap-next]');
  s = await waitSel(page, String(origin + 4000000000n), B200);
  assert.deepEqual([BigInt(s.rangeEndNs), s.offsetsToNs], [origin + 6000000000n, B300]);
  assert.equal(Number(s.total), cli('--range', '4', '6', '--offsets', '200', '300').total);
  await page.mouse.move(5, 5);
  await page.keyboard.press('[');
  s = await waitSel(page, String(origin + 2000000000n), B200);
  assert.equal(Number(s.total), cli('--range', '2', '4', '--offsets', '200', '300').total);
});

test('compare a band (A) with another band (B)', async () => {
  const { page } = b;
  // A: seconds 2..3 at 200–300 ms (selected above); B: the same seconds at 500–600 ms.
  await page.click('[data-testid=heatmap-set-a]');
  await settle(page);
  await drag(page, [2, 25], [3, 29]);
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.format === 'diff');
  await settle(page);
  const l = await page.evaluate(() => ({ ...document.querySelector('[data-testid=diff-legend]').dataset }));
  assert.match(l.base, /\[2\.000–4\.000 s, 200–300 ms of each second\]$/);
  assert.match(l.target, /\[2\.000–4\.000 s, 500–600 ms of each second\]$/);
  const s = await state(page);
  assert.equal(Number(s.baseTotal), cli('--range', '2', '4', '--offsets', '200', '300').total);
  assert.equal(Number(s.total), cli('--range', '2', '4', '--offsets', '500', '600').total);
  await page.screenshot({ path: outFile('heatmap-band-compare.png') });
  await page.click('[data-testid=diff-exit]');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.format === 'perf-script');
  await settle(page);
  await page.click('[data-testid=heatmap-band]'); // band mode off again
  await settle(page);
});

test('a band travels in a link: a fresh browser shows the same band and total', async () => {
  const { page } = b;
  const origin = BigInt((await state(page)).originNs);
  await drag(page, [1, 10], [8, 14], true);
  const want = await waitSel(page, String(origin + 1000000000n), B200);
  assert.equal(Number(want.total), cli('--range', '1', '9', '--offsets', '200', '300').total);
  await page.click('[data-testid=copy-link]');
  await page.locator('[data-testid=copy-link-text]').waitFor();
  const link = await page.inputValue('[data-testid=copy-link-text]');
  assert.match(link, /&range=1000000000-9000000000/);
  assert.match(link, /&off=200000000-300000000/);
  assert.match(await page.textContent('[data-testid=copy-link-size]'), /with timestamps/);
  const fresh = await browser();
  try {
    await fresh.page.goto(link);
    await waitForProfile(fresh.page, 'profile from the link');
    await fresh.page.locator('[data-testid=heatmap-canvas]').waitFor();
    const got = await waitSel(fresh.page, want.rangeStartNs, B200);
    assert.deepEqual([got.rangeEndNs, got.offsetsToNs, got.total, got.selection, got.originNs],
      [want.rangeEndNs, B300, want.total, want.selection, want.originNs]);
    await fresh.page.screenshot({ path: outFile('heatmap-band-link.png') });
    assert.deepEqual(fresh.errors, []);
  } finally { await fresh.close(); }
  assert.deepEqual(b.errors, []);
});
