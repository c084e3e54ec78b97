// Off-CPU time in the browser (issue 21, docs/FORMATS.md "Off-CPU time"): the real system-wide recording
// perf-made/offcpu-sleep.txt.gz offers the derived events beside the raw ones; choosing one shows the total
// `scorch fold --event` gives (the worker carries the payload labels and the derived samples); the wait state
// filters and stands at the root; wall-clock's halves sit under cpu=on and cpu=off. Screenshot at 1280×800.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, browser, waitForProfile, settle, framePoint, pixelAt, outFile, ROOT } from './harness.mjs';

const FILE = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'perf-made', 'offcpu-sleep.txt.gz');
const NAME = 'offcpu-sleep.txt.gz';
const OFF = 'off-CPU time (from sched_switch)';
const WALL = 'wall-clock (on-CPU + off-CPU)';
let server, b;
before(async () => { server = await serve(); b = await browser(); });
after(async () => { await b?.close(); await server?.close(); });

const status = (page) => page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset }));

/** The sum of `scorch fold ARGS FILE`'s weights (the native CLI). */
function nativeTotal(...args) {
  const out = execFileSync(path.join(ROOT, 'target', 'debug', 'scorch'), ['fold', ...args, FILE],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return out.trim().split('\n').filter(Boolean).reduce((a, l) => a + BigInt(l.slice(l.lastIndexOf(' ') + 1)), 0n).toString();
}

async function waitTotal(page, total) {
  await page.waitForFunction((t) => document.querySelector('[data-testid=status]').dataset.total === t, total,
    { timeout: 20000 });
  await settle(page);
}

test('the derived events, the wait state as filter and root, wall-clock halves', async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  await page.setInputFiles('[data-testid=open-file]', FILE);
  await waitForProfile(page, NAME);
  const options = await page.$$eval('[data-testid=event-select] option', (o) => o.map((x) => x.textContent));
  const names = ['sched:sched_switch', 'cpu-clock/freq=199/', OFF, WALL];
  assert.equal(options.length, names.length, options.join(' | '));
  names.forEach((n, i) => assert.ok(options[i].startsWith(`${n} (`), `${options[i]} is ${n}`));
  const offLabel = options.find((o) => o.startsWith(OFF));
  await page.selectOption('[data-testid=event-select]', { label: offLabel });
  await waitTotal(page, nativeTotal('--event', 'offcpu'));
  let s = await status(page);
  assert.equal(s.unit, 'nanoseconds');
  // The wait state as a filter: the sleeps (S) against the CLI's --tagfilter.
  const filter = page.locator('[data-testid=label-filter]');
  await filter.fill('state=S');
  await filter.press('Enter');
  await waitTotal(page, nativeTotal('--event', 'offcpu', '--tagfilter', 'state=S'));
  await filter.fill('');
  await filter.press('Enter');
  await waitTotal(page, nativeTotal('--event', 'offcpu'));
  // The state at the root: the roots in name order (D, I, R, R+, S) as the CLI's --tagroot sums them; the middle
  // of state=S's box (the sleeper and the waits in pthread_join) reads state=S.
  const rootOptions = await page.$$eval('[data-testid=root-select] option', (o) => o.map((x) => x.textContent));
  assert.ok(rootOptions.includes('label state') && rootOptions.includes('label prev_state'), rootOptions.join());
  await page.selectOption('[data-testid=root-select]', { label: 'label state' });
  await settle(page); // the tree under the new root comes from the view engine
  const roots = new Map();
  const folded = execFileSync(path.join(ROOT, 'target', 'debug', 'scorch'), ['fold', '--event', 'offcpu', '--tagroot', 'state', FILE],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  for (const l of folded.trim().split('\n')) {
    const root = l.slice(0, l.indexOf(';'));
    roots.set(root, (roots.get(root) || 0) + Number(l.slice(l.lastIndexOf(' ') + 1)));
  }
  const sum = [...roots.values()].reduce((a, v) => a + v, 0);
  let before = 0;
  for (const k of [...roots.keys()].sort()) { if (k === 'state=S') break; before += roots.get(k); }
  const pt = await framePoint(page, (before + roots.get('state=S') / 2) / sum, 1);
  await page.mouse.move(pt.x, pt.y);
  await page.waitForSelector('.tt-name');
  assert.equal(await page.textContent('.tt-name'), 'state=S');
  await page.screenshot({ path: outFile('offcpu-state-root.png') });
  // Wall-clock: on-CPU plus off-CPU, each half under its label.
  await page.mouse.move(5, 5);
  await page.selectOption('[data-testid=event-select]', { label: options.find((o) => o.startsWith(WALL)) });
  await page.selectOption('[data-testid=root-select]', { label: 'label cpu' });
  await waitTotal(page, nativeTotal('--event', 'wall-clock'));
  s = await status(page);
  assert.equal(BigInt(s.total), BigInt(nativeTotal('--event', 'offcpu')) + BigInt(nativeTotal('--event', 'cpu-clock/freq=199/')));
  await page.screenshot({ path: outFile('offcpu-wall-clock.png') });
  // Hot/cold: the on/off-CPU colours (offered because samples carry cpu=on|off) paint the off-CPU tower's frames
  // blue and the on-CPU tower's warm. The towers sit in name order, cpu=off first, each as wide as its total.
  await page.selectOption('[data-testid=color-select]', 'oncpu');
  await page.waitForFunction(() => document.querySelector('[data-testid=legend]')?.textContent.includes('off-CPU (waiting)'));
  await settle(page);
  const off = Number(nativeTotal('--event', 'offcpu')) / Number(s.total);
  for (const [x, cold] of [[off / 2, true], [off + (1 - off) / 2, false]]) {
    const pt = await framePoint(page, x, 2);
    const px = await pixelAt(page, { x: pt.x, y: pt.y - 7 });
    if (cold) assert.ok(px[2] > px[0] + 40, `an off-CPU frame is blue, got ${px}`);
    else assert.ok(px[0] > px[2] + 40, `an on-CPU frame is warm, got ${px}`);
  }
  await page.screenshot({ path: outFile('offcpu-hot-cold.png') });
  assert.deepEqual(b.errors, []);
});

test('the on/off-CPU colours are offered only where samples say on or off', async () => {
  const { page } = b;
  await page.setInputFiles('[data-testid=open-file]', path.join(ROOT, 'crates', 'core', 'tests', 'data', 'perf-made', 'threads.txt'));
  await waitForProfile(page, 'threads.txt');
  const values = await page.$$eval('[data-testid=color-select] option', (o) => o.map((x) => x.value));
  assert.ok(values.includes('name') && !values.includes('oncpu'), values.join());
});
