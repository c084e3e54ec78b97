// speedscope, Firefox Profiler (samply), bpftrace, async-profiler, callgrind, V8 heap profile, cProfile, DHAT and JFR
// files in the browser: each recorded or vendored
// file opens by drop and by `#url=` with the status totals the native CLI gives, the timed ones fill the heatmap, and
// a broken speedscope file says where and keeps the open profile.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, browser, nativeInfo, waitForProfile, settle, outFile, ROOT } from './harness.mjs';

const DATA = path.join(ROOT, 'crates', 'core', 'tests', 'data');
// The CLI's recordings (callgrind: crates/cli/tests/data/callgrind/PROVENANCE.md), served under /cli-data/.
const CLI_DATA = path.join(ROOT, 'crates', 'cli', 'tests', 'data');
const where = (dir) => (dir.startsWith('cli/') ? [CLI_DATA, 'cli-data', dir.slice(4)] : [DATA, 'data', dir]);
const fileOf = (dir, f) => { const [root, , d] = where(dir); return path.join(root, d, f); };
const urlOf = (dir, f) => { const [, mount, d] = where(dir); return `/${mount}/${d}/${f}`; };
// [folder, file, format, timed]
const FILES = [
  ['speedscope', 'py-spy-threads.speedscope.json', 'speedscope', true],
  ['speedscope', 'evented-ms.speedscope.json', 'speedscope', true],
  ['speedscope', 'speedscope-simple-evented.json', 'speedscope', false],
  ['gecko', 'samply-two-threads.json.gz', 'gecko', true],
  ['gecko', 'samply-two-threads.symbolicated.json', 'gecko', true],
  ['bpftrace', 'kstack-ustack-comm.txt', 'bpftrace', false],
  ['async-profiler', 'collapsed-threads.txt', 'folded', false],
  // valgrind --tool=callgrind: a call graph expanded into stacks (docs/FORMATS.md); the plain file and a gzip'd
  // one with 13 event columns.
  ['cli/callgrind', 'callgrind.out', 'callgrind', false],
  ['cli/callgrind', 'callgrind-instr.out.gz', 'callgrind', false],
  // node --heap-prof, python -m cProfile -o, valgrind --tool=dhat (their PROVENANCE.md in crates/cli/tests/data).
  ['cli/heapprofile', 'prog.heapprofile', 'v8-heapprofile', false],
  ['cli/cprofile', 'prog.prof', 'cprofile', false],
  ['cli/dhat', 'dhat.out', 'dhat', false],
  // java -XX:StartFlightRecording (crates/cli/tests/data/jfr/PROVENANCE.md): timed samples.
  ['cli/jfr', 'hot.jfr', 'jfr', true],
];
let server, b;
before(async () => { server = await serve(undefined, '/', { '/data/': DATA, '/cli-data/': CLI_DATA }); b = await browser(); });
after(async () => { await b?.close(); await server?.close(); });

const status = (page) => page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset,
  text: document.querySelector('[data-testid=status]').textContent }));

test('each file opens by drop with the numbers the CLI gives', async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  for (const [dir, f, format, timed] of FILES) {
    const file = fileOf(dir, f);
    await page.setInputFiles('[data-testid=open-file]', file);
    const s = await waitForProfile(page, f);
    const want = nativeInfo(file);
    assert.equal(s.format, format, f);
    assert.deepEqual([s.samples, s.total], [want.samples, want.total], f);
    const heat = page.locator('[data-testid=heatmap-canvas]');
    if (timed) {
      await heat.waitFor({ timeout: 10000 });
    } else {
      assert.equal(await heat.count(), 0, `${f}: no times, no heatmap`);
    }
    await page.screenshot({ path: outFile(`formats-${f}.png`) });
    if (format === 'speedscope') {
      // speedscope's samples weigh their weights; the switch counts them, one per sample.
      await page.selectOption('[data-testid=weight-select]', { label: 'sample count' });
      await page.waitForFunction((n) => document.querySelector('[data-testid=status]').dataset.total === n, want.samples);
      await page.selectOption('[data-testid=weight-select]', { label: 'weight' });
      await page.waitForFunction((t) => document.querySelector('[data-testid=status]').dataset.total === t, want.total);
      await settle(page);
    }
  }
  assert.deepEqual(b.errors, []);
});

test('each file opens by #url= with the numbers the CLI gives', async () => {
  const { page } = b;
  for (const [dir, f, format] of FILES) {
    await page.goto(`${server.url}#url=${encodeURIComponent(urlOf(dir, f))}`);
    // Let the hash change's own load land before reloading (see v8.test.mjs).
    await waitForProfile(page, f);
    await page.reload();
    const s = await waitForProfile(page, f);
    const want = nativeInfo(fileOf(dir, f));
    assert.equal(s.format, format, f);
    assert.deepEqual([s.samples, s.total], [want.samples, want.total], f);
  }
  assert.deepEqual(b.errors, []);
});

test('a broken speedscope file says where, and the open profile stays', async () => {
  const { page } = b;
  await page.goto(server.url);
  const good = path.join(DATA, 'speedscope', 'py-spy-threads.speedscope.json');
  await page.setInputFiles('[data-testid=open-file]', good);
  const before = await waitForProfile(page, 'py-spy-threads.speedscope.json');
  const text = '{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"a"}]},'
    + '"profiles":[{"type":"sampled","name":"t","unit":"seconds","samples":[[0],[3]],"weights":[1,1]}]}';
  await page.setInputFiles('[data-testid=open-file]', { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  const err = page.locator('[data-testid=error]');
  await err.waitFor();
  assert.match(await err.textContent(), /profiles\[0\]\.samples\[1\]\[0\]: frame 3 does not exist/);
  const s = await status(page);
  assert.match(s.text, /^py-spy-threads\.speedscope\.json/);
  assert.equal(s.total, before.total);
  assert.deepEqual(b.errors, []);
});
