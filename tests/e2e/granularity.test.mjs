// Granularity in the browser (issue #41): a Go CPU profile recorded here (crates/cli/tests/data/lines/,
// PROVENANCE.md) at lines, files and addresses gives in the function table the flat and cum samples that
// `go tool pprof -top -nodecount=0 -lines|-files|-addresses` printed for it (stored beside it), and the choice
// travels in the link (`gran=`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, browser, waitForProfile, settle, outFile, ROOT } from './harness.mjs';

const DIR = path.join(ROOT, 'crates', 'cli', 'tests', 'data', 'lines');
let server, b;
before(async () => { server = await serve(undefined, '/', { '/lines/': DIR }); b = await browser(); });
after(async () => { await b?.close(); await server?.close(); });

/** pprof's -top rows: name → [flat, cum] (samples), its ` (inline)` mark left out. */
function pprofTop(g) {
  const rows = new Map();
  for (const line of fs.readFileSync(path.join(DIR, `top-${g}.txt`), 'utf8').split('\n')) {
    const m = line.match(/^\s*(\d+)\s+[\d.]+%\s+[\d.]+%\s+(\d+)\s+[\d.]+%\s+(.*?)( \(inline\))?$/);
    if (m) rows.set(m[3], [Number(m[1]), Number(m[2])]);
  }
  return rows;
}

/** The function table's rows: name → [self, total] (the `samples` sample type's values, as pprof's -top shows
 *  them with `-sample_index=samples`). */
const tableRows = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid=fn-row]')].map((r) => {
  const td = [...r.querySelectorAll('td')].map((c) => c.textContent.replace(/,/g, ''));
  return [r.dataset.name, [parseFloat(td[0]), parseFloat(td[2])]];
})));

/** Shows the `samples` sample type (pprof's files were printed with `-sample_index=samples`). */
async function samplesType(page) {
  const value = await page.evaluate(() => [...document.querySelectorAll('[data-testid=event-select] option')]
    .find((o) => o.textContent.startsWith('samples')).value);
  await page.selectOption('[data-testid=event-select]', value);
  await settle(page);
}

test('lines, files and addresses give the function table pprof\'s flat and cum, and the link keeps the choice', async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  await page.setInputFiles('[data-testid=open-file]', path.join(DIR, 'cpu.pb.gz'));
  await waitForProfile(page, 'cpu.pb.gz');
  await page.keyboard.press('4');
  await settle(page);
  await samplesType(page);
  for (const g of ['lines', 'files', 'addresses', 'functions']) {
    await page.selectOption('[data-testid=granularity-select]', g);
    await settle(page); // the table at this granularity comes from the view engine
    const want = pprofTop(g);
    assert.ok(want.size >= 3, g);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=fn-row]').length === n, want.size);
    const got = await tableRows(page);
    for (const [name, fc] of want) assert.deepEqual(got[name], fc, `${g}: ${name}`);
    if (g === 'lines') await page.screenshot({ path: outFile('granularity-lines.png') });
    if (g !== 'functions') assert.ok((await page.evaluate(() => location.href)).includes(`gran=${g}`), (await page.evaluate(() => location.href)));
  }
  assert.ok(!(await page.evaluate(() => location.href)).includes('gran='));
  // By link: the profile hosted, lines chosen, in a fresh load.
  await page.goto(`${server.url}#url=${encodeURIComponent('/lines/cpu.pb.gz')}&mode=functions&gran=lines&ev=samples`);
  await waitForProfile(page, 'cpu.pb.gz');
  await page.reload();
  await waitForProfile(page, 'cpu.pb.gz');
  assert.equal(await page.inputValue('[data-testid=granularity-select]'), 'lines');
  const want = pprofTop('lines');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=fn-row]').length === n, want.size);
  const got = await tableRows(page);
  for (const [name, fc] of want) assert.deepEqual(got[name], fc, `by link: ${name}`);
  assert.deepEqual(b.errors, []);
});
