// Many profiles at once in the browser (issue 23 item 6): opens every `*.linux-perf.txt` of a folder through the
// app's file input (as choosing them in *Open…* does), waits for "N profiles merged", and prints the time, the
// merged total (compare it with `scorch fold DIR/*.linux-perf.txt`) and the page's wasm memory.
// Inputs: `for i in $(seq 1 50); do python3 ../shared/tools/viewer-bench/gen_profiles.py --out /tmp/g$i --seed $i
// --sizes 10 --kinds perf; done` (then move the .linux-perf.txt files into one folder).
// Usage: node bench/series-browser.mjs DIR   (after `trunk build --release --features testing`)
import fs from 'node:fs';
import path from 'node:path';
import { serve, browser, waitForProfile } from '../tests/e2e/harness.mjs';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node bench/series-browser.mjs DIR');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.linux-perf.txt')).sort().map((f) => path.join(dir, f));
const server = await serve();
const b = await browser();
const { page } = b;
await page.goto(server.url);
await waitForProfile(page, 'service.perf.gz');
const t0 = Date.now();
await page.setInputFiles('[data-testid=open-file]', files);
await page.waitForFunction((n) => document.querySelector('[data-testid=status]')?.textContent.startsWith(`${n} profiles merged`),
  files.length, { timeout: 600000 });
const ms = Date.now() - t0;
const s = await page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset,
  wasm: window.scorchBoot?.memory?.buffer.byteLength, heap: performance.memory?.usedJSHeapSize }));
console.log(JSON.stringify({ files: files.length, bytes: files.reduce((a, f) => a + fs.statSync(f).size, 0), ms,
  total: s.total, wasmBytes: s.wasm, jsHeapBytes: s.heap, errors: b.errors }));
await b.close();
await server.close();
