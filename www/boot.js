// Starts scorch. A file of its own (not an inline script) so that the page can forbid inline scripts in its
// Content-Security-Policy; Trunk is told not to inject its inline loader (Trunk.toml: inject_scripts = false).
//
// The wasm is compiled once here and shared with the import workers (`window.scorchBoot.module`, posted to each
// worker: crates/app/src/worker/page.rs). The first import worker starts now, so it boots while the page does
// (`window.scorchBoot.earlyWorker`, with `earlyReady` once it said so and `earlyFailed` if it could not start:
// the app listens to it only once its own wasm runs): the page's first load from a file, a URL or a host takes
// it (the demo is read on the page, leaving it for the user's own first file). When the link names a profile
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
const boot = { module: null, earlyWorker: null, earlyReady: false, earlyFailed: false };
let early = null;
const linked = linkedProfile();
{
  try {
    const name = linked ? `prefetch ${linked}` : 'import';
    early = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name });
    early.onmessage = (e) => { if (e.data && e.data.type === 'Ready') boot.earlyReady = true; };
    // A server without www/worker.js: the app then reads the profile on the page (crates/app/src/worker/page.rs).
    early.onerror = (e) => { e.preventDefault(); boot.earlyFailed = true; };
  } catch { early = null; /* the page starts its own worker, or reads on the page */ }
}

// Loaded beside the wasm, not before this file runs, so the worker above starts first.
const glue = import('../scorch-app.js');
const wasmUrl = new URL('../scorch-app_bg.wasm', import.meta.url);
// The wasm is also shipped gzip'd (`scorch-app_bg.wasm.gz`, Trunk.toml's post-build hook): many internal web
// servers send `.wasm` uncompressed (nginx compresses only text/html unless told), and its bytes on the wire are
// most of a small profile's time to open (docs/BENCHMARKS.md). The browser inflates it while it compiles. A server
// that already decodes it (`Content-Encoding: gzip` for `.gz`) hands over the wasm itself, which is compiled as is;
// one without the file, or a browser without DecompressionStream, gets the plain `.wasm`.
async function compressed() {
  if (typeof DecompressionStream !== 'function') return null;
  const response = await fetch(new URL('../scorch-app_bg.wasm.gz', import.meta.url));
  if (!response.ok || !response.body) return null;
  const reader = response.body.getReader();
  let first = await reader.read();
  while (!first.done && first.value.length < 2) {
    // Too short to tell: join it with the next chunk.
    const next = await reader.read();
    if (next.done) break;
    const joined = new Uint8Array(first.value.length + next.value.length);
    joined.set(first.value);
    joined.set(next.value, first.value.length);
    first = { done: false, value: joined };
  }
  if (first.done) return null;
  const gzip = first.value[0] === 0x1f && first.value[1] === 0x8b;
  let body = new ReadableStream({
    start(c) { c.enqueue(first.value); },
    async pull(c) {
      const { done, value } = await reader.read();
      if (done) c.close(); else c.enqueue(value);
    },
    cancel(why) { return reader.cancel(why); },
  });
  if (gzip) body = body.pipeThrough(new DecompressionStream('gzip'));
  return WebAssembly.compileStreaming(new Response(body, { headers: { 'content-type': 'application/wasm' } }));
}
let module;
try {
  module = await compressed();
} catch { module = null; }
if (!module) {
  try {
    module = await WebAssembly.compileStreaming(fetch(wasmUrl));
  } catch {
    // A server that does not send `application/wasm`: compile from the bytes.
    module = await WebAssembly.compile(await (await fetch(wasmUrl)).arrayBuffer());
  }
}
boot.module = module;
if (early) {
  early.postMessage({ module });
  boot.earlyWorker = early;
  // The message reaches the worker only once this task ends: end it before the page's own start (instantiating
  // and mounting: 100+ ms), so the worker instantiates and reads the profile meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 0));
}
window.scorchBoot = boot;
const { default: init } = await glue;
// The wasm memory is kept where a benchmark can read its size (bench/load-browser.mjs: page and worker memory).
boot.memory = (await init({ module_or_path: module })).memory;
// The app is mounted: the end of its start, for outside benchmarks (bench/load-browser.mjs tells the boot task
// from the load's tasks by it).
performance.mark('bench:booted');
