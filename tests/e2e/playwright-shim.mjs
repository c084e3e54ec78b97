// The Firefox half of the harness: wraps a puppeteer-core Page (driving Debian's stock firefox-esr over WebDriver
// BiDi) in the small Playwright-shaped surface the tests use, so one test file runs in both engines unchanged.
//
// Why not Playwright itself: its Firefox needs Playwright's own patched build (not downloadable here), and its
// experimental BiDi channel (`moz-firefox`) fails at launch on Firefox ESR (`emulation.setMediaFeaturesOverride:
// unknown command`). puppeteer-core speaks plain WebDriver BiDi and never downloads a browser.
//
// Only what the tests call is here, with Playwright's waiting rules where a test relies on them: an action waits for
// its element to be visible, a read waits for it to be attached. Anything else throws a message that names the
// method, so a test that needs more fails loudly in Firefox instead of doing something subtly different.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const TIMEOUT = 30000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Code for the page is sent as the source of one expression, `(fn)(args…)`, evaluated by the driver (WebDriver
// BiDi's script.evaluate, which the page's CSP does not govern) — never rebuilt in the page with Function() or
// eval, which the page's CSP forbids (Firefox ESR 140 enforces it on code the driver runs; 153 does not).
// Arguments travel as JSON; a function's source is inlined as code.
class Code { constructor(fn) { this.src = String(fn); } }
const code = (fn) => new Code(fn);
const lit = (v) => (v === undefined ? 'undefined' : v instanceof Code ? v.src : JSON.stringify(v));
/** The expression that calls `fn` (a function or its source) with `args` in the page. */
export const call = (fn, ...args) => `(${String(fn)})(${args.map(lit).join(', ')})`;

/** Wraps `page` (a puppeteer Page); `files` is a scratch folder for `setInputFiles` with in-memory buffers. */
export function wrapPage(page, files) {
  const keyboard = {
    /** Playwright key syntax: 'Enter', 'Shift+Enter', '?', '['. */
    async press(keys) {
      const parts = keys === '+' ? ['+'] : keys.split('+');
      const key = parts.pop();
      for (const m of parts) await page.keyboard.down(m);
      await page.keyboard.press(key);
      for (const m of parts.reverse()) await page.keyboard.up(m);
    },
    type: (text) => page.keyboard.type(text),
    /** A key held (a modifier for the mouse events that follow) and released. */
    down: (key) => page.keyboard.down(key),
    up: (key) => page.keyboard.up(key),
  };
  const mouse = {
    move: (x, y) => page.mouse.move(x, y),
    down: () => page.mouse.down(),
    up: () => page.mouse.up(),
    click: (x, y) => page.mouse.click(x, y),
  };

  const locator = (steps) => {
    /** Resolves the steps (selector, optional first) to elements in the page and runs `fn(elements, arg)`. */
    const run = (fn, arg) => page.evaluate(call((steps, fn, arg) => {
      let els = [document];
      for (const [sel, first] of steps) {
        els = els.flatMap((e) => [...e.querySelectorAll(sel)]);
        if (first) els = els.slice(0, 1);
      }
      return fn(els, arg);
    }, steps, code(fn), arg));
    // Each check stands alone: it runs in the page, where nothing of this module is in scope.
    const visible = (els) => {
      const e = els[0];
      if (!e) return false;
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
    };
    const hidden = (els) => {
      const e = els[0];
      if (!e) return true;
      const r = e.getBoundingClientRect();
      return !(r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden');
    };
    const waitFor = async ({ state = 'visible', timeout = TIMEOUT } = {}) => {
      const want = { visible, attached: (els) => els.length > 0, detached: (els) => els.length === 0, hidden }[state];
      if (!want) throw new Error(`locator.waitFor: state ${state} is not in the Firefox shim`);
      const t0 = Date.now();
      for (;;) {
        if (await run(want)) return;
        if (Date.now() - t0 > timeout) throw new Error(`timeout ${timeout} ms waiting for ${JSON.stringify(steps)} to be ${state}`);
        await sleep(20);
      }
    };
    const read = async (fn, arg) => { await waitFor({ state: 'attached' }); return run(fn, arg); };
    const click = async () => {
      await waitFor();
      // Playwright scrolls the element into view and clicks the centre with the mouse: real, trusted events.
      const { x, y } = await run((els) => {
        const e = els[0];
        const r0 = e.getBoundingClientRect();
        // Out of the window, or clipped by a scrolling container (its centre shows something else): scroll it in.
        const hit = document.elementFromPoint(r0.left + r0.width / 2, r0.top + r0.height / 2);
        const shown = hit && (hit === e || e.contains(hit));
        if (r0.top < 0 || r0.left < 0 || r0.bottom > innerHeight || r0.right > innerWidth || !shown) e.scrollIntoView({ block: 'center', inline: 'center' });
        const r = e.getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      });
      await page.mouse.click(x, y);
    };
    const fill = async (value) => {
      await waitFor();
      // As Playwright does: focus, replace the whole value, one `input` event.
      await run((els, value) => {
        const e = els[0];
        e.focus();
        const proto = e instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
        Object.getOwnPropertyDescriptor(proto, 'value').set.call(e, value);
        e.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: value ? 'insertText' : 'deleteContentBackward', data: value || null }));
      }, value);
    };
    return {
      first: () => locator([...steps.slice(0, -1), [steps.at(-1)[0], true]]),
      locator: (sel) => locator([...steps, [sel, false]]),
      waitFor,
      click,
      fill,
      press: async (key) => { await waitFor(); await run((els) => els[0].focus()); await keyboard.press(key); },
      count: () => run((els) => els.length),
      textContent: () => read((els) => els[0].textContent),
      getAttribute: (name) => read((els, name) => els[0].getAttribute(name), name),
      inputValue: () => read((els) => els[0].value),
      isChecked: () => read((els) => els[0].checked),
      allTextContents: () => run((els) => els.map((e) => e.textContent)),
      evaluateAll: (fn, arg) => run(fn, arg),
      scrollIntoViewIfNeeded: async () => {
        await waitFor({ state: 'attached' });
        // Element.scrollIntoViewIfNeeded is Chromium-only; this is the standard equivalent.
        await run((els) => {
          const r = els[0].getBoundingClientRect();
          if (r.top < 0 || r.bottom > innerHeight) els[0].scrollIntoView({ block: 'center' });
        });
      },
      selectOption: async (want) => {
        await waitFor();
        // As Playwright does: pick the option by value (a string) or { label }, then `input` and `change`.
        const ok = await run((els, want) => {
          const s = els[0];
          const o = [...s.options].find((o) => (typeof want === 'string' ? o.value === want : o.label === want.label));
          if (!o) return false;
          s.value = o.value;
          s.dispatchEvent(new Event('input', { bubbles: true }));
          s.dispatchEvent(new Event('change', { bubbles: true }));
          return true;
        }, want);
        if (!ok) throw new Error(`selectOption: no option ${JSON.stringify(want)} in ${JSON.stringify(steps)}`);
      },
      setInputFiles: async (given) => {
        await waitFor({ state: 'attached' });
        // One file or several (as Playwright takes them): paths, or { name, buffer }.
        const paths = (Array.isArray(given) ? given : [given]).map((file) => {
          if (typeof file === 'string') return file;
          // A file given as { name, buffer }: WebDriver BiDi sets files by path, so write it out under its name.
          const dir = fs.mkdtempSync(path.join(files, 'f-'));
          const p = path.join(dir, file.name);
          fs.writeFileSync(p, file.buffer);
          return p;
        });
        // Whether the page saw the files: a `change` event on a file input, counted from the document (capture).
        const seen = () => page.evaluate(() => {
          if (!window.__shimFileChanges) {
            window.__shimFileChanges = 0;
            document.addEventListener('change', (e) => {
              if (e.target instanceof HTMLInputElement && e.target.type === 'file') window.__shimFileChanges += 1;
            }, true);
          }
          return window.__shimFileChanges;
        });
        const before = await seen();
        const handle = await page.$(steps.map(([s]) => s).join(' '));
        await handle.uploadFile(...paths);
        await handle.dispose();
        // WebDriver BiDi's `input.setFiles` (Firefox 153 here) sometimes sets the files without the `change` event
        // reaching the page: about one upload in twenty of tests/e2e/parallel.test.mjs, the page still showing the
        // profile before, no load started, no error. Say so loudly, not silently retry: the test then fails with
        // this message rather than a timeout far away.
        const t0 = Date.now();
        while ((await seen()) === before) {
          if (Date.now() - t0 > 5000) {
            throw new Error(`setInputFiles: the page saw no change event within 5 s of WebDriver BiDi input.setFiles (${paths.map((p) => path.basename(p)).join(', ')})`);
          }
          await sleep(16);
        }
      },
    };
  };
  const $ = (sel) => locator([[sel, false]]);

  const shim = {
    goto: (url) => page.goto(url, { waitUntil: 'load' }),
    // Run before the page's own scripts in every document loaded after this (WebDriver BiDi's preload script, which
    // the page's CSP does not govern).
    addInitScript: (fn, arg) => page.evaluateOnNewDocument(call(fn, arg)),
    reload: () => page.reload({ waitUntil: 'load' }),
    // Only the viewport (WebDriver BiDi's browsingContext.setViewport): puppeteer's setViewport also overrides the
    // screen orientation (emulation.setScreenOrientationOverride), a command Firefox ESR 140 does not know.
    setViewportSize: ({ width, height }) => page.mainFrame().browsingContext.setViewport({ viewport: { width, height } }),
    // The tests only go back within the page (zoom history): a same-document traversal.
    goBack: () => page.evaluate(() => history.back()),
    evaluate: (fn, arg) => page.evaluate(fn, arg),
    // Not puppeteer's waitForFunction: it builds its predicate in the page with Function(), which Firefox ESR 140
    // refuses under the page's CSP (no 'unsafe-eval'). Polled here instead, each poll one evaluation.
    waitForFunction: async (fn, arg, { timeout = TIMEOUT } = {}) => {
      const t0 = Date.now();
      for (;;) {
        // Only whether it holds comes back: a predicate's value may be a DOM node, which does not travel.
        const holds = await page.evaluate(`Promise.resolve(${call(fn, arg)}).then((v) => !!v)`);
        if (holds) return true;
        if (Date.now() - t0 > timeout) throw new Error(`waitForFunction: timeout ${timeout} ms exceeded: ${String(fn).slice(0, 200)}`);
        await sleep(16);
      }
    },
    waitForTimeout: sleep,
    waitForSelector: async (sel, { state = 'visible', timeout = TIMEOUT } = {}) => {
      await $(sel).waitFor({ state, timeout });
      if (state === 'detached' || state === 'hidden') return null;
      return { textContent: () => $(sel).textContent() };
    },
    $: (sel) => page.$(sel),
    $$eval: (sel, fn, arg) => page.$$eval(sel, fn, arg),
    locator: $,
    click: (sel) => $(sel).click(),
    fill: (sel, v) => $(sel).fill(v),
    focus: async (sel) => { await $(sel).waitFor(); await page.focus(sel); },
    textContent: (sel) => $(sel).textContent(),
    getAttribute: (sel, name) => $(sel).getAttribute(name),
    inputValue: (sel) => $(sel).inputValue(),
    isChecked: (sel) => $(sel).isChecked(),
    selectOption: (sel, v) => $(sel).selectOption(v),
    setInputFiles: (sel, f) => $(sel).setInputFiles(f),
    screenshot: (opts) => page.screenshot(opts),
    keyboard,
    mouse,
    /** Events with Playwright's payloads: 'pageerror' (Error), 'console' ({ type, text }), 'request' ({ url }). */
    on: (event, fn) => {
      if (!['pageerror', 'console', 'request'].includes(event)) throw new Error(`page.on('${event}') is not in the Firefox shim`);
      page.on(event, fn);
    },
  };
  return new Proxy(shim, {
    get(t, k) {
      if (k in t || typeof k === 'symbol' || k === 'then') return t[k];
      throw new Error(`page.${String(k)} is not in the Firefox shim (tests/e2e/playwright-shim.mjs): add it there`);
    },
  });
}

export const scratchDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'scorch-e2e-files-'));
