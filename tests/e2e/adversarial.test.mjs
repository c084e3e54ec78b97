// Hostile and broken files in the browser: the page survives, says what is wrong, and keeps the open profile;
// names are text, never markup; a very deep stack draws at both ends.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { openApp, waitForProfile, settle, pixelAt, outFile } from './harness.mjs';

let app, b;
before(async () => { app = await openApp(); b = app.b; });
after(async () => { await app?.close(); });

const open = (page, name, buffer) => page.setInputFiles('[data-testid=open-file]', { name, mimeType: 'application/octet-stream', buffer });
let seed = 7;
const noise = Buffer.from(Array.from({ length: 4096 }, () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed & 255; }));
const gz = zlib.gzipSync(Buffer.from('main;a 1\n'.repeat(20000)));

const BAD = [
  ['empty.txt', Buffer.alloc(0), /empty/],
  ['one-byte.txt', Buffer.from('a'), /not a profile/],
  ['random.bin', noise, /./],
  ['image.png', Buffer.from('\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10', 'latin1'), /PNG/],
  ['truncated.gz', gz.subarray(0, gz.length >> 1), /gzip/],
  ['overflow.folded', Buffer.from('a 18446744073709551615\nb 1\n'), /2\^64.*line 2/],
  ['huge-length.pb', Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x08]), /broken or truncated pprof/],
];

test('every broken file gives an error and the open profile stays', async () => {
  const { page } = b;
  const before = await page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset }));
  for (const [name, buffer, want] of BAD) {
    await open(page, name, buffer);
    await page.waitForFunction((n) => document.querySelector('[data-testid=error]')?.textContent.includes(n), name);
    assert.match(await page.textContent('[data-testid=error]'), want, name);
    const now = await page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset }));
    assert.deepEqual([now.format, now.samples, now.total], [before.format, before.samples, before.total], `${name}: the open profile stays`);
  }
  await page.screenshot({ path: outFile('adversarial-error.png') });
});

test('names are text, never markup', async () => {
  const { page } = b;
  const evil = '<img src=x onerror="window.__pwned=1">';
  await open(page, 'evil.folded', Buffer.from(`main;${evil};"quoted; or not";\u202Egnp.exe 3\nmain;other 1\n`));
  await waitForProfile(page, 'evil.folded');
  const p = await page.evaluate((n) => window.__scorchFramePoint(n), evil);
  assert.ok(p, 'the frame is drawn');
  await page.mouse.move(p[0], p[1]);
  await page.waitForSelector('.tt-name');
  assert.equal(await page.textContent('.tt-name'), evil, 'the tooltip shows the name as text');
  assert.equal(await page.evaluate(() => document.querySelectorAll('.tooltip img').length), 0);
  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'nothing from the profile ran');
});

test('a 5,000-frame stack draws at both ends', async () => {
  const { page } = b;
  const frames = Array.from({ length: 5000 }, (_, i) => `f${i}`).join(';');
  await open(page, 'deep.folded', Buffer.from(`${frames} 9\n`));
  const s = await waitForProfile(page, 'deep.folded');
  assert.equal(s.total, '9');
  const canvas = await page.evaluate(() => { const c = document.querySelector('[data-testid=flame-canvas]'); return { h: c.height, depth: c.dataset.depth }; });
  assert.equal(canvas.depth, '5001');
  assert.ok(canvas.h < 32767, `the canvas stays within browser limits (${canvas.h} px)`);
  // Flame mode opens at the root (bottom); the root row is drawn.
  const root = await page.evaluate(() => { const r = document.querySelector('[data-testid=flame-canvas]').getBoundingClientRect(); return { x: r.left + 20, y: r.bottom - 9 }; });
  assert.equal((await pixelAt(page, root))[3], 255, 'root drawn');
  // Scroll to the top: the leaf (f4999) is drawn and can be hovered.
  await page.evaluate(() => { document.querySelector('.flame-scroll').scrollTop = 0; });
  await settle(page);
  const leaf = await page.evaluate(() => window.__scorchFramePoint('f4999'));
  assert.ok(leaf, 'the leaf is on screen after scrolling up');
  await page.mouse.move(leaf[0], leaf[1]);
  await page.waitForFunction(() => document.querySelector('.tt-name')?.textContent === 'f4999');
  await page.screenshot({ path: outFile('deep-stack.png') });
  assert.deepEqual(b.errors, []);
});
