// Several profiles at once (issue 23 items 1–2) on real Go CPU profiles (crates/core/tests/data/series/, recorded
// here: README.md there). Oracles: the native CLI — `scorch fold a b c` (the merged sum) and `scorch fold FILE`
// per file, weights summed here from the folded lines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { serve, browser, waitForProfile, settle, outFile, ROOT } from './harness.mjs';

const DATA = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'series');
const FILES = ['v1-run1.pb.gz', 'v1-run2.pb.gz', 'v2-run1.pb.gz'];
const CLI = path.join(ROOT, 'target', 'debug', 'scorch');
const foldTotal = (...args) => execFileSync(CLI, ['fold', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  .split('\n').filter(Boolean).reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
let server;
before(async () => { server = await serve(undefined, '/', { '/series/': DATA }); });
after(async () => { await server?.close(); });

// The viewer with its demo, then these files chosen at once in Open….
async function openMerged(page, files) {
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  await page.setInputFiles('[data-testid=open-file]', files);
  await waitForProfile(page, `${files.length} profiles merged`);
}

const total = (page) => page.evaluate(() => document.querySelector('[data-testid=status]').dataset.total);
/** Waits until the status line's total is `t`, then settles (the view that total belongs to drawn, nothing more
 *  asked for). */
async function waitTotal(page, t) {
  await page.waitForFunction((t) => document.querySelector('[data-testid=status]')?.dataset.total === t, String(t));
  await settle(page);
}

test('three files open merged: the CLI\'s merged total; grouped by profile, three roots; a profile filter keeps one', async () => {
  const b = await browser();
  const { page } = b;
  try {
    await openMerged(page, FILES.map((f) => path.join(DATA, f)));
    const merged = foldTotal(...FILES.map((f) => path.join(DATA, f)));
    const each = FILES.map((f) => foldTotal(path.join(DATA, f)));
    assert.equal(merged, each.reduce((a, x) => a + x, 0), 'the CLI merges by summing');
    await waitTotal(page, merged);
    // Group by profile: the Root menu's label root.
    await page.selectOption('[data-testid=root-select]', 'label:profile');
    await settle(page);
    for (const [i, f] of FILES.entries()) {
      const pt = await page.evaluate((n) => window.__scorchFramePoint(n), `profile=${f}`);
      assert.ok(pt, `a root for ${f}`);
      // Each root's total is that file's own (the tooltip, in ms: the files' unit is ns).
      await page.mouse.move(pt[0], pt[1]);
      await page.waitForFunction((n) => document.querySelector('[data-testid=tooltip] .tt-name')?.textContent === n, `profile=${f}`);
      assert.match(await page.textContent('[data-testid=tooltip-total]'), new RegExp(`^${(each[i] / 1e6).toFixed(2)} ms \\(`), f);
    }
    await page.screenshot({ path: outFile('series-merged.png') });
    // The profile filter: each file's own total.
    for (const [i, f] of FILES.entries()) {
      await page.fill('[data-testid=label-filter]', `profile=${f}`);
      await page.locator('[data-testid=label-filter]').press('Enter');
      await waitTotal(page, each[i]);
    }
    // The Profiles panel: each file with its own total; a click shows only it; "All profiles" resets.
    await page.click('[data-testid=profiles-all]');
    await waitTotal(page, merged);
    const rows = await page.evaluate(() => [...document.querySelectorAll('[data-testid=profile-row]')]
      .map((r) => [r.dataset.name, Number(r.dataset.total)]));
    assert.deepEqual(rows, FILES.map((f, i) => [f, each[i]]));
    await page.click(`[data-testid=profile-row][data-name="${FILES[1]}"]`);
    await waitTotal(page, each[1]);
    // The series table: each function's self share per profile, as `scorch series --tsv` prints them.
    const tsv = execFileSync(CLI, ['series', '--tsv', ...FILES.map((f) => path.join(DATA, f))], { encoding: 'utf8' })
      .split('\n').filter(Boolean).slice(1).map((l) => l.split('\t'));
    const table = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid=series-row]')]
      .map((r) => [r.dataset.name, r.dataset.self])));
    for (const row of tsv.filter((r) => r[0] in table)) {
      assert.equal(table[row[0]], row.slice(1, 4).map((x) => (Number(x) * 100).toFixed(1)).join(','), row[0]);
    }
    assert.ok(Object.keys(table).length >= 3, JSON.stringify(table));
    await page.screenshot({ path: outFile('series-panel.png') });
    // Two ticked: their diff, the first ticked the base — each side the file's own total.
    await page.click('[data-testid=profiles-all]');
    await waitTotal(page, merged);
    await page.click(`[data-testid=profile-tick][data-name="${FILES[0]}"]`);
    await page.click(`[data-testid=profile-tick][data-name="${FILES[2]}"]`);
    await page.waitForFunction(([t, bt]) => {
      const d = document.querySelector('[data-testid=status]').dataset;
      return d.total === t && d.baseTotal === bt;
    }, [String(each[2]), String(each[0])]);
    await page.locator('[data-testid=diff-legend]').waitFor();
    assert.deepEqual(b.errors, []);
  } finally { await b.close(); }
});

test('#series=a,b,c opens the hosted files merged, and the address opens the same in a fresh browser', async () => {
  const merged = foldTotal(...FILES.map((f) => path.join(DATA, f)));
  const list = FILES.map((f) => `/series/${f}`).join(',');
  const b = await browser();
  let href;
  try {
    await b.page.goto(`${server.url}#series=${encodeURIComponent(list)}&root=${encodeURIComponent('label:profile')}`);
    await waitForProfile(b.page, '3 profiles merged');
    await waitTotal(b.page, merged);
    await settle(b.page);
    assert.ok(await b.page.evaluate(() => window.__scorchFramePoint('profile=v2-run1.pb.gz')), 'grouped by profile');
    href = await b.page.evaluate(() => location.href);
    assert.match(decodeURIComponent(href), /series=\/series\/v1-run1\.pb\.gz,/);
    assert.deepEqual(b.errors, []);
  } finally { await b.close(); }
  const fresh = await browser();
  try {
    await fresh.page.goto(href);
    await waitForProfile(fresh.page, '3 profiles merged');
    await waitTotal(fresh.page, merged);
    assert.deepEqual(fresh.errors, []);
  } finally { await fresh.close(); }
});

// `scorch diff A B`'s function rows: name → [base self, target self, base total, target total] in percent.
function cliMovers(a, b) {
  const out = execFileSync(CLI, ['diff', '-n', '0', a, b], { encoding: 'utf8' });
  const rows = {};
  for (const line of out.split('\n')) {
    const m = line.match(/^\s*([\d.]+)%\s+([\d.]+)%\s+\S+pp\s+([\d.]+)%\s+([\d.]+)%\s+\S+pp\s+(\S.*)$/);
    if (m) rows[m[5]] = [m[1], m[2], m[3], m[4]].map(Number);
  }
  return rows;
}

test('two ticked profiles: the movers equal scorch diff of the two files, row by row', async () => {
  const b = await browser();
  const { page } = b;
  try {
    await openMerged(page, FILES.map((f) => path.join(DATA, f)));
    await page.click(`[data-testid=profile-tick][data-name="${FILES[0]}"]`);
    await page.click(`[data-testid=profile-tick][data-name="${FILES[2]}"]`);
    await page.locator('[data-testid=diff-legend]').waitFor();
    await settle(page);
    if (!(await page.$('[data-testid=movers-table]'))) await page.click('[data-testid=movers-toggle]');
    await page.waitForSelector('[data-testid=mover-row]');
    const app = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid=mover-row]')]
      .map((tr) => [tr.cells[0].textContent, [1, 2, 4, 5].map((i) => parseFloat(tr.cells[i].textContent))])));
    const cli = cliMovers(path.join(DATA, FILES[0]), path.join(DATA, FILES[2]));
    assert.ok(Object.keys(cli).length >= 4, JSON.stringify(cli));
    for (const [name, want] of Object.entries(cli)) {
      assert.deepEqual(app[name], want, name);
    }
    assert.deepEqual(b.errors, []);
  } finally { await b.close(); }
});

test('mean per profile, the series order (as opened, by name, by the profiles\' own time) and the filter box', async () => {
  // The same recordings under names whose order differs from their time order.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-series-'));
  const named = [['b-third.pb.gz', 'v2-run1.pb.gz'], ['c-first.pb.gz', 'v1-run1.pb.gz'], ['a-second.pb.gz', 'v1-run2.pb.gz']];
  for (const [to, from] of named) fs.copyFileSync(path.join(DATA, from), path.join(dir, to));
  const b = await browser();
  const { page } = b;
  try {
    await openMerged(page, named.map(([to]) => path.join(dir, to)));
    const names = () => page.evaluate(() => [...document.querySelectorAll('[data-testid=profile-row]')].map((r) => r.dataset.name));
    assert.deepEqual(await names(), ['b-third.pb.gz', 'c-first.pb.gz', 'a-second.pb.gz']);
    await page.selectOption('[data-testid=profiles-order]', 'name');
    await page.waitForFunction(() => document.querySelector('[data-testid=profile-row]').dataset.name === 'a-second.pb.gz');
    assert.deepEqual(await names(), ['a-second.pb.gz', 'b-third.pb.gz', 'c-first.pb.gz']);
    // By time: the order they were recorded in (pprof time_nanos; README of the data).
    await page.selectOption('[data-testid=profiles-order]', 'time');
    await page.waitForFunction(() => document.querySelector('[data-testid=profile-row]').dataset.name === 'c-first.pb.gz');
    assert.deepEqual(await names(), ['c-first.pb.gz', 'a-second.pb.gz', 'b-third.pb.gz']);
    // The series table's columns follow: `scorch series --order time` of the same files.
    const tsv = execFileSync(CLI, ['series', '--tsv', '--order', 'time', ...named.map(([to]) => path.join(dir, to))], { encoding: 'utf8' })
      .split('\n').filter(Boolean);
    assert.match(tsv[0], /^function\tself [^\t]*c-first\.pb\.gz\tself [^\t]*a-second\.pb\.gz\tself [^\t]*b-third\.pb\.gz\t/);
    const table = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid=series-row]')]
      .map((r) => [r.dataset.name, r.dataset.self])));
    for (const row of tsv.slice(1).map((l) => l.split('\t')).filter((r) => r[0] in table)) {
      assert.equal(table[row[0]], row.slice(1, 4).map((x) => (Number(x) * 100).toFixed(1)).join(','), row[0]);
    }
    // Mean per profile: the status total divided by three (the sum stays in data-total).
    const merged = foldTotal(...named.map(([to]) => path.join(dir, to)));
    await page.click('[data-testid=profiles-mean]');
    await page.waitForFunction(() => /per profile/.test(document.querySelector('[data-testid=status]').textContent));
    await settle(page);
    const text = await page.textContent('[data-testid=status]');
    const m = text.match(/total ([\d.]+) ms per profile \(the mean of 3; their sum ([\d.]+) ms\)/);
    assert.ok(m, text);
    assert.ok(Math.abs(Number(m[1]) - merged / 3 / 1e6) < 0.01, `${m[1]} vs ${merged / 3 / 1e6}`);
    assert.ok(Math.abs(Number(m[2]) - merged / 1e6) < 0.01);
    assert.equal(await total(page), String(merged));
    assert.match(await page.evaluate(() => location.hash), /mean=3/);
    // One profile shown: its own total, not divided; the filter box shows the panel's filter.
    const own = foldTotal(path.join(dir, 'a-second.pb.gz'));
    await page.click('[data-testid=profile-row][data-name="a-second.pb.gz"]');
    await waitTotal(page, own);
    assert.doesNotMatch(await page.textContent('[data-testid=status]'), /per profile/);
    assert.equal(await page.inputValue('[data-testid=label-filter]'), 'profile=a-second.pb.gz');
    // All again: the mean is back.
    await page.click('[data-testid=profiles-all]');
    await page.waitForFunction(() => /mean of 3/.test(document.querySelector('[data-testid=status]').textContent));
    await settle(page);
    assert.equal(await page.inputValue('[data-testid=label-filter]'), '');
    await page.screenshot({ path: outFile('series-mean.png') });
    assert.deepEqual(b.errors, []);
  } finally { await b.close(); }
  // The mean travels in the link (the three local files with it): a fresh browser shows the mean, switch on.
  const fresh = await browser();
  try {
    const { page } = fresh;
    await openMerged(page, named.map(([to]) => path.join(dir, to)));
    await page.click('[data-testid=profiles-mean]');
    await page.waitForFunction(() => /mean of 3/.test(document.querySelector('[data-testid=status]').textContent));
    await page.click('[data-testid=copy-link]');
    const link = await page.inputValue('[data-testid=copy-link-text]');
    assert.match(link, /mean=3/);
    await page.goto('about:blank');
    await page.goto(link);
    await page.waitForFunction(() => /mean of 3/.test(document.querySelector('[data-testid=status]')?.textContent || ''));
    assert.equal(await page.isChecked('[data-testid=profiles-mean]'), true);
    assert.deepEqual(fresh.errors, []);
  } finally { await fresh.close(); fs.rmSync(dir, { recursive: true, force: true }); }
});

test('a merge of local files travels in a link under its names: a fresh browser has the Profiles panel and the diff', async () => {
  const each = FILES.map((f) => foldTotal(path.join(DATA, f)));
  const b = await browser();
  let link;
  try {
    const { page } = b;
    await openMerged(page, FILES.map((f) => path.join(DATA, f)));
    await page.click(`[data-testid=profile-tick][data-name="${FILES[1]}"]`);
    await page.click(`[data-testid=profile-tick][data-name="${FILES[2]}"]`);
    await page.locator('[data-testid=diff-legend]').waitFor();
    await page.click('[data-testid=copy-link]');
    await page.locator('[data-testid=copy-link-text]').waitFor();
    link = await page.inputValue('[data-testid=copy-link-text]');
    assert.match(await page.textContent('[data-testid=copy-link-size]'), /the 3 profiles are in the link, each under its name/);
    assert.equal((decodeURIComponent(link).match(/[#&]ps=/g) || []).length, 3, link.slice(0, 200));
    assert.deepEqual(b.errors, []);
  } finally { await b.close(); }
  const fresh = await browser();
  try {
    const { page } = fresh;
    await page.goto(link);
    // The slice diff of the two ticked, each side that file's own total.
    await page.waitForFunction(([t, bt]) => {
      const d = document.querySelector('[data-testid=status]')?.dataset;
      return d?.total === t && d?.baseTotal === bt;
    }, [String(each[2]), String(each[1])]);
    await settle(page);
    const rows = await page.evaluate(() => [...document.querySelectorAll('[data-testid=profile-row]')]
      .map((r) => [r.dataset.name, Number(r.dataset.total)]));
    assert.deepEqual(rows, FILES.map((f, i) => [f, each[i]]));
    const ticked = () => page.evaluate(() => [...document.querySelectorAll('[data-testid=profile-tick]')].filter((t) => t.checked).map((t) => t.dataset.name));
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=profile-tick]')].filter((t) => t.checked).length === 2);
    assert.deepEqual(await ticked(), [FILES[1], FILES[2]]);
    // Leaving the diff clears the ticks.
    await page.click('[data-testid=diff-exit]');
    await page.waitForFunction(() => ![...document.querySelectorAll('[data-testid=profile-tick]')].some((t) => t.checked));
    assert.deepEqual(fresh.errors, []);
  } finally { await fresh.close(); }
});
