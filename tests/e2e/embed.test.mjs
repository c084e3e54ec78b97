// The embedded viewer (issue 22 item 3): www/examples/embed-host.html frames index.html#embed=1 and drives it by
// postMessage. Oracles: the native CLI's `scorch info` (samples, total) and `scorch fold` (the selected
// function's self and total, summed here from the folded lines) of the same file. A message from a foreign
// origin (another port) is ignored: no load, no reply.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, browser, outFile, ROOT, ENGINE } from './harness.mjs';

const CLI = path.join(ROOT, 'target', 'debug', 'scorch');
const DEMO = path.join(ROOT, 'www', 'demo', 'service.perf.gz');
let server, foreign, foreignDir;
before(async () => {
  server = await serve();
  // A host on another origin (another port): it frames the viewer and sends it a profile.
  foreignDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-foreign-'));
  foreign = await serve(foreignDir);
  fs.copyFileSync(DEMO, path.join(foreignDir, 'demo.perf.gz'));
  fs.writeFileSync(path.join(foreignDir, 'index.html'), `<!doctype html><meta charset="utf-8">
<iframe id="viewer" src="${server.url}index.html#embed=1" style="width:900px;height:600px"></iframe>
<script type="module" src="foreign.js"></script>`);
  fs.writeFileSync(path.join(foreignDir, 'foreign.js'), `
window.replies = [];
addEventListener('message', (e) => window.replies.push(e.data));
window.sendLoad = async () => {
  const bytes = await (await fetch('demo.perf.gz')).arrayBuffer();
  document.getElementById('viewer').contentWindow.postMessage({ type: 'load', bytes, name: 'evil.perf.gz' }, '*');
};`);
});
after(async () => {
  await server?.close();
  await foreign?.close();
  fs.rmSync(foreignDir, { recursive: true, force: true });
});

const cli = (...args) => execFileSync(CLI, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
const messages = (page) => page.evaluate(() => window.scorchMessages);
const waitFor = (page, type, n = 1) =>
  page.waitForFunction(([t, n]) => (window.scorchMessages || []).filter((m) => m.type === t).length >= n, [type, n]);
/** The viewer's own document (same origin as the host page). */
// One expression with the function's source inlined, evaluated by the driver: rebuilding it in the page with
// Function() is what the host page's CSP forbids (Firefox ESR 140 enforces that on driver-run code).
const inViewer = (page, fn, arg) => page.evaluate(
  `(${fn})(document.getElementById('viewer').contentDocument, ${arg === undefined ? 'undefined' : JSON.stringify(arg)})`);

test('the example host loads a profile by message, hears loaded and select, and changes the view', async () => {
  const b = await browser();
  const { page } = b;
  try {
    await page.goto(`${server.url}www/examples/embed-host.html`);
    await waitFor(page, 'ready');
    // No toolbar in the frame, and no demo opened by itself.
    assert.equal(await inViewer(page, (doc) => doc.querySelector('.toolbar')), null);
    assert.equal((await messages(page)).filter((m) => m.type === 'loaded').length, 0);
    await page.click('#demo');
    await waitFor(page, 'loaded');
    const loaded = (await messages(page)).find((m) => m.type === 'loaded');
    const info = cli('info', DEMO);
    const samples = Number(info.match(/^samples:\s+(\d+)/m)[1]);
    const total = Number(info.match(/^total:\s+(\d+)/m)[1]);
    assert.deepEqual(loaded, { type: 'loaded', name: 'service.perf.gz', format: 'perf-script', samples, total });
    // A view message: the sandwich of main; the viewer says what was selected, with the CLI's numbers.
    let self = 0, all = 0;
    for (const line of cli('fold', DEMO).split('\n').filter(Boolean)) {
      const i = line.lastIndexOf(' ');
      const frames = line.slice(0, i).split(';'), w = Number(line.slice(i + 1));
      if (frames.includes('main')) all += w;
      if (frames.at(-1) === 'main') self += w;
    }
    await page.click('#sandwich');
    await waitFor(page, 'select');
    const select = (await messages(page)).find((m) => m.type === 'select');
    assert.deepEqual(select, { type: 'select', frame: 'main', self, total: all });
    await page.waitForFunction(() => document.getElementById('viewer').contentDocument
      .querySelector('[data-testid=view-mode-sandwich]')?.classList.contains('active'));
    await page.screenshot({ path: outFile('embed-host.png') });
    // A message of the wrong shape is refused with an error reply.
    await page.evaluate(() => document.getElementById('viewer').contentWindow.postMessage({ type: 'load', bytes: 42 }, location.origin));
    await waitFor(page, 'error');
    assert.match((await messages(page)).find((m) => m.type === 'error').message, /bytes/);
    assert.deepEqual(b.errors, []);
  } finally { await b.close(); }
});

test('a message from a foreign origin is ignored: no load, no reply', async () => {
  const b = await browser();
  const { page } = b;
  try {
    await page.goto(foreign.url);
    await page.waitForFunction(() => typeof window.sendLoad === 'function');
    if (ENGINE === 'chromium') {
      // Playwright reaches into the cross-origin frame (the Firefox shim has no frame API): once the viewer is
      // up, two messages are seen and ignored, and nothing is opened.
      const frame = page.frames().find((f) => f.url().includes('embed=1'));
      await frame.waitForFunction(() => document.querySelector('[data-testid=status]') && document.body.classList.contains('embed'));
      await page.evaluate(() => window.sendLoad());
      await page.evaluate(() => window.sendLoad());
      await frame.waitForFunction(() => window.__scorchEmbedIgnored === 2);
      assert.equal(await frame.evaluate(() => document.querySelector('[data-testid=status]')?.dataset.format || ''), '');
    } else {
      // Without a frame API: give the viewer time to start, send, and give it time to (not) answer.
      await page.waitForTimeout(3000);
      await page.evaluate(() => window.sendLoad());
      await page.waitForTimeout(2000);
    }
    // The viewer posts only to allowed origins: the foreign page heard nothing, not even `ready`.
    assert.deepEqual(await page.evaluate(() => window.replies), []);
  } finally { await b.close(); }
});
