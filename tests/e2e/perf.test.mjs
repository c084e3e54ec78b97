// perf script in the browser: every corpus file opens with the same numbers as the native CLI; event, weight
// and process-root selection work.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { openApp, nativeInfo, waitForProfile, framePoint, outFile, settle, ROOT } from './harness.mjs';

const DATA = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'perf');

let app, b;
before(async () => { app = await openApp(); b = app.b; });
after(async () => { await app?.close(); });

/** `scorch info` of the native CLI: samples, and the shown total. */

const status = (page) => page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset }));

test('every corpus perf file opens with the numbers the CLI gives', async () => {
  const { page } = b;
  const files = fs.readdirSync(DATA).filter((f) => fs.statSync(path.join(DATA, f)).isFile() && f !== 'NOTICE.md');
  assert.equal(files.length, 35);
  for (const f of files.sort()) {
    await page.setInputFiles('[data-testid=open-file]', path.join(DATA, f));
    if (f === 'inf-no-events.txt') {
      await page.waitForFunction((f) => document.querySelector('[data-testid=error]')?.textContent.includes(f), f);
      continue;
    }
    const s = await waitForProfile(page, f);
    const want = nativeInfo(path.join(DATA, f));
    assert.equal(s.format, 'perf-script', f);
    assert.deepEqual([s.samples, s.total], [want.samples, want.total], f);
    // The flame graph is drawn: some pixel in the root row is opaque.
    const drawn = await page.evaluate(() => {
      const c = document.querySelector('[data-testid=flame-canvas]');
      const d = c.getContext('2d').getImageData(0, c.height - 4, c.width, 1).data;
      for (let i = 3; i < d.length; i += 4) if (d[i] === 255) return true;
      return false;
    });
    assert.ok(drawn, `${f}: flame graph drawn`);
  }
  assert.deepEqual(b.errors.filter((e) => !e.includes('Failed to load resource')), []);
});

test('event selection, sample counts and process grouping', async () => {
  const { page } = b;
  await page.setInputFiles('[data-testid=open-file]', path.join(DATA, 'fg-perf-cycles-instructions-01.txt'));
  let s = await waitForProfile(page, 'fg-perf-cycles-instructions-01.txt');
  assert.equal(s.event, 'instructions', 'the first event is selected by default');
  assert.equal(s.total, '333');
  const options = await page.$$eval('[data-testid=event-select] option', (o) => o.map((x) => x.textContent));
  assert.deepEqual(options, ['instructions (333 samples)', 'cycles (111 samples)']);
  await page.selectOption('[data-testid=event-select]', { label: 'cycles (111 samples)' });
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.event === 'cycles');
  await settle(page);
  s = await status(page);
  assert.equal(s.total, '111');
  await page.screenshot({ path: outFile('perf-cycles.png') });

  // Period weights versus sample counts: dd has a 10,101,010 ns cpu-clock period per sample.
  await page.setInputFiles('[data-testid=open-file]', path.join(DATA, 'fg-perf-dd-stacks-01.txt'));
  s = await waitForProfile(page, 'fg-perf-dd-stacks-01.txt');
  assert.equal(s.unit, 'nanoseconds');
  assert.equal(BigInt(s.total), BigInt(s.samples) * 10101010n);
  await page.selectOption('[data-testid=weight-select]', 'count');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.unit === 'samples');
  await settle(page);
  s = await status(page);
  assert.equal(s.total, s.samples);

  // Process grouping: the root frame (depth 1) reads comm, comm-pid, comm-pid/tid, or the first real frame.
  await page.setInputFiles('[data-testid=open-file]', path.join(DATA, 'fg-perf-iperf-stacks-pidtid-01.txt'));
  await waitForProfile(page, 'fg-perf-iperf-stacks-pidtid-01.txt');
  const rootName = async () => {
    const pt = await framePoint(page, 0.02, 1);
    await page.mouse.move(pt.x, pt.y);
    await page.waitForSelector('.tt-name');
    return page.textContent('.tt-name');
  };
  assert.equal(await rootName(), 'iperf');
  for (const [mode, want] of [['pid', /^iperf-27409$/], ['tid', /^iperf-27409\/\d+$/], ['none', /^\[unknown\]$/]]) {
    await page.selectOption('[data-testid=root-select]', mode);
    // The view engine builds the tree under the new root: wait for it before reading the graph.
    await settle(page);
    await page.mouse.move(5, 5);
    await page.waitForFunction(() => !document.querySelector('.tt-name'));
    assert.match(await rootName(), want, mode);
  }
  await page.screenshot({ path: outFile('perf-root-none.png') });
});
