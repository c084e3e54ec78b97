// The Export menu (toolbar button and `e`) on the demo profile: each entry offers a file, read back through the
// testing hook `window.__scorchLastExport`. Oracles: the native CLI (`target/debug/scorch`) for the same file —
// the folded download equals `scorch fold`, the SVG equals `scorch export --to svg --width W` byte for byte (W: the
// pane's width, read from the SVG; the app's title is the CLI's default and the file name is the CLI's default
// `--name`, the file's base name), the pprof download folds (`scorch fold`) to the same stacks; the PNG's header
// (IHDR) says 2× the SVG's size. Screenshots: the open menu, and the exported SVG rendered by the browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openApp, outFile, ROOT } from './harness.mjs';

const DEMO = path.join(ROOT, 'www', 'demo', 'service.perf.gz');
const CLI = path.join(ROOT, 'target', 'debug', 'scorch');
const cli = (args) => execFileSync(CLI, args, { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 });

let app;
before(async () => { app = await openApp(); });
after(async () => { await app?.close(); });

/** Clicks an entry of the menu (opened by `e`) and returns the offered file's name and bytes. */
async function exportAs(page, id, ext) {
  await page.evaluate(() => { window.__scorchLastExport = null; });
  if (!(await page.locator('[data-testid=export-menu]').count())) await page.keyboard.press('e');
  await page.locator('[data-testid=export-menu]').waitFor();
  await page.click(`[data-testid=${id}]`);
  await page.waitForFunction((ext) => window.__scorchLastExport?.name.endsWith(ext), ext, { timeout: 20000 });
  const { name, bytes } = await page.evaluate(() => ({
    name: window.__scorchLastExport.name, bytes: Array.from(window.__scorchLastExport.bytes) }));
  return { name, bytes: Buffer.from(bytes) };
}

test('the menu opens with e and lists the four exports', async () => {
  const { page } = app.b;
  await page.keyboard.press('e');
  await page.locator('[data-testid=export-menu]').waitFor();
  const items = await page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=export-menu] button')].map((b) => b.textContent));
  assert.deepEqual(items, ['SVG (vector)', 'PNG (2×)', 'Folded stacks', 'pprof (.pb.gz)']);
  await page.screenshot({ path: outFile('export-menu.png') });
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('[data-testid=export-menu]'));
});

test('folded download equals scorch fold', async () => {
  const { page } = app.b;
  const f = await exportAs(page, 'export-folded', '.folded');
  assert.equal(f.name, 'service.folded');
  assert.equal(f.bytes.toString('utf8'), cli(['fold', DEMO]).toString('utf8'));
});

test('SVG download equals scorch export --to svg byte for byte, and renders', async () => {
  const { page } = app.b;
  const f = await exportAs(page, 'export-svg', '.svg');
  const svg = f.bytes.toString('utf8');
  const width = svg.match(/<svg [^>]*width="(\d+)"/)[1];
  const native = cli(['export', '--to', 'svg', '--width', width, DEMO]).toString('utf8');
  fs.writeFileSync(outFile('export-demo.svg'), svg);
  assert.ok(svg.length > 2000, svg.slice(0, 600));
  assert.equal(svg, native);
  fs.writeFileSync(outFile('export-demo.svg'), svg);
});

test('PNG download is 2× the picture; pprof download folds to the same stacks', async () => {
  const { page } = app.b;
  const svg = (await exportAs(page, 'export-svg', '.svg')).bytes.toString('utf8');
  const [, w, h] = svg.match(/<svg [^>]*width="(\d+)" height="(\d+)"/);
  const png = await exportAs(page, 'export-png', '.png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.bytes.toString('latin1', 12, 16), 'IHDR');
  assert.equal(png.bytes.readUInt32BE(16), 2 * Number(w));
  assert.equal(png.bytes.readUInt32BE(20), 2 * Number(h));
  const pb = await exportAs(page, 'export-pprof', '.pb.gz');
  assert.deepEqual([...pb.bytes.subarray(0, 2)], [0x1f, 0x8b]);
  const file = outFile('export-demo.pb.gz');
  fs.writeFileSync(file, pb.bytes);
  assert.equal(cli(['fold', file]).toString('utf8'), cli(['fold', DEMO]).toString('utf8'));
});

test('the exported SVG renders as a flame graph (last: leaves the app)', async () => {
  const { page } = app.b;
  await page.goto('file://' + outFile('export-demo.svg'));
  await page.screenshot({ path: outFile('export-svg.png') });
  const boxes = await page.evaluate(() => document.querySelectorAll('g > rect').length);
  assert.ok(boxes > 10, `${boxes} boxes`);
});
