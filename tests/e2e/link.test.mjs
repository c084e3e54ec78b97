// Links carry the view: open a profile, set orientation, root, a heatmap range and a zoom, take the link, open it
// in a fresh browser and find the same state. A local file travels inside the link. Back steps out of a zoom.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import zlib from 'node:zlib';
import { openApp, browser, waitForProfile, settle, FIXTURES, ROOT } from './harness.mjs';

let app, b;
before(async () => { app = await openApp(); b = app.b; });
after(async () => { await app?.close(); });

const snapshot = (page) => page.evaluate(() => {
  const s = document.querySelector('[data-testid=status]').dataset;
  const c = document.querySelector('[data-testid=flame-canvas]').dataset;
  const h = document.querySelector('[data-testid=heatmap-canvas]')?.dataset ?? {};
  const text = (id) => document.querySelector(`[data-testid=${id}]`)?.textContent ?? null;
  return { total: s.total, samples: s.samples, format: s.format, zoom: c.zoom, orientation: c.orientation,
    rangeStart: h.rangeStartNs ?? null, rangeEnd: h.rangeEndNs ?? null,
    search: document.querySelector('[data-testid=search]').value,
    matched: document.querySelector('[data-testid=matched]')?.dataset.value ?? null,
    selected: text('selected-name'), transforms: text('transforms'),
    mode: document.querySelector('.explore .segmented button.active')?.dataset.testid ?? null };
});
async function takeLink(page) {
  await page.click('[data-testid=copy-link]');
  await page.locator('[data-testid=copy-link-text]').waitFor();
  const taken = { link: await page.inputValue('[data-testid=copy-link-text]'), size: await page.textContent('[data-testid=copy-link-size]') };
  // The panel (with a carried profile's scrub choices) stands over the controls below it.
  await page.click('.link-panel .link-row button:last-child');
  return taken;
}
/** Page coordinates of heatmap cell (column c, row r; row 0 at the bottom). */
function heatmapCell(page, c, r) {
  return page.evaluate(([c, r]) => {
    const cv = document.querySelector('[data-testid=heatmap-canvas]');
    const rect = cv.getBoundingClientRect();
    const cols = Number(cv.dataset.columns), rows = Number(cv.dataset.rows);
    return { x: rect.left + (c + 0.5) * rect.width / cols, y: rect.top + (rows - 1 - r + 0.5) * rect.height / rows };
  }, [c, r]);
}
async function zoomTo(page, name) {
  for (let i = 0; i < 20; i++) {
    const p = await page.evaluate((n) => window.__scorchFramePoint(n), name);
    if (p) { await page.mouse.click(p[0], p[1]); }
    const z = await page.getAttribute('[data-testid=flame-canvas]', 'data-zoom');
    if (z.endsWith(name)) return z;
    await page.waitForTimeout(100);
  }
  throw new Error(`could not zoom to ${name}`);
}

test('a link restores orientation, root, transforms, time range, zoom, selection and search in a fresh browser', async () => {
  const { page } = b;
  // A transform: merge __libc_start_call_main (selected by a click on its frame) into its callers.
  const libc = await page.evaluate(() => window.__scorchFramePoint('__libc_start_call_main'));
  await page.mouse.click(libc[0], libc[1]);
  await page.click('[data-testid=tx-merge]');
  await page.locator('[data-testid=transform-chip]').waitFor();
  await settle(page);
  await page.click('[data-testid=view-icicle]');
  await page.selectOption('[data-testid=root-select]', 'pid');
  await settle(page);
  // Seconds 2–3, the burst rows (600–800 ms: rows 30–39 of 50).
  const cell = (c, r) => heatmapCell(page, c, r);
  const a = await cell(2, 30), z = await cell(3, 39);
  await page.mouse.move(a.x, a.y); await page.mouse.down(); await page.mouse.move(z.x, z.y); await page.mouse.up();
  await page.waitForFunction(() => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs !== '');
  await settle(page);
  await zoomTo(page, 'deflate_block');
  await page.fill('[data-testid=search]', 'hash');
  await page.click('[data-testid=search-regex]');
  await settle(page);
  const want = await snapshot(page);
  assert.equal(want.orientation, 'icicle');
  assert.match(want.zoom, /^service-\d+;main;deflate_block$/, 'the merged frame is gone from the path');
  assert.equal(want.selected, 'deflate_block');
  assert.match(want.transforms, /merge: __libc_start_call_main/);
  assert.ok(Number(want.matched) > 0 && Number(want.matched) < 100, `matched ${want.matched}`);
  const { link, size } = await takeLink(page);
  assert.match(link, /#url=www\/demo\/service\.perf\.gz&/);
  assert.match(size, /names the hosted profile/);

  const fresh = await browser();
  try {
    await fresh.page.goto(link);
    await waitForProfile(fresh.page, 'service.perf.gz');
    await fresh.page.waitForFunction((z) => document.querySelector('[data-testid=flame-canvas]').dataset.zoom === z, want.zoom);
    await settle(fresh.page);
    assert.deepEqual(await snapshot(fresh.page), want);
    assert.deepEqual(fresh.errors, []);
  } finally { await fresh.close(); }

  // Back steps out of the zoom (zoom and range changes are history entries).
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('[data-testid=flame-canvas]').dataset.zoom === '');
  await settle(page);
  assert.equal((await snapshot(page)).rangeStart, want.rangeStart, 'the range stays');
});

test('a local file travels in the link, with its view mode, order, colours and search', async () => {
  const { page } = b;
  await page.click('[data-testid=view-flame]');
  await page.setInputFiles('[data-testid=open-file]', path.join(FIXTURES, 'simple.folded'));
  await waitForProfile(page, 'simple.folded');
  await page.click('[data-testid=search-regex]');
  await page.fill('[data-testid=search]', 'beta');
  await page.click('[data-testid=view-mode-inverted]');
  await page.selectOption('[data-testid=order-select]', 'heavy');
  await page.selectOption('[data-testid=color-select]', 'kind');
  await settle(page);
  await zoomTo(page, 'beta');
  const want = await snapshot(page);
  assert.equal(want.mode, 'view-mode-inverted');
  const { link, size } = await takeLink(page);
  assert.match(link, /#p=[A-Za-z0-9_-]+/);
  assert.match(size, /characters: the profile is in the link \(3 stacks\)/);
  const fresh = await browser();
  try {
    await fresh.page.goto(link);
    await waitForProfile(fresh.page, 'profile from the link');
    await fresh.page.waitForFunction((z) => document.querySelector('[data-testid=flame-canvas]').dataset.zoom === z, want.zoom);
    await settle(fresh.page);
    const got = await snapshot(fresh.page);
    assert.deepEqual(got, { ...want, samples: got.samples, format: got.format });
    assert.equal(await fresh.page.inputValue('[data-testid=order-select]'), 'heavy');
    assert.equal(await fresh.page.inputValue('[data-testid=color-select]'), 'kind');
  } finally { await fresh.close(); }
  await page.click('[data-testid=view-mode-flame]');
  await page.selectOption('[data-testid=order-select]', 'alpha');
  await page.selectOption('[data-testid=color-select]', 'name');
  await page.fill('[data-testid=search]', '');
  await page.click('[data-testid=search-regex]');
  await settle(page);
});

test('a local perf file travels with its timestamps: the receiver has the heatmap and the same range', async () => {
  const { page } = b;
  await page.setInputFiles('[data-testid=open-file]', path.join(ROOT, 'www', 'demo', 'service.perf.gz'));
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').textContent.startsWith('service.perf.gz')
    && document.querySelector('[data-testid=heatmap-canvas]'));
  await settle(page);
  const cell = (c, r) => heatmapCell(page, c, r);
  const a = await cell(4, 30), z = await cell(5, 39);
  await page.mouse.move(a.x, a.y); await page.mouse.down(); await page.mouse.move(z.x, z.y); await page.mouse.up();
  await page.waitForFunction(() => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs !== '');
  await settle(page);
  const want = await snapshot(page);
  const heat = await page.evaluate(() => ({ ...document.querySelector('[data-testid=heatmap-canvas]').dataset }));
  const { link, size } = await takeLink(page);
  assert.match(link, /#p=[A-Za-z0-9_-]+&.*range=/);
  assert.match(size, /with timestamps, so the heatmap and the time range come along/);
  const fresh = await browser();
  try {
    await fresh.page.goto(link);
    await waitForProfile(fresh.page, 'profile from the link');
    await fresh.page.locator('[data-testid=heatmap-canvas]').waitFor();
    await fresh.page.waitForFunction((s) => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs === s, want.rangeStart);
    await settle(fresh.page); // the range's graph comes from the view engine
    const got = await snapshot(fresh.page);
    assert.deepEqual([got.total, got.rangeStart, got.rangeEnd], [want.total, want.rangeStart, want.rangeEnd]);
    const h2 = await fresh.page.evaluate(() => ({ ...document.querySelector('[data-testid=heatmap-canvas]').dataset }));
    assert.deepEqual([h2.columns, h2.rows, h2.max, h2.originNs], [heat.columns, heat.rows, heat.max, heat.originNs]);
    assert.deepEqual(fresh.errors, []);
  } finally { await fresh.close(); }
});

test('a damaged link says so', async () => {
  const fresh = await browser();
  try {
    const base = app.server.url;
    await fresh.page.goto(`${base}#p=AAAA`);
    const err = fresh.page.locator('[data-testid=error]');
    await err.waitFor();
    assert.match(await err.textContent(), /damaged/);
  } finally { await fresh.close(); }
});

test('a link whose profile inflates past 256 MB is refused with the limit, and the page goes on', async () => {
  // 300 MB of one folded line deflated to ~0.3 MB: the page asks only whether it passes 1 MiB
  // (`links::inflates_past`) and leaves the rest to the import worker, which refuses it at the cap.
  const payload = zlib.deflateRawSync(Buffer.from('main;work 1\n'.repeat(25 << 20)), { level: 9 }).toString('base64url');
  const fresh = await browser();
  try {
    await fresh.page.goto(`${app.server.url}#p=${payload}`);
    const err = fresh.page.locator('[data-testid=error]');
    await err.waitFor({ timeout: 60_000 });
    assert.match(await err.textContent(), /inflates past 268435456 bytes/);
    assert.equal(await fresh.page.evaluate(() => new Promise((r) => setTimeout(() => r(42), 0))), 42, 'the page answers');
    await fresh.page.setInputFiles('[data-testid=open-file]', { name: 'after.folded', mimeType: 'text/plain', buffer: Buffer.from('main;a 2\n') });
    assert.equal((await waitForProfile(fresh.page, 'after.folded')).total, '2', 'a file opens after it');
    assert.deepEqual(fresh.errors, []);
  } finally { await fresh.close(); }
});

test('a diff of two local files travels in the link, both sides', async () => {
  const { page } = b;
  const DIFF = path.join(FIXTURES, '..', '..', '..', 'crates', 'core', 'tests', 'data', 'diff');
  await page.setInputFiles('[data-testid=open-file]', path.join(DIFF, 'inf-diff-before.txt'));
  await waitForProfile(page, 'inf-diff-before.txt');
  await page.setInputFiles('[data-testid=compare-file]', path.join(DIFF, 'inf-diff-after.txt'));
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.format === 'diff');
  await settle(page);
  const want = await page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset }));
  const { link, size } = await takeLink(page);
  assert.match(link, /#pb=[A-Za-z0-9_-]+&p=[A-Za-z0-9_-]+/);
  assert.match(size, /both profiles are in the link/);
  const fresh = await browser();
  try {
    await fresh.page.goto(link);
    await fresh.page.waitForFunction(() => document.querySelector('[data-testid=status]')?.dataset.format === 'diff');
    await settle(fresh.page);
    const got = await fresh.page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset }));
    assert.deepEqual([got.total, got.baseTotal], [want.total, want.baseTotal]);
  } finally { await fresh.close(); }
});

test('without a clipboard API (a site on plain http) Copy link still shows the link', async () => {
  // navigator.clipboard exists only in a secure context (https, localhost): on an intranet host served over plain
  // http it is undefined, in Chromium and Firefox alike. The test server is on 127.0.0.1 (secure), so take it away.
  const fresh = await browser();
  try {
    await fresh.page.goto(app.server.url);
    await waitForProfile(fresh.page, 'service.perf.gz');
    await fresh.page.evaluate(() => { Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true }); });
    const { link } = await takeLink(fresh.page);
    assert.match(link, /#url=www\/demo\/service\.perf\.gz/);
    assert.deepEqual(fresh.errors, []);
  } finally { await fresh.close(); }
});
