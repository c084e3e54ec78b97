// Workers that fail without saying so (crates/app/src/worker): nothing may wait for them forever. A request that
// cannot be posted (a structured clone throws: out of memory, something that cannot be cloned) and a worker that
// never says it is ready (a module worker can fail to start without an `error` event) are given up on, and the
// work is done without them — a view or an import on the page; parse workers: parallel.test.mjs. Test hooks:
// `window.__scorchUnsendable` (every view request carries a symbol, which postMessage refuses) and
// `window.__scorchSilentWorkers = ms` (every worker started from then on stays silent, and is given up on after
// `ms` instead of the product's 15 s). The previous build waited for each of these forever.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, browser, waitForProfile } from './harness.mjs';

const LONG = { timeout: 60_000 };
let server, b;
before(async () => { server = await serve(); b = await browser(); });
after(async () => { await b?.close(); await server?.close(); });

const status = (page) => page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset }));
const blur = (page) => page.evaluate(() => document.activeElement?.blur());

/** 200,000 children of one node: over the 100,000 stack rows from which views are built in a worker. */
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

test('a view request that cannot be posted to its worker: the page builds the view', LONG, async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  await page.evaluate(() => { window.__scorchUnsendable = true; });
  assert.equal((await open(page, 'wide200k.folded', wide())).total, String(2 * N));
  await views(page, 30_000);
  assert.deepEqual(b.errors, []);
});

test('a view worker that never says it is ready: given up on, the page builds the view', LONG, async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  assert.equal((await open(page, 'wide200k.folded', wide())).total, String(2 * N));
  const from = b.log.length;
  await page.evaluate(() => { window.__scorchSilentWorkers = 500; });
  await views(page, 30_000);
  const said = b.log.slice(from).join('\n');
  assert.match(said, /no worker for the view \(it did not start within 0\.5 s\)/, 'the page gave up on the worker');
  assert.deepEqual(b.errors, []);
});

test('an import worker that never says it is ready: given up on, the page reads the file', LONG, async () => {
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
  assert.deepEqual(b.errors, []);
});

test('the view engine: one worker holds a large profile for all its views, is sent it once, and ends when the profile is replaced', LONG, async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  const engine = () => page.evaluate(() => window.__scorchEngine());
  const [started0, sent0] = await engine();
  assert.equal((await open(page, 'wide200k.folded', wide())).total, String(2 * N));
  // Inverted tree and function table, twice: four requests, one engine, the profile sent once.
  await views(page, 30_000);
  await views(page, 30_000);
  const [started1, sent1, alive1] = await engine();
  assert.deepEqual([started1 - started0, sent1 - sent0, alive1], [1, 1, true]);
  // Another profile: the engine that held the first is ended (its memory comes back); the next view of a
  // large profile starts a new one and sends it that profile.
  assert.equal((await open(page, 'small.folded', Buffer.from('a;b 1\n'))).total, '1');
  assert.equal((await engine())[2], false, 'no engine once its profile is closed');
  assert.equal((await open(page, 'wide200k-again.folded', wide())).total, String(2 * N));
  await views(page, 30_000);
  const [started2, sent2, alive2] = await engine();
  assert.deepEqual([started2 - started1, sent2 - sent1, alive2], [1, 1, true]);
  assert.deepEqual(b.errors, []);
});
