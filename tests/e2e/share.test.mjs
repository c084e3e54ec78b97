// Share with care (issue #44): Copy link shows what a carried profile holds (the core's report) with the scrub
// choices, makes the link with those rules, and the receiver sees the scrubbed badge. Checked against an
// independent reading of the recording (its perf script text scanned here for home-folder paths) and an
// independent decoder of the link written from docs/SHARING.md (fragment `p=`, base64url, raw inflate).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import zlib from 'node:zlib';
import { openApp, browser, openFile, waitForProfile, settle, outFile, ROOT } from './harness.mjs';

// A perf script of Node run from a made-up user's home folder (crates/cli/tests/data/scrub/README.md).
const SHOP = path.join(ROOT, 'crates', 'cli', 'tests', 'data', 'scrub', 'shop.perf.txt.gz');

/** The oracle: the home-folder paths and user names in the symbols of the perf script text (not the DSOs, which
 * a payload of frame names does not carry), and the sum of the sample periods. */
function scanShop() {
  const text = zlib.gunzipSync(fs.readFileSync(SHOP)).toString('utf8');
  const paths = new Set(), users = new Set();
  let total = 0n;
  for (const line of text.split('\n')) {
    const head = line.match(/^\S.*?\s(\d+)\s+cpu-clock:/);
    if (head) { total += BigInt(head[1]); continue; }
    const frame = line.match(/^\s+[0-9a-f]+ (.*) \([^()]*\)$/);
    if (!frame) continue;
    for (const m of frame[1].matchAll(/\/home\/([^/\s]+)\/[^\s:()]+/g)) { paths.add(m[0]); users.add(m[1]); }
  }
  return { paths: [...paths], users: [...users], total };
}

/** The profile text a link carries, decoded from docs/SHARING.md. */
function decodeLink(link) {
  const fragment = link.split('#')[1];
  const p = new URLSearchParams(fragment).get('p');
  return zlib.inflateRawSync(Buffer.from(p, 'base64url')).toString('utf8');
}

let app, b;
before(async () => { app = await openApp(); b = app.b; });
after(async () => { await app?.close(); });

test('the preview lists the paths and user names the payload holds; the scrubbed link carries none of them', async () => {
  const want = scanShop();
  assert.ok(want.paths.length >= 2 && want.users.length === 1, `oracle: ${want.paths} ${want.users}`);
  const { page } = b;
  const opened = await openFile(page, SHOP, 'shop.perf.txt.gz');
  assert.equal(BigInt(opened.total), want.total, 'the total is the sum of the periods');
  await page.click('[data-testid=copy-link]');
  // The panel's first line says what was found, before any choice; the choices and the report open from it.
  const summary = await page.textContent('[data-testid=share-summary]');
  assert.ok(summary.startsWith(`Found: ${want.paths.length} file paths; user names: ${want.users.join(', ')};`), summary);
  await page.click('[data-testid=share-summary]');
  const found = await page.locator('[data-testid=share-found]').textContent();
  for (const p of want.paths) assert.ok(found.includes(p), `the preview lists ${p}:\n${found}`);
  const usersLine = found.split('\n').find((l) => l.startsWith('user names:'));
  assert.equal(usersLine, `user names: ${want.users.join(', ')}`);
  // The defaults for links: paths and header on, the rest off; all keyboard-reachable and labelled.
  const checked = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid=scrub-choices] input[type=checkbox]')]
    .map((c) => [c.dataset.testid, c.checked])));
  assert.deepEqual(checked, { 'scrub-paths': true, 'scrub-users': false, 'scrub-header': true, 'scrub-labels': false,
    'scrub-threads': false, 'scrub-timestamps': false });
  const unlabelled = await page.evaluate(() => [...document.querySelectorAll('[data-testid=scrub-choices] input')]
    .filter((i) => !i.labels || i.labels.length === 0).map((i) => i.id));
  assert.deepEqual(unlabelled, []);
  // Users too, and a frame renamed by the redact field.
  await page.click('[data-testid=scrub-users]');
  await page.fill('[data-testid=scrub-redact]', '^OPENSSL_');
  await page.click('[data-testid=scrub-apply]');
  await page.waitForFunction(() => /scrubbed: paths, users, header, redact/.test(document.querySelector('[data-testid=copy-link-size]').textContent));
  const link = await page.inputValue('[data-testid=copy-link-text]');
  const carried = await page.locator('[data-testid=share-carried]').textContent();
  assert.match(carried, /file paths: 0\n/);
  assert.match(carried, /user names: none\n/);

  const secrets = [...want.users, ...want.paths, '/home/', 'shop-api/', 'OPENSSL_strcasecmp'];
  const payload = decodeLink(link);
  assert.ok(/^# scorch-scrubbed: paths,users,header,redact$/m.test(payload), payload.split("\n").filter((l) => l.startsWith("#")).join(" | "));
  for (const s of secrets) {
    assert.ok(!payload.includes(s), `the payload holds ${s}`);
    assert.ok(!link.includes(s) && !decodeURIComponent(link).includes(s), `the address holds ${s}`);
  }
  assert.ok(payload.includes('billing.js'), 'the base names stay');

  const fresh = await browser();
  try {
    await fresh.page.goto(link);
    const st = await waitForProfile(fresh.page, 'profile from the link');
    assert.equal(BigInt(st.total), want.total, 'same total');
    const badge = fresh.page.locator('[data-testid=scrubbed-badge]');
    assert.equal(await badge.textContent(), 'scrubbed: paths, users, header, redact');
    assert.match(await badge.getAttribute('title'), /scrubbed before it was shared/);
    const text = await fresh.page.evaluate(() => document.body.innerText + document.location.href);
    for (const s of secrets) assert.ok(!text.includes(s), `the receiver's page holds ${s}`);
  } finally { await fresh.close(); }
  await page.click('.link-panel .link-row button:last-child');
});

test('a profile opened unscrubbed has no badge; a bad redact expression says why and the link is made without it', async () => {
  const { page } = b;
  await openFile(page, SHOP, 'shop.perf.txt.gz');
  assert.equal(await page.locator('[data-testid=scrubbed-badge]').count(), 0);
  await page.click('[data-testid=copy-link]');
  await page.click('[data-testid=share-summary]');
  await page.fill('[data-testid=scrub-redact]', '(');
  await page.click('[data-testid=scrub-apply]');
  await page.locator('[data-testid=scrub-error]').waitFor();
  assert.match(await page.textContent('[data-testid=scrub-error]'), /redact/);
  const payload = decodeLink(await page.inputValue('[data-testid=copy-link-text]'));
  assert.ok(/^# scorch-scrubbed: paths(,users)?,header$/m.test(payload), payload.split("\n").filter((l) => l.startsWith("#")).join(" | "));
  await page.fill('[data-testid=scrub-redact]', '');
  await page.click('[data-testid=scrub-apply]');
  await page.click('.link-panel .link-row button:last-child');
});

/** The notes of a link, read from its text as docs/SHARING.md spells them (`note=KIND.TARGET.TEXT`, each part
 * percent-encoded, read before any other decoding): [kind, target, text]. */
function linkNotes(link) {
  return link.split('#')[1].split('&').filter((kv) => kv.startsWith('note=')).map((kv) => {
    const [kind, target, ...text] = kv.slice(5).split('.');
    return [kind, decodeURIComponent(target), decodeURIComponent(text.join('.'))];
  });
}

/** What the page shows of its notes: the list, the function table's pins, the heatmap's markers (with their place
 * in columns, measured against the heatmap canvas), and whether any markup came from a note. */
const shownNotes = (page) => page.evaluate(() => {
  const canvas = document.querySelector('[data-testid=heatmap-canvas]');
  const cr = canvas?.getBoundingClientRect();
  const colW = cr ? cr.width / Number(canvas.dataset.columns) : 0;
  return {
    list: [...document.querySelectorAll('[data-testid=note]')].map((li) => [li.dataset.kind, li.dataset.target,
      li.querySelector('[data-testid=note-text]').textContent]),
    pins: [...document.querySelectorAll('[data-testid=note-pin]')].map((p) => p.closest('[data-testid=fn-row]').dataset.name),
    markers: [...document.querySelectorAll('[data-testid=note-marker]')].map((m) => {
      const r = m.getBoundingClientRect();
      return { start: m.dataset.startNs, end: m.dataset.endNs, first: Math.round((r.left - cr.left) / colW),
        cols: Math.round(r.width / colW), title: m.getAttribute('title') };
    }),
    markup: document.querySelectorAll('[data-testid=notes-panel] b, [data-testid=function-table] b').length,
  };
});

test('notes on a frame, a range and the view: added in the app, carried by the link and the HTML export, shown where they belong, as text', async () => {
  const own = await browser();
  const { page } = own;
  const [A, B] = [1_000_000_000, 2_500_000_000];
  await page.goto(`${app.server.url}#url=${encodeURIComponent('www/demo/service.perf.gz')}&mode=functions&sel=main&range=${A}-${B}`);
  // The link's range applies once the heatmap is built, and its graph then comes from the view engine: the
  // total is read once that graph is shown (Firefox read the whole profile's total before it once).
  const rangeShown = async (pg) => {
    await pg.waitForFunction((a) => {
      const c = document.querySelector('[data-testid=heatmap-canvas]')?.dataset;
      return c?.rangeStartNs && Number(c.rangeStartNs) - Number(c.originNs) === a;
    }, A);
    await settle(pg);
  };
  await waitForProfile(page, 'service.perf.gz');
  await rangeShown(page);
  const st = await waitForProfile(page, 'service.perf.gz');
  assert.ok(Number(await page.getAttribute('[data-testid=heatmap-canvas]', 'data-columns')) >= 3);
  // Notes are added in Copy link's panel.
  await page.click('[data-testid=copy-link]');
  const add = async (button, text) => {
    await page.fill('[data-testid=note-input]', text);
    await page.click(`[data-testid=${button}]`);
    await page.waitForFunction((t) => document.querySelector('[data-testid=note-said]').textContent.startsWith('Note added'), text);
  };
  await add('note-add-frame', 'look at <b>main</b>');
  await add('note-add-range', 'GC pause');
  // From the keyboard: Enter in the field adds the note to the view.
  await page.fill('[data-testid=note-input]', '<b>HTML</b>');
  await page.focus('[data-testid=note-input]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => (location.hash.match(/&note=/g) || []).length === 3);
  const want = [['f', 'main', 'look at <b>main</b>'], ['r', `${A}-${B}`, 'GC pause'], ['v', '', '<b>HTML</b>']];
  // The address and the link Copy link made again carry them.
  assert.deepEqual(linkNotes(await page.evaluate(() => location.href)), want);
  const link = await page.inputValue('[data-testid=copy-link-text]');
  assert.deepEqual(linkNotes(link), want);
  await page.click('.link-panel .link-row button:last-child');
  // The columns of the range, from its bounds (a column is a second after the heatmap's origin).
  const cols = { first: Math.floor(A / 1e9), cols: Math.floor((B - 1) / 1e9) - Math.floor(A / 1e9) + 1 };
  const check = async (pg, where) => {
    await pg.waitForFunction(() => document.querySelectorAll('[data-testid=note]').length === 3 &&
      document.querySelector('[data-testid=note-marker]') && document.querySelector('[data-testid=note-pin]'));
    const shown = await shownNotes(pg);
    assert.deepEqual(shown.list, [['frame', 'main', want[0][2]], ['range', `${A}-${B}`, 'GC pause'], ['view', '', '<b>HTML</b>']], where);
    assert.deepEqual(shown.pins, ['main'], where);
    assert.equal(shown.markers.length, 1, where);
    const m = shown.markers[0];
    assert.deepEqual([m.start, m.end, m.first, m.cols], [String(A), String(B), cols.first, cols.cols], where);
    assert.match(m.title, /GC pause$/);
    assert.equal(shown.markup, 0, `${where}: a note's markup is text`);
  };
  await check(page, 'where they were added');
  // Another profile opened: the notes were about this one, and go.
  await openFile(page, SHOP, 'shop.perf.txt.gz');
  assert.equal(await page.evaluate(() => document.querySelectorAll('[data-testid=note]').length), 0);
  assert.ok(!(await page.evaluate(() => location.href)).includes('note='));

  const fresh = await browser();
  try {
    await fresh.page.goto(link);
    await waitForProfile(fresh.page, 'service.perf.gz');
    await rangeShown(fresh.page);
    const got = await waitForProfile(fresh.page, 'service.perf.gz');
    assert.equal(got.total, st.total);
    await check(fresh.page, 'opened from the link');
    await fresh.page.screenshot({ path: outFile('notes-table.png') });
    // The HTML export carries them too.
    await fresh.page.keyboard.press('e');
    await fresh.page.locator('[data-testid=export-menu]').waitFor();
    await fresh.page.click('[data-testid=export-html]');
    await fresh.page.waitForFunction(() => /HTML file written/.test(document.querySelector('[data-testid=export-note]')?.textContent));
    const { name, b64 } = await fresh.page.evaluate(() => {
      const u8 = window.__scorchLastExport.bytes;
      let s = '';
      for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode.apply(null, u8.subarray(i, i + 0x8000));
      return { name: window.__scorchLastExport.name, b64: btoa(s) };
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-notes-'));
    const file = path.join(dir, name);
    fs.writeFileSync(file, Buffer.from(b64, 'base64'));
    const third = await browser();
    try {
      await third.page.goto(`file://${file}`);
      const h = await waitForProfile(third.page, 'service.perf.gz');
      assert.equal(h.total, st.total);
      await check(third.page, 'opened from the HTML export');
      assert.deepEqual(third.errors, []);
    } finally { await third.close(); fs.rmSync(dir, { recursive: true, force: true }); }
    // In the flame graph (last: the HTML export above keeps the table's view), the noted frame's boxes carry the pin (its amber, #f59e0b) and no other row does.
    await fresh.page.keyboard.press('1');
    await settle(fresh.page);
    await fresh.page.waitForFunction(() => window.__scorchFramePoint('main'));
    await fresh.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const pin = await fresh.page.evaluate(() => {
      const c = document.querySelector('[data-testid=flame-canvas]');
      const r = c.getBoundingClientRect();
      const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const k = c.width / r.width;
      const ys = new Set();
      for (let i = 0; i < px.length; i += 4) {
        if (px[i] === 245 && px[i + 1] === 158 && px[i + 2] === 11) ys.add(Math.floor(i / 4 / c.width) / k + r.top);
      }
      return { ys: [...ys], main: window.__scorchFramePoint('main')[1] };
    });
    await fresh.page.screenshot({ path: outFile('notes-flame.png') });
    assert.ok(pin.ys.length > 0, 'the noted frame has a pin in the flame graph');
    for (const y of pin.ys) assert.ok(Math.abs(y - pin.main) <= 10, `a pin at y ${y} is on main's row (centre ${pin.main})`);
    assert.deepEqual(fresh.errors, []);
  } finally { await fresh.close(); await own.close(); }
});

test('hostile notes: 10,000 notes or a 1 MB note give the core\'s message, and the profile still opens with its total', async () => {
  const own = await browser();
  await own.page.goto(`${app.server.url}#url=${encodeURIComponent('www/demo/service.perf.gz')}`);
  const st = await waitForProfile(own.page, 'service.perf.gz');
  await own.close();
  const cases = [
    [Array.from({ length: 10000 }, (_, i) => `note=v..n${i}`).join('&'), '9900 notes left out: a link carries at most 100', 100],
    // 1 MB (10^6 characters): Firefox refuses an address past 1 MiB (network.standard-url.max-length).
    [`note=v..${'A'.repeat(1_000_000)}`, '1 note cut to 1000 characters', 1],
  ];
  for (const [notes, message, count] of cases) {
    const fresh = await browser();
    try {
      await fresh.page.goto(`${app.server.url}#url=${encodeURIComponent('www/demo/service.perf.gz')}&${notes}`);
      const got = await waitForProfile(fresh.page, 'service.perf.gz');
      assert.equal(got.total, st.total);
      await fresh.page.locator('[data-testid=note-messages]').waitFor();
      assert.equal(await fresh.page.textContent('[data-testid=note-messages] span'), `Notes in the link: ${message}.`);
      const shown = await fresh.page.evaluate(() => [...document.querySelectorAll('[data-testid=note-text]')].map((t) => t.textContent.length));
      assert.equal(shown.length, count);
      if (count === 1) assert.deepEqual(shown, [1000]);
      // The address now carries what the page holds (no more than the caps).
      assert.ok((await fresh.page.evaluate(() => location.href.length)) < 200_000);
      assert.deepEqual(fresh.errors, []);
    } finally { await fresh.close(); }
  }
});

test('the Export menu previews what Copy link previews, scrubs nothing by default, and a scrubbed export holds none of the scrubbed strings', async () => {
  const want = scanShop();
  const { page } = b;
  await openFile(page, SHOP, 'shop.perf.txt.gz');
  await page.click('[data-testid=copy-link]');
  const linkSummary = await page.textContent('[data-testid=share-summary]');
  await page.click('[data-testid=share-summary]');
  const linkFound = await page.locator('[data-testid=share-found]').textContent();
  await page.click('.link-panel .link-row button:last-child');
  await page.click('[data-testid=export-toggle]');
  await page.locator('[data-testid=export-share-summary]').waitFor();
  assert.equal(await page.textContent('[data-testid=export-share-summary]'), linkSummary);
  await page.click('[data-testid=export-share-summary]');
  const found = await page.locator('[data-testid=export-share-found]').textContent();
  // The same paths and user names as Copy link's (and the oracle's) list.
  const listed = (text) => {
    const lines = text.split('\n');
    const i = lines.findIndex((l) => l.startsWith('file paths:'));
    const paths = [];
    for (let k = i + 1; lines[k]?.startsWith('  '); k++) paths.push(lines[k].trim());
    return { paths, users: lines.find((l) => l.startsWith('user names:')) };
  };
  assert.deepEqual(listed(found), listed(linkFound));
  for (const p of want.paths) assert.ok(listed(found).paths.includes(p), `the export preview lists ${p}`);
  const checked = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid=export-scrub-choices] input[type=checkbox]')]
    .map((c) => [c.dataset.testid, c.checked])));
  assert.deepEqual(checked, { 'export-scrub-paths': false, 'export-scrub-users': false, 'export-scrub-header': false,
    'export-scrub-labels': false, 'export-scrub-threads': false, 'export-scrub-timestamps': false });
  const unlabelled = await page.evaluate(() => [...document.querySelectorAll('[data-testid=export-scrub-choices] input')]
    .filter((i) => !i.labels || i.labels.length === 0).map((i) => i.id));
  assert.deepEqual(unlabelled, []);
  await page.click('[data-testid=export-scrub-paths]');
  await page.click('[data-testid=export-scrub-users]');
  await page.fill('[data-testid=export-scrub-redact]', '^OPENSSL_');
  await page.click('[data-testid=export-scrub-apply]');
  await page.waitForFunction(() => /file paths: 0\n/.test(document.querySelector('[data-testid=export-share-carried]').textContent));
  const lastExport = () => page.evaluate(() => {
    const u8 = window.__scorchLastExport.bytes;
    let s = '';
    for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode.apply(null, u8.subarray(i, i + 0x8000));
    return { name: window.__scorchLastExport.name, b64: btoa(s) };
  });
  const secrets = [...want.users, ...want.paths, '/home/', 'shop-api/', 'OPENSSL_strcasecmp'];
  await page.click('[data-testid=export-folded]');
  await page.waitForFunction(() => window.__scorchLastExport?.name?.endsWith('.folded'));
  const folded = Buffer.from((await lastExport()).b64, 'base64').toString('utf8');
  assert.equal(folded.split('\n')[0], '# scorch-scrubbed: paths,users,redact');
  for (const s of secrets) assert.ok(!folded.includes(s), `the folded export holds ${s}`);
  assert.ok(folded.includes('billing.js'), 'the base names stay');
  let total = 0n;
  for (const line of folded.split('\n')) { const m = line.match(/^[^#].* (\d+)$/); if (m) total += BigInt(m[1]); }
  assert.equal(total, want.total, 'the scrubbed stacks keep the total');
  // pprof too: its string table, gunzipped here.
  await page.click('[data-testid=export-toggle]');
  await page.locator('[data-testid=export-menu]').waitFor();
  await page.click('[data-testid=export-pprof]');
  await page.waitForFunction(() => window.__scorchLastExport?.name?.endsWith('.pb.gz'));
  const pb = zlib.gunzipSync(Buffer.from((await lastExport()).b64, 'base64')).toString('latin1');
  for (const s of secrets) assert.ok(!pb.includes(s), `the pprof export holds ${s}`);
  assert.ok(pb.includes('billing.js'));
});
