// The release build as a folder of static files: served under a sub-path, it works and asks nothing of any
// other origin; `#url=` opens hosted profiles (relative or absolute path), `#base=&target=` a diff, and a
// failing URL says why.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { serve, browser, waitForProfile, outFile, FIXTURES, ROOT } from './harness.mjs';

const DIFF = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'diff');
let server, b;
const seen = [];
before(async () => {
  server = await serve(undefined, '/tools/scorch/', { '/profiles/': FIXTURES, '/diff/': DIFF });
  b = await browser();
  b.page.on('request', (r) => seen.push(r.url()));
});
after(async () => { await b?.close(); await server?.close(); });

test('works under a sub-path and requests nothing from another origin', async () => {
  const { page } = b;
  await page.goto(server.url);
  assert.ok(server.url.endsWith('/tools/scorch/'));
  const s = await waitForProfile(page, 'service.perf.gz');
  assert.equal(s.format, 'perf-script');
  const origin = new URL(server.url).origin;
  const foreign = seen.filter((u) => !u.startsWith(origin) && !u.startsWith('data:'));
  assert.deepEqual(foreign, [], 'no request leaves the site');
  assert.ok(seen.some((u) => u.startsWith(server.url) && /\.wasm(\.gz)?$/.test(u)), 'the wasm comes from under the sub-path');
  assert.ok(server.requests.every((u) => u.startsWith('/tools/scorch/')), `every request stays under the prefix: ${server.requests}`);
  assert.deepEqual(b.errors, []);
});

test('#url= opens a hosted profile; a failing URL says why and keeps the open profile', async () => {
  const { page } = b;
  await page.goto(`${server.url}#url=${encodeURIComponent('/profiles/simple.folded')}`);
  let s = await waitForProfile(page, 'simple.folded');
  assert.deepEqual([s.samples, s.total], ['3', '100']);
  // Relative to the viewer's own address.
  await page.goto(`${server.url}#url=${encodeURIComponent('www/demo/service.perf.gz')}`);
  // That was a hash change in the open page, which fetches the profile itself: let it land before counting, or
  // its request can reach the server after `served` is read (Firefox's timing shows that race).
  await waitForProfile(page, 'service.perf.gz');
  const served = server.requests.length;
  await page.reload();
  s = await waitForProfile(page, 'service.perf.gz');
  assert.equal(s.format, 'perf-script');
  // Opened as a link (not a hash change in an open page): boot.js's early worker fetched the profile before
  // the app asked for it, and the app's request took that response instead of fetching it again.
  assert.equal(await page.evaluate(() => window.__scorchPrefetched), true);
  const fetched = server.requests.slice(served).filter((u) => u.endsWith('/www/demo/service.perf.gz'));
  assert.equal(fetched.length, 1, `fetched once: ${server.requests.slice(served)}`);
  // A link changed in the open tab (hashchange) that fails: the error says why, the open profile stays.
  await page.evaluate(() => { location.hash = '#url=' + encodeURIComponent('/profiles/missing.folded'); });
  const err = page.locator('[data-testid=error]');
  await err.waitFor();
  assert.match(await err.textContent(), /missing\.folded.*HTTP 404/);
  s = await page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset, text: document.querySelector('[data-testid=status]').textContent }));
  assert.match(s.text, /^service\.perf\.gz/);
});

// A linked profile is fetched by boot.js's worker before its wasm runs (www/worker.js), and read by the engine
// from that response (worker/side.rs, `read_url`). Served slowly (1.4 MB in 32 KiB pieces 8 ms apart), the
// engine starts reading before the body's end: every line must count once (the sums made here); and a body cut
// off in the middle says so instead of hanging.
test('#url= of a profile that arrives slowly: each line once; cut off, it says so', async () => {
  const lines = [];
  let total = 0;
  for (let i = 0; i < 40000; i++) {
    const n = (i % 7) + 1;
    total += n;
    lines.push(`main;serve;handler_${i % 97};work_${i} ${n}`);
  }
  const body = Buffer.from(lines.join('\n') + '\n');
  const slow = http.createServer((req, res) => {
    const cut = req.url.startsWith('/cut');
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length, 'access-control-allow-origin': '*' });
    let at = 0;
    const step = () => {
      if (cut && at >= body.length / 2) { res.destroy(); return; }
      if (at >= body.length) { res.end(); return; }
      res.write(body.subarray(at, at + 32768));
      at += 32768;
      setTimeout(step, 8);
    };
    step();
  });
  await new Promise((r) => slow.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${slow.address().port}`;
  try {
    const { page } = b;
    await page.goto(`${server.url}#url=${encodeURIComponent(`${base}/whole/slow.folded`)}`);
    await page.reload();
    const s = await waitForProfile(page, 'slow.folded');
    assert.deepEqual([s.samples, s.total], [String(lines.length), String(total)]);
    assert.equal(await page.evaluate(() => window.__scorchPrefetched), true);
    await page.goto(`${server.url}#url=${encodeURIComponent(`${base}/cut/cut.folded`)}`);
    await page.reload();
    const err = page.locator('[data-testid=error]');
    await err.waitFor({ timeout: 30000 });
    assert.match(await err.textContent(), /cut\.folded/);
  } finally {
    await new Promise((r) => slow.close(r));
  }
});

test('#base=&target= opens a diff of two hosted profiles', async () => {
  const { page } = b;
  await page.goto(`${server.url}#base=${encodeURIComponent('/diff/inf-diff-before.txt')}&target=${encodeURIComponent('/diff/inf-diff-after.txt')}`);
  await page.reload();
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.dataset.format === 'diff');
  const l = await page.evaluate(() => ({ ...document.querySelector('[data-testid=diff-legend]').dataset }));
  assert.deepEqual([l.base, l.target], ['inf-diff-before.txt', 'inf-diff-after.txt']);
  await page.screenshot({ path: outFile('hosted-diff.png') });
});

// The page reads the gzip'd wasm (www/boot.js, www/wasm.js), both of them — the page's (`scorch-app`) and the
// engine's (`scorch-engine`, every worker's): 3.5 MB on the wire become 1.6 MB from servers that send `.wasm`
// uncompressed. It must still start from servers that lack those files or decode them themselves.
for (const [what, opts, plain] of [
  ['with the gzip\'d wasm: reads that, not the plain one', {}, false],
  ['without the gzip\'d wasm (404): reads the plain one', { missing: (rel) => rel.endsWith('.wasm.gz') }, true],
  // A server that maps `.gz` to `Content-Encoding: gzip`: the browser inflates it, boot.js sees the wasm's own
  // magic and compiles it as is.
  ['whose server decodes the .gz itself (Content-Encoding: gzip)', { headers: (rel) => (rel.endsWith('.gz') ? { 'content-encoding': 'gzip' } : {}) }, false],
]) {
  test(`starts ${what}`, async () => {
    const s2 = await serve(undefined, '/', { '/profiles/': FIXTURES }, opts);
    const b2 = await browser();
    try {
      await b2.page.goto(`${s2.url}#url=${encodeURIComponent('/profiles/simple.folded')}`);
      const s = await waitForProfile(b2.page, 'simple.folded');
      assert.deepEqual([s.samples, s.total], ['3', '100']);
      const wasm = s2.requests.filter((u) => /\.wasm(\.gz)?$/.test(u)).map((u) => u.split('/').pop());
      for (const name of ['scorch-app', 'scorch-engine']) {
        const asked = wasm.filter((w) => w.startsWith(`${name}_bg.`));
        const wants = `${name}_bg.wasm${plain ? '' : '.gz'}`;
        // Each compiled once, and the plain file asked for only when the gzip'd one is not there.
        assert.equal(asked.at(-1), wants, `wasm requests: ${wasm}`);
        assert.equal(asked.includes(`${name}_bg.wasm`), plain, `wasm requests: ${wasm}`);
        assert.equal(asked.filter((w) => w === wants).length, 1, `wasm requests: ${wasm}`);
        // The page asks for the gzip'd one, and the worker that compiles it does not ask again (www/boot.js).
        assert.equal(asked.filter((w) => w.endsWith('.gz')).length, 1, `wasm requests: ${wasm}`);
      }
      assert.deepEqual(b2.errors.filter((e) => !/404/.test(e)), []);
    } finally {
      await b2.close();
      await s2.close();
    }
  });
}
