// The call graph (view 7, issue 43's browser part) on a real Go CPU profile (crates/core/tests/data/pprof/
// parca-profile-with-labels.pb.gz: 36 nodes and 82 edges after pprof's pruning, names full of regex characters; one
// of the files crates/cli/tests/callgraph.rs checks against `go tool pprof -dot`), opened by `#url=`.
// Oracle: the native CLI's `scorch graph --json` (pprof's default pruning) and `scorch graph --focus RE --json` of
// the same file, and with the pruning flags the view's controls set (`--nodecount`, `--nodefraction`,
// `--edgefraction`). The graph is read back through `window.__scorchGraph()` (crates/app/src/testing/graph.rs) and
// the tooltip's numbers; clicks land on the boxes' drawn centres. The SVG export is parsed by the browser's own XML
// parser (DOMParser) and checked against the CLI's numbers (and a percent written by this file's own rule).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, browser, waitForProfile, openFile, settle, outFile, ROOT } from './harness.mjs';

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
  await settle(page);
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

/** Sets the graph's pruning fields (those given) and applies them; waits for the graph built with them. */
async function prune(page, { count, nodes, edges }) {
  if (count !== undefined) await page.fill('[data-testid=graph-nodecount]', String(count));
  if (nodes !== undefined) await page.fill('[data-testid=graph-nodefraction]', String(nodes));
  if (edges !== undefined) await page.fill('[data-testid=graph-edgefraction]', String(edges));
  await page.click('[data-testid=graph-prune-apply]');
  return waitForPruned(page, { count, nodes, edges });
}
async function waitForPruned(page, want) {
  await page.waitForFunction((w) => {
    const g = window.__scorchGraph?.();
    return g && (w.count === undefined || g.node_count === w.count) && (w.nodes === undefined || g.node_fraction === w.nodes)
      && (w.edges === undefined || g.edge_fraction === w.edges) && !document.querySelector('[data-testid=graph-building]');
  }, want, { timeout: 60000 });
  await settle(page);
  return graph(page);
}
/** The graph on the page is the CLI's for these flags: nodes (names, flat, cum, in pprof's order), edges, total,
 *  what was dropped; the legend says so. */
async function sameAsCli(page, g, args) {
  const cli = cliGraph(args);
  assert.equal(g.nodes.length, cli.nodes.length, args.join(' '));
  assert.equal(hottest(g.nodes).cum, String(hottest(cli.nodes).cum));
  assert.deepEqual(g.nodes.map((n) => [n.name, n.flat, n.cum]), cli.nodes.map((n) => [n.name, String(n.flat), String(n.cum)]));
  assert.equal(g.edges, cli.edges.length);
  assert.equal(g.total, String(cli.total));
  assert.deepEqual([g.dropped_nodes, g.dropped_edges], [cli.dropped_nodes, cli.dropped_edges]);
  const legend = await page.textContent('[data-testid=graph-legend]');
  assert.ok(legend.startsWith(`${cli.nodes.length} nodes, ${cli.edges.length} edges`), legend);
  if (cli.dropped_nodes) assert.match(legend, new RegExp(`${cli.dropped_nodes} nodes \\(cum ≤ [^)]+\\) dropped`));
  if (cli.dropped_edges) assert.match(legend, new RegExp(`${cli.dropped_edges} edges \\(freq ≤ [^)]+\\) dropped`));
  return cli;
}

test('the pruning controls give the graph scorch graph gives with the same flags; a link keeps them', async () => {
  const { page } = b;
  await page.keyboard.press('7');
  await waitForGraph(page);
  // pprof's defaults on the fields.
  assert.deepEqual(await Promise.all(['nodecount', 'nodefraction', 'edgefraction'].map((k) => page.inputValue(`[data-testid=graph-${k}]`))),
    ['80', '0.005', '0.001']);
  // 10 "nodes" are 4 here: each node's label tags count against -nodecount, as pprof counts them.
  let g = await prune(page, { count: 10 });
  const ten = await sameAsCli(page, g, ['--nodecount', '10']);
  assert.ok(ten.nodes.length < 10 && ten.nodes.length > 1, `${ten.nodes.length}`);
  // Both fractions: nodes and edges dropped, both counts in the legend.
  g = await prune(page, { count: 20, nodes: 0.01, edges: 0.02 });
  const cut = await sameAsCli(page, g, ['--nodecount', '20', '--nodefraction', '0.01', '--edgefraction', '0.02']);
  assert.ok(cut.dropped_nodes > 0 && cut.dropped_edges > 0, JSON.stringify([cut.dropped_nodes, cut.dropped_edges]));
  // A fraction out of range is put back, and changes nothing.
  await page.fill('[data-testid=graph-nodefraction]', '1.5');
  await page.click('[data-testid=graph-prune-apply]');
  await page.waitForFunction(() => document.querySelector('[data-testid=graph-nodefraction]').value === '0.01');
  // The link carries them; opened fresh, the same graph and the same fields.
  await page.click('[data-testid=copy-link]');
  await page.locator('[data-testid=copy-link-text]').waitFor();
  const link = await page.inputValue('[data-testid=copy-link-text]');
  assert.ok(link.includes('gn=20') && link.includes('gnf=0.01') && link.includes('gef=0.02'), link);
  await page.keyboard.press('Escape');
  const d = await browser();
  try {
    await d.page.goto(link);
    await waitForProfile(d.page, NAME);
    const h = await waitForPruned(d.page, { count: 20, nodes: 0.01, edges: 0.02 });
    await sameAsCli(d.page, h, ['--nodecount', '20', '--nodefraction', '0.01', '--edgefraction', '0.02']);
    assert.deepEqual(await Promise.all(['nodecount', 'nodefraction', 'edgefraction'].map((k) => d.page.inputValue(`[data-testid=graph-${k}]`))),
      ['20', '0.01', '0.02']);
    assert.deepEqual(d.errors.filter((e) => !e.includes('Failed to load resource')), []);
  } finally { await d.close(); }
  // All: every node and edge (pprof's -nodefraction=0 -edgefraction=0 -nodecount=0); Defaults: back to pprof's.
  await page.click('[data-testid=graph-prune-all]');
  g = await waitForPruned(page, { count: 0, nodes: 0, edges: 0 });
  await sameAsCli(page, g, ['--nodecount', '0', '--nodefraction', '0', '--edgefraction', '0']);
  await page.click('[data-testid=graph-prune-default]');
  g = await waitForPruned(page, { count: 80, nodes: 0.005, edges: 0.001 });
  await sameAsCli(page, g, []);
  assert.ok(!(await page.evaluate(() => location.hash)).includes('gn='));
});

/** Exports the shown graph as SVG (the Export menu) and reads it back parsed by the page's own XML parser:
 *  `{ text, error, nodes: [{ name, flat, cum, title, lines }], edges: [weight], scripts }`. */
async function exportGraphSvg(page) {
  await page.evaluate(() => { window.__scorchLastExport = null; });
  await page.keyboard.press('Escape');
  await page.click('[data-testid=export-toggle]');
  await page.locator('[data-testid=export-menu]').waitFor();
  await page.click('[data-testid=export-svg]');
  await page.waitForFunction(() => window.__scorchLastExport?.name.endsWith('.graph.svg'), null, { timeout: 20000 });
  return page.evaluate(() => {
    const text = new TextDecoder().decode(window.__scorchLastExport.bytes);
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const error = doc.querySelector('parsererror')?.textContent ?? null;
    const nodes = [...doc.querySelectorAll('g.node')].map((g) => ({
      name: g.getAttribute('data-name'), flat: g.getAttribute('data-flat'), cum: g.getAttribute('data-cum'),
      title: g.querySelector('title')?.textContent, lines: [...g.querySelectorAll('text')].map((t) => t.textContent),
      fill: g.querySelector('rect')?.getAttribute('fill'),
    }));
    const edges = [...doc.querySelectorAll('g.edge')].map((g) => g.getAttribute('data-weight'));
    return { text, error, root: doc.documentElement.localName, nodes, edges, scripts: doc.getElementsByTagName('script').length };
  });
}
/** pprof's percent as scorch writes it (`format_percent`): 1 decimal from 10 %, 2 from 0.1 %, else 3. */
const percent = (part, whole) => {
  const p = Number(part) / Number(whole) * 100;
  return p === 0 ? '0 %' : `${p.toFixed(p >= 10 ? 1 : p >= 0.1 ? 2 : 3)} %`;
};

test('Export → SVG while the graph is shown writes the drawn graph: one box per node with the CLI’s numbers', async () => {
  const { page } = b;
  await page.keyboard.press('7');
  const g = await waitForGraph(page);
  const cli = cliGraph();
  const svg = await exportGraphSvg(page);
  fs.writeFileSync(outFile('callgraph-export.svg'), svg.text);
  assert.equal(svg.error, null);
  assert.equal(svg.root, 'svg');
  // One box per drawn node, in pprof's order, with the CLI's exact numbers and labels.
  assert.equal(svg.nodes.length, g.nodes.length);
  assert.deepEqual(svg.nodes.map((n) => [n.name, n.flat, n.cum]), cli.nodes.map((n) => [n.name, String(n.flat), String(n.cum)]));
  for (const [i, n] of svg.nodes.entries()) {
    const c = cli.nodes[i];
    assert.equal(n.lines.length, 3);
    // The name, or its end after `..` where the box is too narrow.
    assert.ok(n.lines[0] === c.name || (n.lines[0].startsWith('..') && c.name.endsWith(n.lines[0].slice(2))), n.lines[0]);
    assert.ok(n.lines[1].startsWith('flat ') && n.lines[1].endsWith(`(${percent(c.flat, cli.total)})`), n.lines[1]);
    assert.ok(n.lines[2].startsWith('cum ') && n.lines[2].endsWith(`(${percent(c.cum, cli.total)})`), n.lines[2]);
    assert.ok(n.title.startsWith(c.name + '\n'), n.title);
    assert.match(n.fill, /^rgb\(\d+,\d+,\d+\)$/);
  }
  // One edge per CLI edge, the same weights.
  assert.deepEqual(svg.edges.map(Number).sort((a, c) => a - c), cli.edges.map((e) => e.weight).sort((a, c) => a - c));
  // It renders: the browser shows it as an image.
  const img = await page.evaluate((text) => new Promise((resolve) => {
    const i = new Image();
    i.onload = () => resolve([i.naturalWidth, i.naturalHeight]);
    i.onerror = () => resolve(null);
    i.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(text);
  }), svg.text);
  assert.ok(img && img[0] > 100 && img[1] > 100, JSON.stringify(img));
});

test('a function named <script> stays text in the exported SVG', async () => {
  const names = ['main', '<script>alert(1)</script>', 'a&b "q" \'x\'', ']]><z>'];
  const folded = [`${names[0]};${names[1]};${names[2]} 30`, `${names[0]};${names[1]} 20`, `${names[0]};${names[3]} 10`].join('\n') + '\n';
  const file = outFile('callgraph-script.folded');
  fs.writeFileSync(file, folded);
  const d = await browser();
  try {
    await d.page.goto(server.url);
    await waitForProfile(d.page, 'service.perf.gz');
    await openFile(d.page, file, 'callgraph-script.folded');
    await d.page.keyboard.press('7');
    await waitForGraph(d.page);
    const svg = await exportGraphSvg(d.page);
    const cli = JSON.parse(execFileSync(CLI, ['graph', '--json', file], { encoding: 'utf8' }));
    assert.equal(svg.error, null);
    assert.equal(svg.scripts, 0);
    assert.deepEqual(svg.nodes.map((n) => [n.name, n.cum]), cli.nodes.map((n) => [n.name, String(n.cum)]));
    for (const name of names) {
      const n = svg.nodes.find((x) => x.name === name);
      assert.ok(n, name);
      assert.equal(n.lines[0], name);
    }
    assert.ok(svg.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.deepEqual(d.errors.filter((e) => !e.includes('Failed to load resource')), []);
  } finally { await d.close(); }
});

test('an engine that never starts: the graph view says so and the profile stays; the next request builds the graph', async () => {
  const d = await browser();
  try {
    await d.page.goto(`${server.url}#url=${encodeURIComponent('/pprof/' + NAME)}`);
    const st = await waitForProfile(d.page, NAME);
    // Every worker started from now on never says it is ready; the engine started ahead when the page was idle
    // after the load is ended, so the graph's request starts a new one (silent).
    await d.page.evaluate(() => { window.__scorchSilentWorkers = 300; window.__scorchEngineEnd(); });
    await d.page.keyboard.press('7');
    await d.page.waitForSelector('[data-testid=error]', { timeout: 20000 });
    const err = await d.page.textContent('[data-testid=error]');
    const after = await d.page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset }));
    assert.deepEqual([after.total, after.loads], [st.total, st.loads], 'the open profile stays');
    assert.match(err, /Could not build the call graph: the view engine could not start: it did not start within 0\.3 s/);
    await d.page.evaluate(() => { delete window.__scorchSilentWorkers; });
    await d.page.keyboard.press('1');
    await d.page.keyboard.press('7');
    const g = await waitForGraph(d.page);
    const cli = cliGraph();
    assert.deepEqual(g.nodes.map((n) => [n.name, n.cum]), cli.nodes.map((n) => [n.name, String(n.cum)]));
    assert.equal(g.edges, cli.edges.length);
    assert.deepEqual(d.errors.filter((e) => !e.includes('Failed to load resource')), []);
  } finally { await d.close(); }
});

test('the call graph shown and left within one frame: no page error, and the page goes on', async () => {
  // The graph asks for a paint when it mounts; left before that frame, the paint found its signals disposed and
  // panicked, which ends the page's wasm (the previous build, both engines).
  const d = await browser();
  try {
    await d.page.goto(`${server.url}#url=${encodeURIComponent('/pprof/' + NAME)}`);
    await waitForProfile(d.page, NAME);
    await d.page.evaluate(() => new Promise((resolve) => {
      document.querySelector('[data-testid=view-mode-graph]').click();
      setTimeout(() => { document.querySelector('[data-testid=view-mode-flame]').click(); resolve(); }, 0);
    }));
    await d.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.deepEqual(d.errors, []);
    await settle(d.page);
    await d.page.keyboard.press('7');
    const g = await waitForGraph(d.page);
    assert.equal(g.nodes.length, cliGraph().nodes.length);
    assert.deepEqual(d.errors.filter((e) => !e.includes('Failed to load resource')), []);
  } finally { await d.close(); }
});
