// pprof in the browser: every corpus file opens with the numbers the native CLI gives; sample types, label
// filters, grouping by label and the profile's own metadata work.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { openApp, nativeInfo, waitForProfile, framePoint, outFile, settle, ROOT } from './harness.mjs';

const DATA = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'pprof');

let app, b;
before(async () => { app = await openApp(); b = app.b; });
after(async () => { await app?.close(); });

const status = (page) => page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset }));

test('every corpus pprof file opens with the numbers the CLI gives', async () => {
  const { page } = b;
  const files = fs.readdirSync(DATA).filter((f) => /\.(pb|gz)$/.test(f)).sort();
  assert.equal(files.length, 22);
  for (const f of files) {
    await page.setInputFiles('[data-testid=open-file]', path.join(DATA, f));
    const s = await waitForProfile(page, f);
    const want = nativeInfo(path.join(DATA, f));
    assert.equal(s.format, 'pprof', f);
    assert.deepEqual([s.samples, s.total], [want.samples, want.total], f);
  }
});

test('sample types: the default is the last, each can be chosen, units follow', async () => {
  const { page } = b;
  await page.setInputFiles('[data-testid=open-file]', path.join(DATA, 'parca-fib.pb.gz'));
  let s = await waitForProfile(page, 'parca-fib.pb.gz');
  assert.equal(s.event, 'cpu');
  assert.equal(s.unit, 'nanoseconds');
  assert.equal(s.total, '29740000000');
  assert.match(s.text, /29\.740 s/);
  const options = await page.$$eval('[data-testid=event-select] option', (o) => o.map((x) => x.textContent));
  assert.deepEqual(options, ['samples (120 samples)', 'cpu (120 samples)']);
  assert.equal(await page.locator('[data-testid=weight-select]').count(), 0, 'no period/count switch for pprof');
  await page.selectOption('[data-testid=event-select]', { label: 'samples (120 samples)' });
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.event === 'samples');
  await settle(page);
  s = await status(page);
  assert.deepEqual([s.total, s.unit], ['2974', 'samples']);
  // Heap profile: bytes are shown as KiB/MiB/GiB; default_sample_type picks alloc_space.
  await page.setInputFiles('[data-testid=open-file]', path.join(DATA, 'parca-alloc_objects.pb.gz'));
  s = await waitForProfile(page, 'parca-alloc_objects.pb.gz');
  assert.equal(s.event, 'alloc_space');
  assert.match(s.text, /GiB/);
  // Inline frames get their own colour and the tooltip says so.
  await page.screenshot({ path: outFile('pprof-heap.png') });
});

test('label filter, grouping by label, and the info panel', async () => {
  const { page } = b;
  await page.setInputFiles('[data-testid=open-file]', path.join(DATA, 'gp-java.heap.derived.pb.gz'));
  const all = await waitForProfile(page, 'gp-java.heap.derived.pb.gz');
  const filter = page.locator('[data-testid=label-filter]');
  await filter.fill('bytes=:1kb');
  await filter.press('Enter');
  await page.waitForFunction((t) => document.querySelector('[data-testid=status]').dataset.total !== t, all.total);
  await settle(page);
  const small = BigInt((await status(page)).total);
  await filter.fill('bytes=1025:');
  await filter.press('Enter');
  await page.waitForFunction((t) => document.querySelector('[data-testid=status]').dataset.total !== t, String(small));
  await settle(page);
  const large = BigInt((await status(page)).total);
  assert.equal(small + large, BigInt(all.total), 'the two ranges split the profile');
  await filter.fill('nokey=1');
  await filter.press('Enter');
  await page.locator('[data-testid=label-filter-error]').waitFor();
  assert.match(await page.textContent('[data-testid=label-filter-error]'), /no label "nokey".*bytes/);
  await filter.fill('');
  await filter.press('Enter');
  await page.waitForFunction((t) => document.querySelector('[data-testid=status]').dataset.total === t, all.total);
  await settle(page);

  await page.click('[data-testid=info-toggle]');
  const info = await page.textContent('[data-testid=profile-info]');
  assert.match(info, /drop_frames.*applied as pprof does/);
  assert.match(info, /sample types/);
  await page.click('[data-testid=info-toggle]');

  // Group by label: the frames at depth 1 are `api=…` pseudo roots (or the unlabelled samples' own roots).
  await page.setInputFiles('[data-testid=open-file]', path.join(DATA, 'parca-labels.pb.gz'));
  await waitForProfile(page, 'parca-labels.pb.gz');
  await page.selectOption('[data-testid=root-select]', 'label:api');
  // The view engine builds the tree grouped by label: wait for it before reading the graph.
  await settle(page);
  const names = [];
  for (const x of [0.01, 0.2, 0.4, 0.6, 0.8, 0.99]) {
    const pt = await framePoint(page, x, 1);
    await page.mouse.move(pt.x, pt.y);
    const n = await page.waitForSelector('.tt-name', { timeout: 2000 }).then((e) => e.textContent()).catch(() => null);
    if (n) names.push(n);
  }
  assert.ok(names.includes('api=query'), `api=query among the roots: ${names}`);
  await page.screenshot({ path: outFile('pprof-labels.png') });
});
