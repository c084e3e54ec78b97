// One key press traced (not a test): `node bench/trace-key.mjs DIST PROFILE OUT.json KEYS_BEFORE KEY` opens
// DIST/index.html#url=PROFILE (from target/bench-profiles) in headless Chromium (without its omnibox popups),
// presses each of KEYS_BEFORE 3 s apart (e.g. `41`: the function table, then the flame graph), then traces KEY
// with Chrome's timeline and V8's CPU profiler (mark `trace:key`) and writes the trace to OUT.json. With a build
// that keeps names (bench/names-build.sh) the profile names the Rust functions.
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { closeDist, serveDist } from './serve-dist.mjs';
const [dist, prof, outFile, before, key] = process.argv.slice(2);
const port = await serveDist(dist);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup'] });
const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
const cdp = await page.context().newCDPSession(page);
let events = [];
const done = new Promise((resolve) => cdp.on('Tracing.tracingComplete', async ({ stream }) => {
  const parts = [];
  for (;;) { const c = await cdp.send('IO.read', { handle: stream }); parts.push(Buffer.from(c.data, c.base64Encoded ? 'base64' : 'utf8')); if (c.eof) break; }
  const t = JSON.parse(Buffer.concat(parts).toString('utf8')); events = Array.isArray(t) ? t : t.traceEvents; resolve();
}));
await page.goto(`http://127.0.0.1:${port}/scorch/index.html#url=${encodeURIComponent(`http://127.0.0.1:${port}/p/${prof}`)}`);
await page.waitForFunction(() => performance.getEntriesByName('bench:rendered').length > 0, null, { timeout: 60000 });
await page.waitForTimeout(4000);
for (const k of before) { await page.keyboard.press(k); await page.waitForTimeout(3000); }
await cdp.send('Tracing.start', { categories: 'blink.user_timing,devtools.timeline,v8.wasm,v8,disabled-by-default-devtools.timeline,disabled-by-default-v8.cpu_profiler', transferMode: 'ReturnAsStream' });
await page.waitForTimeout(300);
await page.evaluate(() => performance.mark('trace:key'));
await page.keyboard.press(key);
await page.waitForTimeout(3000);
await cdp.send('Tracing.end'); await done;
fs.writeFileSync(outFile, JSON.stringify(events));
await browser.close(); closeDist();
