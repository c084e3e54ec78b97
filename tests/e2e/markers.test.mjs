// The marker track (issue #45) on a real Chromium trace (crates/core/tests/data/v8/chromium-trace.json): it shows
// the markers `scorch markers --json` lists (which crates/cli/tests/markers.rs checks against an independent walk
// of the JSON), by thread; a click on a marker selects exactly its time range, and the flame graph's total is then
// that of `scorch fold --range` of that range; the search keeps the markers whose name has the text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, browser, waitForProfile, settle, outFile, ROOT } from './harness.mjs';

const TRACE = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'v8', 'chromium-trace.json');
const SCORCH = path.join(ROOT, 'target', 'debug', 'scorch');
const cli = (...args) => execFileSync(SCORCH, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
let server, b;
before(async () => { server = await serve(); b = await browser(); });
after(async () => { await b?.close(); await server?.close(); });

/** The total of `scorch fold --range` of [a, z) ns after the heatmap origin (its stacks' weights summed). */
const totalIn = (a, z) => String(cli('fold', '--range', (a / 1e9).toFixed(9), (z / 1e9).toFixed(9), TRACE)
  .split('\n').filter(Boolean).reduce((t, l) => t + Number(l.slice(l.lastIndexOf(' ') + 1)), 0));

test('the marker track shows the CLI\'s markers by thread; a click selects exactly a marker\'s range', async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  assert.equal(await page.locator('[data-testid=marker-track]').count(), 0, 'no markers, no track');
  await page.setInputFiles('[data-testid=open-file]', TRACE);
  await waitForProfile(page, 'chromium-trace.json');
  await page.locator('[data-testid=marker-track]').waitFor();
  const want = JSON.parse(cli('markers', '--json', TRACE)).markers;
  const shown = await page.evaluate(() => [...document.querySelectorAll('[data-testid=marker]')].map((m) => ({
    thread: m.closest('[data-testid=marker-lane]').dataset.thread, name: m.dataset.name,
    start: m.dataset.start, duration: m.dataset.duration,
  })));
  const key = (m) => `${m.thread}\t${m.name}\t${m.start}\t${m.duration}`;
  assert.deepEqual(shown.map(key).sort(),
    want.map((m) => key({ thread: m.thread, name: m.name, start: String(m.start_ns), duration: m.duration_ns == null ? '' : String(m.duration_ns) })).sort());
  await page.screenshot({ path: outFile('markers.png') });
  // The marker whose range holds the most of the profile (by the CLI: ranges are from the heatmap's origin, as
  // `scorch heatmap --json` gives it, in the link and on the command line), clicked.
  const first = Number(cli('heatmap', '--json', TRACE).match(/"origin_ns":\s*(\d+)/)[1]);
  const timed = want.filter((m) => m.duration_ns > 0)
    .map((m) => ({ m, total: Number(totalIn(m.start_ns - first, m.start_ns - first + m.duration_ns)) }))
    .sort((x, y) => y.total - x.total);
  const pick = timed[0].m;
  assert.ok(timed[0].total > 0, 'a marker with samples in its range');
  const before = await page.evaluate(() => document.querySelector('[data-testid=status]').dataset.total);
  await page.locator(`[data-testid=marker][data-start="${pick.start_ns}"][data-name="${pick.name}"]`).first().click();
  await page.waitForFunction(() => /[#&]range=\d+-\d+/.test(location.hash));
  const [a, z] = (await page.evaluate(() => location.hash)).match(/[#&]range=(\d+)-(\d+)/).slice(1).map(Number);
  assert.deepEqual([a, z], [pick.start_ns - first, pick.start_ns - first + pick.duration_ns], 'exactly the marker\'s range');
  const total = totalIn(a, z);
  await page.waitForFunction((t) => document.querySelector('[data-testid=status]').dataset.total === t, total);
  await settle(page);
  assert.notEqual(total, before);
  // The search keeps the markers whose name has the text.
  await page.fill('[data-testid=marker-search]', 'gc_');
  const names = await page.evaluate(() => [...document.querySelectorAll('[data-testid=marker]')].map((m) => m.dataset.name));
  assert.deepEqual(names.sort(), want.filter((m) => m.name.toLowerCase().includes('gc_')).map((m) => m.name).sort());
  assert.ok(names.length > 0);
  assert.deepEqual(b.errors, []);
});
