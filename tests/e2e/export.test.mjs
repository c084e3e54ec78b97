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
import os from 'node:os';
import { openApp, outFile, ROOT, browser, waitForProfile, settle } from './harness.mjs';

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

test('the menu opens with e and lists the five exports', async () => {
  const { page } = app.b;
  await page.keyboard.press('e');
  await page.locator('[data-testid=export-menu]').waitFor();
  const items = await page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=export-menu] button')].map((b) => b.textContent));
  assert.deepEqual(items, ['SVG (vector)', 'PNG (2×)', 'Folded stacks', 'pprof (.pb.gz)', 'One HTML file']);
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

test('one HTML file: opened from file:// in a fresh browser, the same totals, zoom and view', async () => {
  const own = await browser();
  const { page } = own;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-html-'));
  try {
    // A view worth keeping: a search and a zoom into main.
    await page.goto(`${app.server.url}#url=${encodeURIComponent('www/demo/service.perf.gz')}&q=parse`);
    await waitForProfile(page, 'service.perf.gz');
    for (let i = 0; i < 20; i++) {
      const p = await page.evaluate(() => window.__scorchFramePoint('main'));
      if (p) await page.mouse.click(p[0], p[1]);
      if ((await page.getAttribute('[data-testid=flame-canvas]', 'data-zoom') || '').endsWith('main')) break;
      await page.waitForTimeout(100);
    }
    await settle(page);
    const state = (pg) => pg.evaluate(() => ({
      total: document.querySelector('[data-testid=status]').dataset.total,
      zoom: document.querySelector('[data-testid=flame-canvas]').dataset.zoom,
      search: document.querySelector('[data-testid=search]').value,
      matched: document.querySelector('[data-testid=matched]')?.dataset.value ?? null,
    }));
    const before = await state(page);
    assert.match(before.zoom, /main$/);
    assert.ok(before.matched, 'the search matches');
    await page.keyboard.press('e');
    await page.locator('[data-testid=export-menu]').waitFor();
    await page.click('[data-testid=export-html]');
    await page.waitForFunction(() => /HTML file written: [0-9.]+ MB/.test(document.querySelector('[data-testid=export-note]')?.textContent));
    // The file's bytes, as base64 (a few MB: one string, not an array of numbers).
    const { name, b64 } = await page.evaluate(() => {
      const u8 = window.__scorchLastExport.bytes;
      let s = '';
      for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode.apply(null, u8.subarray(i, i + 0x8000));
      return { name: window.__scorchLastExport.name, b64: btoa(s) };
    });
    assert.equal(name, 'service.html');
    const file = path.join(dir, name);
    fs.writeFileSync(file, Buffer.from(b64, 'base64'));
    const fresh = await browser();
    try {
      await fresh.page.goto(`file://${file}`);
      await waitForProfile(fresh.page, 'service.perf.gz');
      await settle(fresh.page);
      assert.deepEqual(await state(fresh.page), before);
      await fresh.page.screenshot({ path: outFile('export-html-file.png') });
      assert.deepEqual(fresh.errors, []);
    } finally { await fresh.close(); }
    assert.deepEqual(own.errors, []);
  } finally {
    await own.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('scorch export --to html writes a page that opens from file:// with the CLI\'s totals', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-html-cli-'));
  const file = path.join(dir, 'demo.html');
  cli(['export', '--to', 'html', '--viewer', path.join(ROOT, 'dist'), DEMO, '-o', file]);
  const info = cli(['info', DEMO]).toString('utf8');
  const total = info.match(/^total:\s+(\d+)/m)[1];
  const fresh = await browser();
  try {
    await fresh.page.goto(`file://${file}`);
    await waitForProfile(fresh.page, 'service.perf.gz');
    await fresh.page.waitForFunction((t) => document.querySelector('[data-testid=status]').dataset.total === t, total);
    // Timestamps came along: the heatmap is there.
    assert.ok(await fresh.page.locator('[data-testid=heatmap-canvas]').count());
    assert.deepEqual(fresh.errors, []);
  } finally {
    await fresh.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
