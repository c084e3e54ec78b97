// The call-tree table (view 5, issue 27 item 3) on a real perf recording (crates/core/tests/data/perf/
// fg-example-perf-stacks.txt.gz), keyboard only. Oracle: the native CLI's `scorch fold` (and `--invert`) of the
// same file, read here into a prefix tree — a node's total is the sum of the stacks with its path as a prefix, its
// self the stacks that end there; children heaviest first (ties by name), the heaviest path follows first children.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, browser, waitForProfile, settle, outFile, ROOT } from './harness.mjs';

const FILE = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'perf', 'fg-example-perf-stacks.txt.gz');
const CLI = path.join(ROOT, 'target', 'debug', 'scorch');

/** `scorch fold [args] FILE` as a prefix tree: { total, self, kids: Map(name → node) }; kinds (`_[k]`) stripped. */
function foldTree(args = []) {
  const out = execFileSync(CLI, ['fold', ...args, FILE], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const root = { total: 0, self: 0, kids: new Map() };
  for (const line of out.split('\n').filter(Boolean)) {
    const sp = line.lastIndexOf(' ');
    const w = Number(line.slice(sp + 1));
    let n = root;
    n.total += w;
    for (const f of line.slice(0, sp).split(';').map((f) => f.replace(/_\[[kji]\]$/, ''))) {
      if (!n.kids.has(f)) n.kids.set(f, { total: 0, self: 0, kids: new Map() });
      n = n.kids.get(f);
      n.total += w;
    }
    n.self += w;
  }
  return root;
}
/** Children of a fold-tree node as [name, node], heaviest first, ties by name (byte order; these are ASCII). */
const sorted = (n) => [...n.kids].sort((a, b) => b[1].total - a[1].total || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

let server, b;
before(async () => {
  server = await serve();
  b = await browser();
  await b.page.goto(server.url);
  await waitForProfile(b.page, 'service.perf.gz');
  await b.page.setInputFiles('[data-testid=open-file]', FILE);
  await waitForProfile(b.page, 'fg-example-perf-stacks.txt.gz');
});
after(async () => { await b?.close(); await server?.close(); });

/** The focused row (the grid's aria-activedescendant) as its attributes. */
const focused = (page) => page.evaluate(() => {
  const g = document.querySelector('[data-testid=call-tree]');
  const r = document.getElementById(g.getAttribute('aria-activedescendant'));
  if (!r) return null;
  const body = document.querySelector('.ct-body').getBoundingClientRect(), box = r.getBoundingClientRect();
  return { name: r.dataset.name, total: Number(r.dataset.total), self: Number(r.dataset.self),
    level: Number(r.getAttribute('aria-level')), pos: Number(r.getAttribute('aria-posinset')),
    size: Number(r.getAttribute('aria-setsize')), expanded: r.getAttribute('aria-expanded'),
    inView: box.top >= body.top - 1 && box.bottom <= body.bottom + 1,
    cells: [...r.querySelectorAll('[role=gridcell]')].map((c) => c.textContent) };
});

/** From the focused row, goes (keyboard only) down the given path of child ranks (0 = heaviest). */
async function walk(page, ranks) {
  for (const k of ranks) {
    if ((await focused(page)).expanded !== 'true') await page.keyboard.press('ArrowRight'); // expand
    await page.keyboard.press('ArrowRight'); // to the first child
    for (let i = 0; i < k; i++) await page.keyboard.press('ArrowDown');
  }
}

test('key 5 shows the call tree; walking a path by keyboard gives the CLI’s totals', async () => {
  const { page } = b;
  const fold = foldTree();
  await page.keyboard.press('5');
  await page.waitForSelector('[data-testid=call-tree] [data-testid=ct-row]');
  await settle(page);
  // Row 0 is the root, expanded; the grid has the focus.
  let f = await focused(page);
  assert.deepEqual([f.name, f.total, f.level, f.expanded], ['all', fold.total, 1, 'true']);
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'call-tree');
  // A path that is not the heaviest: the second process, down its heaviest children to the first node with two
  // or more, then that one's second child.
  const ranks = [1];
  for (let m = sorted(fold)[1][1]; m.kids.size > 0; m = sorted(m)[0][1]) {
    if (m.kids.size >= 2 && ranks.length >= 2) { ranks.push(1); break; }
    ranks.push(0);
  }
  assert.ok(ranks.length >= 3 && ranks.at(-1) === 1, `ranks ${ranks}`);
  await walk(page, ranks);
  let n = fold;
  const names = [];
  for (const k of ranks) {
    const [name, node] = sorted(n)[k];
    names.push(name);
    n = node;
  }
  f = await focused(page);
  assert.equal(f.name, names.at(-1), `path ${names.join(';')}`);
  assert.deepEqual([f.total, f.self, f.level], [n.total, n.self, ranks.length + 1], `totals of ${names.join(';')}`);
  const parent = ranks.slice(0, -1).reduce((m, k) => sorted(m)[k][1], fold);
  assert.deepEqual([f.pos, f.size], [ranks.at(-1) + 1, parent.kids.size]);
  assert.ok(f.inView);
  // The cells: total, total %, self, self %, samples (from `scorch fold --count`), name.
  const counted = ranks.reduce((m, k) => m.kids.get(sorted(m)[k][0]), foldTree(['--count']));
  const samples = (v) => (v === 1 ? '1 sample' : `${v.toLocaleString('en-US')} samples`);
  assert.equal(f.cells.length, 6);
  assert.equal(f.cells[0], samples(n.total));
  assert.ok(Math.abs(parseFloat(f.cells[1]) - 100 * n.total / fold.total) < 0.051, f.cells[1]);
  assert.equal(f.cells[2], n.self === 0 ? '0 samples' : samples(n.self));
  assert.ok(Math.abs(parseFloat(f.cells[3]) - 100 * n.self / fold.total) < 0.051, f.cells[3]);
  assert.equal(f.cells[4], counted.total.toLocaleString('en-US'));
  assert.equal(f.cells[5].replace(/^[▸▾]/, ''), names.at(-1));
  // Left collapses nothing (a leaf or collapsed) and goes to the parent; Left again collapses it.
  await page.keyboard.press('ArrowLeft');
  f = await focused(page);
  assert.equal(f.name, names.at(-2));
  await page.keyboard.press('ArrowLeft');
  f = await focused(page);
  assert.deepEqual([f.name, f.expanded], [names.at(-2), 'false']);
});

test('* expands the heaviest path from the focused row', async () => {
  const { page } = b;
  const fold = foldTree();
  const heavy = [];
  for (let n = fold; n.kids.size > 0;) { const [name, node] = sorted(n)[0]; heavy.push(name); n = node; }
  await page.keyboard.press('Home');
  await page.keyboard.press('*');
  let f = await focused(page);
  assert.equal(f.name, heavy.at(-1));
  assert.equal(f.level, heavy.length + 1);
  assert.ok(f.inView);
  // Rows 0… are the root and the path, each expanded but the leaf.
  await page.keyboard.press('Home');
  const got = [];
  for (let i = 0; i <= heavy.length; i++) {
    f = await focused(page);
    got.push(f.name);
    assert.equal(f.expanded, i < heavy.length ? 'true' : null, f.name);
    await page.keyboard.press('ArrowDown');
  }
  assert.deepEqual(got, ['all', ...heavy]);
  await page.screenshot({ path: outFile('calltree-light.png') });
});

test('selection: a row selects its function; a frame selected in the flame graph is revealed in the table', async () => {
  const { page } = b;
  const fold = foldTree();
  // Enter on a row selects its function (the explore bar says so), and the flame graph outlines it.
  await page.keyboard.press('Home');
  await walk(page, [0, 0]);
  const f = await focused(page);
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.querySelector('[data-testid=selected-name]')?.textContent === n, f.name);
  await page.keyboard.press('1');
  await page.waitForSelector('[data-testid=flame-canvas]');
  await settle(page);
  assert.equal(await page.evaluate(() => document.querySelector('[data-testid=selected-name]')?.textContent), f.name);
  // Clicking a frame in the flame graph (a deep one, not shown in the table yet) selects it; the table reveals it.
  const heavy = [];
  for (let n = sorted(fold)[1][1]; n.kids.size > 0 && heavy.length < 4;) { const [name, node] = sorted(n)[0]; heavy.push(name); n = node; }
  const name = heavy.at(-1);
  const pt = await page.evaluate((n) => window.__scorchFramePoint(n), name);
  assert.ok(pt, `frame ${name} drawn`);
  await page.mouse.click(pt[0], pt[1]);
  await page.waitForFunction((n) => document.querySelector('[data-testid=selected-name]')?.textContent === n, name);
  await page.keyboard.press('5');
  await settle(page);
  await page.waitForFunction((n) => {
    const g = document.querySelector('[data-testid=call-tree]');
    return g && document.getElementById(g.getAttribute('aria-activedescendant'))?.dataset.name === n;
  }, name);
  const r = await focused(page);
  assert.ok(r.inView);
  assert.ok(await page.evaluate(() => document.querySelector('.ct-row.focused.selected') !== null));
  await page.evaluate(() => document.querySelector('[data-testid=sel-clear]').click());
});

test('the inverted checkbox shows the bottom-up tree of `scorch fold --invert`', async () => {
  const { page } = b;
  const inv = foldTree(['--invert']);
  await page.click('[data-testid=ct-inverted]');
  await page.waitForFunction(() => document.querySelector('[data-testid=ct-inverted]').checked);
  await settle(page); // the inverted tree comes from the view engine; walking before it lands walks the old tree
  await page.focus('[data-testid=call-tree]');
  await page.keyboard.press('Home');
  await walk(page, [0, 0]);
  const [proc, pnode] = sorted(inv)[0];
  const [leaf, lnode] = sorted(pnode)[0];
  await page.waitForFunction((n) => {
    const g = document.querySelector('[data-testid=call-tree]');
    return document.getElementById(g.getAttribute('aria-activedescendant'))?.dataset.name === n;
  }, leaf);
  const f = await focused(page);
  assert.deepEqual([f.name, f.total, f.self, f.level], [leaf, lnode.total, lnode.self, 3], proc);
  await page.click('[data-testid=ct-inverted]');
  await settle(page);
});

test('a million-row-class tree keeps few rows in the DOM', async () => {
  const { page } = b;
  const nodes = await page.evaluate(() => window.__scorchBenchTree(300000));
  assert.ok(nodes > 250000, `${nodes} nodes`);
  await page.waitForSelector('[data-testid=call-tree] [data-testid=ct-row]');
  await page.focus('[data-testid=call-tree]');
  await page.keyboard.press('Home');
  await page.keyboard.press('*');
  await page.keyboard.press('End');
  const [shown, inDom] = await page.evaluate(() => [
    Number(document.querySelector('[data-testid=call-tree]').dataset.rows),
    document.querySelectorAll('[data-testid=ct-row]').length]);
  assert.ok(shown > 250, `${shown} rows shown`);
  assert.ok(inDom < 100, `${inDom} rows in the DOM`);
  assert.equal((await focused(page)).inView, true);
});

test('dark theme screenshot', async () => {
  const d = await browser({ colorScheme: 'dark' });
  try {
    await d.page.goto(server.url);
    await waitForProfile(d.page, 'service.perf.gz');
    await d.page.setInputFiles('[data-testid=open-file]', FILE);
    await waitForProfile(d.page, 'fg-example-perf-stacks.txt.gz');
    await d.page.keyboard.press('5');
    await d.page.waitForSelector('[data-testid=ct-row]');
    await d.page.keyboard.press('*');
    await d.page.screenshot({ path: outFile('calltree-dark.png') });
    assert.deepEqual(d.errors.filter((e) => !e.includes('Failed to load resource')), []);
  } finally { await d.close(); }
  assert.deepEqual(b.errors.filter((e) => !e.includes('Failed to load resource')), []);
});
