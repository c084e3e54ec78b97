// The thread list in the browser: opens a perf script (bench/gen-threads.py > FILE), opens the thread list three
// times and prints the time from the click to the first row and the `scorch-phase thread list` log (the core call,
// logged by testing builds when 10 ms or more). Usage: node bench/threads-browser.mjs FILE (after
// `trunk build --release --features testing`).
import path from 'node:path';
import { serve, browser, waitForProfile } from '../tests/e2e/harness.mjs';
const file = process.argv[2];
const server = await serve();
const b = await browser();
const logs = [];
b.page.on('console', (m) => { const t = typeof m.text === 'function' ? m.text() : m.text; if (/scorch-phase/.test(t)) logs.push(t); });
await b.page.goto(server.url);
await waitForProfile(b.page, 'service.perf.gz');
await b.page.setInputFiles('[data-testid=open-file]', file);
await b.page.waitForFunction((n) => document.querySelector('[data-testid=status]').textContent.startsWith(n),
  path.basename(file), { timeout: 120000 });
for (let i = 0; i < 3; i++) {
  const t0 = Date.now();
  await b.page.click('[data-testid=threads-toggle]');
  await b.page.locator('[data-testid=thread-row]').first().waitFor();
  const ms = Date.now() - t0;
  const n = await b.page.evaluate(() => document.querySelectorAll('[data-testid=thread-row]').length);
  console.log(`open ${i}: ${ms} ms to the first row, ${n} rows`);
  await b.page.click('[data-testid=threads-toggle]');
  await new Promise((r) => setTimeout(r, 300));
}
console.log(logs.filter((l) => /thread list/.test(l)).join('\n'));
await b.close(); await server.close();
