// The differential view: direction in words, tooltip numbers of a frame that grew, swap inverts them, frames
// only in the base are reachable, the movers table lists functions by change.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openApp, openFile, nativeInfo, waitForProfile, settle, pixelAt, outFile, ROOT } from './harness.mjs';

const DATA = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'diff');
let app, b;
before(async () => { app = await openApp(); b = app.b; });
after(async () => { await app?.close(); });

const point = (page, name) => page.evaluate((n) => window.__scorchFramePoint(n), name);
async function hover(page, name) {
  // The layout may still be settling (panels above the flame graph appear, the canvas follows on the next
  // frame): read the point again until the tooltip names the frame.
  let p = null;
  for (let attempt = 0; attempt < 20; attempt++) {
    p = await point(page, name);
    assert.ok(p, `${name} is drawn`);
    await page.mouse.move(5, 5);
    await page.mouse.move(p[0], p[1]);
    const ok = await page.waitForFunction((n) => document.querySelector('.tt-name')?.textContent === n, name, { timeout: 500 })
      .then(() => true, () => false);
    if (ok) break;
  }
  await page.waitForFunction((n) => document.querySelector('.tt-name')?.textContent === n, name, { timeout: 2000 });
  const get = (id) => page.textContent(`[data-testid=${id}]`);
  // `at` is inside the box, above its label, so the pixel there is the fill colour.
  return { at: { x: p[0], y: p[1] - 7 }, baseSelf: await get('tooltip-base-self'), targetSelf: await get('tooltip-target-self'),
    deltaSelf: await get('tooltip-delta-self'), deltaTotal: await get('tooltip-delta-total') };
}
const legend = (page) => page.evaluate(() => {
  const l = document.querySelector('[data-testid=diff-legend]');
  return { ...l.dataset, text: l.textContent };
});

test('compare two profiles: the legend says the direction, a frame that grew is red with the right numbers', async () => {
  const { page } = b;
  await page.setInputFiles('[data-testid=open-file]', path.join(DATA, 'inf-diff-before.txt'));
  await waitForProfile(page, 'inf-diff-before.txt');
  await page.setInputFiles('[data-testid=compare-file]', path.join(DATA, 'inf-diff-after.txt'));
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.format === 'diff');
  await settle(page);
  const l = await legend(page);
  assert.equal(l.base, 'inf-diff-before.txt');
  assert.equal(l.target, 'inf-diff-after.txt');
  assert.equal(l.mode, 'normalised');
  assert.match(l.text, /Red: larger share in target \(after\) than in base \(before\); blue: smaller share/);
  assert.match(l.text, /base \(before\): inf-diff-before\.txt · 65 samples/);
  assert.match(l.text, /target \(after\): inf-diff-after\.txt · 80 samples/);

  // rw_verify_area: 3 of 65 samples before (4.62 %), 8 of 80 after (10.00 %).
  const t = await hover(page, 'rw_verify_area');
  assert.equal(t.baseSelf, '3 samples (4.62 %)');
  assert.equal(t.targetSelf, '8 samples (10.00 %)');
  assert.equal(t.deltaSelf, '+5.38 pp (+116.7 % relative)');
  const px = await pixelAt(page, t.at);
  assert.ok(px[0] > px[2] + 40, `grew → red, got ${px}`);
  // __srcu_read_unlock shrank: blue.
  const s = await hover(page, '__srcu_read_unlock');
  assert.match(s.deltaSelf, /^-\d+\.\d\d pp/, "this frame shrank (the function, on all its paths, by 15.29 pp: see the movers table)");
  const px2 = await pixelAt(page, s.at);
  assert.ok(px2[2] > px2[0] + 40, `shrank → blue, got ${px2}`);
  await page.screenshot({ path: outFile('diff.png') });
});

test('swap inverts every number and the words follow', async () => {
  const { page } = b;
  await page.click('[data-testid=diff-swap]');
  await page.waitForFunction(() => document.querySelector('[data-testid=diff-legend]').dataset.base === 'inf-diff-after.txt');
  await settle(page);
  const l = await legend(page);
  assert.equal(l.target, 'inf-diff-before.txt');
  assert.match(l.text, /base \(before\): inf-diff-after\.txt · 80 samples/);
  const t = await hover(page, 'rw_verify_area');
  assert.equal(t.baseSelf, '8 samples (10.00 %)');
  assert.equal(t.targetSelf, '3 samples (4.62 %)');
  assert.match(t.deltaSelf, /^-5\.38 pp/);
  const px = await pixelAt(page, t.at);
  assert.ok(px[2] > px[0] + 40, `now shrank → blue, got ${px}`);
  await page.click('[data-testid=diff-swap]');
  await page.waitForFunction(() => document.querySelector('[data-testid=diff-legend]').dataset.base === 'inf-diff-before.txt');
  await settle(page);
});

test('frames only in the base: reachable with base widths and in the movers table', async () => {
  const { page } = b;
  assert.equal(await point(page, '0xF1BDE348'), null, 'no width in the target');
  await page.click('[data-testid=diff-widths]');
  await page.waitForFunction(() => document.querySelector('[data-testid=diff-legend]').dataset.widths === 'base');
  await settle(page);
  const t = await hover(page, '0xF1BDE348');
  assert.equal(t.targetSelf, '0 samples (0.00 %)');
  assert.match(t.baseSelf, /^1 sample \(1\.54 %\)$/);
  await page.click('[data-testid=diff-widths]');
  await settle(page);
  await page.click('[data-testid=movers-toggle]');
  const rows = await page.$$eval('[data-testid=mover-row]', (r) => r.map((x) => [...x.children].map((c) => c.textContent)));
  assert.equal(rows[0][0], '__srcu_read_unlock');
  assert.equal(rows[0][3], '-15.29 pp');
  const gone = rows.find((r) => r[0] === '0xF1BDE348');
  assert.deepEqual(gone.slice(1, 4), ['1.54 %', '0.00 %', '-1.54 pp']);
  await page.screenshot({ path: outFile('diff-movers.png') });
  await page.click('[data-testid=diff-exit]');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.format === 'folded');
  await settle(page);
  assert.deepEqual(b.errors, []);
});

test('a two-count (difffolded) file opens as a diff by itself', async () => {
  const { page } = b;
  const f = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'folded', 'inf-perf-cycles-instructions-01-collapsed-all-diff.txt');
  await page.setInputFiles('[data-testid=open-file]', f);
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.format === 'diff');
  await settle(page);
  const l = await legend(page);
  assert.match(l.base, /collapsed-all-diff\.txt \(first counts\)$/);
  assert.match(l.target, /collapsed-all-diff\.txt \(second counts\)$/);
  await page.click('[data-testid=diff-swap]');
  await page.waitForFunction(() => /second counts/.test(document.querySelector('[data-testid=diff-legend]').dataset.base));
  await settle(page);
  await page.click('[data-testid=diff-exit]');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.format === 'folded');
  await settle(page);
});

// `scorch diff`'s header rows (name → [base, target, differs]), an independent path to the same facts.
function cliFacts(base, target) {
  const out = execFileSync(path.join(ROOT, 'target', 'debug', 'scorch'), ['diff', base, target], { encoding: 'utf8' });
  const rows = {};
  for (const line of out.split('\n')) {
    const m = line.match(/^(≠| ) (sample type|unit|period|sample rate|duration|samples|labels)\s+(\S.*?)\s{2,}(\S.*)$/);
    if (m) rows[m[2]] = [m[3].trim(), m[4].trim(), m[1] === '≠'];
  }
  return rows;
}
const appFacts = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid=diff-facts] tbody tr')]
  .map((tr) => [tr.dataset.fact, [tr.cells[2].textContent, tr.cells[3].textContent, tr.dataset.differs === 'true']])));

test('the diff header lists both sides\' facts and marks the ones that differ, as scorch diff does', async () => {
  const { page } = b;
  const GO = path.join(DATA, 'go-pair');
  await page.setInputFiles('[data-testid=open-file]', path.join(GO, 'before.pb.gz'));
  await waitForProfile(page, 'before.pb.gz');
  await page.setInputFiles('[data-testid=compare-file]', path.join(GO, 'after.pb.gz'));
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.format === 'diff');
  await settle(page);
  // 213 samples against 136: more than 1.5× apart, the only fact marked.
  assert.equal(await page.getAttribute('[data-testid=diff-facts-line]', 'data-differs'), 'samples');
  assert.match(await page.textContent('[data-testid=diff-facts-line]'), /≠ samples: 213 → 136/);
  await page.click('[data-testid=diff-facts-toggle]');
  await page.waitForSelector('[data-testid=diff-facts]');
  const cli = cliFacts(path.join(GO, 'before.pb.gz'), path.join(GO, 'after.pb.gz'));
  assert.deepEqual(Object.keys(cli).sort(), ['duration', 'labels', 'period', 'sample type', 'samples', 'unit']);
  assert.deepEqual(await appFacts(page), cli);
  await page.screenshot({ path: outFile('diff-facts.png') });
  await page.click('[data-testid=diff-exit]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=diff-legend]'));
  await settle(page);
  assert.deepEqual(b.errors, []);
});

test('a CPU profile against a heap profile is refused, naming both sample types, until "Diff anyway"', async () => {
  const { page } = b;
  const P = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'pprof');
  await page.setInputFiles('[data-testid=open-file]', path.join(P, 'gp-sample.cpu.pb.gz'));
  await waitForProfile(page, 'gp-sample.cpu.pb.gz');
  const before = await page.getAttribute('[data-testid=status]', 'data-total');
  await page.setInputFiles('[data-testid=compare-file]', path.join(P, 'parca-alloc_space_delta.pb.gz'));
  await page.waitForSelector('[data-testid=diff-refused]');
  await settle(page);
  const text = await page.textContent('[data-testid=diff-refused]');
  // The open file is the base (before), the compared one the target (after).
  assert.match(text, /their sample types differ: base is cpu \(nanoseconds\), target is inuse_space \(bytes\)/);
  // The open profile stays drawn, not a diff.
  assert.notEqual(await page.getAttribute('[data-testid=status]', 'data-format'), 'diff');
  assert.equal(await page.getAttribute('[data-testid=status]', 'data-total'), before);
  const rows = await appFacts(page);
  assert.deepEqual(rows['sample type'], ['cpu', 'inuse_space', true]);
  assert.deepEqual(rows.unit, ['nanoseconds', 'bytes', true]);
  await page.screenshot({ path: outFile('diff-refused.png') });
  await page.click('[data-testid=diff-anyway]');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.format === 'diff');
  await settle(page);
  assert.equal(await page.$('[data-testid=diff-refused]'), null);
  await page.click('[data-testid=diff-exit]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=diff-legend]'));
  await settle(page);
  assert.deepEqual(b.errors, []);
});

test('movers carry the 95 % interval of each change, and changes within noise are marked', async () => {
  const { page } = b;
  await openFile(page, path.join(DATA, 'inf-diff-before.txt'), 'inf-diff-before.txt');
  await page.setInputFiles('[data-testid=compare-file]', path.join(DATA, 'inf-diff-after.txt'));
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.format === 'diff');
  await settle(page);
  if (!(await page.$('[data-testid=movers-table]'))) await page.click('[data-testid=movers-toggle]');
  await page.waitForSelector('[data-testid=movers-table]');
  const rows = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid=mover-row]')]
    .map((tr) => [tr.cells[0].textContent, { ci: tr.querySelector('[data-testid=mover-ci]').textContent, noise: tr.classList.contains('noise') }])));
  // statsmodels 0.14, confint_proportions_2indep(k_after, 80, k_before, 65, method="newcomb", compare="diff"),
  // with k the samples whose stack holds the function (read from the two folded files by a Python one-liner).
  assert.deepEqual(rows.rw_verify_area, { ci: '-4.05 to +14.42 pp', noise: true });
  assert.deepEqual(rows.__srcu_read_unlock, { ci: '-30.03 to +0.10 pp', noise: true });
  assert.deepEqual(rows.vfs_write, { ci: '-25.32 to +6.01 pp', noise: true });
  // Beyond noise: the interval excludes 0.
  assert.deepEqual(rows.__fdget_pos, { ci: '+2.44 to +29.89 pp', noise: false });
  assert.deepEqual(rows.fsnotify, { ci: '-34.39 to -3.47 pp', noise: false });
  await page.click('[data-testid=diff-exit]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=diff-legend]'));
  await settle(page);
  assert.deepEqual(b.errors, []);
});
