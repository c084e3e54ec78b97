// Accessibility: the flame graph driven by the keyboard alone (focus, arrows, the live region's numbers against
// the fixture's and the tooltip's, Enter zooms, Space selects), label contrast computed here from the canvas's
// own pixels (WCAG formula in JS, not scorch's), and axe-core on the main pages in both themes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { serve, browser, waitForProfile, settle, framePoint, pixelAt, outFile, FIXTURES, ROOT, ENGINE } from './harness.mjs';

let server, b;
before(async () => { server = await serve(); b = await browser(); });
after(async () => { await b?.close(); await server?.close(); });

const said = (page) => page.evaluate(() =>
  document.querySelector('[data-testid=announcer]').textContent.replace(/\u00a0+$/, ''));
const waitSaid = (page, re) => page.waitForFunction((src) =>
  new RegExp(src).test(document.querySelector('[data-testid=announcer]')?.textContent ?? ''), re.source);

/** The folded file's totals and selfs per path, computed here (the oracle for the announced numbers). */
function foldedNumbers(file) {
  const total = new Map(), self = new Map();
  let sum = 0;
  for (const line of fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim())) {
    const i = line.lastIndexOf(' ');
    const frames = line.slice(0, i).split(';'), w = Number(line.slice(i + 1));
    sum += w;
    frames.forEach((_, k) => {
      const p = frames.slice(0, k + 1).join(';');
      total.set(p, (total.get(p) || 0) + w);
    });
    const p = frames.join(';');
    self.set(p, (self.get(p) || 0) + w);
  }
  return { total, self, sum };
}

test('the flame graph by keyboard alone: focus, arrows, live region, Enter zooms, Space selects', async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  const file = path.join(FIXTURES, 'simple.folded');
  await page.setInputFiles('[data-testid=open-file]', file);
  await waitForProfile(page, 'simple.folded');

  // Tab reaches the graph (no mouse, no programmatic focus).
  let reached = false;
  for (let i = 0; i < 80 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.dataset?.testid === 'flame-canvas');
  }
  assert.ok(reached, 'Tab reaches the flame graph');
  const attrs = await page.evaluate(() => {
    const c = document.querySelector('[data-testid=flame-canvas]');
    return { role: c.getAttribute('role'), label: c.getAttribute('aria-label'), o: c.dataset.orientation };
  });
  assert.equal(attrs.role, 'application');
  assert.match(attrs.label, /^Flame graph: arrow keys/);
  assert.equal(attrs.o, 'flame');
  // Headless Firefox under WebDriver BiDi gives the window no system focus, so it dispatches no `focus` events
  // (document.activeElement moves, listeners do not run): the announcement on focus is checked in Chromium only.
  if (ENGINE === 'chromium') await waitSaid(page, /^all, /);

  // Flame orientation: ↑ is toward the callees as drawn. all → main → alpha (leftmost, alphabetical) → gamma.
  await page.keyboard.press('ArrowUp');
  await waitSaid(page, /^main, /);
  await page.keyboard.press('ArrowUp');
  await waitSaid(page, /^alpha, /);
  await page.keyboard.press('ArrowRight');
  await waitSaid(page, /^gamma, /);
  await page.keyboard.press('ArrowRight');
  await waitSaid(page, /^last frame/);
  await page.keyboard.press('ArrowLeft');
  await waitSaid(page, /^alpha, /);
  const text = await said(page);
  // The oracle: the folded file itself (alpha: total 75 of 100, self 15; depth 2 under the root; one child, beta).
  const n = foldedNumbers(file);
  const tot = n.total.get('main;alpha'), slf = n.self.get('main;alpha');
  const pct = (v) => `${(v / n.sum * 100).toFixed(1)} %`;
  assert.equal(text, `alpha, self ${slf} samples (${pct(slf)}), total ${tot} samples (${pct(tot)}), depth 2, 1 child`);
  await page.screenshot({ path: outFile('a11y-focus-light.png') });
  // `t` (not a graph key) reaches the page: auto → light → dark, the focus ring drawn for the dark theme.
  await page.keyboard.press('t');
  await page.keyboard.press('t');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await page.waitForTimeout(100);
  await page.screenshot({ path: outFile('a11y-focus-dark.png') });
  await page.keyboard.press('t');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'auto');

  // Enter zooms to the focus frame; the zoom is announced.
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=flame-canvas]').dataset.zoom === 'main;alpha');
  await waitSaid(page, /^zoomed to alpha/);
  // Down goes to the caller (drawn below in flame orientation), Up back, then to beta.
  await page.keyboard.press('ArrowUp');
  await waitSaid(page, /^beta, /);
  assert.match(await said(page), new RegExp(`^beta, self ${n.self.get('main;alpha;beta')} samples .*, depth 3, no children$`));
  // Space selects the function, as a click does.
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelector('[data-testid=selected-name]')?.textContent === 'beta');
  // Home: the root (the zoom stays: the root is drawn across, as the zoom's ancestor).
  await page.keyboard.press('Home');
  await waitSaid(page, /^all, /);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await waitSaid(page, /^alpha, /);
  const keyboardText = await said(page);

  // Only now the mouse: the tooltip's numbers equal the announced ones.
  await page.keyboard.press('r');
  await page.waitForFunction(() => document.querySelector('[data-testid=flame-canvas]').dataset.zoom === '');
  await settle(page);
  const alpha = await framePoint(page, 0.3, 2);
  await page.mouse.move(alpha.x, alpha.y);
  await page.waitForFunction(() => document.querySelector('.tt-name')?.textContent === 'alpha');
  const tt = {
    total: await page.textContent('[data-testid=tooltip-total]'),
    self: await page.textContent('[data-testid=tooltip-self]'),
  };
  assert.ok(keyboardText.includes(`self ${tt.self}, total ${tt.total}`), `${keyboardText} vs ${JSON.stringify(tt)}`);
});

test('a heatmap range by keyboard equals a mouse drag over the same cells', async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  await page.locator('[data-testid=heatmap-canvas]').waitFor();
  let reached = false;
  for (let i = 0; i < 80 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.dataset?.testid === 'heatmap-canvas');
  }
  assert.ok(reached, 'Tab reaches the heatmap');
  const snap = () => page.evaluate(() => {
    const c = document.querySelector('[data-testid=heatmap-canvas]').dataset;
    return { start: c.rangeStartNs, end: c.rangeEndNs, total: document.querySelector('[data-testid=status]').dataset.total };
  });
  const whole = await snap();
  // The cursor starts at second 0, row 0: → to second 1, then Shift+→ ×2 and Shift+↑ ×5: cells (1,0)…(3,5).
  await page.keyboard.press('ArrowRight');
  await waitSaid(page, /^second 1 · 0–/);
  for (const k of ['ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowUp']) {
    await page.keyboard.press(`Shift+${k}`);
  }
  await waitSaid(page, /^second 3 · .* range from second 1, row 0/);
  await page.keyboard.press('Enter');
  await page.waitForFunction((t) => document.querySelector('[data-testid=status]').dataset.total !== t
    && document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs !== '', whole.total);
  await settle(page);
  const keyed = await snap();
  assert.notEqual(keyed.total, whole.total);
  await page.screenshot({ path: outFile('a11y-heatmap-keyboard.png') });

  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.querySelector('[data-testid=heatmap-canvas]').dataset.rangeStartNs === '');
  await page.waitForFunction((t) => document.querySelector('[data-testid=status]').dataset.total === t, whole.total);
  const cell = (c, r) => page.evaluate(([c, r]) => {
    const cv = document.querySelector('[data-testid=heatmap-canvas]');
    const rect = cv.getBoundingClientRect();
    const cols = Number(cv.dataset.columns), rows = Number(cv.dataset.rows);
    const cw = rect.width / cols, ch = rect.height / rows;
    return { x: rect.left + (c + 0.5) * cw, y: rect.top + (rows - 1 - r + 0.5) * ch };
  }, [c, r]);
  const p = await cell(1, 0), q = await cell(3, 5);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(q.x, q.y);
  await page.mouse.up();
  await page.waitForFunction((t) => document.querySelector('[data-testid=status]').dataset.total !== t, whole.total);
  await settle(page);
  assert.deepEqual(await snap(), keyed);
});

/** WCAG 2.2 relative luminance and contrast, written here independently of scorch's. */
const lum = (c) => {
  const f = (v) => { const s = v / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
};
const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };

/** Each drawn label: its box's colour read from the canvas (composited over the page's background here), the
 *  colour scorch says the box is, the text colour it drew, and whether a pixel of that colour is inside the box. */
const labelRows = (page) => page.evaluate(() => {
  const c = document.querySelector('[data-testid=flame-canvas]');
  const ctx = c.getContext('2d');
  const dpr = c.width / c.getBoundingClientRect().width;
  const bg = getComputedStyle(document.documentElement).backgroundColor.match(/\d+/g).map(Number);
  return window.__scorchLabels().map((l) => {
    // The box's colour: the commonest pixel inside it (the label's glyphs and any outline are thin).
    const box = ctx.getImageData(Math.floor((l.x + 3) * dpr), Math.floor((l.y + 2) * dpr),
      Math.max(1, Math.floor((l.w - 6) * dpr)), Math.floor(12 * dpr)).data;
    const seen = new Map();
    for (let i = 0; i < box.length; i += 4) {
      const k = `${box[i]},${box[i + 1]},${box[i + 2]},${box[i + 3]}`;
      seen.set(k, (seen.get(k) || 0) + 1);
    }
    const px = [...seen.entries()].sort((p, q) => q[1] - p[1])[0][0].split(',').map(Number);
    const a = px[3] / 255;
    const fill = [0, 1, 2].map((k) => Math.round(px[k] * a + bg[k] * (1 - a)));
    let ink = false;
    for (let i = 0; i < box.length && !ink; i += 4) {
      ink = Math.abs(box[i] - l.text[0]) + Math.abs(box[i + 1] - l.text[1]) + Math.abs(box[i + 2] - l.text[2]) < 30;
    }
    return { fill, said: l.fill, text: l.text, ink };
  });
});

test('every drawn label reaches 4.5:1 against its box, in every colour scheme and both themes', async () => {
  const { page } = b;
  await page.goto(server.url);
  await waitForProfile(page, 'service.perf.gz');
  const schemes = await page.evaluate(() =>
    Array.from(document.querySelectorAll('[data-testid=color-select] option')).map((o) => o.value));
  assert.ok(schemes.length >= 5, `schemes: ${schemes}`);
  const checked = [];
  for (const theme of ['light', 'dark']) {
    // `t` cycles auto → light → dark (not typed into the search box).
    await page.evaluate(() => document.activeElement?.blur());
    for (let i = 0; i < 3 && (await page.evaluate(() => document.documentElement.dataset.theme)) !== theme; i++) {
      await page.keyboard.press('t');
    }
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
    // Every scheme, then the first again with searches: matches magenta, the rest dimmed (drawn at 35 %); and
    // a search nothing matches, every box dimmed.
    const searches = { '+search': 'e', '+dimmed': 'no frame is called this' };
    for (const scheme of [...schemes, `${schemes[0]}+search`, `${schemes[0]}+dimmed`]) {
      const [base, tail] = scheme.split(/(?=\+)/);
      const searching = tail !== undefined;
      await page.selectOption('[data-testid=color-select]', base);
      if (searching) await page.fill('[data-testid=search]', searches[tail]);
      await settle(page);
      await page.waitForTimeout(100);
      const rows = await labelRows(page);
      if (searching) await page.fill('[data-testid=search]', '');
      assert.ok(rows.length >= 5, `${theme}/${scheme}: ${rows.length} labels`);
      for (const r of rows) {
        assert.ok(r.fill.every((v, k) => Math.abs(v - r.said[k]) <= 3), `${theme}/${scheme}: pixel ${r.fill} vs ${r.said}`);
        const ratio = contrast(r.fill, r.text);
        assert.ok(ratio >= 4.5, `${theme}/${scheme}: label ${r.text} on ${r.fill}: ${ratio.toFixed(2)}:1`);
      }
      const inked = rows.filter((r) => r.ink).length;
      assert.ok(inked >= rows.length * 0.9, `${theme}/${scheme}: text colour found in ${inked} of ${rows.length} labels`);
      checked.push(`${theme}/${scheme}: ${rows.length} labels, min ${Math.min(...rows.map((r) => contrast(r.fill, r.text))).toFixed(2)}:1`);
    }
  }
  console.log(checked.join('\n'));
});

// axe-core, injected into the page; serious and critical violations fail. Chromium only: the Firefox shim has no
// addScriptTag, and axe's rules do not depend on the engine.
const AXE = fs.readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
async function axe(page, what) {
  await page.evaluate(AXE);
  const v = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
    .violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')
    .map((x) => `${x.id} (${x.impact}): ${x.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`));
  assert.deepEqual(v, [], `${what}: ${v.join('\n')}`);
}

test('axe-core: no serious or critical violation on the main pages in both themes', { skip: ENGINE !== 'chromium' }, async () => {
  for (const colorScheme of ['light', 'dark']) {
    const x = await browser({ colorScheme });
    const { page } = x;
    try {
      // With notes on the view, a function and a range: the notes panel, the heatmap's marker, the table's pin.
      await page.goto(`${server.url}#note=v..a%20view%20note&note=f.main.a%20pin&note=r.0-1000000000.a%20range`);
      await waitForProfile(page, 'service.perf.gz');
      await page.locator('[data-testid=heatmap-canvas]').waitFor();
      await page.locator('[data-testid=note-marker]').waitFor();
      await axe(page, `${colorScheme}: perf profile with heatmap and notes`);
      // The Export menu with its preview and scrub choices open.
      await page.click('[data-testid=export-toggle]');
      await page.click('[data-testid=export-share-summary]');
      await axe(page, `${colorScheme}: export menu and its preview`);
      await page.keyboard.press('Escape');
      // Copy link's panel, with the field that adds a note.
      await page.click('[data-testid=copy-link]');
      await page.locator('[data-testid=note-input]').waitFor();
      await axe(page, `${colorScheme}: copy link and its note field`);
      await page.click('.link-panel .link-row button:last-child');
      await page.keyboard.press('4');
      await page.locator('[data-testid=function-table]').first().waitFor();
      await page.locator('[data-testid=note-pin]').waitFor();
      await axe(page, `${colorScheme}: function table`);
      await page.keyboard.press('3');
      await axe(page, `${colorScheme}: sandwich`);
      await page.keyboard.press('5');
      await page.locator('[data-testid=ct-row]').first().waitFor();
      await axe(page, `${colorScheme}: call-tree table`);
      await page.keyboard.press('6');
      await page.locator('[data-testid=chart-canvas]').waitFor();
      await axe(page, `${colorScheme}: stack chart`);
      await page.keyboard.press('1');
      const DATA = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'diff');
      await page.setInputFiles('[data-testid=open-file]', path.join(DATA, 'inf-diff-before.txt'));
      await waitForProfile(page, 'inf-diff-before.txt');
      await page.setInputFiles('[data-testid=compare-file]', path.join(DATA, 'inf-diff-after.txt'));
      await page.waitForFunction(() => document.querySelector('[data-testid=status]').dataset.format === 'diff');
      await axe(page, `${colorScheme}: diff`);
      // The colour-blind-safe switch: rw_verify_area grew (orange: green well above blue, where red has them
      // equal), __srcu_read_unlock shrank (blue); the labels still reach 4.5:1.
      await page.check('[data-testid=diff-colorblind]');
      await page.waitForTimeout(150);
      const px = async (name) => {
        const pt = await page.evaluate((n) => window.__scorchFramePoint(n), name);
        assert.ok(pt, `${name} is drawn`);
        // Near the box's top edge, above the label's glyphs.
        return pixelAt(page, { x: pt[0], y: pt[1] - 6 });
      };
      const grew = await px('rw_verify_area'), shrank = await px('__srcu_read_unlock');
      assert.ok(grew[0] > grew[2] + 60 && grew[1] > grew[2] + 30, `grew → orange, got ${grew}`);
      assert.ok(shrank[2] > shrank[0] + 40, `shrank → blue, got ${shrank}`);
      for (const r of await labelRows(page)) {
        assert.ok(contrast(r.fill, r.text) >= 4.5, `colour-blind diff: ${r.text} on ${r.fill}`);
      }
      await page.screenshot({ path: outFile(`a11y-diff-colorblind-${colorScheme}.png`) });
      await axe(page, `${colorScheme}: diff, colour-blind palette`);
      // The shortcuts dialog takes the focus, keeps Tab inside and gives the focus back when it closes.
      await page.focus('[data-testid=flame-canvas]');
      await page.keyboard.press('?');
      await page.locator('[data-testid=shortcuts]').waitFor();
      await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'shortcuts-close');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.dataset?.testid), 'shortcuts-close');
      await axe(page, `${colorScheme}: shortcuts panel`);
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('[data-testid=shortcuts]'));
      assert.equal(await page.evaluate(() => document.activeElement?.dataset?.testid), 'flame-canvas');
    } finally {
      await x.close();
    }
  }
});
