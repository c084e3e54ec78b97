// Stack health in the browser, on real recordings made here (crates/core/tests/data/perf-made/health-*, README.md
// there): the badge appears for the frame-pointer-broken recording and not for the DWARF or frame-pointer ones; its
// share is the native `scorch info --json`'s (itself checked against an independent reading of the perf text in
// crates/cli/tests/health.rs); the panel's advice; *Colour by: stack health* paints a truncated stack's frame red and
// a whole one's green-grey (pixels); the `[truncated stack]` grouping moves the broken stacks under one root and
// keeps the total; both travel in a link to a fresh browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openApp, browser, waitForProfile, settle, pixelAt, outFile, ROOT } from './harness.mjs';

const DATA = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'perf-made');
const NOFP = path.join(DATA, 'health-c-nofp.txt');
const DWARF = path.join(DATA, 'health-c-dwarf.txt');
const FP = path.join(DATA, 'health-c-fp.txt');
const NODE = path.join(DATA, 'health-node-nomap.txt');
const CLI = path.join(ROOT, 'target', 'debug', 'scorch');
// render/color.rs HEALTH_COLORS.
const RED = [214, 58, 52], WHOLE = [178, 204, 170];

let app, b;
before(async () => { app = await openApp(); b = app.b; });
after(async () => { await app?.close(); });

const health = (file) => JSON.parse(execFileSync(CLI, ['info', '--json', file], { encoding: 'utf8' })).stack_health;
const badgeCount = (page) => page.evaluate(() => document.querySelectorAll('[data-testid=health-badge]').length);
async function open(page, file) {
  await page.setInputFiles('[data-testid=open-file]', file);
  const s = await waitForProfile(page, path.basename(file));
  await settle(page);
  return s;
}
async function colourOf(page, name) {
  await settle(page);
  const p = await page.evaluate((n) => window.__scorchFramePoint(n), name);
  assert.ok(p, `${name} is drawn`);
  return (await pixelAt(page, { x: p[0], y: p[1] })).slice(0, 3);
}
const near = (a, want) => a.every((v, i) => Math.abs(v - want[i]) <= 2);

test('no badge for the DWARF and frame-pointer recordings, a badge with the CLI\'s share for the broken one', async () => {
  const { page } = b;
  for (const f of [DWARF, FP]) {
    await open(page, f);
    assert.equal(await badgeCount(page), 0, path.basename(f));
  }
  await open(page, NOFP);
  await page.locator('[data-testid=health-badge]').waitFor();
  const badge = page.locator('[data-testid=health-badge]');
  assert.match(await badge.textContent(), /^100\.0 % of the total in truncated stacks — why\?$/);
  const want = health(NOFP);
  assert.ok(Math.abs(Number(await badge.getAttribute('data-broken')) / 100 - want.broken_share) < 1e-9);
  assert.ok(Math.abs(Number(await badge.getAttribute('data-unsymbolized')) / 100 - want.unsymbolized_share) < 1e-9);
  await badge.click();
  await page.locator('[data-testid=health-panel]').waitFor();
  const panel = await page.textContent('[data-testid=health-panel]');
  assert.match(panel, /-fno-omit-frame-pointer/);
  assert.match(panel, /--call-graph dwarf/);
  assert.match(panel, /depth median 1, p99 3, max 7/);
  await page.screenshot({ path: outFile('health-panel.png') });
  await page.click('[data-testid=health-close]');
});

test('JIT frames without a perf map: the badge names unnamed frames and the panel the perf map', async () => {
  const { page } = b;
  await open(page, NODE);
  const badge = page.locator('[data-testid=health-badge]');
  await badge.waitFor();
  assert.match(await badge.textContent(), /in stacks with unnamed frames — why\?$/);
  await badge.click();
  assert.match(await page.textContent('[data-testid=health-panel]'), /--perf-basic-prof/);
  await page.click('[data-testid=health-close]');
});

test('stack-health colours: a truncated stack\'s frame is red, the same frame in a whole stack is not', async () => {
  const { page } = b;
  await open(page, DWARF);
  await page.selectOption('[data-testid=color-select]', 'health');
  assert.ok(near(await colourOf(page, 'shell_sort.constprop.0'), WHOLE), 'DWARF: whole');
  await page.selectOption('[data-testid=color-select]', 'name');
  await settle(page);
  await open(page, NOFP);
  const before = await colourOf(page, 'shell_sort.constprop.0');
  assert.ok(!near(before, RED));
  await page.click('[data-testid=health-badge]');
  await page.click('[data-testid=health-color]');
  assert.equal(await page.inputValue('[data-testid=color-select]'), 'health');
  assert.ok(near(await colourOf(page, 'shell_sort.constprop.0'), RED), 'no frame pointers: truncated');
  assert.match(await page.textContent('[data-testid=legend]'), /truncated stacks/);
});

test('[truncated stack] groups the broken stacks, keeps the total, and travels in a link with the colouring', async () => {
  const { page } = b;
  const total = (await page.getAttribute('[data-testid=status]', 'data-total'));
  assert.equal(await page.evaluate(() => window.__scorchFramePoint('[truncated stack]')), null);
  await page.click('[data-testid=health-group]');
  await page.locator('[data-testid=transform-chip]').waitFor();
  assert.match(await page.textContent('[data-testid=transforms]'), /group truncated stacks/);
  await settle(page);
  assert.equal(await page.getAttribute('[data-testid=status]', 'data-total'), total);
  // Every stack is broken here, so the synthetic root is drawn (right under the process root) and red.
  assert.ok(near(await colourOf(page, '[truncated stack]'), RED));
  await page.screenshot({ path: outFile('health-grouped.png') });
  // The CLI's transform agrees: all of the weight under [truncated stack].
  const folded = execFileSync(CLI, ['fold', '--transform', 'truncated:', NOFP], { encoding: 'utf8' });
  const lines = folded.split('\n').filter(Boolean);
  assert.ok(lines.every((l) => l.split(';')[1] === '[truncated stack]'));
  const sum = lines.reduce((a, l) => a + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
  assert.equal(String(sum), total);

  await page.click('[data-testid=copy-link]');
  await page.locator('[data-testid=copy-link-text]').waitFor();
  const link = await page.inputValue('[data-testid=copy-link-text]');
  assert.match(link, /color=health/);
  assert.match(link, /tx=truncated/);
  const fresh = await browser();
  try {
    await fresh.page.goto(link);
    await waitForProfile(fresh.page, 'profile from the link');
    await fresh.page.locator('[data-testid=transform-chip]').waitFor();
    await settle(fresh.page);
    assert.equal(await fresh.page.inputValue('[data-testid=color-select]'), 'health');
    assert.match(await fresh.page.textContent('[data-testid=transforms]'), /group truncated stacks/);
    assert.equal(await fresh.page.getAttribute('[data-testid=status]', 'data-total'), total);
    assert.ok(near(await colourOf(fresh.page, '[truncated stack]'), RED));
    assert.equal(await badgeCount(fresh.page), 1);
  } finally { await fresh.close(); }
});

// A large profile's first answer comes without its figures (more than 400,000 stacks and samples: the worker
// does not make the first picture wait for them); the page asks the view engine for them once it has drawn, and
// the badge then shows the CLI's share. Generated: 150,000 stacks from `_start` (whole), 100,000 without an entry
// point (truncated), one sample each.
test('a large profile\'s badge comes after its first picture, with the CLI\'s share', async () => {
  const { page } = b;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-health-'));
  const file = path.join(dir, 'large-health.folded');
  const lines = [];
  for (let i = 0; i < 150000; i++) lines.push(`_start;main;work_${i} 1`);
  for (let i = 0; i < 100000; i++) lines.push(`lost_${i};leaf 1`);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  try {
    await open(page, file);
    const badge = page.locator('[data-testid=health-badge]');
    await badge.waitFor({ timeout: 60000 });
    const want = health(file);
    assert.ok(Math.abs(want.broken_share - 0.4) < 1e-9, `the CLI says ${want.broken_share}`);
    assert.ok(Math.abs(Number(await badge.getAttribute('data-broken')) / 100 - want.broken_share) < 1e-9);
    assert.match(await badge.textContent(), /^40\.0 % of samples in truncated stacks — why\?$/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});
