// Workers that fail without saying so (crates/app/src/worker): nothing may wait for them forever. A request that
// cannot be posted (a structured clone throws: out of memory, something that cannot be cloned), a worker that
// never says it is ready (a module worker can fail to start without an `error` event) and one that dies mid-work
// are given up on. An import of folded stacks is then done on the page (parse workers: parallel.test.mjs); a view is not — every
// view comes from the view engine, whatever the profile's size — so the page says what happened, keeps the open
// profile, and the next view asked for tries a new engine. Test hooks: `window.__scorchUnsendable` (every view
// request carries a symbol, which postMessage refuses), `window.__scorchSilentWorkers = ms` (every worker started
// from then on stays silent, and is given up on after `ms` instead of the product's 15 s),
// `window.__scorchEngineTrap` (the engine traps on the next request, as out of memory), `window.__scorchEngine()`
// ([engines started, profiles sent, one running]) and `window.__scorchEngineJobs` (the engine's answers the page
// took, by kind). An earlier build waited for the first two forever.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, browser, waitForProfile, settle } from './harness.mjs';

const LONG = { timeout: 60_000 };
let server, b;
before(async () => { server = await serve(); b = await browser(); });
after(async () => { await b?.close(); await server?.close(); });

const status = (page) => page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset }));
const blur = (page) => page.evaluate(() => document.activeElement?.blur());

/** 200,000 children of one node: views that take the engine a while to build. */
const N = 200_000;
const wide = () => { const a = []; for (let i = 0; i < N; i++) a.push(`root;child${i} 2\n`); return Buffer.from(a.join('')); };

async function open(page, name, buffer) {
  const loads = (await status(page)).loads;
  await page.setInputFiles('[data-testid=open-file]', { name, mimeType: 'text/plain', buffer });
  await page.waitForFunction((l) => document.querySelector('[data-testid=status]').dataset.loads !== l, loads, LONG);
  return waitForProfile(page, name);
}

/** The inverted view and the function table of the wide profile, each within `ms`. */
async function views(page, ms) {
  await blur(page);
  const shown = await page.getAttribute('[data-testid=flame-canvas]', 'data-shown');
  await page.keyboard.press('2');
  await page.waitForFunction((s) => document.querySelector('[data-testid=flame-canvas]').dataset.shown !== s, shown, { timeout: ms });
  // In the inverted tree `root` stands under each of the 200,000 leaves, too narrow to draw.
  assert.equal(await page.evaluate(() => window.__scorchFramePoint('root')), null, 'the inverted tree');
  await page.keyboard.press('4');
  await page.waitForSelector('[data-testid=function-count]', { timeout: ms });
  assert.equal(await page.getAttribute('[data-testid=function-count]', 'data-matching'), String(N + 1), 'functions');
  assert.equal(await page.evaluate(() => window.__scorchViewRequests()), 0, 'no request left waiting');
  assert.equal(await page.locator('[data-testid=error]').count(), 0, 'no error');
  await page.keyboard.press('1');
}

/** A small profile and, computed here from its text, what its views must show. */
const SMALL = 'main;parse;lex 5\nmain;parse;alloc 3\nmain;render;alloc 2\nidle 1\n';
const smallFacts = () => {
  const stacks = SMALL.trim().split('\n').map((l) => l.slice(0, l.lastIndexOf(' ')).split(';'));
  return {
    total: SMALL.trim().split('\n').reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0),
    functions: new Set(stacks.flat()).size,
    callersOf: (f) => new Set(stacks.flatMap((s) => s.flatMap((x, i) => (x === f && i > 0 ? [s[i - 1]] : [])))),
  };
};
const jobs = (page) => page.evaluate(() => ({ ...(window.__scorchEngineJobs || {}) }));
const shownNow = (page) => page.getAttribute('[data-testid=flame-canvas]', 'data-shown');
/** The row of the widest drawn frame called `name` in the main graph, counted from the root's row (0). */
const row = (page, name) => page.evaluate((n) => {
  const pt = window.__scorchFramePoint(n);
  if (!pt) return null;
  const c = document.querySelector('[data-testid=flame-canvas]');
  return Math.floor((c.getBoundingClientRect().bottom - pt[1]) / Number(c.dataset.rowHeight || 18));
}, name);
/** The error shown, once one is. */
const errorShown = async (page) => {
  await page.waitForSelector('[data-testid=error]', { timeout: 20_000 });
  return page.textContent('[data-testid=error]');
};
/** Asks for the inverted tree (key 2, from the flame graph) and waits for it to be shown. */
async function inverted(page) {
  await blur(page);
  await page.keyboard.press('1');
  const shown = await shownNow(page);
  await page.keyboard.press('2');
  await page.waitForFunction((s) => document.querySelector('[data-testid=flame-canvas]').dataset.shown !== s, shown, LONG);
}

test('a small profile’s inverted tree, sandwich, function table and stack chart all come from the view engine', LONG, async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  const facts = smallFacts();
  assert.equal((await open(page, 'small-views.folded', Buffer.from(SMALL))).total, String(facts.total));
  const j0 = await jobs(page);
  const more = async (kind, n) => assert.equal(((await jobs(page))[kind] || 0) - (j0[kind] || 0), n, `${kind} from the engine`);
  // The plain graph (the import worker's): lex is on the fourth row, under main and parse.
  assert.equal(await row(page, 'lex'), 3, 'plain graph');
  await inverted(page);
  await more('inverted', 1);
  // Inverted: each leaf function stands on the root.
  assert.equal(await row(page, 'lex'), 1, 'lex at the inverted tree’s root');
  assert.equal(await row(page, 'alloc'), 1, 'alloc at the inverted tree’s root');
  // The function table: every distinct function of the text.
  await page.keyboard.press('4');
  await page.waitForSelector('[data-testid=function-count]', LONG);
  assert.equal(await page.getAttribute('[data-testid=function-count]', 'data-matching'), String(facts.functions));
  await more('functions', 1);
  // The sandwich of alloc: its callers above it, as the text has them.
  await page.keyboard.press('3');
  await page.locator('[data-testid=fn-row][data-name="alloc"]').click();
  await page.locator('[data-testid=callers-canvas]').waitFor();
  await page.waitForFunction(() => window.__scorchFramePoint('alloc', 'callees') !== null, null, LONG);
  for (const caller of facts.callersOf('alloc')) {
    assert.ok(await page.evaluate((c) => window.__scorchFramePoint(c, 'callers'), caller), `${caller} calls alloc`);
  }
  assert.equal(await page.evaluate(() => window.__scorchFramePoint('lex', 'callers')), null, 'lex does not call alloc');
  await more('callers', 1);
  await more('callees', 1);
  // The stack chart: a folded file has no timestamps, which the engine's answer says.
  await blur(page);
  await page.keyboard.press('6');
  await page.waitForSelector('[data-testid=chart-untimed]', LONG);
  await more('chart', 1);
  await page.keyboard.press('1');
  assert.equal(await page.locator('[data-testid=error]').count(), 0, 'no error');
  assert.deepEqual(b.errors, []);
});

test('a view request that cannot be posted to the engine: an error is shown, the open profile kept; the next request is answered', LONG, async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  const facts = smallFacts();
  const st = await open(page, 'small-views.folded', Buffer.from(SMALL));
  await page.evaluate(() => { window.__scorchUnsendable = true; });
  await blur(page);
  await page.keyboard.press('2');
  assert.match(await errorShown(page), /Could not build the view: the request could not be sent to the view engine: .+; asking for the view again starts a new view engine/);
  const after = await status(page);
  assert.deepEqual([after.total, after.loads], [st.total, st.loads], 'the open profile stays');
  // Read once the page has laid out and painted since the error came (the error line moves the canvas; a
  // read between the move and its repaint mixes the two).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.equal(await row(page, 'lex'), 3, 'the graph shown so far stays');
  assert.equal(await page.evaluate(() => window.__scorchViewRequests()), 0, 'no request left waiting');
  await page.evaluate(() => { window.__scorchUnsendable = false; });
  await inverted(page);
  assert.equal(await row(page, 'lex'), 1, 'the inverted tree, once the request can be sent');
  assert.deepEqual(b.errors, []);
});

test('a view engine that never says it is ready: given up on, an error is shown, the open profile kept; the next request starts a new one', LONG, async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  const facts = smallFacts();
  // The load takes the worker boot.js started, which stays as the engine holding the profile; that engine is
  // ended (as closing the profile ends it), and every worker started from then on is silent: the next view's
  // request starts an engine that never says it is ready.
  const st = await open(page, 'small-views.folded', Buffer.from(SMALL));
  assert.equal(st.total, String(facts.total));
  await page.evaluate(() => { window.__scorchSilentWorkers = 500; window.__scorchEngineEnd(); });
  const [started0] = await page.evaluate(() => window.__scorchEngine());
  await blur(page);
  await page.keyboard.press('2');
  assert.match(await errorShown(page), /Could not build the view: the view engine could not start: it did not start within 0\.5 s/);
  const after = await status(page);
  assert.deepEqual([after.total, after.loads], [st.total, st.loads], 'the open profile stays');
  // Read once the page has laid out and painted since the error came (the error line moves the canvas; a
  // read between the move and its repaint mixes the two).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.equal(await row(page, 'lex'), 3, 'the graph shown so far stays');
  assert.equal(await page.evaluate(() => window.__scorchViewRequests()), 0, 'no request left waiting');
  await page.evaluate(() => { delete window.__scorchSilentWorkers; });
  await inverted(page);
  assert.equal(await row(page, 'lex'), 1, 'the inverted tree, from a new engine');
  const [started1, , alive] = await page.evaluate(() => window.__scorchEngine());
  assert.ok(started1 > started0 && alive, 'a new engine was started');
  assert.deepEqual(b.errors, []);
});

test('a view engine that dies while building (as on running out of memory): an error is shown, the open profile kept; the next request starts a new one', LONG, async () => {
  // A browser of its own: Firefox reports the dead worker's trap as a page error, later, which must not land in
  // the next tests' errors.
  const own = await browser();
  const { page } = own;
  try {
    await page.goto(server.url);
    await waitForProfile(page, 'service.perf.gz');
    const st = await open(page, 'small-views.folded', Buffer.from(SMALL));
    const [started0] = await page.evaluate(() => window.__scorchEngine());
    await page.evaluate(() => { window.__scorchEngineTrap = true; });
    await blur(page);
    await page.keyboard.press('2');
    // The words inside the brackets are the engine's own (the worker's ErrorEvent.message), as for the import
    // worker.
    assert.match(await errorShown(page), /Could not build the view: the view engine stopped while building it \((Uncaught )?RuntimeError: unreachable( executed)?\)/);
    const after = await status(page);
    assert.deepEqual([after.total, after.loads], [st.total, st.loads], 'the open profile stays');
    // The error banner pushes the graph down and its canvas shrinks to fit, a frame later: its rows are read once
    // it is drawn at its new size (read in between, the pane's new height against the canvas's old one gave row 6).
    await settle(page);
    // Read once the page has laid out and painted since the error came (the error line moves the canvas; a
  // read between the move and its repaint mixes the two).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.equal(await row(page, 'lex'), 3, 'the graph shown so far stays');
    assert.equal((await page.evaluate(() => window.__scorchEngine()))[2], false, 'the dead engine is dropped');
    await page.evaluate(() => { window.__scorchEngineTrap = false; });
    await inverted(page);
    assert.equal(await row(page, 'lex'), 1, 'the inverted tree, from a new engine');
    const [started1, , alive] = await page.evaluate(() => window.__scorchEngine());
    assert.ok(started1 > started0 && alive, 'a new engine was started');
    // The function table, when its engine dies: the table says it could not be built (not "Building…" for good)
    // and builds it again on request.
    await page.evaluate(() => { window.__scorchEngineTrap = true; });
    await blur(page);
    await page.keyboard.press('4');
    await page.waitForSelector('[data-testid=function-failed]', { timeout: 20_000 });
    assert.equal(await page.locator('[data-testid=function-building]').count(), 0);
    await page.evaluate(() => { window.__scorchEngineTrap = false; });
    await page.click('[data-testid=function-retry]');
    await page.waitForSelector('[data-testid=function-count]', { timeout: 20_000 });
    assert.equal(await page.getAttribute('[data-testid=function-count]', 'data-matching'), String(smallFacts().functions));
    assert.equal(await page.locator('[data-testid=function-failed]').count(), 0);
    assert.deepEqual(own.errors.filter((e) => !/RuntimeError: unreachable/.test(e)), []);
  } finally { await own.close(); }
});

// Without a worker the page reads only folded stacks (its wasm has no importers: crates/app/src/worker/here.rs):
// what a link and a one-file HTML export carry. Any other input says why it needs the worker.
test('an import worker that never says it is ready: given up on, the page reads folded stacks itself; another format says why', LONG, async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  // The first file takes the worker boot.js started (not silent); every worker started after it is.
  await page.evaluate(() => { window.__scorchSilentWorkers = 500; });
  assert.equal((await open(page, 'one.folded', Buffer.from('a;b 3\na;c 4\n'))).total, '7');
  const from = b.log.length;
  const st = await open(page, 'two.folded', Buffer.from('x;y 5\nx;z 6\nw 1\n'));
  assert.equal(st.total, '12', 'the file’s total, summed here');
  assert.match(b.log.slice(from).join('\n'), /the import worker did not start within 0\.5 s/, 'the page gave up on the worker');
  assert.equal(await page.locator('[data-testid=error]').count(), 0, 'no error');
  // perf script: not read on the page. The error says why; the open profile stays.
  const perf = 'app 1/1 [000] 1.000000: 1 cpu-clock:ppp: \n\t    1000 main+0x1 (/bin/app)\n\n';
  await page.setInputFiles('[data-testid=open-file]', { name: 'three.perf', mimeType: 'text/plain', buffer: Buffer.from(perf) });
  const err = page.locator('[data-testid=error]');
  await err.waitFor({ timeout: 20_000 });
  assert.match(await err.textContent(), /three\.perf.*the import worker could not start.*only folded stacks/);
  assert.equal((await status(page)).total, '12', 'the open profile stays');
  await page.evaluate(() => { delete window.__scorchSilentWorkers; });
  assert.deepEqual(b.errors, []);
});

test('the view engine is the import worker that read the profile: it holds it, is never sent it, and ends when the profile is replaced', LONG, async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  // [engines begun (started, or an import worker kept), profiles sent to them, one running, it holds a profile].
  const engine = () => page.evaluate(() => window.__scorchEngine());
  // The demo's worker is the engine first (it read the demo), so it is not counted below.
  await page.waitForFunction(() => window.__scorchEngine()[2], null, LONG);
  const [started0, sent0] = await engine();
  assert.equal((await open(page, 'wide200k.folded', wide())).total, String(2 * N));
  const [started1, sent1, alive1, holds1] = await engine();
  assert.deepEqual([started1 - started0, sent1 - sent0, alive1, holds1], [1, 0, true, true],
    'the import worker is kept as the engine, holding the profile it read');
  // Inverted tree and function table, twice: four requests, all answered by that worker; the profile never sent.
  await views(page, 30_000);
  await views(page, 30_000);
  const [started2, sent2, alive2, holds2] = await engine();
  assert.deepEqual([started2 - started1, sent2 - sent1, alive2, holds2], [0, 0, true, true]);
  // Another profile: the engine that held the first is ended (its memory comes back); the worker that read the
  // new one holds it.
  assert.equal((await open(page, 'small.folded', Buffer.from('a;b 1\n'))).total, '1');
  const [started3, sent3, alive3, holds3] = await engine();
  assert.deepEqual([started3 - started2, sent3 - sent2, alive3, holds3], [1, 0, true, true]);
  assert.equal((await open(page, 'wide200k-again.folded', wide())).total, String(2 * N));
  await views(page, 30_000);
  const [started4, sent4, alive4, holds4] = await engine();
  assert.deepEqual([started4 - started3, sent4 - sent3, alive4, holds4], [1, 0, true, true]);
  assert.deepEqual(b.errors, []);
});

test('the demo is read by an import worker, which holds it as the engine: views never send it the profile', LONG, async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  await page.waitForFunction(() => window.__scorchEngine()[2], null, LONG);
  const [started0, sent0, alive0, holds0] = await page.evaluate(() => window.__scorchEngine());
  assert.deepEqual([alive0, holds0], [true, true], 'the worker that read the demo is the engine, holding it');
  await inverted(page);
  await inverted(page);
  const [started1, sent1, alive1, holds1] = await page.evaluate(() => window.__scorchEngine());
  assert.deepEqual([started1 - started0, sent1 - sent0, alive1, holds1], [0, 0, true, true]);
  assert.deepEqual(b.errors, []);
});

test('a transform is made by the view engine that holds the profile: never sent to it, never made again on a view switch', LONG, async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  const facts = smallFacts();
  await open(page, 'small-merge.folded', Buffer.from(SMALL));
  await page.waitForFunction(() => window.__scorchEngine()[3], null, LONG);
  // What a merge of parse leaves, worked out here from the text: its callees join its caller.
  const merged = SMALL.trim().split('\n').map((l) => l.slice(0, l.lastIndexOf(' ')).split(';').filter((f) => f !== 'parse'));
  const depthOf = (f) => Math.max(...merged.map((s) => s.indexOf(f) + 1));
  const [, sent0] = await page.evaluate(() => window.__scorchEngine());
  const j0 = await jobs(page);
  const [px, py] = await page.evaluate(() => window.__scorchFramePoint('parse'));
  await page.mouse.click(px, py);
  await page.click('[data-testid=tx-merge]');
  await settle(page);
  assert.equal(await page.evaluate(() => window.__scorchFramePoint('parse')), null, 'parse merged away');
  assert.equal(await row(page, 'lex'), depthOf('lex'), 'lex under main now');
  assert.equal((await status(page)).total, String(facts.total), 'a merge keeps the total');
  const [, sent1] = await page.evaluate(() => window.__scorchEngine());
  const j1 = await jobs(page);
  assert.equal(sent1 - sent0, 0, 'no profile sent to the engine');
  assert.equal((j1.profile || 0) - (j0.profile || 0), 1, 'the engine made the merged profile, once');
  // The inverted tree, the function table and back: the merged profile is neither made nor sent again.
  await inverted(page);
  assert.equal(await row(page, 'lex'), 1, 'lex at the inverted tree’s root');
  await page.keyboard.press('4');
  await page.waitForSelector('[data-testid=function-count]', LONG);
  assert.equal(await page.getAttribute('[data-testid=function-count]', 'data-matching'), String(new Set(merged.flat()).size));
  await page.keyboard.press('1');
  await settle(page);
  assert.equal(await row(page, 'lex'), depthOf('lex'), 'the merged graph again');
  const [, sent2] = await page.evaluate(() => window.__scorchEngine());
  assert.equal(sent2 - sent0, 0, 'still no profile sent');
  assert.equal(((await jobs(page)).profile || 0) - (j0.profile || 0), 1, 'still made once');
  // The chip's × gives the profile as read back, which the engine holds already.
  await page.click('[data-testid=transform-remove]');
  await settle(page);
  assert.equal(await row(page, 'lex'), 3, 'parse is back');
  assert.equal((await page.evaluate(() => window.__scorchEngine()))[1] - sent0, 0);
  assert.equal(await page.locator('[data-testid=error]').count(), 0, 'no error');
  assert.deepEqual(b.errors, []);
});

test('a view counts as pending from the action that asks for it until it is shown: what settle waits on', LONG, async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  const facts = smallFacts();
  await open(page, 'small-pending.folded', Buffer.from(SMALL));
  assert.equal(await row(page, 'lex'), 3, 'plain graph');
  // The click and the reads in one task: nothing has been sent to the engine yet (its request starts in a later
  // microtask), yet the inverted tree is already wanted.
  const click = (id) => page.evaluate((id) => {
    document.querySelector(`[data-testid=${id}]`).click();
    return window.__scorchViewsPending();
  }, id);
  assert.ok(await click('view-mode-inverted') >= 1, 'the inverted tree is pending from the click on');
  await settle(page);
  assert.equal(await page.evaluate(() => window.__scorchViewsPending()), 0);
  assert.equal(await row(page, 'lex'), 1, 'settled: the inverted tree is shown');
  assert.ok(await click('view-mode-functions') >= 1, 'the function table is pending from the click on');
  await settle(page);
  assert.equal(await page.getAttribute('[data-testid=function-count]', 'data-matching'), String(facts.functions));
  await page.click('[data-testid=view-mode-flame]');
  await settle(page);
  assert.equal(await row(page, 'lex'), 3, 'the plain graph again');
  assert.equal(await page.evaluate(() => window.__scorchViewsPending()), 0);
  // The call graph is asked for by its component once mounted (a microtask after the click), and its request
  // goes out a task later still: pending in the task after the click all the same, until it is drawn.
  const graphPending = await page.evaluate(() => {
    document.querySelector('[data-testid=view-mode-graph]').click();
    return new Promise((resolve) => setTimeout(() => resolve(window.__scorchViewsPending()), 0));
  });
  assert.ok(graphPending >= 1, `the call graph is pending in the task after the click (${graphPending})`);
  await settle(page);
  const g = await page.evaluate(() => window.__scorchGraph());
  assert.ok(g && g.nodes.length === facts.functions, `settled: the call graph is shown (${g?.nodes.length} nodes)`);
  assert.equal(await page.locator('[data-testid=graph-building]').count(), 0);
  await page.click('[data-testid=view-mode-flame]');
  await settle(page);
  assert.deepEqual(b.errors, []);
});
