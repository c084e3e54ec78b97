// Share with care (issue #44): Copy link shows what a carried profile holds (the core's report) with the scrub
// choices, makes the link with those rules, and the receiver sees the scrubbed badge. Checked against an
// independent reading of the recording (its perf script text scanned here for home-folder paths) and an
// independent decoder of the link written from docs/SHARING.md (fragment `p=`, base64url, raw inflate).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { openApp, browser, openFile, waitForProfile, ROOT } from './harness.mjs';

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
