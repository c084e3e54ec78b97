// Exploring a profile (issue 5): search with matched %, the function table, the sandwich, the inverted tree,
// ordering, transforms, colour schemes, keyboard and themes — on perf script, pprof and folded input.
// Expected numbers come from the native CLI (`scorch search`, `scorch top`, `scorch fold --transform`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, browser, waitForProfile, settle, pixelAt, outFile, FIXTURES, ROOT } from './harness.mjs';

const DATA = path.join(ROOT, 'crates', 'core', 'tests', 'data');
const DEMO = path.join(ROOT, 'www', 'demo', 'service.perf.gz');
const FILES = {
  perf: DEMO,
  pprof: path.join(DATA, 'pprof', 'parca-fib.pb.gz'),
  folded: path.join(DATA, 'folded', 'inf-base-flames.txt'),
};
const scorch = (...args) => execFileSync(path.join(ROOT, 'target', 'debug', 'scorch'), args, { encoding: 'utf8' });
/** `scorch search`: [matched, total, percent as printed]. */
const nativeSearch = (...args) => scorch('search', ...args).trim().split(' ');

let server, b;
before(async () => { server = await serve(); b = await browser(); });
after(async () => { await b?.close(); await server?.close(); });

async function open(file) {
  const { page } = b;
  if (!(await page.$('[data-testid=open-file]'))) {
    await page.goto(server.url);
    await waitForProfile(page, 'service.perf.gz');
  }
  // Each test starts without a search (the search deliberately survives a new file).
  if (await page.inputValue('[data-testid=search]')) await page.fill('[data-testid=search]', '');
  const loads = await page.getAttribute('[data-testid=status]', 'data-loads');
  await page.setInputFiles('[data-testid=open-file]', file);
  await page.waitForFunction((n) => document.querySelector('[data-testid=status]').dataset.loads !== n, loads);
  if (!(await page.$('[data-testid=flame-canvas]'))) await page.click('[data-testid=view-mode-flame]');
  return waitForProfile(page, path.basename(file));
}
const matched = (page) => page.getAttribute('[data-testid=matched]', 'data-value');
const status = (page) => page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset }));
const point = (page, name, pane = 'main') => page.evaluate(([n, p]) => window.__scorchFramePoint(n, p), [name, pane]);
async function search(page, text, { regex = false, kase = false } = {}) {
  await page.fill('[data-testid=search]', text);
  if ((await page.isChecked('[data-testid=search-regex]')) !== regex) await page.click('[data-testid=search-regex]');
  if ((await page.isChecked('[data-testid=search-case]')) !== kase) await page.click('[data-testid=search-case]');
  await settle(page);
}

test('search: matched % equals the native value on all three formats, matches highlighted, the rest dimmed', async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  for (const [file, pat, regex] of [[FILES.perf, 'hash', false], [FILES.pprof, 'math/big', false], [FILES.folded, 'vec$', true]]) {
    await open(file);
    await search(page, pat, { regex });
    const want = nativeSearch(file, pat, ...(regex ? ['--regex'] : []));
    assert.equal(await matched(page), want[2], `${path.basename(file)} ${pat}`);
    assert.match(await page.textContent('[data-testid=matched]'), /^Matched: \d+\.\d\d %/);
  }
  // Highlight and dimming on the demo: hash_bytes matches (magenta), parse_headers does not (dimmed).
  await open(FILES.perf);
  await search(page, 'hash_bytes');
  const hit = await pixelAt(page, { x: (await point(page, 'hash_bytes'))[0], y: (await point(page, 'hash_bytes'))[1] });
  assert.deepEqual(hit, [230, 0, 230, 255], 'a match is drawn magenta');
  const [px, py] = await point(page, 'parse_headers');
  const dim = await pixelAt(page, { x: px, y: py });
  assert.ok(dim[3] < 120, `a non-match is dimmed (alpha ${dim[3]})`);
  await page.screenshot({ path: outFile('search.png') });
  await search(page, '');
  const plain = await pixelAt(page, { x: px, y: py });
  assert.equal(plain[3], 255, 'without a search nothing is dimmed');
});

test('search: nested matches count once (never over 100 %), case and regex toggles, next/previous', async () => {
  const { page } = b;
  await open(path.join(FIXTURES, 'recursive.folded'));
  // f is nested in f: samples through f weigh 9 of 10.
  await search(page, 'f');
  assert.equal(await matched(page), '90');
  await search(page, '.', { regex: true });
  assert.equal(await matched(page), '100');
  await search(page, 'MAIN');
  assert.equal(await matched(page), '100', 'plain search ignores case by default');
  await search(page, 'MAIN', { kase: true });
  assert.equal(await matched(page), '0');
  await search(page, '^(g|h)$', { regex: true });
  assert.equal(await matched(page), '70');
  // Next match zooms to the top-most matches left to right: main;f;g (4) then main;g (3).
  await page.click('[data-testid=search-next]');
  await page.waitForFunction(() => document.querySelector('[data-testid=flame-canvas]').dataset.zoom === 'main;f;g');
  await page.focus('[data-testid=search]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=flame-canvas]').dataset.zoom === 'main;g');
  await page.keyboard.press('Shift+Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=flame-canvas]').dataset.zoom === 'main;f;g');
  assert.match(await page.textContent('[data-testid=matched]'), /1\/2/);
  // An invalid regex says so and keeps the view.
  await search(page, '(', { regex: true });
  assert.match(await page.textContent('[data-testid=search-error]'), /regular expression/);
});

test('the search term stays across view changes', async () => {
  const { page } = b;
  await open(FILES.perf);
  await search(page, 'hash');
  const before = await matched(page);
  await page.click('[data-testid=view-mode-inverted]');
  await settle(page);
  assert.equal(await page.inputValue('[data-testid=search]'), 'hash');
  assert.equal(await matched(page), before, 'the matched share of the inverted view is the same samples');
  await page.selectOption('[data-testid=weight-select]', 'count');
  await settle(page);
  assert.equal(await page.inputValue('[data-testid=search]'), 'hash');
  assert.equal(await matched(page), String(401 / 3875 * 100));
  await page.selectOption('[data-testid=weight-select]', 'weight');
  await settle(page);
  await page.click('[data-testid=view-mode-flame]');
  await search(page, '');
});

test('function table: every function with exact self and total, sortable, filtered by the search; a click selects', async () => {
  const { page } = b;
  for (const file of [FILES.perf, FILES.pprof, FILES.folded]) {
    await open(file);
    await page.click('[data-testid=view-mode-functions]');
    await settle(page); // the table comes from the view engine
    await page.locator('[data-testid=fn-row]').first().waitFor();
    const tsv = scorch('top', '-n', '0', '--tsv', file).trim().split('\n').map((l) => l.split('\t'));
    const count = Number(await page.getAttribute('[data-testid=function-count]', 'data-matching'));
    assert.equal(count, tsv.length, `${path.basename(file)}: one row per function`);
    // The heaviest self row (default sort) is `top`'s first line.
    const first = page.locator('[data-testid=fn-row]').first();
    assert.equal(await first.getAttribute('data-name'), tsv[0][2]);
  }
  // Exact values on the demo: hash_bytes self 401.20 ms (10.3 %), total 402.21 ms, 400 / 401 samples; its total
  // share's 95 % interval is ± 0.96 pp (statsmodels' Wilson interval of 401 of 3,875 samples: 9.43–11.35 %).
  await open(FILES.perf);
  await page.click('[data-testid=view-mode-functions]');
  await settle(page);
  const row = page.locator('[data-testid=fn-row][data-name=hash_bytes]');
  assert.deepEqual(await row.locator('td').allTextContents(),
    ['401.20 ms', '10.3 %', '402.21 ms', '10.3 %', '±1.0', '400', '401', 'hash_bytes']);
  // A new order's rows come a task or two after the click (their texts are made in a task of their own).
  await page.click('[data-testid=sort-name]');
  await settle(page);
  assert.equal(await page.locator('[data-testid=fn-row]').first().getAttribute('data-name'), '__irq_exit_rcu');
  await page.click('[data-testid=sort-total]');
  await settle(page);
  assert.equal(await page.locator('[data-testid=fn-row]').first().getAttribute('data-name'), '__libc_start_call_main');
  await search(page, 'parse');
  assert.deepEqual(await page.locator('[data-testid=fn-row]').evaluateAll((rs) => rs.map((r) => r.dataset.name)), ['parse_headers']);
  await page.locator('[data-testid=fn-row]').first().click();
  assert.equal(await page.textContent('[data-testid=selected-name]'), 'parse_headers');
  await search(page, '');
  await page.screenshot({ path: outFile('functions.png') });
  // Selected everywhere: back in the flame graph, its frames are outlined in blue.
  await page.click('[data-testid=view-mode-flame]');
  await settle(page);
  const [x, y] = await point(page, 'parse_headers');
  const box = await page.evaluate(() => document.querySelector('[data-testid=flame-canvas]').getBoundingClientRect().toJSON());
  // The outline runs along the frame's top edge, 1–2 px inside.
  const edge = await pixelAt(page, { x, y: y - 7.5 });
  assert.ok(edge[2] > 150 && edge[0] < 60, `outline is blue, got ${edge} (${box.width})`);
});

test('function table of 251 functions: its rows come on the page as it is scrolled, again after a re-sort and a search', async () => {
  // main calling f000…f249 with self weights 1…250: more rows than one chunk (100), fewer than the limit (500).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-fns-'));
  const file = path.join(dir, 'many-fns.txt');
  const fns = Array.from({ length: 250 }, (_, i) => `f${String(i).padStart(3, '0')}`);
  fs.writeFileSync(file, fns.map((f, i) => `main;${f} ${i + 1}\n`).join(''));
  try {
    const n = Number(scorch('top', '-n', '1000', file).match(/of (\d+) functions/)[1]);
    assert.equal(n, fns.length + 1);
    const { page } = b;
    const errors = b.errors.length;
    await open(file);
    await page.click('[data-testid=view-mode-functions]');
    await settle(page);
    const count = () => page.evaluate(() => document.querySelectorAll('[data-testid=fn-row]').length);
    // The rows come on the page as the table is scrolled (a screenful beyond the view): scrolled to its end until
    // there are `want`.
    const rows = (want) => page.waitForFunction((w) => {
      const t = document.querySelector('[data-testid=function-table]');
      t.scrollTop = t.scrollHeight;
      return document.querySelectorAll('[data-testid=fn-row]').length === w;
    }, want, { polling: 100 });
    const names = () => page.evaluate(() => [...document.querySelectorAll('[data-testid=fn-row]')].map((r) => r.dataset.name));
    // Before a scroll: the view and a screenful below it, not every row.
    const seen = await page.evaluate(() => {
      const t = document.querySelector('[data-testid=function-table]');
      return { height: t.clientHeight, rowHeight: t.querySelector('[data-testid=fn-row]').getBoundingClientRect().height };
    });
    await page.waitForTimeout(500);
    const first = await count();
    assert.ok(first >= 2 * seen.height / seen.rowHeight - 2 && first < n, `${first} rows before a scroll (${n} in all)`);
    await rows(n);
    let got = await names();
    assert.equal(new Set(got).size, n);
    assert.deepEqual(got.slice(0, 3), ['f249', 'f248', 'f247'], 'by self, heaviest first');
    // Sorted by name: a new set of rows, put on the page again from its first chunk, to the end.
    await page.click('[data-testid=sort-name]');
    await settle(page);
    await rows(n);
    got = await names();
    assert.deepEqual(got, [...fns, 'main']);
    // A search: the rows matching it, in the same order.
    await search(page, 'f');
    await rows(fns.length);
    assert.deepEqual(await names(), fns);
    assert.equal(await page.getAttribute('[data-testid=function-count]', 'data-matching'), String(fns.length));
    await search(page, '');
    await rows(n);
    assert.deepEqual(b.errors.slice(errors), []);
    await page.click('[data-testid=view-mode-flame]');
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('sandwich: callers above and callees below, both weighing the function total', async () => {
  const { page } = b;
  for (const [file, fn] of [[FILES.perf, 'handle_request'], [FILES.pprof, 'math/big.nat.add'], [FILES.folded, 'alloc::vec::Vec<u64>::Integer_encode_all']]) {
    await open(file);
    await page.click('[data-testid=view-mode-sandwich]');
    await settle(page); // the table of the new profile
    await page.locator(`[data-testid=fn-row][data-name="${fn}"]`).click();
    await settle(page); // both sides come from the view engine
    await page.locator('[data-testid=callers-canvas]').waitFor();
    await page.locator('[data-testid=callees-canvas]').waitFor();
    await page.waitForTimeout(100);
    const total = Number(nativeSearch(file, `^${fn.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, '--regex', '--case')[0]);
    for (const pane of ['callers', 'callees']) {
      const pt = await point(page, fn, pane);
      assert.ok(pt, `${fn} is drawn in the ${pane}`);
      await page.locator(`[data-testid=${pane}-canvas]`).scrollIntoViewIfNeeded();
      const p2 = await point(page, fn, pane);
      await page.mouse.move(p2[0], p2[1]);
      await page.waitForFunction((n) => [...document.querySelectorAll('.tt-name')].some((e) => e.textContent === n), fn);
      const text = await page.textContent('[data-testid=tooltip-total]');
      assert.match(text, /\(100\.0 %\)$/, `${pane}: the function is the whole ${pane} graph (${text})`);
      await page.mouse.move(0, 0);
    }
    // The callers' root is the function, each caller above: handle_request is called by main.
    if (fn === 'handle_request') {
      assert.ok(await point(page, 'main', 'callers'), 'main calls handle_request');
      assert.ok(await point(page, 'hash_bytes', 'callees'), 'handle_request calls hash_bytes');
      assert.equal(await point(page, 'hash_bytes', 'callers'), null);
      await page.screenshot({ path: outFile('sandwich.png'), fullPage: true });
    }
    assert.ok(total > 0);
  }
  await page.click('[data-testid=view-mode-flame]');
});

test('the sandwich shown and left within one frame, a function selected: no page error, and it then works', async () => {
  // Each side of the sandwich asks for a paint when it mounts; shown and left before that frame (the view, or the
  // selected function, changed within one frame), the paint must do nothing: read against the panes' disposed
  // values it would panic, which ends the page's wasm.
  const d = await browser();
  const { page } = d;
  try {
    await page.goto(server.url);
    await waitForProfile(page, 'service.perf.gz');
    const fn = 'handle_request';
    await page.click('[data-testid=view-mode-sandwich]');
    await settle(page);
    await page.locator(`[data-testid=fn-row][data-name="${fn}"]`).click();
    await settle(page);
    await page.locator('[data-testid=callers-canvas]').waitFor();
    await page.click('[data-testid=view-mode-flame]');
    await settle(page);
    const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // Shown (with the function selected, both sides mount) and left for each other view, within one frame.
    // (Each time, both sides were on the page when it was left, waiting for their first frame.)
    for (const to of ['flame', 'inverted', 'chart', 'flame', 'graph', 'flame']) {
      const mounted = await page.evaluate((to) => new Promise((resolve) => {
        document.querySelector('[data-testid=view-mode-sandwich]').click();
        setTimeout(() => {
          const both = ['callers', 'callees'].every((p) => document.querySelector(`[data-testid=${p}-canvas]`));
          document.querySelector(`[data-testid=view-mode-${to}]`).click();
          resolve(both);
        }, 0);
      }), to);
      assert.ok(mounted, `the sandwich was on the page before it was left for ${to}`);
      await frames();
    }
    assert.deepEqual(d.errors, []);
    // In the sandwich, another function selected and then this one again within one frame: each time both sides of
    // the function shown last are unmounted before their paint.
    await page.click('[data-testid=view-mode-sandwich]');
    await settle(page);
    for (let i = 0; i < 3; i++) {
      await page.evaluate((fn) => new Promise((resolve) => {
        const row = (n) => document.querySelector(`[data-testid=fn-row][data-name="${n}"]`);
        row('main').click();
        setTimeout(() => { row(fn).click(); resolve(); }, 0);
      }), fn);
      await frames();
    }
    assert.deepEqual(d.errors, []);
    // The page goes on: both sides draw the function, which is the whole of each.
    await settle(page);
    for (const pane of ['callers', 'callees']) {
      await page.locator(`[data-testid=${pane}-canvas]`).scrollIntoViewIfNeeded();
      const pt = await point(page, fn, pane);
      assert.ok(pt, `${fn} is drawn in the ${pane}`);
      await page.mouse.move(pt[0], pt[1]);
      await page.waitForFunction((n) => [...document.querySelectorAll('.tt-name')].some((e) => e.textContent === n), fn);
      assert.match(await page.textContent('[data-testid=tooltip-total]'), /\(100\.0 %\)$/);
      await page.mouse.move(0, 0);
    }
    assert.ok(await point(page, 'main', 'callers'), 'main calls handle_request');
    assert.equal(await point(page, 'hash_bytes', 'callers'), null);
    assert.deepEqual(d.errors, []);
  } finally { await d.close(); }
});

test('inverted tree: leaf functions at the root, merged across callers', async () => {
  const { page } = b;
  await open(FILES.perf);
  await page.click('[data-testid=view-mode-inverted]');
  await settle(page);
  // Under the process root, hash_bytes weighs its self time (all its callers merged): 401.20 ms.
  const [x, y] = await point(page, 'hash_bytes');
  await page.mouse.move(x, y);
  await page.locator('[data-testid=tooltip]').waitFor();
  assert.equal(await page.textContent('[data-testid=tooltip-total]'), '401.20 ms (10.3 %)');
  assert.equal(await page.getAttribute('[data-testid=flame-canvas]', 'data-depth'), await page.evaluate(() => document.querySelector('[data-testid=flame-canvas]').dataset.depth));
  await page.screenshot({ path: outFile('inverted.png') });
  // pprof and folded invert too: the total stays, the root's children are leaves.
  for (const file of [FILES.pprof, FILES.folded]) {
    await open(file);
    await settle(page);
    const s = await status(page);
    const leaf = scorch('top', '-n', '1', file).split('\n')[2].trim().split(/\s+/).pop();
    const pt = await point(page, leaf);
    assert.ok(pt, `${path.basename(file)}: ${leaf} is drawn`);
    const depth = await page.evaluate(([x, y]) => {
      const c = document.querySelector('[data-testid=flame-canvas]').getBoundingClientRect();
      return Math.floor((c.bottom - y) / 18);
    }, pt);
    assert.equal(depth, file === FILES.pprof ? 1 : 1, 'the hottest leaf sits right on the root');
    assert.equal(s.total, scorch('search', file, '.', '--regex').split(' ')[1]);
  }
  await page.click('[data-testid=view-mode-flame]');
});

test('ordering: alphabetical by default, left-heavy puts the heaviest sibling first', async () => {
  const { page } = b;
  await open(FILES.perf);
  await settle(page);
  const x = async (n) => (await point(page, n))[0];
  assert.ok(await x('deflate_block') < await x('parse_headers'), 'alphabetical: deflate_block left of parse_headers');
  await page.selectOption('[data-testid=order-select]', 'heavy');
  await settle(page);
  assert.ok(await x('parse_headers') < await x('deflate_block'), 'left-heavy: parse_headers (1.82 s) first');
  await page.click('[data-testid=status]');
  await page.keyboard.press('h');
  await settle(page);
  assert.ok(await x('deflate_block') < await x('parse_headers'), '`h` switches back');
});

test('transforms: focus, merge, hide, ignore, show-from, collapse recursion — chips, removal, undo', async () => {
  const { page } = b;
  const total = async () => (await status(page)).total;
  const chips = () => page.locator('[data-testid=transform-chip]').allTextContents();
  const nativeTotal = (file, ...ts) => scorch('search', file, '.', '--regex', ...ts.flatMap((t) => ['--transform', t])).split(' ')[1];

  await open(FILES.perf);
  const whole = await total();
  // Focus on handle_request (selected by a click on its frame).
  const [hx, hy] = await point(page, 'handle_request');
  await page.mouse.click(hx, hy);
  assert.equal(await page.textContent('[data-testid=selected-name]'), 'handle_request');
  await page.click('[data-testid=tx-focus]');
  await settle(page);
  assert.equal(await total(), nativeTotal(DEMO, 'focus:handle_request'));
  assert.deepEqual(await chips(), ['focus: handle_request×']);
  // Re-rooted: handle_request sits right on the process root.
  assert.equal(await page.getAttribute('[data-testid=flame-canvas]', 'data-zoom'), '');
  const [fx, fy] = await point(page, 'handle_request');
  const root = await page.evaluate(() => document.querySelector('[data-testid=flame-canvas]').getBoundingClientRect().bottom);
  assert.equal(Math.floor((root - fy) / 18), 2);
  // Hide a pattern on top of it: hash_bytes disappears, its weight stays with handle_request.
  await search(page, 'hash_bytes');
  await page.click('[data-testid=tx-hide]');
  await settle(page);
  await search(page, '');
  assert.equal(await point(page, 'hash_bytes'), null);
  assert.equal(await total(), nativeTotal(DEMO, 'focus:handle_request', 'hide::hash_bytes'));
  assert.equal((await chips()).length, 2);
  await page.screenshot({ path: outFile('transforms.png') });
  // Ctrl+Z removes the last (outside a text field, where it undoes typing); the chip's × removes any.
  await page.click('[data-testid=status]');
  await page.keyboard.press('Control+z');
  await settle(page);
  assert.ok(await point(page, 'hash_bytes'));
  await page.click('[data-testid=transform-remove]');
  await settle(page);
  assert.equal(await total(), whole);
  assert.equal((await chips()).length, 0);

  // Ignore and show-from by pattern; merge by selection — on pprof.
  await open(FILES.pprof);
  await search(page, 'runtime\\.', { regex: true });
  await page.click('[data-testid=tx-ignore]');
  await settle(page);
  assert.equal(await total(), nativeTotal(FILES.pprof, 'ignore:r:runtime\\.'));
  await page.click('[data-testid=transform-remove]');
  await settle(page);
  await search(page, 'main.fib');
  await page.click('[data-testid=tx-from]');
  await settle(page);
  assert.equal(await total(), nativeTotal(FILES.pprof, 'from::main.fib'));
  await search(page, '');
  await page.click('[data-testid=transform-remove]');
  await settle(page);

  // Collapse recursion on the recursive fixture: f never appears twice on a path.
  await open(path.join(FIXTURES, 'recursive.folded'));
  const [rx, ry] = await point(page, 'f');
  await page.mouse.click(rx, ry);
  await page.keyboard.press('Escape');
  await page.click('[data-testid=tx-rec]');
  await settle(page);
  assert.equal(await point(page, 'h') !== null, true);
  const depth = await page.getAttribute('[data-testid=flame-canvas]', 'data-depth');
  assert.equal(depth, String(scorch('fold', '--transform', 'rec:f', path.join(FIXTURES, 'recursive.folded'))
    .trim().split('\n').reduce((m, l) => Math.max(m, l.split(' ')[0].split(';').length), 0) + 1));
  await page.click('[data-testid=transform-remove]');
  await settle(page);
  await page.click('[data-testid=tx-drec]');
  await settle(page);
  assert.deepEqual(await chips(), ['collapse direct recursion: f×']);
  await page.click('[data-testid=transform-remove]');
  await settle(page);
  await page.click('[data-testid=tx-merge]');
  await settle(page);
  assert.equal(await point(page, 'f'), null, 'merged away');
  assert.equal(await total(), '10');
  await page.click('[data-testid=transform-remove]');
  await settle(page);
});

test('colour schemes: by name (same colour in every view), module, kind, self time; the legend says which', async () => {
  const { page } = b;
  await open(FILES.perf);
  await settle(page);
  const colour = async (name) => { const [x, y] = await point(page, name); return pixelAt(page, { x, y: y + 6 }); };
  const byName = await colour('parse_headers');
  await page.click('[data-testid=view-mode-inverted]');
  await settle(page);
  assert.deepEqual(await colour('parse_headers'), byName, 'the same function has the same colour in the inverted view');
  await page.click('[data-testid=view-mode-flame]');
  await settle(page);
  // Hues need no key: the colour control's title says where they come from (the legend stays empty).
  const colourTitle = () => page.evaluate(() => document.querySelector('[data-testid=color-select]').closest('label').title);
  assert.match(await colourTitle(), /function name/);
  assert.equal((await page.textContent('[data-testid=legend]')).trim(), '');
  await page.selectOption('[data-testid=color-select]', 'kind');
  await settle(page);
  assert.deepEqual(await colour('parse_headers'), [242, 179, 90, 255], 'user code');
  assert.deepEqual(await colour('do_syscall_64'), [232, 116, 59, 255], 'kernel');
  assert.match(await page.textContent('[data-testid=legend]'), /user.*kernel.*jit.*inline/);
  await page.selectOption('[data-testid=color-select]', 'self');
  await settle(page);
  assert.deepEqual(await colour('main'), [250, 240, 200, 255], 'main has no self time: palest');
  assert.deepEqual(await colour('hash_bytes'), [170, 28, 36, 255], 'hash_bytes is almost all self time: deepest');
  await page.selectOption('[data-testid=color-select]', 'module');
  await settle(page);
  assert.match(await colourTitle(), /module/);
  assert.deepEqual(await colour('do_syscall_64'), await colour('common_nsleep'), 'kernel frames share one module colour');
  await page.selectOption('[data-testid=color-select]', 'name');
});

test('keyboard: / focuses search, n next match, 1–4 switch views, r resets, ? lists the shortcuts', async () => {
  const { page } = b;
  await open(FILES.perf);
  await page.click('[data-testid=status]');
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'search');
  await page.keyboard.type('parse');
  await page.keyboard.press('Escape');
  await page.keyboard.press('n');
  await page.waitForFunction(() => document.querySelector('[data-testid=flame-canvas]').dataset.zoom.endsWith('parse_headers'));
  await page.keyboard.press('r');
  await page.waitForFunction(() => document.querySelector('[data-testid=flame-canvas]').dataset.zoom === '');
  await page.keyboard.press('2');
  await page.waitForSelector('[data-testid=view-mode-inverted].active');
  await settle(page);
  await page.keyboard.press('4');
  await page.waitForSelector('[data-testid=function-table]');
  await settle(page);
  await page.keyboard.press('1');
  await page.waitForSelector('[data-testid=view-mode-flame].active');
  await settle(page);
  await page.keyboard.press('?');
  await page.waitForSelector('[data-testid=shortcuts]');
  assert.match(await page.textContent('[data-testid=shortcuts]'), /focus the search/);
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=shortcuts]', { state: 'detached' });
  await search(page, '');
});

test('themes: follow the system setting, switchable', async () => {
  // The system setting is the browser's own (a launch option): no driver can change it in a running Firefox
  // (Playwright's emulateMedia is Chromium's DevTools protocol), so each system scheme gets a fresh browser.
  const bg = (page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const dark = await browser({ colorScheme: 'dark' });
  try {
    await dark.page.goto(server.url);
    await waitForProfile(dark.page, 'service.perf.gz');
    assert.equal(await bg(dark.page), 'rgb(23, 23, 26)', 'auto follows a dark system');
  } finally { await dark.close(); }
  const { page } = b; // a light system
  assert.equal(await bg(page), 'rgb(251, 251, 250)');
  await page.click('[data-testid=theme-toggle]'); // light
  await page.click('[data-testid=theme-toggle]'); // dark
  assert.equal(await page.getAttribute('[data-testid=theme-toggle]', 'data-theme'), 'dark');
  assert.equal(await bg(page), 'rgb(23, 23, 26)', 'dark chosen on a light system');
  await page.screenshot({ path: outFile('dark.png') });
  await page.click('[data-testid=theme-toggle]'); // auto
  assert.equal(await bg(page), 'rgb(251, 251, 250)');
});

test('a wide frame that starts in the same pixel as a sub-pixel one is drawn', async () => {
  const { page } = b;
  await open(path.join(FIXTURES, 'subpixel.folded'));
  await settle(page);
  // a (1 of 100,001) is sub-pixel; b starts inside a's pixel and spans the rest. It used to be culled with a.
  const [x, y] = await point(page, 'b');
  assert.equal((await pixelAt(page, { x, y }))[3], 255);
});
