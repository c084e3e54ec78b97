// A returning user (a benchmark, not a test): `node bench/revisit-browser.mjs DIST [ROUNDS]`. Per round, one
// Chromium profile (a persistent context: its HTTP cache and code cache kept) with the app's files served as
// cacheable (`Cache-Control: max-age=3600`, profiles `no-store`): perf script 1 MB by link in the fresh profile,
// folded 100 MB by link in it (which runs and optimises much of the engine), then the browser closed, started
// again on the same profile and perf script 1 MB opened by link once more. Prints each visit's drawn
// (`bench:rendered`, ms from navigation). docs/BENCHMARKS.md, "A returning user, measured".
import http from 'node:http'; import fs from 'node:fs'; import path from 'node:path'; import os from 'node:os';
import { chromium } from 'playwright-core';
import { PROFILES } from './serve-dist.mjs';
const [dist, n = '3'] = process.argv.slice(2);
const TYPES = { '.wasm': 'application/wasm', '.js': 'text/javascript', '.html': 'text/html', '.css': 'text/css', '.svg': 'image/svg+xml' };
const srv = http.createServer((req, res) => {
  const u = decodeURIComponent(req.url.split('?')[0].split('#')[0]);
  const f = u.startsWith('/p/') ? path.join(PROFILES, u.slice(3)) : path.join(dist, u.replace(/^\/scorch\//, '/'));
  if (!fs.existsSync(f) || fs.statSync(f).isDirectory()) { res.writeHead(404); return res.end(); }
  const st = fs.statSync(f);
  res.writeHead(200, { 'content-type': TYPES[path.extname(f)] || 'application/octet-stream', 'content-length': st.size,
    'cache-control': u.startsWith('/p/') ? 'no-store' : 'max-age=3600', 'last-modified': st.mtime.toUTCString() });
  fs.createReadStream(f).pipe(res);
}).listen(0, '127.0.0.1');
await new Promise((r) => srv.on('listening', r));
const port = srv.address().port;
const link = (p) => `http://127.0.0.1:${port}/scorch/index.html#url=${encodeURIComponent(`http://127.0.0.1:${port}/p/${p}`)}`;
async function visit(ctx, p) {
  const page = await ctx.newPage();
  await page.goto(link(p));
  await page.waitForFunction(() => performance.getEntriesByName('bench:rendered').length > 0, null, { timeout: 60000 });
  const r = await page.evaluate(() => Math.round(performance.getEntriesByName('bench:rendered')[0].startTime));
  await page.waitForTimeout(3000);
  await page.close();
  return r;
}
const args = ['--no-sandbox', '--disable-gpu'];
const fresh = [], back = [], first = [];
for (let i = 0; i < Number(n); i++) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rv-'));
  let ctx = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', args, viewport: { width: 1600, height: 1000 } });
  fresh.push(await visit(ctx, 'perf-1mb.linux-perf.txt'));
  first.push(await visit(ctx, 'folded-100mb.collapsedstack.txt'));
  await ctx.close();
  ctx = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', args, viewport: { width: 1600, height: 1000 } });
  back.push(await visit(ctx, 'perf-1mb.linux-perf.txt'));
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
srv.close();
console.log(path.basename(dist), '1 MB fresh', fresh.join(','), '| 100 MB', first.join(','), '| 1 MB returning (new browser, same profile)', back.join(','));
