// perf.data recordings in the browser (issue #42). The page has no binaries to read symbols from, so a recording
// opens with its frames named `MODULE+0xOFFSET` — the CLI's `--no-symbols` reading — with the CLI's totals, by
// drop and by `#url=`; the stack-health badge names the binaries that would name them, in the order perf script's
// own dso column gives (the weight of the samples through each, read here from perf's output); and a
// `scorch pack` of the recording, made where the binaries are, opens by drop and by `#url=` with the same totals
// and the functions' names perf script prints.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, browser, nativeInfo, waitForProfile, outFile, ROOT } from './harness.mjs';

const PD = path.join(ROOT, 'crates', 'cli', 'tests', 'data', 'perfdata');
const SCORCH = path.join(ROOT, 'target', 'debug', 'scorch');
let server, b, packed;
before(async () => {
  packed = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-pack-'));
  // The test programs are kept beside the recordings (their README): the CLI finds them by name there.
  for (const stem of ['spin', 'threads']) {
    execFileSync(SCORCH, ['pack', path.join(PD, `${stem}.data`), '-o', path.join(packed, `${stem}.pb.gz`)],
      { env: { ...process.env, SCORCH_SYMBOL_PATH: PD }, stdio: 'ignore' });
  }
  server = await serve(undefined, '/', { '/pd/': PD, '/packed/': packed });
  b = await browser();
});
after(async () => { await b?.close(); await server?.close(); fs.rmSync(packed, { recursive: true, force: true }); });

/** perf script's output for a recording: per sample its period and frames as [address, symbol, dso]. */
function script(stem) {
  const samples = [];
  for (const line of fs.readFileSync(path.join(PD, `${stem}.script`), 'utf8').split('\n')) {
    if (line.startsWith('\t')) {
      const m = line.trim().match(/^([0-9a-f]+) (.*) \((.*)\)$/);
      samples.at(-1).frames.push([m[1], m[2], m[3]]);
    } else if (line.trim()) {
      const t = line.trim().split(/\s+/);
      samples.push({ period: Number(t.at(-2)), frames: [] });
    }
  }
  return samples;
}

/** The binaries (by file name) of perf's frames, each with the period of the samples through it, heaviest first. */
function binaries(stem) {
  const w = new Map();
  for (const s of script(stem)) {
    for (const d of new Set(s.frames.map((f) => f[2]).filter((d) => d !== '[unknown]').map((d) => d.split('/').at(-1)))) {
      w.set(d, (w.get(d) || 0) + s.period);
    }
  }
  return [...w].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map((x) => x[0]);
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function checkUnnamed(page, stem) {
  const file = path.join(PD, `${stem}.data`);
  const s = await waitForProfile(page, `${stem}.data`);
  const want = nativeInfo(file);
  assert.equal(s.format, 'perf-data');
  assert.deepEqual([s.samples, s.total], [want.samples, want.total], stem);
  // The program's own frames, as perf script names them, are here their binary and file offset.
  const own = script(stem).flatMap((x) => x.frames).find((f) => f[2].endsWith(`/${stem}`));
  const name = `${stem}+0x${own[0]}`;
  await page.waitForFunction((n) => window.__scorchFramePoint(n), name);
  const badge = page.locator('[data-testid=health-badge]');
  await badge.waitFor();
  const bins = binaries(stem);
  const named = bins.slice(0, 3).join(', ') + (bins.length > 3 ? ', …' : '');
  assert.match(await badge.textContent(), new RegExp(`^100\\.0 % of .* in stacks with unnamed frames \\(no symbols: ${escape(named)}\\) — why\\?$`));
}

test('a perf.data recording opens by drop and by #url= with the CLI totals, MODULE+0xOFFSET frames, and a badge naming its binaries', async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  for (const stem of ['spin', 'threads']) {
    await page.setInputFiles('[data-testid=open-file]', path.join(PD, `${stem}.data`));
    await checkUnnamed(page, stem);
  }
  // A recording has facts, so the toolbar has Info too: still one row at 1,280 px.
  const bar = await page.evaluate(() => ({
    bar: document.querySelector('.toolbar').getBoundingClientRect().height,
    button: document.querySelector('[data-testid=help-toggle]').getBoundingClientRect().height,
    width: window.innerWidth,
  }));
  assert.equal(bar.width, 1280);
  assert.ok(bar.bar < 2 * bar.button + 8, `one toolbar row: ${bar.bar} px for ${bar.button} px buttons`);
  await page.locator('[data-testid=health-badge]').click();
  await page.locator('[data-testid=health-panel]').waitFor();
  assert.match(await page.locator('[data-testid=health-panel]').textContent(), /scorch pack perf\.data/);
  await page.screenshot({ path: outFile('perfdata-unnamed.png') });
  await page.goto(`${server.url}#url=${encodeURIComponent('/pd/spin.data')}`);
  await waitForProfile(page, 'spin.data');
  await page.reload();
  await checkUnnamed(page, 'spin');
  assert.deepEqual(b.errors, []);
});

test('a recording dropped with its program names the program\'s frames as perf script does; the other binaries stay listed', async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  for (const stem of ['spin', 'threads']) {
    // The recording and its program's binary (kept beside the recordings), together, as a drop gives them.
    await page.setInputFiles('[data-testid=open-file]', [path.join(PD, `${stem}.data`), path.join(PD, stem)]);
    const s = await waitForProfile(page, `${stem}.data`);
    const want = nativeInfo(path.join(PD, `${stem}.data`));
    assert.deepEqual([s.samples, s.total], [want.samples, want.total], stem);
    const frames = script(stem).flatMap((x) => x.frames);
    const names = new Set(frames.filter((f) => f[2].endsWith(`/${stem}`)).map((f) => f[1]));
    assert.ok(names.size >= 2, stem);
    for (const n of names) await page.waitForFunction((x) => window.__scorchFramePoint(x), n);
    // No frame of the program is left as an address; the binaries not given are, and the badge names them.
    const left = await page.evaluate((p) => window.__scorchFramePoint(p), `${stem}+0x${frames.find((f) => f[2].endsWith(`/${stem}`))[0]}`);
    assert.equal(left, null, stem);
    const rest = binaries(stem).filter((x) => x !== stem);
    const badge = page.locator('[data-testid=health-badge]');
    await badge.waitFor();
    assert.match(await badge.textContent(), new RegExp(`\\(no symbols: ${escape(rest.slice(0, 3).join(', '))}\\) — why\\?$`));
    await page.screenshot({ path: outFile(`perfdata-with-${stem}.png`) });
  }
  assert.deepEqual(b.errors, []);
});

test('a scorch pack of a recording opens by drop and by #url= with the same totals and the names perf script prints', async () => {
  const { page } = b;
  for (const stem of ['spin', 'threads']) {
    const file = path.join(packed, `${stem}.pb.gz`);
    const want = nativeInfo(path.join(PD, `${stem}.data`));
    const check = async () => {
      const s = await waitForProfile(page, `${stem}.pb.gz`);
      assert.equal(s.format, 'pprof');
      assert.equal(s.total, want.total, stem);
      // Functions of the program perf script names (the kept binary resolves them wherever the test runs).
      const names = new Set(script(stem).flatMap((x) => x.frames).filter((f) => f[2].endsWith(`/${stem}`)).map((f) => f[1]));
      assert.ok(names.size >= 2, stem);
      for (const n of names) await page.waitForFunction((x) => window.__scorchFramePoint(x), n);
    };
    await page.goto(server.url);
    await waitForProfile(page, 'service.perf.gz');
    await page.setInputFiles('[data-testid=open-file]', file);
    await check();
    await page.goto(`${server.url}#url=${encodeURIComponent(`/packed/${stem}.pb.gz`)}`);
    await waitForProfile(page, `${stem}.pb.gz`);
    await page.reload();
    await check();
  }
  assert.deepEqual(b.errors, []);
});
