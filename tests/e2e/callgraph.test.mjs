// The call graph (view 7, issue 43's browser part) on a real Go CPU profile (crates/core/tests/data/pprof/
// parca-profile-with-labels.pb.gz: 36 nodes and 82 edges after pprof's pruning, names full of regex characters; one
// of the files crates/cli/tests/callgraph.rs checks against `go tool pprof -dot`), opened by `#url=`.
// Oracle: the native CLI's `scorch graph --json` (pprof's default pruning) and `scorch graph --focus RE --json` of
// the same file. The graph is read back through `window.__scorchGraph()` (crates/app/src/testing/graph.rs) and the
// tooltip's numbers; clicks land on the boxes' drawn centres.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, browser, waitForProfile, outFile, ROOT } from './harness.mjs';

const DATA = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'pprof');
const NAME = 'parca-profile-with-labels.pb.gz';
const FILE = path.join(DATA, NAME);
const CLI = path.join(ROOT, 'target', 'debug', 'scorch');

/** `scorch graph --json [args] FILE`. */
const cliGraph = (args = []) =>
  JSON.parse(execFileSync(CLI, ['graph', '--json', ...args, FILE], { encoding: 'utf8', maxBuffer: 1 << 26 }));
/** The node with the largest cum (ties: the first in pprof's order). */
const hottest = (nodes) => nodes.reduce((a, n) => (BigInt(n.cum) > BigInt(a.cum) ? n : a));

let server, b;
before(async () => {
  server = await serve(undefined, '/', { '/pprof/': DATA });
  b = await browser();
});
after(async () => { await b?.close(); await server?.close(); });

const graph = (page) => page.evaluate(() => window.__scorchGraph?.() ?? null);
/** Waits for a graph built with this focus (null: none) on the page. */
async function waitForGraph(page, focus = null) {
  await page.waitForFunction((f) => {
    const g = window.__scorchGraph?.();
    return g && g.focus === f && g.nodes.length > 0 && !document.querySelector('[data-testid=graph-building]');
  }, focus, { timeout: 60000 });
  return graph(page);
}
/** Drags the graph until node `name`'s centre is on the canvas, well inside; returns that node. */
async function reveal(page, name) {
  for (let i = 0; i < 20; i++) {
    const n = (await graph(page)).nodes.find((x) => x.name === name);
    const r = await page.evaluate(() => {
      const c = document.querySelector('[data-testid=graph-canvas]').getBoundingClientRect();
      return { left: c.left, top: c.top, width: c.width, height: c.height };
    });
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    if (Math.abs(n.x - cx) < r.width / 2 - 60 && Math.abs(n.y - cy) < r.height / 2 - 40) return n;
    const step = (d, max) => Math.max(-max, Math.min(max, d));
    const dx = step(cx - n.x, r.width / 2 - 20), dy = step(cy - n.y, r.height / 2 - 20);
    await page.mouse.move(cx - dx / 2, cy - dy / 2);
    await page.mouse.down();
    await page.mouse.move(cx, cy, { steps: 4 });
    await page.mouse.move(cx + dx / 2, cy + dy / 2, { steps: 4 });
    await page.mouse.up();
  }
  throw new Error(`could not bring ${name} into view`);
}

let focusRe, focusCount;

test('key 7 shows the call graph; its hottest node has the CLI’s cum; a click selects it', async () => {
  const { page } = b;
  const cli = cliGraph();
  const hot = hottest(cli.nodes);
  await page.goto(`${server.url}#url=${encodeURIComponent('/pprof/' + NAME)}`);
  await waitForProfile(page, NAME);
  await page.keyboard.press('7');
  const g = await waitForGraph(page);
  await page.screenshot({ path: outFile('callgraph-light.png') });
  assert.equal(await page.getAttribute('[data-testid=view-mode-graph]', 'class').then((c) => c.includes('active')), true);
  // The same graph as the CLI's: nodes and their numbers in pprof's order, edge count, total.
  assert.equal(g.total, String(cli.total));
  assert.deepEqual(g.nodes.map((n) => [n.name, n.flat, n.cum]), cli.nodes.map((n) => [n.name, String(n.flat), String(n.cum)]));
  assert.equal(g.edges, cli.edges.length);
  assert.equal(g.dropped_nodes, cli.dropped_nodes);
  const legend = await page.textContent('[data-testid=graph-legend]');
  assert.match(legend, new RegExp(`${cli.dropped_nodes} nodes \\(cum ≤ [^)]+\\) dropped`));
  // The hottest node: its cum in the hook and in the tooltip as the CLI gives it.
  const n = await reveal(page, hot.name);
  assert.equal(n.cum, String(hot.cum));
  await page.mouse.move(n.x, n.y);
  await page.waitForSelector('[data-testid=graph-tooltip]');
  assert.equal(await page.getAttribute('[data-testid=graph-tooltip]', 'data-cum'), String(hot.cum));
  assert.equal(await page.textContent('[data-testid=graph-tooltip] .tt-name'), hot.name);
  // A click selects its function: the function table (4) has that row selected.
  await page.mouse.click(n.x, n.y);
  await page.waitForFunction((name) => document.querySelector('[data-testid=selected-name]')?.textContent === name, hot.name);
  // (The table lists its first rows by self; by total the hottest is among them.)
  await page.keyboard.press('4');
  await page.waitForSelector('[data-testid=sort-total]');
  await page.click('[data-testid=sort-total]');
  await page.waitForSelector('[data-testid=fn-row].selected', { state: 'attached' });
  assert.equal(await page.getAttribute('[data-testid=fn-row].selected', 'data-name'), hot.name);
  const href = await page.evaluate(() => location.href);
  assert.ok(href.includes('sel='), href);
});

test('the keyboard walks along the edges; Focus keeps only a function’s neighbourhood, as --focus does', async () => {
  const { page } = b;
  const cli = cliGraph();
  const hot = hottest(cli.nodes);
  await page.keyboard.press('7');
  await waitForGraph(page);
  // The clicked node is the keyboard's; ↓ goes to its heaviest callee, Enter selects it.
  await page.focus('[data-testid=graph-canvas]');
  const byName = new Map(cli.nodes.map((x, i) => [x.name, i]));
  const callees = cli.edges.filter((e) => e.from === byName.get(hot.name))
    .sort((a, c) => c.weight - a.weight || a.to - c.to);
  assert.ok(callees.length > 0, 'the hottest node calls something');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const callee = cli.nodes[callees[0].to].name;
  await page.waitForFunction((name) => document.querySelector('[data-testid=selected-name]')?.textContent === name, callee);
  // Focus on a function in the middle of the graph: the first (pprof's order) with callers and callees drawn.
  const mid = cli.nodes.find((x, i) => x.name !== hot.name
    && cli.edges.some((e) => e.to === i) && cli.edges.some((e) => e.from === i));
  const m = await reveal(page, mid.name);
  await page.mouse.click(m.x, m.y);
  await page.waitForFunction((name) => document.querySelector('[data-testid=selected-name]')?.textContent === name, mid.name);
  await page.click('[data-testid=graph-focus]');
  await page.waitForFunction(() => window.__scorchGraph?.()?.focus);
  focusRe = (await graph(page)).focus;
  const g = await waitForGraph(page, focusRe);
  const focused = cliGraph(['--focus', focusRe]);
  assert.ok(focused.nodes.length < cli.nodes.length && focused.nodes.length > 2,
    `${focused.nodes.length} of ${cli.nodes.length}`);
  assert.equal(g.nodes.length, focused.nodes.length);
  assert.deepEqual(g.nodes.map((x) => [x.name, x.cum]), focused.nodes.map((x) => [x.name, String(x.cum)]));
  assert.equal(g.total, String(focused.total));
  assert.ok(g.nodes.some((x) => x.name === mid.name));
  focusCount = g.nodes.length;
  assert.match(await page.textContent('[data-testid=graph-focus-chip]'), /focus/);
  await page.screenshot({ path: outFile('callgraph-focus-light.png') });
});

test('a link opened fresh shows the graph with the same focus', async () => {
  const { page } = b;
  await page.click('[data-testid=copy-link]');
  await page.locator('[data-testid=copy-link-text]').waitFor();
  const link = await page.inputValue('[data-testid=copy-link-text]');
  assert.ok(link.includes('mode=graph') && link.includes('gf='), link);
  const d = await browser({ colorScheme: 'dark' });
  try {
    await d.page.goto(link);
    await waitForProfile(d.page, NAME);
    const g = await waitForGraph(d.page, focusRe);
    assert.equal(g.nodes.length, focusCount);
    assert.equal(await d.page.getAttribute('[data-testid=view-mode-graph]', 'class').then((c) => c.includes('active')), true);
    await d.page.screenshot({ path: outFile('callgraph-focus-dark.png') });
    assert.deepEqual(d.errors.filter((e) => !e.includes('Failed to load resource')), []);
  } finally { await d.close(); }
  // Clearing the focus shows the whole graph again.
  await page.keyboard.press('Escape');
  await page.click('[data-testid=graph-unfocus]');
  const whole = await waitForGraph(page, null);
  assert.equal(whole.nodes.length, cliGraph().nodes.length);
  const d2 = await browser({ colorScheme: 'dark' });
  try {
    await d2.page.goto(`${server.url}#url=${encodeURIComponent('/pprof/' + NAME)}&mode=graph`);
    await waitForProfile(d2.page, NAME);
    await waitForGraph(d2.page);
    await d2.page.screenshot({ path: outFile('callgraph-dark.png') });
  } finally { await d2.close(); }
  assert.deepEqual(b.errors.filter((e) => !e.includes('Failed to load resource')), []);
});

test('without a worker the page builds the same graph itself', async () => {
  const d = await browser();
  try {
    await d.page.goto(`${server.url}#url=${encodeURIComponent('/pprof/' + NAME)}`);
    await waitForProfile(d.page, NAME);
    // Every worker started from now on (the view engine the graph asks for) never says it is ready.
    await d.page.evaluate(() => { window.__scorchSilentWorkers = 300; });
    await d.page.keyboard.press('7');
    const g = await waitForGraph(d.page);
    const cli = cliGraph();
    assert.deepEqual(g.nodes.map((n) => [n.name, n.cum]), cli.nodes.map((n) => [n.name, String(n.cum)]));
    assert.equal(g.edges, cli.edges.length);
    assert.deepEqual(d.errors.filter((e) => !e.includes('Failed to load resource')), []);
  } finally { await d.close(); }
});
