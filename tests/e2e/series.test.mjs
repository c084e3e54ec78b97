// Several profiles at once (issue 23 items 1–2) on real Go CPU profiles (crates/core/tests/data/series/, recorded
// here: README.md there). Oracles: the native CLI — `scorch fold a b c` (the merged sum) and `scorch fold FILE`
// per file, weights summed here from the folded lines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
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

const total = (page) => page.evaluate(() => document.querySelector('[data-testid=status]').dataset.total);
const waitTotal = (page, t) => page.waitForFunction((t) => document.querySelector('[data-testid=status]')?.dataset.total === t, String(t));

test('three files open merged: the CLI\'s merged total; grouped by profile, three roots; a profile filter keeps one', async () => {
  const b = await browser();
  const { page } = b;
  try {
    await page.goto(server.url);
    await waitForProfile(page, 'service.perf.gz');
    await page.setInputFiles('[data-testid=open-file]', FILES.map((f) => path.join(DATA, f)));
    await waitForProfile(page, '3 profiles merged');
    const merged = foldTotal(...FILES.map((f) => path.join(DATA, f)));
    const each = FILES.map((f) => foldTotal(path.join(DATA, f)));
    assert.equal(merged, each.reduce((a, x) => a + x, 0), 'the CLI merges by summing');
    await waitTotal(page, merged);
    // Group by profile: the Root menu's label root.
    await page.selectOption('[data-testid=root-select]', 'label:profile');
    await settle(page);
    for (const f of FILES) {
      assert.ok(await page.evaluate((n) => window.__scorchFramePoint(n), `profile=${f}`), `a root for ${f}`);
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
