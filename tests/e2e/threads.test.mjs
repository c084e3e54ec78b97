// The thread list and the thread choice (issue 21 item 2), and a slice diff of one profile (issue 26 item 7), on
// a real three-thread perf recording (crates/core/tests/data/perf-made/threads.txt). Oracles: the thread list's
// counts equal tests/oracles/threads.py, an independent Python reading of the perf script text
// (crates/cli/tests/data/threads/oracle.json); totals equal the native CLI's `scorch fold --tagfilter tid=N`
// (itself checked against the same oracle in crates/cli/tests/threads.rs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, browser, waitForProfile, settle, outFile, ROOT } from './harness.mjs';

const MADE = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'perf-made');
const PPROF = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'pprof');
const CLI = path.join(ROOT, 'target', 'debug', 'scorch');
const ORACLE = JSON.parse(fs.readFileSync(path.join(ROOT, 'crates', 'cli', 'tests', 'data', 'threads', 'oracle.json'), 'utf8'));
const [A, B] = ORACLE.threads; // the busiest two: alpha, then beta
let server, b;
before(async () => {
  server = await serve(undefined, '/', { '/made/': MADE, '/pprof/': PPROF });
  b = await browser();
});
after(async () => { await b?.close(); await server?.close(); });

/** `scorch fold [--tagfilter FILTER] FILE` (threads.txt by default): the sum of its weights. */
function cliTotal(filter, file = path.join(MADE, 'threads.txt')) {
  const out = execFileSync(CLI, ['fold', ...(filter ? ['--tagfilter', filter] : []), file],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return out.split('\n').filter(Boolean).reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}
/** The largest heatmap cell (50 rows a second, SEMANTICS's grid) of the samples of these tids, read from the
 *  perf script text here: whole seconds are columns, so a cell is (second, offset × 50 / 1 s). */
function heatMax(tids) {
  const cells = new Map();
  for (const line of fs.readFileSync(path.join(MADE, 'threads.txt'), 'utf8').split('\n')) {
    const m = line.match(/^\S+\s+\d+\/(\d+)\s+(\d+)\.(\d+):/);
    if (!m || !tids.includes(Number(m[1]))) continue;
    const ns = Number(m[3].padEnd(9, '0'));
    const key = `${m[2]}:${Math.floor(ns * 50 / 1e9)}`;
    cells.set(key, (cells.get(key) || 0) + 1);
  }
  return Math.max(...cells.values());
}
const status = (page) => page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset }));
const rows = (page) => page.evaluate(() => [...document.querySelectorAll('[data-testid=thread-row]')].map((r) => ({
  tid: Number(r.dataset.tid), samples: Number(r.dataset.samples), total: Number(r.dataset.total),
  chosen: r.getAttribute('aria-pressed') === 'true', name: r.querySelector('.thread-name').textContent,
})));
/** Waits until the status line's total (and base total, for a diff) are these, then settles. */
async function waitTotals(page, total, base = '') {
  await page.waitForFunction(([t, bt]) => {
    const d = document.querySelector('[data-testid=status]').dataset;
    return d.total === t && d.baseTotal === bt;
  }, [String(total), String(base)]);
  await settle(page);
}
const href = (page) => page.evaluate(() => location.href);
const row = (tid) => `[data-testid=thread-row][data-tid="${tid}"]`;

async function open(page, hash = '') {
  await page.goto(`${server.url}#url=${encodeURIComponent('/made/threads.txt')}${hash}`);
  await waitForProfile(page, 'threads.txt');
  await page.click('[data-testid=threads-toggle]');
  await page.locator('[data-testid=thread-row]').first().waitFor();
  await settle(page);
}

test('the thread list shows each thread with the oracle\'s counts, busiest first', async () => {
  const { page } = b;
  await open(page);
  const got = await rows(page);
  assert.deepEqual(got.map((r) => [r.name, r.tid, r.samples, r.total, r.chosen]),
    ORACLE.threads.map((t) => [t.name, t.tid, t.samples, t.total, false]));
  // Every thread's strip has some activity painted.
  const strips = await page.evaluate(() => [...document.querySelectorAll('.thread-strip')]
    .map((s) => getComputedStyle(s).backgroundImage.startsWith('linear-gradient')));
  assert.deepEqual(strips, [true, true, true]);
  await page.screenshot({ path: outFile('threads.png') });
  assert.deepEqual(b.errors, []);
});

test('choosing threads: the status total is the CLI\'s fold --tagfilter tid=N, and it survives a link', async () => {
  const { page } = b;
  await page.click(row(B.tid));
  await waitTotals(page, cliTotal(`tid=${B.tid}`));
  assert.equal(cliTotal(`tid=${B.tid}`), B.total);
  // The heatmap follows the choice: its largest cell is thread B's.
  await page.waitForFunction((m) => document.querySelector('[data-testid=heatmap-canvas]').dataset.max === m,
    String(heatMax([B.tid])));
  assert.notEqual(heatMax([B.tid]), heatMax(ORACLE.threads.map((t) => t.tid)));
  // Ctrl/Cmd-click adds a thread; the heatmap follows the choice.
  await page.keyboard.down('Control');
  await page.click(row(A.tid));
  await page.keyboard.up('Control');
  await waitTotals(page, cliTotal(`tid=${A.tid},${B.tid}`));
  assert.deepEqual((await rows(page)).map((r) => r.chosen), [true, true, false]);
  const url = await href(page);
  assert.match(url, new RegExp(`&th=${Math.min(A.tid, B.tid)},${Math.max(A.tid, B.tid)}`));
  const fresh = await browser();
  try {
    await open(fresh.page, url.slice(url.indexOf('#') + 1).replace(/^url=[^&]*/, ''));
    await waitTotals(fresh.page, A.total + B.total);
    assert.deepEqual((await rows(fresh.page)).map((r) => r.chosen), [true, true, false]);
    assert.deepEqual(fresh.errors, []);
  } finally { await fresh.close(); }
  await page.click('[data-testid=threads-all]');
  await waitTotals(page, ORACLE.threads.reduce((s, t) => s + t.total, 0));
  assert.deepEqual(b.errors, []);
});

test('a slice diff: thread A against thread B has both CLI totals, swaps, and travels in a link', async () => {
  const { page } = b;
  await page.click(row(A.tid));
  await waitTotals(page, A.total);
  await page.click('[data-testid=slice-diff]');
  await page.locator('[data-testid=diff-legend]').waitFor();
  await settle(page);
  await page.click(row(B.tid));
  await waitTotals(page, cliTotal(`tid=${B.tid}`), cliTotal(`tid=${A.tid}`));
  const legend = await page.evaluate(() => ({ ...document.querySelector('[data-testid=diff-legend]').dataset }));
  assert.deepEqual([legend.base, legend.target], [`threads.txt [tid=${A.tid}]`, `threads.txt [tid=${B.tid}]`]);
  await page.screenshot({ path: outFile('threads-diff.png') });
  const url = await href(page);
  assert.match(url, new RegExp(`&th=${B.tid}&btf=tid%3D${A.tid}`));
  // The threads' process root is dropped for a slice diff (else two thread names are two one-sided roots).
  assert.match(url, /&root=none&/);
  await page.click('[data-testid=diff-swap]');
  await waitTotals(page, A.total, B.total);
  await page.click('[data-testid=diff-swap]');
  await waitTotals(page, B.total, A.total);
  const fresh = await browser();
  try {
    await fresh.page.goto(url);
    await waitForProfile(fresh.page, 'diff');
    await waitTotals(fresh.page, B.total, A.total);
    assert.deepEqual(fresh.errors, []);
  } finally { await fresh.close(); }
  await page.click('[data-testid=diff-exit]');
  await waitTotals(page, B.total);
  assert.deepEqual(b.errors, []);
});

test('a label-slice diff of a pprof profile: api=query against all samples, totals as the CLI\'s', async () => {
  const { page } = b;
  const file = path.join(PPROF, 'parca-labels.pb.gz');
  const [query, all] = [cliTotal('api=query', file), cliTotal('', file)];
  assert.ok(query > 0 && query < all, `${query} ${all}`);
  await page.goto(`${server.url}#url=${encodeURIComponent('/pprof/parca-labels.pb.gz')}`);
  await waitForProfile(page, 'parca-labels.pb.gz');
  // No threads in this pprof: no thread list.
  assert.equal(await page.locator('[data-testid=threads-toggle]').count(), 0);
  const filter = page.locator('[data-testid=label-filter]');
  await filter.fill('api=query');
  await filter.press('Enter');
  await waitTotals(page, query);
  await page.click('[data-testid=label-slice-diff]');
  await page.locator('[data-testid=diff-legend]').waitFor();
  await settle(page);
  await filter.fill('');
  await filter.press('Enter');
  await waitTotals(page, all, query);
  const legend = await page.evaluate(() => ({ ...document.querySelector('[data-testid=diff-legend]').dataset }));
  assert.deepEqual([legend.base, legend.target],
    ['parca-labels.pb.gz [api=query]', 'parca-labels.pb.gz [all samples]']);
  const url = await href(page);
  assert.match(url, /&btf=api%3Dquery/);
  const fresh = await browser();
  try {
    await fresh.page.goto(url);
    await waitForProfile(fresh.page, 'diff');
    await waitTotals(fresh.page, all, query);
    assert.deepEqual(fresh.errors, []);
  } finally { await fresh.close(); }
  assert.deepEqual(b.errors, []);
});
