// A layout that holds still (issue 27 item 5), on the demo profile: one toolbar row, the flame graph given most
// of the screen, controls that keep their place while searching and selecting, a heatmap that uses the width it
// has and folds away, grammatical counts. Screenshots at 1280×800 and 1920×1080 in both themes (tests/out/).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, browser, waitForProfile, settle, outFile, FIXTURES, ROOT, ENGINE } from './harness.mjs';

let server;
const MADE = path.join(ROOT, 'crates', 'core', 'tests', 'data', 'perf-made');
before(async () => { server = await serve(undefined, '/', { '/fixtures/': FIXTURES, '/made/': MADE }); });
after(async () => { await server?.close(); });

const DEMO = `#url=${encodeURIComponent('www/demo/service.perf.gz')}`;
const box = (page, sel) => page.evaluate((sel) => {
  const e = document.querySelector(sel);
  if (!e) return null;
  const r = e.getBoundingClientRect();
  return { top: r.top, left: r.left, width: r.width, height: r.height };
}, sel);

async function openDemo(page, size) {
  if (size) await page.setViewportSize(size);
  await page.goto(`${server.url}${DEMO}`);
  await waitForProfile(page, 'service.perf.gz');
  await settle(page);
}

test('one toolbar row; the graph gets most of the screen; searching and selecting move nothing', async () => {
  const b = await browser();
  const { page } = b;
  try {
  await openDemo(page);
  const bar = await box(page, '.toolbar');
  const button = await box(page, '[data-testid=help-toggle]');
  assert.ok(bar.height < 2 * button.height + 8, `one toolbar row: ${bar.height} px for ${button.height} px buttons`);
  const flame = await box(page, '[data-testid=flame-canvas]');
  assert.ok(flame.height >= 0.5 * 800, `the flame graph has ${flame.height} px of 800`);
  // The explore row holds every view, the search and its transforms at 1,280 px: nothing is cut or scrolled away.
  const explore = await page.evaluate(() => { const e = document.querySelector('[data-testid=explore]');
    return { scroll: e.scrollWidth, client: e.clientWidth, from: document.querySelector('[data-testid=tx-from]').getBoundingClientRect().right }; });
  assert.ok(explore.scroll <= explore.client && explore.from <= 1280, `the explore row fits: ${JSON.stringify(explore)}`);
  const colour = await box(page, '[data-testid=color-select]');
  // Typing a search: the transforms were there all along (disabled), nothing moves.
  assert.equal(await page.locator('[data-testid=tx-hide]').count(), 1);
  assert.equal(await page.evaluate(() => document.querySelector('[data-testid=tx-hide]').disabled), true);
  await page.fill('[data-testid=search]', 'parse_headers');
  await page.waitForFunction(() => document.querySelector('[data-testid=matched]'));
  await settle(page);
  assert.deepEqual(await box(page, '[data-testid=flame-canvas]'), flame, 'the graph did not move');
  assert.deepEqual(await box(page, '[data-testid=color-select]'), colour, 'Colour by did not move');
  assert.equal(await page.evaluate(() => document.querySelector('[data-testid=tx-hide]').disabled), false);
  // One frame matches: "1 frame", not "1 frames".
  const matched = await page.textContent('[data-testid=matched]');
  assert.match(matched, /· 1 frame$/, matched);
  await page.fill('[data-testid=search]', '');
  // Selecting a function (Enter on the search's match, as a click does) does not move the graph either.
  await page.fill('[data-testid=search]', 'main');
  await page.locator('[data-testid=search]').press('Enter');
  await page.evaluate(() => document.querySelector('[data-testid=flame-canvas]').focus());
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelector('[data-testid=selection]'));
  await settle(page);
  assert.deepEqual(await box(page, '[data-testid=flame-canvas]'), flame, 'the graph did not move on selecting');
  assert.deepEqual(b.errors, []);
  } finally { await b.close(); }
});

test('a profile that brings the heatmap in is drawn once, at its final size, with its root in view', async () => {
  const b = await browser();
  const { page } = b;
  try {
  await page.setViewportSize({ width: 1280, height: 800 });
  // A folded profile has no times, so no heatmap: the graph has the height below the toolbar.
  await page.goto(`${server.url}#url=${encodeURIComponent('fixtures/simple.folded')}`);
  await waitForProfile(page, 'simple.folded');
  await settle(page);
  // From here on, each task (turn of the event loop) that draws on the flame canvas is recorded with the canvas's
  // size and whether the graph area's size matched it then.
  await page.evaluate(() => {
    const tasks = window.__flamePaints = [];
    addEventListener('scroll', (e) => tasks.push({ scroll: e.target.className, at: e.target.scrollTop, t: performance.now() }), true);
    let cur = null;
    const P = CanvasRenderingContext2D.prototype;
    for (const k of ['fillRect', 'fillText', 'clearRect']) {
      const o = P[k];
      P[k] = function (...a) {
        if (this.canvas.dataset.testid === 'flame-canvas' && !cur) {
          const area = this.canvas.closest('.flame-scroll');
          cur = { css: this.canvas.style.height, area: `${area.clientHeight}px`, top: area.scrollTop,
            bottom: area.scrollHeight - area.clientHeight, depth: this.canvas.dataset.depth, spacer: area.firstElementChild.style.height, sh: area.scrollHeight, ch: area.clientHeight, t: performance.now(), heat: !!document.querySelector('[data-testid=heatmap-canvas]'), status: document.querySelector('[data-testid=status]')?.textContent.slice(0, 30) };
          tasks.push(cur);
          setTimeout(() => { cur = null; }, 0);
        }
        return o.apply(this, a);
      };
    }
  });
  // A link pasted into the open tab: a perf profile, with times, so the heatmap comes in above the graph.
  await page.evaluate(() => { location.hash = '#url=www/demo/service.perf.gz'; });
  await waitForProfile(page, 'service.perf.gz');
  await settle(page);
  await page.waitForTimeout(300);
  // Paints of the new profile (the old one may be drawn again while the new one loads: a progress line comes in).
  const paints = (await page.evaluate(() => window.__flamePaints)).filter((p) => p.status?.startsWith('service.perf.gz'));
  assert.ok(await page.locator('[data-testid=heatmap-canvas]').count() === 1, 'the heatmap is shown');
  assert.equal(paints.length, 1, `the new graph is drawn in one task: ${JSON.stringify(paints)}`);
  assert.equal(paints[0].css, paints[0].area, 'drawn at the size of the graph area');
  assert.equal(paints[0].top, paints[0].bottom, `drawn with the root (the bottom) in view: ${JSON.stringify(paints)}`);
  assert.deepEqual(b.errors, []);
  } finally { await b.close(); }
});

test('a link in a new tab: the page mounts in parts, and the graph is first drawn where it then stays', async () => {
  for (const [width, height] of [[1280, 800], [1920, 1080]]) {
    const b = await browser();
    const { page } = b;
    try {
      await page.setViewportSize({ width, height });
      // From the page's first script on: each task that draws on the flame canvas, with where the parts of the page
      // were then, and every different arrangement seen in an animation frame after that first drawing.
      await page.addInitScript(() => {
        const rec = window.__start = { paints: [], after: [] };
        const parts = ['.toolbar', '[data-testid=heatmap-canvas]', '[data-testid=explore]', '.flame-scroll',
          '[data-testid=flame-canvas]', '[data-testid=status]'];
        const where = () => parts.map((sel) => {
          const e = document.querySelector(sel);
          const r = e?.getBoundingClientRect();
          return r ? `${sel} ${r.left},${r.top},${r.width},${r.height}` : `${sel} absent`;
        }).join(' | ');
        let cur = null;
        const P = CanvasRenderingContext2D.prototype;
        for (const k of ['fillRect', 'fillText', 'putImageData', 'drawImage']) {
          const o = P[k];
          P[k] = function (...a) {
            if (this.canvas.dataset?.testid === 'flame-canvas' && !cur) {
              cur = { where: where() };
              rec.paints.push(cur);
              setTimeout(() => { cur = null; }, 0);
            }
            return o.apply(this, a);
          };
        }
        const tick = () => {
          if (rec.paints.length) {
            const w = where();
            if (rec.after[rec.after.length - 1] !== w) rec.after.push(w);
          }
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      await page.goto(`${server.url}${DEMO}`);
      await waitForProfile(page, 'service.perf.gz');
      await settle(page);
      await page.waitForTimeout(300);
      const rec = await page.evaluate(() => window.__start);
      assert.ok(rec.paints.length >= 1, 'the graph was drawn');
      const first = rec.paints[0].where;
      assert.ok(!first.includes('absent'), `every part is in the page at the first drawing: ${first}`);
      for (const p of rec.paints) assert.equal(p.where, first, `each drawing at the first one's place (${width}×${height})`);
      assert.deepEqual(rec.after, [first], `nothing moved after the first drawing (${width}×${height})`);
      assert.deepEqual(b.errors, []);
    } finally { await b.close(); }
  }
});

test('the heatmap scales to the width it has, folds away (remembered), and the graph takes its place', async () => {
  const b = await browser();
  const { page } = b;
  try {
  await openDemo(page, { width: 1280, height: 800 });
  const narrow = await box(page, '[data-testid=heatmap-canvas]');
  const columns = Number(await page.getAttribute('[data-testid=heatmap-canvas]', 'data-columns'));
  // A 9-second profile: its 9 columns share the page's width (cells within 4..160 px), not 9 × 28 px.
  assert.ok(narrow.width >= Math.min(columns * 160, 1280 - 60), `${narrow.width} px for ${columns} columns at 1280`);
  await openDemo(page, { width: 1920, height: 1080 });
  const wide = await box(page, '[data-testid=heatmap-canvas]');
  assert.ok(wide.width > narrow.width, `${wide.width} px at 1920 > ${narrow.width} px at 1280`);
  const before = await box(page, '[data-testid=flame-canvas]');
  await page.click('[data-testid=heatmap-collapse]');
  await settle(page);
  assert.equal(await page.getAttribute('[data-testid=heatmap-collapse]', 'aria-expanded'), 'false');
  assert.equal((await box(page, '[data-testid=heatmap-canvas]')).height, 0, 'the heatmap is folded away');
  const after = await box(page, '[data-testid=flame-canvas]');
  assert.ok(after.top < before.top - 100, `the graph moved up: ${before.top} → ${after.top}`);
  // Remembered in this browser.
  await page.reload();
  await waitForProfile(page, 'service.perf.gz');
  await settle(page);
  assert.equal(await page.getAttribute('[data-testid=heatmap-collapse]', 'aria-expanded'), 'false');
  await page.click('[data-testid=heatmap-collapse]');
  await settle(page);
  assert.ok((await box(page, '[data-testid=heatmap-canvas]')).height > 50);
  assert.deepEqual(b.errors, []);
  } finally { await b.close(); }
});

test('at 200 % zoom (640×400 CSS px) every toolbar control is still there and reachable', async () => {
  const b = await browser();
  const { page } = b;
  try {
  await openDemo(page, { width: 640, height: 400 });
  for (const id of ['open-file', 'paste-toggle', 'event-select', 'threads-toggle', 'theme-toggle', 'help-toggle']) {
    const ok = await page.evaluate((id) => {
      const e = document.querySelector(`[data-testid=${id}]`);
      const el = e.type === 'file' ? e.closest('label') : e;
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.left >= 0 && r.right <= innerWidth + 1;
    }, id);
    assert.ok(ok, `${id} can be scrolled into view`);
  }
  // (A DOM click: the page was scrolled to reach the controls, and WebDriver checks pointer moves against the viewport.)
  await page.evaluate(() => document.querySelector('[data-testid=help-toggle]').click());
  await page.waitForFunction(() => document.querySelector('[role=dialog]'));
  assert.deepEqual(b.errors, []);
  } finally { await b.close(); }
});

test('at 1280 px the event menu shows its whole label: a tracepoint name and its sample count', async () => {
  const b = await browser();
  const { page } = b;
  try {
    await page.goto(`${server.url}#url=${encodeURIComponent('/made/sched-all.txt.gz')}`);
    await waitForProfile(page, 'sched-all.txt.gz');
    // The label's own width in the menu's font, against the room the closed menu gives its text (its width less
    // padding, border and the arrow: 28 px at most in both engines).
    const m = await page.evaluate(() => {
      const s = document.querySelector('[data-testid=event-select]');
      const label = s.options[s.selectedIndex].textContent;
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = getComputedStyle(s).font;
      return { label, text: ctx.measureText(label).width, box: s.getBoundingClientRect().width };
    });
    assert.match(m.label, /^sched:sched_switch \(632 samples\)$/);
    assert.ok(m.text + 28 <= m.box, `"${m.label}" is ${m.text.toFixed(0)} px of text in a ${m.box.toFixed(0)} px menu`);
    await page.screenshot({ path: outFile('layout-event-menu-1280.png') });
    assert.deepEqual(b.errors, []);
  } finally { await b.close(); }
});

test('screenshots: 1280×800 and 1920×1080, light and dark; the heatmap follows the theme', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const b = await browser({ colorScheme });
    for (const [width, height] of [[1280, 800], [1920, 1080]]) {
      await openDemo(b.page, { width, height });
      await b.page.screenshot({ path: outFile(`layout-${width}x${height}-${colorScheme}.png`) });
      // README.md's picture is this one: SCORCH_README_SCREENSHOT=1 writes it (docs/TESTING.md).
      if (process.env.SCORCH_README_SCREENSHOT && ENGINE === 'chromium' && colorScheme === 'light' && width === 1280) {
        fs.copyFileSync(outFile(`layout-${width}x${height}-${colorScheme}.png`), path.join(ROOT, 'docs', 'screenshot.png'));
      }
      // The heatmap's empty cells and the gaps between columns are its background: light in the light theme,
      // dark in the dark one (no near-white pixel at all; the cells ramp from the background to red).
      const light = await b.page.evaluate(() => {
        const c = document.querySelector('[data-testid=heatmap-canvas]');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] > 230 && d[i + 1] > 230 && d[i + 2] > 230) n++;
        return { n, of: d.length / 4 };
      });
      if (colorScheme === 'dark') assert.equal(light.n, 0, `near-white heatmap pixels in the dark theme: ${light.n} of ${light.of}`);
      else assert.ok(light.n > 0, 'the light theme shows the heatmap\'s light background');
    }
    assert.deepEqual(b.errors, []);
    await b.close();
  }
});
