// A large call tree comes to the page cut to what can be drawn (crates/core/src/view/cut.rs, issue 39): the nodes
// of at least 1/65,536 of the total, each run of narrower siblings one stand-in. A zoom into a node whose cut could
// now show asks the view engine for a finer cut of that subtree, which the page grafts in. The oracle is the
// generated text itself: its totals, its distinct call paths, which leaf weighs what.
// Test hook: `window.__scorchTree(pane?)` (the pane's tree: nodes, cut, stand-ins, the zoom).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, browser, waitForProfile, settle, pixelAt, DIST, outFile } from './harness.mjs';

const LONG = { timeout: 90_000 };
// Ten hot leaves of 100,000 and 120,000 leaves of weight 1 under ten `cold` frames (12,000 each); c3 weighs 12:
// under the first cut (1,120,011 / 65,536 = 17) but wider than a pixel once cold3 is zoomed.
const HOT = 10, HOT_W = 100_000, COLD = 10, LEAVES = 120_000;
const lines = [];
for (let j = 0; j < HOT; j++) lines.push(`main;hot;h${j} ${HOT_W}`);
for (let i = 0; i < LEAVES; i++) lines.push(`main;cold${i % COLD};c${i} ${i === 3 ? 12 : 1}`);
const TEXT = lines.join('\n') + '\n';
const TOTAL = lines.reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
const COLD_W = LEAVES + 11; // every leaf under cold, c3's 11 more
// Distinct call paths + the root: the whole tree's nodes.
const prefixes = new Set();
for (const l of lines) {
  const frames = l.slice(0, l.lastIndexOf(' ')).split(';');
  for (let d = 1; d <= frames.length; d++) prefixes.add(frames.slice(0, d).join(';'));
}
const WHOLE_NODES = prefixes.size + 1;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-cut-'));
fs.writeFileSync(path.join(dir, 'cut.folded'), TEXT);
let server, b;
before(async () => { server = await serve(DIST, '/', { '/gen/': dir }); b = await browser(); });
after(async () => { await b?.close(); await server?.close(); fs.rmSync(dir, { recursive: true, force: true }); });

const tree = (page, pane) => page.evaluate((p) => window.__scorchTree(p), pane);
const point = (page, name) => page.evaluate((n) => window.__scorchFramePoint(n), name);
const matched = (page) => page.getAttribute('[data-testid=matched]', 'data-value');

async function openLink(page, hash) {
  await page.goto(`${server.url}#url=${encodeURIComponent(`${server.url}gen/cut.folded`)}${hash}`);
  await waitForProfile(page, 'cut.folded', LONG);
  await settle(page);
}

test('a large tree is cut: stand-ins for narrower frames, the figures still whole; a zoom draws what was cut', LONG, async () => {
  const { page } = b;
  await openLink(page, '');
  assert.equal((await page.evaluate(() => document.querySelector('[data-testid=status]').dataset.total)), String(TOTAL));
  const t = await tree(page);
  assert.equal(t.cut, true, 'cut');
  assert.equal(t.standins, COLD, 'one stand-in per cold frame: its 12,000 leaves are each under the cut');
  assert.ok(t.nodes < 100, `${t.nodes} nodes on the page, of ${WHOLE_NODES}`);
  assert.equal(await point(page, 'c3'), null, 'c3 is not on the page yet');

  // The search's matched share counts what the stand-ins hide: every sample under cold.
  await page.fill('[data-testid=search]', 'c');
  await settle(page);
  const want = (COLD_W / TOTAL) * 100;
  assert.ok(Math.abs(Number(await matched(page)) - want) < 1e-9, `matched ${await matched(page)} want ${want}`);
  await page.fill('[data-testid=search]', '');
  await settle(page);

  // A stand-in's tooltip says how many frames it stands for.
  const s = await point(page, '(narrower frames)');
  assert.ok(s, 'a stand-in is drawn');
  // As the whole graph draws 12,000 frames narrower than a pixel: the slivers' colour (render/draw.rs), no box.
  assert.deepEqual(await pixelAt(page, { x: s[0], y: s[1] }), [214, 196, 176, 255], 'a stand-in draws as slivers');
  await page.mouse.move(s[0], s[1]);
  await page.waitForSelector('[data-testid=tooltip]');
  assert.match(await page.textContent('[data-testid=tooltip]'), /12,000 narrower frames/);

  // Zooming into cold3 asks for its finer cut: its 12,000 leaves arrive, c3 (12 samples) is drawn.
  const c3 = await point(page, 'cold3');
  await page.mouse.click(c3[0], c3[1]);
  await page.waitForFunction(() => window.__scorchFramePoint('c3') !== null, null, LONG);
  await settle(page);
  const z = await tree(page);
  assert.equal(z.zoom, 'cold3');
  assert.equal(z.zoomFiner, false, 'the zoom needs no finer cut any more');
  assert.equal(z.nodes, t.nodes + LEAVES / COLD, 'cold3’s leaves added (its stand-in stays, listed nowhere, weighing nothing)');
  assert.equal(z.standins, COLD - 1);
  await page.mouse.move(...(await point(page, 'c3')));
  await page.waitForFunction(() => document.querySelector('[data-testid=tooltip] .tt-name')?.textContent === 'c3');
  assert.match(await page.textContent('[data-testid=tooltip-total]'), /^12 samples/);
  await page.screenshot({ path: outFile('cut-zoom.png') });

  // Back out, then a click on a stand-in zooms to its caller.
  await page.keyboard.press('Escape');
  await settle(page);
  const s2 = await point(page, '(narrower frames)');
  await page.mouse.click(s2[0], s2[1]);
  await settle(page);
  assert.match((await tree(page)).zoom, /^cold\d$/, 'the stand-in’s caller');
  assert.deepEqual(b.errors, []);
});

test('a link’s zoom through a stand-in arrives; the call-tree table has every node', LONG, async () => {
  const { page } = b;
  await openLink(page, '&zoom=main;cold7;c1207');
  await page.waitForFunction(() => window.__scorchTree()?.zoom === 'c1207', null, LONG);
  await page.keyboard.press('5');
  await settle(page);
  const t = await tree(page);
  assert.equal(t.cut, false, 'the call tree is whole');
  assert.equal(t.nodes, WHOLE_NODES);
  assert.deepEqual(b.errors, []);
});
