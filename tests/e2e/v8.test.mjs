// V8 CPU profiles in the browser: the recorded `.cpuprofile` and Chromium trace open by drop and by `#url=` with
// the status totals the native CLI gives (time and, with the weight switch, sample counts), the heatmap has
// their samples, and a broken one says where and keeps the open profile.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, browser, nativeInfo, waitForProfile, settle, outFile, ROOT } from './harness.mjs';

const DATA = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'v8');
const FILES = [['node-small.cpuprofile', 'v8-cpuprofile'], ['chromium-trace.json', 'chrome-trace']];
let server, b;
before(async () => { server = await serve(undefined, '/', { '/v8/': DATA }); b = await browser(); });
after(async () => { await b?.close(); await server?.close(); });

const status = (page) => page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset,
  text: document.querySelector('[data-testid=status]').textContent }));

/** The CLI's number of samples per stack, summed: `scorch fold --count`. */
function nativeCount(file) {
  const out = execFileSync(path.join(ROOT, 'target', 'debug', 'scorch'), ['fold', '--count', file], { encoding: 'utf8' });
  return out.trim().split('\n').reduce((a, l) => a + BigInt(l.slice(l.lastIndexOf(' ') + 1)), 0n).toString();
}

test('each file opens by drop with the numbers the CLI gives; the weight switch counts samples', async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  for (const [f, format] of FILES) {
    const file = path.join(DATA, f);
    await page.setInputFiles('[data-testid=open-file]', file);
    let s = await waitForProfile(page, f);
    const want = nativeInfo(file);
    assert.equal(s.format, format, f);
    assert.deepEqual([s.samples, s.total, s.unit], [want.samples, want.total, 'nanoseconds'], f);
    // Every sample is in the heatmap (V8 samples carry exact times).
    await page.locator('[data-testid=heatmap-canvas]').waitFor({ timeout: 10000 });
    await page.screenshot({ path: outFile(`v8-${f}.png`) });
    await page.selectOption('[data-testid=weight-select]', { label: 'sample count' });
    await page.waitForFunction((t) => document.querySelector('[data-testid=status]').dataset.total !== t, s.total);
    await settle(page);
    s = await status(page);
    assert.equal(s.total, nativeCount(file), `${f}: counts`);
    assert.equal(s.total, want.samples, `${f}: one per sample`);
    await page.selectOption('[data-testid=weight-select]', { label: 'time' });
    await page.waitForFunction((t) => document.querySelector('[data-testid=status]').dataset.total === t, want.total);
    await settle(page);
  }
  assert.deepEqual(b.errors, []);
});

test('each file opens by #url= with the numbers the CLI gives', async () => {
  const { page } = b;
  for (const [f, format] of FILES) {
    await page.goto(`${server.url}#url=${encodeURIComponent('/v8/' + f)}`);
    // That was a hash change in the open page, which loads the link itself: let it land before reloading, or the
    // reload cuts its worker's module import short, which Firefox reports as a page error.
    await waitForProfile(page, f);
    await page.reload();
    const s = await waitForProfile(page, f);
    const want = nativeInfo(path.join(DATA, f));
    assert.equal(s.format, format, f);
    assert.deepEqual([s.samples, s.total], [want.samples, want.total], f);
  }
  assert.deepEqual(b.errors, []);
});

test('a broken trace says where, and the open profile stays', async () => {
  const { page } = b;
  await page.goto(server.url);
  await page.setInputFiles('[data-testid=open-file]', path.join(DATA, 'node-small.cpuprofile'));
  const before = await waitForProfile(page, 'node-small.cpuprofile');
  const text = '{"traceEvents":[{"name":"ProfileChunk","ph":"P","pid":1,"tid":1,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":7}}]}}}}]}';
  await page.setInputFiles('[data-testid=open-file]', { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  const err = page.locator('[data-testid=error]');
  await err.waitFor();
  assert.match(await err.textContent(), /traceEvents\[0\]\.args\.data\.cpuProfile\.nodes\[0\]\.callFrame\.functionName: invalid type/);
  const s = await status(page);
  assert.match(s.text, /^node-small\.cpuprofile/);
  assert.equal(s.total, before.total);
});
