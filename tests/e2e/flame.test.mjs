// The foundation path as a user meets it: open a profile, read the numbers, hover, zoom, back out,
// switch orientation, survive a bad file, paste text, drop a file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { serve, browser, waitForProfile, framePoint, pixelAt, outFile, FIXTURES } from './harness.mjs';

let server, b;
before(async () => { server = await serve(); b = await browser(); });
after(async () => { await b?.close(); await server?.close(); });

const tooltip = (page) => page.locator('[data-testid=tooltip]');
const zoomOf = (page) => page.getAttribute('[data-testid=flame-canvas]', 'data-zoom');

test('the demo profile is open on start', async () => {
  const { page } = b;
  await page.goto(server.url);
  const s = await waitForProfile(page, 'service.perf.gz');
  // www/demo/service.perf.gz: 3,875 samples, 3.887 s of cpu-clock (checked by `scorch info`).
  assert.equal(s.format, 'perf-script');
  assert.equal(s.samples, '3875');
  assert.equal(s.total, '3886659875');
  await page.locator('[data-testid=heatmap-canvas]').waitFor();
  assert.equal(await page.getAttribute('[data-testid=heatmap-canvas]', 'data-columns'), '9');
  await page.screenshot({ path: outFile('demo.png') });
});

test('open a folded file: numbers, drawing, tooltip, zoom, Esc', async () => {
  const { page } = b;
  await page.setInputFiles('[data-testid=open-file]', path.join(FIXTURES, 'simple.folded'));
  const s = await waitForProfile(page, 'simple.folded');
  assert.deepEqual([s.format, s.samples, s.total], ['folded', '3', '100']);
  assert.match(s.text, /3 stack lines · total 100 samples/);

  // Layout (alphabetical): depth 1 main [0,1); depth 2 alpha [0,.75), gamma [.75,1); depth 3 beta [0,.6).
  const gamma = await framePoint(page, 0.875, 2);
  const px = await pixelAt(page, gamma);
  assert.equal(px[3], 255, 'gamma is drawn (opaque pixel)');
  assert.ok(px[0] > 150 && px[2] < 120, `gamma has a warm colour, got ${px}`);
  const empty = await framePoint(page, 0.875, 3);
  assert.equal((await pixelAt(page, empty))[3], 0, 'nothing is drawn above gamma');

  await page.mouse.move(gamma.x, gamma.y);
  await tooltip(page).waitFor();
  assert.match(await tooltip(page).locator('.tt-name').textContent(), /^gamma$/);
  assert.equal(await page.textContent('[data-testid=tooltip-total]'), '25 samples (25.0 %)');
  assert.equal(await page.textContent('[data-testid=tooltip-self]'), '25 samples (25.0 %)');

  const alpha = await framePoint(page, 0.3, 2);
  await page.mouse.move(alpha.x, alpha.y);
  await page.waitForFunction(() => document.querySelector('.tt-name')?.textContent === 'alpha');
  assert.equal(await page.textContent('[data-testid=tooltip-total]'), '75 samples (75.0 %)');
  assert.equal(await page.textContent('[data-testid=tooltip-self]'), '15 samples (15.0 %)');
  await page.screenshot({ path: outFile('hover.png') });

  // Click to zoom: alpha now spans the full width, beta 80 % of it.
  await page.mouse.click(alpha.x, alpha.y);
  await page.waitForFunction(() => document.querySelector('[data-testid=flame-canvas]').dataset.zoom === 'main;alpha');
  assert.match(await page.textContent('[data-testid=breadcrumb]'), /all›main›alpha/);
  const beta = await framePoint(page, 0.7, 3);
  await page.mouse.move(beta.x, beta.y);
  await page.waitForFunction(() => document.querySelector('.tt-name')?.textContent === 'beta');
  assert.equal(await page.textContent('[data-testid=tooltip-total]'), '60 samples (60.0 %)');
  assert.equal(await page.textContent('[data-testid=tooltip-zoom]'), '80.0 % of alpha');
  const outside = await framePoint(page, 0.9, 3);
  assert.equal((await pixelAt(page, outside))[3], 0, 'beta ends at 80 % of the zoomed width');
  await page.screenshot({ path: outFile('zoomed.png') });

  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.querySelector('[data-testid=flame-canvas]').dataset.zoom === '');
});

test('icicle puts the root at the top', async () => {
  const { page } = b;
  await page.click('[data-testid=view-icicle]');
  await page.waitForFunction(() => document.querySelector('[data-testid=flame-canvas]').dataset.orientation === 'icicle');
  const gamma = await framePoint(page, 0.875, 2);
  await page.mouse.move(gamma.x, gamma.y);
  await page.waitForFunction(() => document.querySelector('.tt-name')?.textContent === 'gamma');
  const top = await page.evaluate(() => document.querySelector('[data-testid=flame-canvas]').getBoundingClientRect().top);
  assert.ok(gamma.y - top < 3 * 18, 'depth 2 is near the top in icicle mode');
  await page.click('[data-testid=view-flame]');
});

test('a bad file shows an error and keeps the open profile', async () => {
  const { page } = b;
  await page.setInputFiles('[data-testid=open-file]', path.join(FIXTURES, 'not-a-profile.png'));
  const err = page.locator('[data-testid=error]');
  await err.waitFor();
  assert.match(await err.textContent(), /not-a-profile\.png.*not a profile.*PNG/);
  const s = await page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset }));
  assert.deepEqual([s.samples, s.total], ['3', '100'], 'the previous profile is still open');
  await page.screenshot({ path: outFile('error.png') });
});

test('skipped lines are counted and named', async () => {
  const { page } = b;
  await page.setInputFiles('[data-testid=open-file]', path.join(FIXTURES, 'bad-line.folded'));
  const s = await waitForProfile(page, 'bad-line.folded');
  assert.deepEqual([s.samples, s.total], ['2', '4']);
  assert.match(s.text, /1 line skipped/);
  assert.equal(await page.locator('[data-testid=error]').count(), 0, 'a good load clears the old error');
});

test('paste text opens it', async () => {
  const { page } = b;
  await page.click('[data-testid=paste-toggle]');
  await page.fill('[data-testid=paste-text]', 'x;y 7\nx;z 3\n');
  await page.click('[data-testid=paste-open]');
  let s = await waitForProfile(page, 'pasted text');
  assert.deepEqual([s.samples, s.total], ['2', '10']);
  // Any format, not only folded: pasted text is read by the import worker, as a file is (the page's wasm has
  // no importers).
  const loads = s.loads;
  await page.click('[data-testid=paste-toggle]');
  await page.fill('[data-testid=paste-text]',
    'app 1/1 [000] 1.000000: 1 cpu-clock:ppp: \n\t    1000 main+0x1 (/bin/app)\n\n' +
    'app 1/1 [000] 1.010000: 1 cpu-clock:ppp: \n\t    2000 work+0x1 (/bin/app)\n\t    1000 main+0x1 (/bin/app)\n\n');
  await page.click('[data-testid=paste-open]');
  await page.waitForFunction((n) => document.querySelector('[data-testid=status]')?.dataset.loads !== n, loads);
  s = await waitForProfile(page, 'pasted text');
  assert.deepEqual([s.format, s.samples], ['perf-script', '2']);
});

test('drop a file anywhere', async () => {
  const { page } = b;
  const text = fs.readFileSync(path.join(FIXTURES, 'simple.folded'), 'utf8');
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dropped.folded', { type: 'text/plain' }));
    document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, text);
  const s = await waitForProfile(page, 'dropped.folded');
  assert.deepEqual([s.samples, s.total], ['3', '100']);
  assert.deepEqual(b.errors, [], 'no page errors or console errors');
});
