// A file opened on a fresh page, then again on the same page (not a test): `node bench/file-twice-browser.mjs
// DIST PROFILE [N]` opens DIST/index.html (its demo) N times, each in a fresh headless Chromium (1600×1000), hands
// PROFILE (from target/bench-profiles) to its file input SCORCH_WAIT ms after the input is there (default 4000: a
// user choosing a file; 0: at once, as the shared harness's `--load file` does), then again 3 s after the first
// is drawn; and prints, per load, `bench:import-done` and `bench:rendered` in ms from that load's hand-over. The
// second load runs code the first got optimised (V8 optimises a wasm function once it has run a while): the
// difference is what a fresh page costs (docs/BENCHMARKS.md, "A fresh page's first large file"). Works with
// product and testing builds.
import path from 'node:path';
import { chromium } from 'playwright-core';
import { PROFILES, closeDist, serveDist } from './serve-dist.mjs';
const [dist, prof, n = '3'] = process.argv.slice(2);
if (!dist || !prof) {
  console.error('usage: node bench/file-twice-browser.mjs DIST PROFILE [N]');
  process.exit(2);
}
const wait = Number(process.env.SCORCH_WAIT ?? 4000);
const port = await serveDist(dist);
for (let i = 0; i < Number(n); i++) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(`http://127.0.0.1:${port}/scorch/index.html`);
  await page.waitForSelector('[data-testid=open-file]', { state: 'attached' });
  await page.waitForTimeout(wait);
  const out = [];
  for (let k = 0; k < 2; k++) {
    await page.evaluate(() => performance.clearMarks());
    const t0 = await page.evaluate(() => performance.now());
    await page.setInputFiles('[data-testid=open-file]', path.join(PROFILES, prof));
    await page.waitForFunction(() => performance.getEntriesByName('bench:rendered').length > 0, null, { timeout: 60000 });
    const m = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark').map((e) => [e.name, e.startTime])));
    out.push(`${k ? 'again' : 'first'}: import ${Math.round(m['bench:import-done'] - t0)} ms, drawn ${Math.round(m['bench:rendered'] - t0)} ms`);
    await page.waitForTimeout(3000);
  }
  console.log(`load ${i + 1}: ${out.join('; ')}`);
  await browser.close();
}
closeDist();
