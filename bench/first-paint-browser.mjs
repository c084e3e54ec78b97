// The first picture of a profile opened by link, timed in its parts (not a test): `node bench/first-paint-browser.mjs
// DIST PROFILE N` opens DIST/index.html#url=PROFILE (from target/bench-profiles) N times, each in a fresh headless
// Chromium (1600×1000), and prints per load the `bench:rendered` mark (ms from navigation), the main thread's tasks
// over 50 ms (PerformanceObserver 'longtask', from navigation to a second after the mark) and the testing build's
// `scorch-phase` lines of the first picture (`paint`, `place`; a phase is logged when it takes 10 ms or more:
// `state::timed`). DIST must be a testing build (`trunk build --release --features testing --dist DIR`).
// SCORCH_LOAD=file opens the page first (its demo), waits 4 s and hands the profile to its file input: times and
// long tasks then count from the hand-over.
import path from 'node:path';
import { chromium } from 'playwright-core';
import { PROFILES, closeDist, serveDist } from './serve-dist.mjs';
const [dist, prof, n = '5'] = process.argv.slice(2);
if (!dist || !prof) {
  console.error('usage: node bench/first-paint-browser.mjs DIST PROFILE [N]');
  process.exit(2);
}
const port = await serveDist(dist);
const byFile = process.env.SCORCH_LOAD === 'file';
for (let i = 0; i < Number(n); i++) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  const phases = [];
  page.on('console', (m) => {
    const t = m.text();
    if (/^scorch-phase (paint|place) /.test(t)) phases.push(t.replace('scorch-phase ', ''));
  });
  await page.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, Math.round(e.duration)]); })
      .observe({ type: 'longtask', buffered: true });
  });
  let origin = 0;
  if (byFile) {
    await page.goto(`http://127.0.0.1:${port}/scorch/index.html`);
    await page.waitForSelector('[data-testid=open-file]', { state: 'attached' });
    await page.waitForTimeout(4000);
    phases.length = 0;
    origin = await page.evaluate(() => performance.now());
    await page.setInputFiles('[data-testid=open-file]', path.join(PROFILES, prof));
  } else {
    await page.goto(`http://127.0.0.1:${port}/scorch/index.html#url=${encodeURIComponent(`http://127.0.0.1:${port}/p/${prof}`)}`);
  }
  await page.waitForFunction(() => performance.getEntriesByName('bench:rendered').length > 0, null, { timeout: 60000 });
  await page.waitForTimeout(1000);
  const [rendered, long] = await page.evaluate((o) => [
    Math.round(performance.getEntriesByName('bench:rendered')[0].startTime - o),
    window.__long.filter((t) => t[0] >= o).map((t) => t[1])], origin);
  console.log(`rendered ${rendered} ms · tasks over 50 ms ${JSON.stringify(long)} · ${phases.join('; ') || 'no phase of 10 ms or more'}`);
  await browser.close();
}
closeDist();
