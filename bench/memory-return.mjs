// Does memory come back? (issue 39; a benchmark, not a test.) In headless Chromium: (A) a fresh tab opens the small
// profile by link; (B) a fresh tab opens the big one, then the small one in the same tab (a new `#url=`). Once each
// is drawn and the page has been idle 2 s, a garbage collection is forced (CDP) and the page's renderer process's
// resident memory (VmRSS: the page and its workers) is read, with the page's and the workers' wasm memory.
// Reported: B ÷ A (the issue's target: within 1.2).
//   node bench/memory-return.mjs [--dist DIR] [--big folded-400mb.collapsedstack.txt] [--small folded-1mb.collapsedstack.txt] [--reps 2]
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (n, d) => { const i = args.indexOf(n); return i >= 0 ? args[i + 1] : d; };
const dist = path.resolve(opt('--dist', path.join(root, 'dist')));
const profiles = path.join(root, 'target', 'bench-profiles');
const big = opt('--big', 'folded-400mb.collapsedstack.txt');
const small = opt('--small', 'folded-1mb.collapsedstack.txt');
const reps = Number(opt('--reps', '2'));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.svg': 'image/svg+xml' };

const server = http.createServer((req, res) => {
  const u = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  const f = u.startsWith('/profiles/') ? path.join(profiles, u.slice(10)) : path.join(dist, u);
  if (!fs.existsSync(f) || fs.statSync(f).isDirectory()) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'content-type': TYPES[path.extname(f)] || 'application/octet-stream', 'content-length': fs.statSync(f).size });
  fs.createReadStream(f).pipe(res);
}).listen(0, '127.0.0.1');
await new Promise((r) => server.on('listening', r));
const base = `http://127.0.0.1:${server.address().port}`;

// The largest renderer's resident memory: the page's (headless Chromium runs a few small renderers of its own).
function rendererRssMB() {
  let max = 0;
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (!fs.readFileSync(`/proc/${e}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${e}/status`, 'utf8'));
      if (m) max = Math.max(max, Number(m[1]) / 1024);
    } catch { /* gone */ }
  }
  return Math.round(max);
}

async function drawn(page, name) {
  await page.waitForFunction((n) => {
    const s = document.querySelector('[data-testid=status]');
    return s?.dataset.format && s.textContent.startsWith(n) && !document.querySelector('[data-testid=busy]');
  }, name, { timeout: 600000, polling: 250 });
  await page.waitForTimeout(2000);
}

async function measure(steps) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-mem-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, viewport: { width: 1600, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = ctx.pages()[0] || (await ctx.newPage());
    for (const [i, file] of steps.entries()) {
      const url = `${base}/index.html#url=${encodeURIComponent(`${base}/profiles/${file}`)}`;
      if (i === 0) await page.goto(url); else await page.evaluate((u) => { location.href = u; }, url);
      await drawn(page, file);
    }
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    await page.waitForTimeout(1000);
    const mb = (x) => (x == null ? null : Math.round(x / 1048576));
    const pageWasm = mb(await page.evaluate(() => window.scorchBoot?.memory?.buffer.byteLength));
    const workers = [];
    for (const w of page.workers()) {
      const n = await w.evaluate(() => self.scorchMemory?.buffer.byteLength).catch(() => null);
      if (n != null) workers.push(mb(n));
    }
    return { rss: rendererRssMB(), pageWasm, workers };
  } finally {
    await ctx.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const rows = [];
for (let r = 0; r < reps; r++) {
  const fresh = await measure([small]);
  const after = await measure([big, small]);
  rows.push({ fresh, after, ratio: +(after.rss / fresh.rss).toFixed(2) });
  console.log(`fresh tab, ${small}: renderer RSS ${fresh.rss} MB (page wasm ${fresh.pageWasm} MB, workers ${fresh.workers.join('+') || '–'} MB) | ` +
    `${big} then ${small}: ${after.rss} MB (page wasm ${after.pageWasm} MB, workers ${after.workers.join('+') || '–'} MB) | ratio ${rows.at(-1).ratio}`);
}
fs.mkdirSync(path.join(root, 'target', 'bench'), { recursive: true });
fs.writeFileSync(path.join(root, 'target', 'bench', 'memory-return.json'), JSON.stringify(rows, null, 1));
server.close();
