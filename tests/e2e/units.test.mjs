// Declared units (issue 26): folded counts do not say what they count. A BCC offcputime file (microseconds) is
// opened, its unit declared with the Unit picker; the status line, the function table and the tooltip then show
// times, the same text as `scorch info --unit us`; the unit travels in the link; inputs that state their unit
// have no picker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openApp, browser, waitForProfile, settle, outFile, ROOT } from './harness.mjs';

const DATA = path.join(ROOT, 'crates', 'core', 'tests', 'data');
const BCC = path.join(DATA, 'folded', 'bcc-offcputime-us.folded');
/** The total as `scorch info --unit UNIT` writes it in parentheses: `3 min 4.7 s`. */
const nativeTotal = (unit) => execFileSync(path.join(ROOT, 'target', 'debug', 'scorch'), ['info', '--unit', unit, BCC],
  { encoding: 'utf8' }).match(/^total:\s+\d+ \((.*)\)$/m)[1];

let app, b;
before(async () => { app = await openApp(); b = app.b; });
after(async () => { await app?.close(); });

const status = (page) => page.evaluate(() => {
  const s = document.querySelector('[data-testid=status]');
  return { unit: s.dataset.unit, total: s.dataset.total, text: s.textContent };
});
async function open(page, file) {
  const loads = await page.getAttribute('[data-testid=status]', 'data-loads');
  await page.setInputFiles('[data-testid=open-file]', file);
  await page.waitForFunction((n) => document.querySelector('[data-testid=status]').dataset.loads !== n, loads);
  return waitForProfile(page, path.basename(file));
}

test('a declared unit turns folded counts into times everywhere, and travels in the link', async () => {
  const { page } = b;
  assert.equal(await page.$('[data-testid=unit-select]'), null, 'perf states its unit: no picker');
  await open(page, BCC);
  assert.equal(await page.inputValue('[data-testid=unit-select]'), 'samples');
  const before = await status(page);
  assert.equal(before.unit, 'samples');

  await page.selectOption('[data-testid=unit-select]', 'us');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.unit === 'microseconds');
  await settle(page);
  const declared = await status(page);
  const want = nativeTotal('us');
  assert.ok(declared.text.includes(want), `${declared.text} should hold ${want}`);
  assert.equal(declared.total, before.total, 'the counts are the same; only their meaning changed');

  // The tooltip of a frame reads in time too.
  const pt = await page.evaluate(() => window.__scorchFramePoint('schedule'));
  await page.mouse.move(pt[0], pt[1]);
  await page.locator('[data-testid=tooltip]').waitFor();
  assert.match(await page.textContent('[data-testid=tooltip]'), /\d(\.\d+)? (min|s|ms|µs)\b/);
  await page.screenshot({ path: outFile('units-declared.png') });

  // The function table's times.
  await page.click('[data-testid=view-mode-functions]');
  await page.locator('[data-testid=function-table]').waitFor();
  await settle(page); // the table comes from the view engine
  assert.match(await page.textContent('[data-testid=function-table]'), new RegExp(want.replace(/[.]/g, '\\.')));
  await page.click('[data-testid=view-mode-flame]');
  await settle(page);

  // Bytes read as MiB.
  await page.selectOption('[data-testid=unit-select]', 'bytes');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.unit === 'bytes');
  await settle(page);
  assert.ok((await status(page)).text.includes(nativeTotal('bytes')));

  // The link carries the profile and its unit; the receiver's profile states it (no picker there).
  await page.selectOption('[data-testid=unit-select]', 'us');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.unit === 'microseconds');
  await settle(page);
  await page.click('[data-testid=copy-link]');
  await page.locator('[data-testid=copy-link-text]').waitFor();
  const link = await page.inputValue('[data-testid=copy-link-text]');
  const fresh = await browser();
  try {
    await fresh.page.goto(link);
    await waitForProfile(fresh.page, 'profile from the link');
    const got = await status(fresh.page);
    assert.equal(got.unit, 'microseconds');
    assert.ok(got.text.includes(want), got.text);
    assert.equal(await fresh.page.$('[data-testid=unit-select]'), null);
    assert.deepEqual(fresh.errors, []);
  } finally { await fresh.close(); }
});
