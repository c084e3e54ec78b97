// A file's load on fresh pages (a benchmark, not a test): `node bench/fresh-file-browser.mjs DIST FILE [N] [JSFLAGS]`
// opens DIST's page N times, each in a new Chromium, hands FILE (from target/bench-profiles) to its input as soon
// as the input is there (as the shared harness does) and prints, from that hand-over, `bench:import-done` and
// `bench:rendered` of each load and the median of the latter. JSFLAGS: V8 flags for a diagnosis (Chromium's
// `--js-flags`), never a product setting. docs/BENCHMARKS.md, "A read's bytes written once…".
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serveDist, closeDist, PROFILES } from './serve-dist.mjs';
const [dist, prof, n = '3', flags = ''] = process.argv.slice(2);
const port = await serveDist(dist);
const out = [];
for (let i = 0; i < Number(n); i++) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', ...(flags ? ['--js-flags=' + flags] : [])] });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(`http://127.0.0.1:${port}/scorch/index.html`);
  await page.waitForSelector('[data-testid=open-file]', { state: 'attached' });
  await page.evaluate(() => performance.mark('hand'));
  await page.setInputFiles('[data-testid=open-file]', path.join(PROFILES, prof));
  await page.waitForFunction(() => { const h = performance.getEntriesByName('hand')[0].startTime; return performance.getEntriesByName('bench:rendered').some((m) => m.startTime > h); }, null, { timeout: 60000 });
  const r = await page.evaluate(() => { const h = performance.getEntriesByName('hand')[0].startTime; const f = (n) => Math.round(performance.getEntriesByName(n).filter((m) => m.startTime > h)[0].startTime - h); return [f('bench:import-done'), f('bench:rendered')]; });
  out.push(r);
  await browser.close();
}
closeDist();
const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
console.log(flags || 'default', 'import', out.map((r) => r[0]).join(','), 'rendered', out.map((r) => r[1]).join(','), 'median', med(out.map((r) => r[1])));
