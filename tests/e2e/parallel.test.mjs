// A large plain profile is parsed on every core (crates/app/src/worker/slices.rs): the import worker cuts it at
// record boundaries and parse workers read the other slices — from a file each its own part of the File, by link
// the bytes as they arrive. Oracle: the native CLI parsing the same file on one thread (`scorch fold --threads 1`);
// the page's folded export must equal it byte for byte, and its total `scorch info`'s. `window.__scorchParseSlices`
// (a test hook) says in how many slices the worker parsed. On two cores the product starts no parse worker (the
// page's thread and the import worker have them): every page here says it has four (`window.__scorchCores`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, browser, waitForProfile, watched, nativeInfo, ROOT, DIST } from './harness.mjs';

const CLI = path.join(ROOT, 'target', 'debug', 'scorch');
let dir, server, b;
const files = {};
// A new document for each test: going from a link's URL (`#url=…`) back to the bare URL can be a same-document
// navigation in Firefox, which keeps the page — and once restarted the previous test's link load, which then
// replaced the file this test opened (seen once in three runs).
let visits = 0;
const fresh = () => `${server.url}?visit=${++visits}`;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-parallel-'));
  // 12 MB of folded stacks, deterministic: 200,000 lines over 20,000 distinct stacks, counts 1–5.
  const folded = [];
  for (let i = 0; i < 200000; i++) {
    const k = (i * 7919) % 20000;
    folded.push(`main;worker_${k % 13};handle::request_${k % 211};decode_${k % 97};inner_${k} ${1 + (i % 5)}`);
  }
  files.folded = path.join(dir, 'big.folded');
  fs.writeFileSync(files.folded, folded.join('\n') + '\n');
  // 12 MB of `perf script` text: 40,000 samples of 8–15 frames on two threads, 1 ms apart.
  const perf = [];
  for (let i = 0; i < 40000; i++) {
    const tid = 100 + (i % 2);
    const t = (1000 + i / 1000).toFixed(6);
    perf.push(`app ${tid} [00${i % 2}] ${t}: 1000000 cpu-clock:`);
    const depth = 8 + (i % 8);
    for (let d = depth - 1; d >= 0; d--) {
      const f = d === 0 ? 'main' : `fn_${d}_${(i * 31 + d) % (5 + d * 3)}`;
      perf.push(`\t${(0x400000 + d * 0x100 + ((i * 7) % 64)).toString(16)} ${f}+0x${(d * 4).toString(16)} (/usr/bin/app)`);
    }
    perf.push('');
  }
  files.perf = path.join(dir, 'big.perf');
  fs.writeFileSync(files.perf, perf.join('\n') + '\n');
  server = await serve(DIST, '/', { '/data/': dir });
  b = await browser();
  await b.page.addInitScript(() => {
    window.__scorchCores = 4;
    // A page opened with `?silent-spare`: the spare parse worker it starts never says it is ready (below).
    if (location.search.includes('silent-spare')) window.__scorchSilentSpare = 500;
  });
});
after(async () => {
  await b?.close();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// Twice in one CI run (Firefox, the two engines' suites side by side on 2 cores) a 12 MB folded file from a file
// input did not open within 30 s; it never failed here (three full runs, each test alone, under load). So the wait
// for it is longer, and a load that still does not end fails with the page's state and its last console lines
// (harness.mjs `watched`) instead of only "timeout".
const LOAD = { timeout: 60000 };
const opened = (name) => watched(b, 55000, async (step) => {
  step(`waiting for ${name}`);
  return waitForProfile(b.page, name, LOAD);
});

const sha = (buf) => crypto.createHash('sha256').update(buf).digest('hex');

/** The page's folded export of the open profile, as a sha256 (the bytes stay in the page). */
async function exportedFolded(page) {
  await page.evaluate(() => { window.__scorchLastExport = null; });
  await page.keyboard.press('e');
  await page.locator('[data-testid=export-menu]').waitFor();
  await page.click('[data-testid=export-folded]');
  await page.waitForFunction(() => window.__scorchLastExport?.name.endsWith('.folded'), null, { timeout: 30000 });
  return page.evaluate(async () => {
    const d = await crypto.subtle.digest('SHA-256', window.__scorchLastExport.bytes);
    return Array.from(new Uint8Array(d), (x) => x.toString(16).padStart(2, '0')).join('');
  });
}

for (const kind of ['folded', 'perf']) {
  for (const how of ['file', 'link']) {
    test(`a 12 MB ${kind} profile ${how === 'file' ? 'from a file' : 'by link'} is parsed in slices, equal to one thread's parse`, async () => {
      const file = files[kind];
      const { page } = b;
      const name = path.basename(file);
      // Firefox's worker constructor can block the import worker's thread for good where it starts its parse
      // workers (INTERNALS.md); the page then ends it and reads the input again whole, saying so in the console —
      // the tests below check that path. Here, a load that took it is made once more: the second must be parsed in
      // slices. (A full run on 2 cores saw it twice in one Firefox suite.)
      let s, slices;
      for (let attempt = 1; attempt <= 2; attempt++) {
        const from = b.log.length;
        await page.goto(fresh());
        await waitForProfile(page, 'service.perf.gz');
        if (how === 'file') await page.setInputFiles('[data-testid=open-file]', file);
        // A link followed once the page is up: its request carries `__scorchCores` (a link the page opens with
        // is read by boot.js's worker before the page asks, as on this machine's two cores: in one slice).
        else await page.evaluate((n) => { location.hash = `url=data/${n}`; }, name);
        s = await opened(name);
        slices = await page.evaluate(() => window.__scorchParseSlices);
        const stuck = b.log.slice(from).some((l) => /stopped answering while it started its parse workers/.test(l));
        if (slices >= 2 || !stuck) break;
        if (how === 'link') await page.goto('about:blank');
      }
      assert.ok(slices >= 2, `parsed in ${slices} slice(s)`);
      // The page opened without a link started a parse worker for its import worker while it waited
      // (crates/app/src/worker/spare.rs): the load's parse worker is that one, reached by its port.
      assert.equal(await page.evaluate(() => window.__scorchParseSpare), true, 'the spare parse worker was taken');
      assert.equal(s.total, nativeInfo(file).total, 'total = scorch info');
      const want = sha(execFileSync(CLI, ['fold', '--threads', '1', file], { maxBuffer: 1 << 28 }));
      assert.equal(await exportedFolded(page), want, 'folded export = scorch fold --threads 1');
    });
  }
}

// A parse worker that never says it is ready (tests/e2e/workers.test.mjs: `window.__scorchSilentWorkers`) is given
// up on and the input read whole by the import worker: the same profile, in one slice. The previous build waited
// for it forever.
for (const how of ['file', 'link']) {
  test(`parse workers that never start, ${how === 'file' ? 'from a file' : 'by link'}: the input is read whole, the same profile`, async () => {
    const file = files.folded;
    const name = path.basename(file);
    const { page } = b;
    await page.goto(fresh());
    await waitForProfile(page, 'service.perf.gz');
    await page.evaluate(() => { window.__scorchSilentWorkers = 500; });
    if (how === 'file') await page.setInputFiles('[data-testid=open-file]', file);
    else await page.evaluate((n) => { location.hash = `url=data/${n}`; }, name);
    const s = await opened(name);
    // Read whole: by the import worker (1 slice), or — when the import worker itself was started after the hook
    // was set, and so is silent too — by the page (no slices counted). Never in slices.
    const slices = await page.evaluate(() => window.__scorchParseSlices);
    assert.ok(slices === 1 || slices === undefined, `read whole, not in ${slices} slices`);
    assert.equal(s.total, nativeInfo(file).total, 'total = scorch info');
    const want = sha(execFileSync(CLI, ['fold', '--threads', '1', file], { maxBuffer: 1 << 28 }));
    assert.equal(await exportedFolded(page), want, 'folded export = scorch fold --threads 1');
    assert.equal(await page.locator('[data-testid=error]').count(), 0, 'no error');
  });
}

// The spare parse worker the page started ahead never says it is ready (`window.__scorchSilentSpare`, set before
// the page starts it): the import worker gives up on it after 500 ms and reads the input whole — the same profile.
test('a spare parse worker that never starts: given up on, the input read whole, the same profile', async () => {
  const file = files.folded;
  const name = path.basename(file);
  const { page } = b;
  await page.goto(`${server.url}?silent-spare&visit=${++visits}`);
  await waitForProfile(page, 'service.perf.gz');
  await page.setInputFiles('[data-testid=open-file]', file);
  const s = await opened(name);
  assert.equal(await page.evaluate(() => window.__scorchParseSpare), true, 'the spare was taken');
  assert.equal(await page.evaluate(() => window.__scorchParseSlices), 1, 'read whole');
  assert.equal(s.total, nativeInfo(file).total, 'total = scorch info');
  const want = sha(execFileSync(CLI, ['fold', '--threads', '1', file], { maxBuffer: 1 << 28 }));
  assert.equal(await exportedFolded(page), want, 'folded export = scorch fold --threads 1');
  assert.equal(await page.locator('[data-testid=error]').count(), 0, 'no error');
});

// An import worker whose thread blocks for good where it starts its parse workers (Firefox's worker constructor,
// called in a worker, did so in about one file load in thirty here and twice in one CI run; the test hook
// `window.__scorchStuckWorker` blocks it there on purpose): the page hears nothing more from it for 5 s, ends it and
// reads the input again in a new worker, whole. The same profile as one thread's parse, and the console says why.
for (const how of ['file', 'link']) {
  test(`an import worker that blocks while starting its parse workers, ${how === 'file' ? 'from a file' : 'by link'}: ended, the input read again whole`, async () => {
    const file = files.folded;
    const name = path.basename(file);
    const { page } = b;
    await page.goto(fresh());
    await waitForProfile(page, 'service.perf.gz');
    const logged = b.log.length;
    await page.evaluate(() => { window.__scorchStuckWorker = true; });
    if (how === 'file') await page.setInputFiles('[data-testid=open-file]', file);
    else await page.evaluate((n) => { location.hash = `url=data/${n}`; }, name);
    const s = await opened(name);
    assert.equal(await page.evaluate(() => window.__scorchParseSlices), 1, 'read whole');
    assert.ok(b.log.slice(logged).some((l) => l.includes('stopped answering while it started its parse workers')),
      'the console says why it read the input again');
    assert.equal(s.total, nativeInfo(file).total, 'total = scorch info');
    const want = sha(execFileSync(CLI, ['fold', '--threads', '1', file], { maxBuffer: 1 << 28 }));
    assert.equal(await exportedFolded(page), want, 'folded export = scorch fold --threads 1');
    assert.equal(await page.locator('[data-testid=error]').count(), 0, 'no error');
  });
}
