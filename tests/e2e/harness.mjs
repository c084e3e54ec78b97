// Shared browser-test plumbing: a static server for dist/ and a headless browser. SCORCH_BROWSER picks the engine:
// `chromium` (the default; Debian's, through playwright-core) or `firefox` (Debian's firefox-esr, through
// puppeteer-core over WebDriver BiDi, wrapped in the same Playwright-shaped page by ./playwright-shim.mjs).
// ENGINE is exported for the few places where the engines truly differ; each such place says why.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { wrapPage, scratchDir } from './playwright-shim.mjs';
import { execFileSync } from 'node:child_process';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST = path.join(ROOT, 'dist');
export const FIXTURES = path.join(ROOT, 'tests', 'e2e', 'fixtures');
// Screenshots and files the tests write: tests/out/ for Chromium, tests/out/firefox/ for Firefox (the two engines'
// runs go side by side in scripts/test.sh, and must not write over each other's files).
export const OUT = path.join(ROOT, 'tests', 'out', ...(process.env.SCORCH_BROWSER === 'firefox' ? ['firefox'] : []));

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json',
};

/** Serves `root` under `prefix` (and each `mounts` prefix → folder) on 127.0.0.1 with a random port.
 *  Records every request. `opts.missing(rel)`: true for files to answer 404 for, as a server without them;
 *  `opts.headers(rel)`: extra response headers for a file (e.g. `Content-Encoding`). */
export async function serve(root = DIST, prefix = '/', mounts = {}, opts = {}) {
  const requests = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url);
    const url = new URL(req.url, 'http://x');
    for (const [p, dir] of Object.entries(mounts)) {
      if (url.pathname.startsWith(p)) {
        const file = path.join(dir, decodeURIComponent(url.pathname.slice(p.length)));
        if (file.startsWith(dir) && fs.existsSync(file) && fs.statSync(file).isFile()) {
          // With its length, as static servers send it (the worker then knows the size: progress, slices).
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': fs.statSync(file).size });
          fs.createReadStream(file).pipe(res);
        } else { res.writeHead(404); res.end('not found'); }
        return;
      }
    }
    if (!url.pathname.startsWith(prefix)) { res.writeHead(404); res.end(); return; }
    let rel = decodeURIComponent(url.pathname.slice(prefix.length));
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    const file = path.join(root, rel);
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory() || opts.missing?.(rel)) {
      res.writeHead(404); res.end('not found'); return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', ...opts.headers?.(rel) });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}${prefix}`, requests, close: () => new Promise((r) => server.close(r)) };
}

export const ENGINE = process.env.SCORCH_BROWSER || 'chromium';
if (!['chromium', 'firefox'].includes(ENGINE)) throw new Error(`SCORCH_BROWSER=${ENGINE}: chromium or firefox`);

/** A fresh headless browser of ENGINE with an empty profile, a 1280×800 viewport and the page's errors collected.
 *  `colorScheme` ('light' or 'dark') is the system colour scheme the page sees. */
export async function browser({ colorScheme = 'light' } = {}) {
  const b = ENGINE === 'firefox' ? await firefox(colorScheme) : await chromiumBrowser(colorScheme);
  const errors = [];
  // The page's console lines of every kind, with their time (`watched` reports the last ones when a test hangs).
  const log = [];
  const keep = (line) => log.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
  b.page.on('pageerror', (e) => { errors.push(String(e)); keep(`pageerror: ${e}`); });
  b.page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); keep(`${m.type()}: ${m.text()}`); });
  return { page: b.page, errors, log, close: b.close };
}

/** Runs `body(step)` (each phase named by `step('…')`) in `b`'s page. If it has not finished after `ms`, it fails
 *  with what a hang needs to be found: the phase it was in and the ones before (with their times), the status
 *  line's dataset, how many views were being built in workers, and the page's last console lines. The test's own
 *  timeout must be longer than `ms`, or it ends first and says only that it timed out. */
export async function watched(b, ms, body) {
  const t0 = Date.now();
  const steps = [];
  const step = (name) => steps.push(`${Date.now() - t0} ms ${name}`);
  let timer;
  const hung = new Promise((_, reject) => {
    timer = setTimeout(async () => {
      // Each read is itself bounded: a page that no longer answers is part of the report.
      const within = (p) => Promise.race([p, new Promise((r) => setTimeout(() => r('(no answer in 5 s)'), 5000))]);
      const state = await within(b.page.evaluate(() => {
        const s = document.querySelector('[data-testid=status]');
        const text = (id) => document.querySelector(`[data-testid=${id}]`)?.textContent;
        return JSON.stringify({ ...s?.dataset, text: s?.textContent, loading: text('progress-text'), error: text('error'),
          views: window.__scorchViewRequests?.(), pending: window.__scorchViewsPending?.() });
      }).catch((e) => `(${e.message})`));
      reject(new Error([`no end after ${ms} ms`, `steps: ${steps.join(' · ')}`, `page: ${state}`,
        `console: ${b.log.length ? `\n  ${b.log.slice(-40).join('\n  ')}` : '(nothing)'}`].join('\n')));
    }, ms);
  });
  try {
    return await Promise.race([body(step), hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** Chromium 156 started headless still makes its omnibox popups (two hidden WebUI pages in a renderer of their own):
 *  about 0.75 s of CPU in the first 1.6 s of every launch on this 2-core machine, beside the page under test
 *  (`perf sched`; docs/BENCHMARKS.md, "The measuring browser's own work"). No test needs them. */
export const QUIET_CHROMIUM = '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup';

async function chromiumBrowser(colorScheme) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-e2e-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    colorScheme,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', QUIET_CHROMIUM,
      ...(process.env.SCORCH_CHROMIUM_ARGS || '').split(' ').filter(Boolean)],
  });
  const page = ctx.pages()[0] || (await ctx.newPage());
  return { page, close: async () => { await ctx.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

async function firefox(colorScheme) {
  // puppeteer makes (and afterwards removes) a fresh profile for each launch.
  const b = await puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.FIREFOX || '/usr/bin/firefox-esr',
    headless: true,
    defaultViewport: { width: 1280, height: 800 },
    // The window, too, at least as large as the viewport: WebDriver's input actions check their coordinates against
    // the window's own viewport (by default 1366×682 headless), not the emulated one, and refuse points below it.
    args: ['--width=1280', '--height=1000'],
    extraPrefsFirefox: {
      // The system colour scheme (Playwright's `colorScheme` for Chromium): 0 dark, 1 light.
      'layout.css.prefers-color-scheme.content-override': colorScheme === 'dark' ? 0 : 1,
      // No update checks, telemetry or remote settings: nothing leaves the machine but the test's own requests.
      'app.update.disabledForTesting': true,
      'browser.shell.checkDefaultBrowser': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'toolkit.telemetry.enabled': false,
    },
  });
  const page = (await b.pages())[0] || (await b.newPage());
  const files = scratchDir();
  return {
    page: wrapPage(page, files),
    close: async () => { await b.close(); fs.rmSync(files, { recursive: true, force: true }); },
  };
}

/** Waits until the status line reports a profile with the given file name (at most `timeout` ms). */
export async function waitForProfile(page, name, { timeout = 30000 } = {}) {
  await page.waitForFunction((n) => {
    const s = document.querySelector('[data-testid=status]');
    return s && s.dataset.format && s.textContent.startsWith(n);
  }, name, { timeout });
  await settle(page);
  return page.evaluate(() => ({ ...document.querySelector('[data-testid=status]').dataset,
    text: document.querySelector('[data-testid=status]').textContent }));
}

/** Opens FILE through the file input and waits for *that* load to land (the status line's `data-loads` moves), so a
 * file opened again under the name already shown is not mistaken for the profile that was open. */
export async function openFile(page, file, name) {
  const loads = await page.getAttribute('[data-testid=status]', 'data-loads');
  await page.setInputFiles('[data-testid=open-file]', file);
  await page.waitForFunction((n) => document.querySelector('[data-testid=status]')?.dataset.loads !== n, loads,
    { timeout: 30000 });
  return waitForProfile(page, name);
}

/** Waits until every view the page wants is shown (`window.__scorchViewsPending()`: the main graph, the sandwich and
 *  the function table count from the moment the action that changed the view asked for them — synchronously, in the
 *  click, key or input that did — until their answer is shown; the stack chart, the call graph and source lines from
 *  the effect that asks for them, a microtask after the action, until shown; any request while the engine has it), then
 *  until the flame canvas's position, size and shown graph and the status line stay the same for three animation
 *  frames (the new graph drawn). Call it after any action that changes the view and before reading what it shows. */
export async function settle(page) {
  await page.evaluate(() => new Promise((resolve) => {
    let last = '', same = 0;
    const pending = () => window.__scorchViewsPending?.() ?? window.__scorchViewRequests?.() ?? 0;
    const tick = () => {
      if (pending() > 0) { same = 0; last = ''; requestAnimationFrame(tick); return; }
      const c = document.querySelector('[data-testid=flame-canvas]');
      const r = c?.getBoundingClientRect();
      const s = document.querySelector('[data-testid=status]');
      const now = [r ? `${r.left},${r.top},${r.width},${r.height},${c.width},${c.height},${c.dataset.shown}` : '',
        s?.dataset.total, s?.dataset.loads].join('|');
      same = now === last ? same + 1 : 0;
      last = now;
      if (same >= 3) resolve(); else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }));
}

/** CSS-px centre of the frame at unit-space x (0..1) and depth, relative to the page. */
export async function framePoint(page, x, depth) {
  return page.evaluate(([x, depth]) => {
    const c = document.querySelector('[data-testid=flame-canvas]');
    c.scrollIntoView({ block: 'nearest' });
    const r = c.getBoundingClientRect();
    const rowH = Number(c.dataset.rowHeight);
    const y = c.dataset.orientation === 'flame' ? r.bottom - (depth + 0.5) * rowH : r.top + (depth + 0.5) * rowH;
    return { x: r.left + x * r.width, y };
  }, [x, depth]);
}

/** The canvas pixel (device px) under a CSS-px page point, as [r, g, b, a]. */
export async function pixelAt(page, pt) {
  return page.evaluate(({ x, y }) => {
    const c = document.querySelector('[data-testid=flame-canvas]');
    const r = c.getBoundingClientRect();
    const sx = c.width / r.width, sy = c.height / r.height;
    return Array.from(c.getContext('2d').getImageData(Math.floor((x - r.left) * sx), Math.floor((y - r.top) * sy), 1, 1).data);
  }, pt);
}

export function outFile(name) {
  fs.mkdirSync(OUT, { recursive: true });
  return path.join(OUT, name);
}

/** A served release build in a fresh browser, with the demo profile open. */
export async function openApp() {
  const server = await serve();
  const b = await browser();
  const close = async () => { await b.close(); await server.close(); };
  try {
    await b.page.goto(server.url);
    await waitForProfile(b.page, 'service.perf.gz');
  } catch (e) {
    // A `before` hook that fails never hands its browser to the `after` hook: close it here, or the open
    // browser keeps the test file's process (and the run) alive.
    await close().catch(() => {});
    throw e;
  }
  return { server, b, close };
}

/** `scorch info FILE` by the native CLI (target/debug/scorch): records read and the shown total. */
export function nativeInfo(file) {
  const out = execFileSync(path.join(ROOT, 'target', 'debug', 'scorch'), ['info', file],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return { samples: out.match(/^samples:\s+(\d+)/m)[1], total: out.match(/^total:\s+(\d+)/m)[1] };
}
