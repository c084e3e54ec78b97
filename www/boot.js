// Starts scorch. A file of its own (not an inline script) so that the page can forbid inline scripts in its
// Content-Security-Policy; Trunk is told not to inject its inline loader (Trunk.toml: inject_scripts = false).
//
// scorch is two wasm binaries: the page's and the engine's, which every worker runs. Both are compiled once, by
// the first import worker (www/wasm.js; the page's here only when it cannot), and the engine's is shared with
// the other workers (`window.scorchBoot.module`, posted to each: crates/app/src/worker/page.rs). That worker
// starts now, so it boots while the page does
// (`window.scorchBoot.earlyWorker`, with `earlyReady` once it said so and `earlyFailed` if it could not start:
// the app listens to it only once its own wasm runs): the page's first load from a file, a URL or a host takes
// it (the demo starts a worker of its own, leaving it for the user's own first file). When the link names a
// profile
// (`#url=`, `#base=`) that worker fetches it at once (it parses once the module arrives; www/worker.js) and the
// app's request for the same URL reads that response (crates/app/src/worker/side.rs, `read_url`).
// `scorchBoot` is the product's hand-over to the app, not a test hook.
function linkedProfile() {
  for (const kv of location.hash.slice(1).split('&')) {
    const i = kv.indexOf('=');
    const key = i < 0 ? kv : kv.slice(0, i);
    if (key !== 'url' && key !== 'base') continue;
    try {
      // As the app decodes the fragment (crates/app/src/url.rs): `%XX` escapes, `+` a space.
      return new URL(decodeURIComponent(kv.slice(i + 1).replace(/\+/g, ' ')), document.baseURI).href;
    } catch { return null; }
  }
  return null;
}
const linked = linkedProfile();
// `linked`: the page was opened with a link to a profile (its worker fetches it; the app starts no spare parse
// worker for it: crates/app/src/worker/spare.rs).
const boot = { module: null, earlyWorker: null, earlyReady: false, earlyFailed: false, linked: !!linked };
let early = null;
{
  try {
    const name = linked ? `prefetch ${linked}` : 'import';
    early = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name });
    early.onmessage = (e) => { if (e.data && e.data.type === 'Ready') boot.earlyReady = true; };
    // A server without www/worker.js: the app then starts its own, or reads folded stacks on the page
    // (crates/app/src/worker/page.rs).
    early.onerror = (e) => { e.preventDefault(); boot.earlyFailed = true; };
  } catch { early = null; /* the page starts its own worker, or reads on the page */ }
}

// The two binaries' gzip'd bytes (www/wasm.js) are asked for now, by this page: asked for by that worker, they
// came only once its script, then wasm.js, had loaded and run (requested 130–150 ms after this file ran, in a
// traced load by link). Their bodies are handed to it (transferred streams); where a stream cannot be
// transferred, or the request fails, it asks for them itself.
const gzipped = early && typeof DecompressionStream === 'function'
  ? ['scorch-app', 'scorch-engine'].map((name) => fetch(new URL(`../${name}_bg.wasm.gz`, import.meta.url)).catch(() => null))
  : null;

// Loaded beside the wasm, not before this file runs, so the worker above starts first.
const glue = import('../scorch-app.js');
// Both wasm binaries are compiled by that worker (www/wasm.js), the page's first: it says so (`Compiling`), posts the
// page's module when it is ready (`PageModule`) and the engine's (`Module`, kept here for the workers the page
// starts later: crates/app/src/worker/page.rs), and runs the engine itself. Off this
// thread, where the inflate and the compile's decoding would be one task of 70–90 ms. This page compiles its
// own only when there is no worker, the worker fails, it has not said it is compiling within `SILENT_MS` (a
// worker whose script never arrives: not every browser reports that as an error), or it has not sent the module
// within `LIMIT_MS` of saying so (a thread that stopped: nothing waits for a worker forever). Without the
// engine's module, the workers the page starts compile their own.
const SILENT_MS = 3000;
const LIMIT_MS = 15000;
// Settles when the engine's module is there (`boot.module`) or will not come from that worker.
let engineCame = () => {};
boot.engine = new Promise((resolve) => { engineCame = resolve; });
function compiledByWorker() {
  if (!early) { engineCame(); return Promise.resolve(null); }
  return new Promise((resolve) => {
    let timer = setTimeout(() => { resolve(null); engineCame(); }, SILENT_MS);
    early.addEventListener('message', (e) => {
      const type = e.data && e.data.type;
      if (type === 'Compiling') {
        clearTimeout(timer);
        timer = setTimeout(() => { resolve(null); engineCame(); }, LIMIT_MS);
      }
      if (type === 'PageModule') resolve(e.data.module || null);
      if (type === 'Module') {
        clearTimeout(timer);
        if (e.data.module) boot.module = e.data.module;
        engineCame();
      }
    });
    early.addEventListener('error', () => { clearTimeout(timer); resolve(null); engineCame(); });
    ask().catch(() => { clearTimeout(timer); resolve(null); engineCame(); });
  });
}
async function ask() {
  const [page, engine] = gzipped ? await Promise.all(gzipped) : [];
  // A body; `false`: the server has no such file (the worker goes to the plain one); `null`: no answer.
  const body = (r) => (!r ? null : r.ok && r.body ? r.body : false);
  const gz = { page: body(page), engine: body(engine) };
  const streams = [gz.page, gz.engine].filter(Boolean);
  try {
    early.postMessage({ compile: true, gz }, streams);
  } catch {
    // A browser that cannot transfer a stream: the worker asks for the files itself.
    for (const s of streams) s.cancel().catch(() => {});
    early.postMessage({ compile: true });
  }
}
// While the worker compiles, the page's thread is idle: the flame graph's label font is made ready here (the
// first `measureText` of a page loads the font, a few ms of the first picture's frame otherwise). The font is
// the one of crates/app/src/render/draw.rs (`FONT`). A task of its own: with this file's evaluation (which
// starts the worker, 1–12 ms) it was one task of 10–41 ms, and of 50 ms on a busy machine (5–16 ms of it this).
setTimeout(() => {
  try {
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = "12px ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";
    ctx.measureText('scorch');
  } catch { /* only a warm-up */ }
}, 0);
let module = await compiledByWorker();
if (!module) {
  const { compileWasm } = await import('./wasm.js');
  module = await compileWasm('scorch-app');
}
if (early) boot.earlyWorker = early;
window.scorchBoot = boot;
const { default: init } = await glue;
// The wasm memory is kept where a benchmark can read its size (bench/load-browser.mjs: page and worker memory).
boot.memory = (await init({ module_or_path: module })).memory;
// The app is mounted: the end of its start, for outside benchmarks (bench/load-browser.mjs tells the boot task
// from the load's tasks by it).
performance.mark('bench:booted');
