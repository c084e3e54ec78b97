// The source view (issue #41): the Go CPU profile recorded here (crates/cli/tests/data/lines/, PROVENANCE.md)
// with its source folder picked shows, for the selected function, every line's self and total and text exactly as
// `target/debug/scorch list --source-dir DIR REGEX FILE` prints them (the hottest line, the cold ones, the text);
// the same through the deployment's URL template served from a second local origin, while a third origin the
// profile or a template names is never asked for anything; hostile sources (1 GB, a million lines, binary, names
// and text with HTML) are bounded, text only, and refused or cut with a message. `gran=lines` surviving a link is
// granularity.test.mjs's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, browser, waitForProfile, openFile, settle, framePoint, outFile, ROOT, ENGINE } from './harness.mjs';

const DIR = path.join(ROOT, 'crates', 'cli', 'tests', 'data', 'lines');
const PROFILE = path.join(DIR, 'cpu.pb.gz');
let server, second, third, b, tmp;
before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-src-'));
  server = await serve();
  // A source host as a raw-file server would be: it allows other origins to read its files (CORS).
  second = await serve(DIR, '/src/', {}, { headers: () => ({ 'access-control-allow-origin': '*' }) });
  third = await serve(tmp, '/');
  b = await browser();
});
after(async () => {
  await b?.close();
  await server?.close(); await second?.close(); await third?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** `scorch list` by the native CLI: function → line → [self, total, text] ('.' printed as ''). */
function cliList(regex, file, sourceDir) {
  const args = ['list', regex, file, ...(sourceDir ? ['--source-dir', sourceDir] : [])];
  const out = execFileSync(path.join(ROOT, 'target', 'debug', 'scorch'), args, { encoding: 'utf8' });
  const all = new Map();
  let cur;
  for (const line of out.split('\n')) {
    const r = line.match(/^ROUTINE =+ (.*) in (.*)$/);
    if (r) { cur = new Map(); all.set(r[1], cur); continue; }
    // Columns are right-aligned in 10 characters each, then the line number in 6 and `:` and the text.
    const m = line.match(/^(.{10}) (.{10}) +(\d+):(.*)$/);
    if (m && cur) {
      const v = (s) => (s.trim() === '.' ? '' : s.trim());
      cur.set(Number(m[3]), [v(m[1]), v(m[2]), m[4]]);
    }
  }
  return all;
}

/** The source view's rows: line → [self, total, text, current?]. */
const viewRows = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid=source-line]')]
  .map((r) => {
    const td = [...r.querySelectorAll('td')].map((c) => c.textContent);
    return [r.dataset.line, [td[1], td[2], td[3], r.classList.contains('current')]];
  })));

/** Waits until the selected function's lines are shown (they come from the view engine: `settle`) and the source
 *  view has read its text (or said why not). */
async function textRead(page) {
  await settle(page);
  await page.waitForFunction(() => {
    const n = document.querySelector('[data-testid=source-note]');
    return n && !n.textContent.startsWith('Reading');
  }, undefined, { timeout: 30000 });
}

/** The view's rows equal the CLI's listing of `fn` (numbers, and the text where `withText`). */
function sameAsCli(got, want, fn, withText) {
  assert.ok(want.size >= 3, `${fn}: the CLI listed ${want.size} lines`);
  for (const [line, [s, t, text]] of want) {
    const row = got[String(line)];
    assert.ok(row, `${fn}: line ${line} shown`);
    assert.equal(row[0], s, `${fn}:${line} self`);
    assert.equal(row[1], t, `${fn}:${line} total`);
    if (withText) assert.equal(row[2], text, `${fn}:${line} text`);
  }
}

async function openGo(page) {
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  await openFile(page, PROFILE, 'cpu.pb.gz');
  await page.keyboard.press('4');
  await settle(page);
  await page.waitForSelector('[data-testid=fn-row][data-name="main.mix"]');
}

test('a picked source folder shows scorch list\'s lines, the hottest in view, j/k between hot lines', async () => {
  const { page } = b;
  await openGo(page);
  await page.click('[data-testid=fn-row][data-name="main.mix"]');
  await page.click('[data-testid=open-source]');
  await page.waitForSelector('[data-testid=source-view]');
  // No text yet: the per-line table alone, and how to give the text.
  await textRead(page);
  assert.match(await page.textContent('[data-testid=source-note]'), /pick or drop the source folder/);
  const bare = cliList('^main\\.mix$', PROFILE);
  sameAsCli(await viewRows(page), bare.get('main.mix'), 'main.mix (no text)', false);

  if (ENGINE === 'firefox') {
    // WebDriver BiDi's input.setFiles cannot give Firefox a folder ("File error: Is directory"): the folder's files
    // through the files picker instead (matched by their names, the shortest suffix).
    await page.setInputFiles('[data-testid=source-files]', fs.readdirSync(DIR).map((f) => path.join(DIR, f)));
  } else {
    await page.setInputFiles('[data-testid=source-folder]', DIR);
  }
  await page.waitForFunction(() => document.querySelector('[data-testid=source-note]')?.textContent.includes('main.go'),
    undefined, { timeout: 30000 });
  const want = cliList('^main\\.(mix|hash)$', PROFILE, DIR);
  const mix = want.get('main.mix');
  let got = await viewRows(page);
  sameAsCli(got, mix, 'main.mix', true);
  // The hottest line (most self) is the current one, and in view; a cold line has no numbers.
  const hot = [...mix].reduce((a, c) => (parse(c[1][0]) > parse(a[1][0]) ? c : a));
  assert.ok(parse(hot[1][0]) > 0);
  assert.equal(Object.entries(got).find(([, r]) => r[3])?.[0], String(hot[0]), 'the hottest line is current');
  const cold = [...mix].find(([, [s, t]]) => !s && !t);
  assert.ok(cold, 'a cold line in the span');
  assert.deepEqual(got[String(cold[0])].slice(0, 2), ['', '']);
  const inView = await page.evaluate(() => {
    const r = document.querySelector('[data-testid=source-line].current').getBoundingClientRect();
    const v = document.querySelector('[data-testid=source-view]').getBoundingClientRect();
    return r.top >= v.top && r.bottom <= v.bottom && r.bottom <= innerHeight;
  });
  assert.ok(inView, 'the hottest line is scrolled into view');
  // j: the next line with samples (after the last, the first); k: back.
  const hotLines = [...mix].filter(([, [s, t]]) => s || t).map(([n]) => n);
  const next = hotLines[(hotLines.indexOf(hot[0]) + 1) % hotLines.length];
  await page.keyboard.press('j');
  await page.waitForFunction((n) => document.querySelector('[data-testid=source-line].current')?.dataset.line === String(n), next);
  // Said for screen readers, with the CLI's numbers.
  const [ns, nt] = mix.get(next);
  await page.waitForFunction((t) => document.querySelector('[data-testid=announcer]')?.textContent.trim() === t,
    `line ${next}: self ${ns}, total ${nt}`);
  await page.keyboard.press('k');
  await page.waitForFunction((n) => document.querySelector('[data-testid=source-line].current')?.dataset.line === String(n), hot[0]);

  for (const [w, h] of [[1280, 800], [1920, 1080]]) {
    await page.setViewportSize({ width: w, height: h });
    await settle(page);
    await page.screenshot({ path: outFile(`source-${w}x${h}-light.png`) });
  }
  // The view follows the selection: another function from the table.
  await page.click('[data-testid=fn-row][data-name="main.hash"]');
  await page.waitForFunction(() => document.querySelector('[data-testid=source-file]')
    && [...document.querySelectorAll('[data-testid=source-routine] b')].some((e) => e.textContent === 'main.hash'));
  await textRead(page);
  sameAsCli(await viewRows(page), want.get('main.hash'), 'main.hash', true);
  // At the lines granularity, a line's node selects its function's lines.
  await page.selectOption('[data-testid=granularity-select]', 'lines');
  await settle(page);
  await page.waitForSelector('[data-testid=fn-row][data-name="main.mix scorchlines/main.go:17"]');
  await page.click('[data-testid=fn-row][data-name="main.mix scorchlines/main.go:17"]');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=source-routine] b')].some((e) => e.textContent === 'main.mix'));
  await textRead(page);
  got = await viewRows(page);
  sameAsCli(got, mix, 'main.mix at lines', true);
  await page.selectOption('[data-testid=granularity-select]', 'functions');
  await settle(page);
  await page.click('[data-testid=fn-row][data-name="main.mix"]');
  await textRead(page);
  // The flame graph's selection: a click on a frame selects its function, and the view follows.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press('1');
  await settle(page);
  const pt = await framePoint(page, 0.3, 3);
  await page.mouse.click(pt.x, pt.y);
  const picked = await page.textContent('[data-testid=selected-name]');
  assert.match(picked, /^main\./);
  await page.waitForFunction((f) => [...document.querySelectorAll('[data-testid=source-routine] b')].some((e) => e.textContent === f), picked);
  await textRead(page);
  const clicked = cliList(`^${picked.replace(/\./g, '\\.')}$`, PROFILE, DIR).get(picked);
  sameAsCli(await viewRows(page), clicked, `${picked} from the flame graph`, true);
  await page.screenshot({ path: outFile('source-flame-1280x800-light.png') });
  await page.keyboard.press('4');
  await settle(page);
  await page.click('[data-testid=fn-row][data-name="main.mix"]');
  await textRead(page);
  // Dark, both sizes.
  await page.keyboard.press('t');
  await page.keyboard.press('t');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  for (const [w, h] of [[1280, 800], [1920, 1080]]) {
    await page.setViewportSize({ width: w, height: h });
    await settle(page);
    await page.screenshot({ path: outFile(`source-${w}x${h}-dark.png`) });
  }
  await page.keyboard.press('t');
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(b.errors, []);
});

/** A number as the view prints it ('740.00 ms', '1.450 s'), in ns; '' is 0. */
function parse(s) {
  if (!s) return 0;
  const m = s.match(/^([\d.,]+) (ns|µs|us|ms|s)$/);
  if (!m) return Number(s.replace(/[^\d.]/g, ''));
  const k = { ns: 1, µs: 1e3, us: 1e3, ms: 1e6, s: 1e9 }[m[2]];
  return Number(m[1].replace(/,/g, '')) * k;
}

/** Sets the deployment's source URL template (the meta is read each time a source is looked for). */
const setTemplate = (page, t) => page.evaluate((t) => {
  document.querySelector('meta[name=scorch-source-url]').setAttribute('content', t);
}, t);

/** Shows the source view of the selected function afresh (closed and opened again: its text looked for again). */
async function reopen(page) {
  if (await page.$('[data-testid=source-view]')) {
    await page.keyboard.press('s');
    await page.waitForFunction(() => !document.querySelector('[data-testid=source-view]'));
  }
  await page.keyboard.press('s');
  await page.waitForSelector('[data-testid=source-view]');
  await textRead(page);
}

test('a source URL template on a second origin gives the same lines; other origins are never asked', async () => {
  const { page } = b;
  await openGo(page);
  await setTemplate(page, `${second.url}{path}`);
  await page.click('[data-testid=fn-row][data-name="main.mix"]');
  await reopen(page);
  const note = await page.textContent('[data-testid=source-note]');
  assert.equal(note, `from ${second.url}main.go`);
  sameAsCli(await viewRows(page), cliList('^main\\.mix$', PROFILE, DIR).get('main.mix'), 'main.mix by URL', true);
  // The profile's path first, then its shorter tail (pprof's -source_path search).
  assert.deepEqual(second.requests.filter((r) => r.includes('main.go')), ['/src/scorchlines/main.go', '/src/main.go']);
  // Templates that would send the request elsewhere, or are no http(s) URL, are refused before any fetch.
  for (const [t, why] of [
    ['http://{path}/x', /refused: the source URL is not on the template's origin/],
    [`${third.url}src/`, /has no \{path\}/],
    ['javascript:{path}', /no http\(s\) URL/],
  ]) {
    await setTemplate(page, t);
    await reopen(page);
    assert.match(await page.textContent('[data-testid=source-note]'), why, t);
  }
  assert.deepEqual(third.requests, [], 'nothing asked of the third origin');
  assert.deepEqual(b.errors.filter((e) => !/Failed to load resource|404|CORS|Cross-Origin|Failed to fetch|NetworkError/.test(e)), []);
});

/** A speedscope profile (sampled, one sample per function) whose functions' files and lines are `frames`. */
function speedscope(frames) {
  return JSON.stringify({
    $schema: 'https://www.speedscope.app/file-format-schema.json',
    shared: { frames },
    profiles: [{ type: 'sampled', name: 'hostile', unit: 'none', startValue: 0, endValue: frames.length,
      samples: frames.map((_, i) => [i]), weights: frames.map(() => 1) }],
  });
}

test('hostile sources: 1 GB, a million lines, binary, HTML in names and text — bounded, text only', async () => {
  const { page } = b;
  const src = path.join(tmp, 'src');
  fs.mkdirSync(src);
  // 1 GB: 10,000 lines of text, then a sparse run of zero bytes (nothing written to disk).
  const big = path.join(src, 'big.go');
  fs.writeFileSync(big, Array.from({ length: 10000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  fs.truncateSync(big, 1 << 30);
  fs.writeFileSync(path.join(src, 'million.go'), 'x\n'.repeat(1_000_000));
  fs.writeFileSync(path.join(src, 'binary.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 10, 65, 10]));
  const htmlName = '<b onclick=x>bold<b>.go'; // (no `/`: a file name's)
  fs.writeFileSync(path.join(src, htmlName), 'one\ntwo\n<script>window.__pwned = 2</script><img src=x onerror="window.__pwned=3">\n');
  const evilName = `http://127.0.0.1:${new URL(third.url).port}/evil.go`;
  const frames = [
    { name: 'big', file: 'big.go', line: 20000 },
    { name: 'million', file: 'million.go', line: 999999 },
    { name: 'binary', file: 'binary.bin', line: 2 },
    { name: '<img src=x onerror="window.__pwned=1">', file: htmlName, line: 3 },
    { name: 'evil', file: evilName, line: 1 },
    { name: 'up', file: '../../../../etc/passwd', line: 1 },
    { name: 'dropped', file: 'deep/dir/dropped.go', line: 2 },
  ];
  const prof = path.join(tmp, 'hostile.speedscope.json');
  fs.writeFileSync(prof, speedscope(frames));
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  // A profile without locations (the demo's perf script has no srclines): no lines, and it says so.
  await page.keyboard.press('4');
  await settle(page);
  await page.click('[data-testid=fn-row]');
  await page.keyboard.press('s');
  await page.waitForFunction(() => /says where no line of/.test(document.querySelector('[data-testid=source-message]')?.textContent));
  assert.equal(await page.evaluate(() => document.querySelectorAll('[data-testid=source-line]').length), 0);
  await page.keyboard.press('s');
  await page.waitForFunction(() => !document.querySelector('[data-testid=source-view]'));
  await openFile(page, prof, 'hostile.speedscope.json');
  await page.keyboard.press('4');
  await settle(page);
  await page.waitForSelector('[data-testid=fn-row][data-name="big"]');
  await page.click('[data-testid=fn-row][data-name="big"]');
  await page.keyboard.press('s');
  await page.waitForSelector('[data-testid=source-view]');
  await page.setInputFiles('[data-testid=source-files]', fs.readdirSync(src).map((f) => path.join(src, f)));
  await page.waitForFunction(() => document.querySelector('[data-testid=source-count]')?.textContent.startsWith('4 source files'));
  const note = () => page.textContent('[data-testid=source-note]');
  const row = (n) => page.evaluate((n) => {
    const r = document.querySelector(`[data-testid=source-line][data-line="${n}"]`);
    // The line, its self and total as raw integers (the CLI prints sample counts bare, the view with their unit),
    // and its text.
    return r && [r.dataset.line, r.dataset.self, r.dataset.total, r.querySelectorAll('td')[3].textContent];
  }, n);
  // 1 GB: the first 16 MiB read, then a message; line 20,000 keeps its numbers without text.
  await textRead(page);
  assert.match(await note(), /Only the first 16 MiB of big\.go are read: lines from 10001 on are not shown/);
  assert.deepEqual(await row(20000), ['20000', '1', '1', '']);
  // A million lines: line 999,999 is past the 200,000 read.
  await page.click('[data-testid=fn-row][data-name="million"]');
  await page.waitForFunction(() => document.querySelector('[data-testid=source-line][data-line="999999"]'));
  await textRead(page);
  assert.match(await note(), /Lines after 200,000 are not read/);
  assert.deepEqual(await row(999999), ['999999', '1', '1', '']);
  // Binary: refused, the numbers still shown.
  await page.click('[data-testid=fn-row][data-name="binary"]');
  await page.waitForFunction(() => document.querySelector('[data-testid=source-note]')?.textContent.includes('binary'));
  assert.match(await note(), /binary\.bin looks binary/);
  assert.deepEqual(await row(2), ['2', '1', '1', '']);
  // HTML in the function's name, the file's name and its text: text, never markup.
  await page.click('[data-testid=fn-row][data-name="<img src=x onerror=\\"window.__pwned=1\\">"]');
  await page.waitForFunction(() => document.querySelector('[data-testid=source-file]')?.textContent === '<b onclick=x>bold<b>.go');
  await textRead(page);
  assert.equal((await row(3))[3], '<script>window.__pwned = 2</script><img src=x onerror="window.__pwned=3">');
  const markup = await page.evaluate(() => document.querySelector('[data-testid=source-view]')
    .querySelectorAll('img, script, .source-lines td *, .source-title b *, .source-file *').length);
  assert.equal(markup, 0);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  // A file dropped onto the panel (a page-made DataTransfer, as a drag from the desktop carries files).
  await page.click('[data-testid=fn-row][data-name="dropped"]');
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['first\n<i>second</i>\n'], 'dropped.go'));
    document.querySelector('[data-testid=source-view]')
      .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => document.querySelector('[data-testid=source-note]')?.textContent === 'from dropped.go');
  assert.equal((await row(2))[3], '<i>second</i>');
  assert.equal(await page.evaluate(() => document.querySelectorAll('[data-testid=source-view] i').length), 0);
  // A path that climbs out, or names another origin, with a template on the second origin: only it is asked.
  await setTemplate(page, `${second.url}{path}`);
  second.requests.length = 0;
  for (const name of ['evil', 'up']) {
    await page.click(`[data-testid=fn-row][data-name="${name}"]`);
    await page.waitForFunction((n) => [...document.querySelectorAll('[data-testid=source-routine] b')].some((e) => e.textContent === n), name);
    await textRead(page);
    assert.match(await note(), /No source text for/);
  }
  assert.ok(second.requests.length >= 3, second.requests.join(' '));
  assert.ok(second.requests.every((r) => r.startsWith('/src/') && !r.includes('..')), second.requests.join(' '));
  assert.deepEqual(third.requests, [], 'nothing asked of the third origin');
  await page.screenshot({ path: outFile('source-hostile.png') });
  // One function with samples 150,000 lines apart (a V8 profile's positionTicks): the lines around each, not
  // 150,000 rows. The picked files stay picked for the next profile.
  const wideProf = path.join(tmp, 'wide.cpuprofile');
  fs.writeFileSync(wideProf, JSON.stringify({
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: [2] },
      { id: 2, callFrame: { functionName: 'wide', scriptId: '1', url: 'file:///x/million.go', lineNumber: 0, columnNumber: 0 },
        hitCount: 2, positionTicks: [{ line: 1, ticks: 1 }, { line: 150000, ticks: 1 }] },
    ],
    startTime: 0, endTime: 3000, samples: [2, 2, 1], timeDeltas: [1000, 1000, 1000],
  }));
  await setTemplate(page, '');
  await openFile(page, wideProf, 'wide.cpuprofile');
  await page.keyboard.press('4');
  await settle(page);
  await page.click('[data-testid=fn-row][data-name="wide"]');
  await page.waitForFunction(() => document.querySelector('[data-testid=source-line][data-line="150000"]'));
  await textRead(page);
  const wide = await page.evaluate(() => [...document.querySelectorAll('[data-testid=source-line]')].map((r) => Number(r.dataset.line)));
  assert.deepEqual(wide, [1, 2, 3, 4, 5, 6, ...Array.from({ length: 11 }, (_, i) => 149995 + i)]);
  assert.equal(await page.evaluate(() => document.querySelectorAll('[data-testid=source-gap]').length), 1);
  const raw = cliList('^wide$', wideProf);
  assert.deepEqual([...raw.get('wide').keys()], [1, 150000]);
  const texts = await viewRows(page);
  for (const [n, [s, t]] of raw.get('wide')) assert.deepEqual(texts[String(n)].slice(0, 3), [s, t, 'x'], `wide:${n}`);
  assert.deepEqual(b.errors.filter((e) => !/Failed to load resource|404|CORS|Cross-Origin|Failed to fetch|NetworkError/.test(e)), []);
});
