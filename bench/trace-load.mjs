// One load by link with a Chrome trace (not a test): `node bench/trace-load.mjs DIST PROFILE OUT.json` opens
// DIST/index.html#url=PROFILE (from target/bench-profiles) in headless Chromium with the devtools.timeline and v8.wasm
// categories, writes the trace to OUT.json (open it in chrome://tracing or Perfetto) and prints the page's marks.
// SCORCH_LOAD=file opens the page first (its demo), waits SCORCH_WAIT ms (4,000 by default: a user choosing a file;
// 0: at once, as viewer-bench's `--load file`), then traces the file handed to its file input (the page's mark
// `trace:file` is the hand-over). SCORCH_CPU_PROFILE=1 adds V8's
// sampling profiler (`ProfileChunk` events: which functions each task ran; with a build that keeps names
// (`wasm-bindgen --keep-debug`, then `wasm-opt -Os -g`) they are the Rust functions).
// Summaries of the trace (tasks, first-call compiles, CPU per thread, CPU profile): bench/trace-summary.py.
import fs from 'node:fs'; import path from 'node:path';
import { chromium } from 'playwright-core';
import { PROFILES, closeDist, serveDist } from './serve-dist.mjs';
const [dist, prof, outFile] = process.argv.slice(2);
const port = await serveDist(dist);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu',
  ...(process.env.SCORCH_CHROMIUM_ARGS || '').split(' ').filter(Boolean)] });
const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
const cdp = await page.context().newCDPSession(page);
// The trace is read once it ends (`ReturnAsStream`), not streamed during the load: streamed, this process (which
// also serves the files) fell behind parsing it and the page's requests waited 200–300 ms for their bytes.
let events = [];
const done = new Promise((resolve) => cdp.on('Tracing.tracingComplete', async ({ stream }) => {
  const parts = [];
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream });
    parts.push(Buffer.from(chunk.data, chunk.base64Encoded ? 'base64' : 'utf8'));
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const trace = JSON.parse(Buffer.concat(parts).toString('utf8'));
  events = Array.isArray(trace) ? trace : trace.traceEvents;
  resolve();
}));
const byFile = process.env.SCORCH_LOAD === 'file';
if (byFile) {
  await page.goto(`http://127.0.0.1:${port}/scorch/index.html`);
  await page.waitForSelector('[data-testid=open-file]', { state: 'attached' });
  await page.waitForTimeout(Number(process.env.SCORCH_WAIT ?? 4000));
}
await cdp.send('Tracing.start', { categories: 'blink.user_timing,devtools.timeline,v8.wasm,v8,disabled-by-default-devtools.timeline' + (process.env.SCORCH_CPU_PROFILE === '1' ? ',disabled-by-default-v8.cpu_profiler' : ''), transferMode: 'ReturnAsStream' });
if (byFile) {
  await page.evaluate(() => performance.mark('trace:file'));
  await page.setInputFiles('[data-testid=open-file]', path.join(PROFILES, prof));
} else await page.goto(`http://127.0.0.1:${port}/scorch/index.html#url=${encodeURIComponent(`http://127.0.0.1:${port}/p/${prof}`)}`);
await page.waitForFunction(() => performance.getEntriesByName('bench:rendered').length > 0, null, { timeout: 30000 });
const marks = await page.evaluate(() => performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)]));
await page.waitForTimeout(300);
await cdp.send('Tracing.end'); await done;
fs.writeFileSync(outFile, JSON.stringify(events));
console.log(marks);
await browser.close(); closeDist();
