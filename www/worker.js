// Every worker of scorch (crates/app/src/worker/side.rs): it runs the engine's wasm (`scorch-engine`,
// crates/app/src/engine.rs), not the page's, and serves import and view requests (protocol:
// crates/app/src/worker/protocol.rs). The engine's compiled module comes as the first message (`{ module }`), so
// it is compiled once; without one it loads the file itself. The first worker, boot.js's, is asked to compile
// both binaries instead (`{ compile: true, gz }`, www/wasm.js; `gz`: the bodies of the gzip'd files, which the
// page asked for): it says `Compiling`, posts the page's module (`PageModule`) and the engine's (`Module`, kept
// for the workers the page starts later), and starts. A file of its own so the page's CSP (script-src 'self')
// allows it.
//
// boot.js names the profile a link opens in the worker's name (`prefetch URL`): it is fetched here at once,
// before the wasm is ready (messages from the page wait until the page's own start is done), and `read_url`
// (worker/side.rs) takes this response when the page asks for the same URL.
const PREFETCH = 'prefetch ';
if (self.name.startsWith(PREFETCH)) {
  const url = self.name.slice(PREFETCH.length);
  const response = fetch(url);
  // Handled here so a failure is not an unhandled rejection below; read_url reports it.
  response.catch(() => {});
  self.scorchPrefetch = { url, response };
}

// The compiler, fetched at once by the worker that will be asked for it (boot.js names it).
const compiler = self.name === 'import' || self.name.startsWith(PREFETCH) ? import('./wasm.js') : null;

// A trap inside an async import (an allocation failure aborts) can surface as a rejected promise; rethrow it
// so the page's `worker.onerror` hears about it and says so, instead of waiting forever.
self.addEventListener('unhandledrejection', (e) => { setTimeout(() => { throw e.reason; }); });

// Requests that come while the wasm starts wait here: the page sends its request right after the module, not
// after this worker says it is ready, and `run` (crates/app/src/worker/side.rs) takes them once it listens.
self.scorchPending = [];
const glue = import('../scorch-engine.js');

// A spare parse worker (crates/app/src/worker/spare.rs): the page started it for an import worker and sent one end
// of a channel (`port`); the import worker reaches it on the other (crates/app/src/worker/helpers.rs). Everything
// it says goes there, and what comes there is heard as this worker's own messages — the same code as a parse
// worker the import worker starts itself. `{ close }` ends it — once its wasm runs: a worker closed while its
// module is still being imported is reported by Firefox as an uncaught exception of the page. An error of its own
// is said there (`stopped`), since the import worker hears no `error` event from a worker it did not start. The
// page hears one message: it is up. Returns what to call once it is.
function joinPort(port) {
  const toPage = self.postMessage.bind(self);
  let up = false;
  let closing = false;
  const end = () => { port.close(); self.close(); };
  self.postMessage = (msg, transfer) => (transfer === undefined ? port.postMessage(msg) : port.postMessage(msg, transfer));
  port.onmessage = (m) => {
    if (m.data && m.data.close) {
      if (up) end(); else closing = true;
      return;
    }
    if (self.onmessage) self.onmessage(m);
  };
  self.addEventListener('error', (e) => { port.postMessage({ stopped: String(e.message || 'an error') }); });
  return () => {
    up = true;
    toPage({ type: 'Up' });
    if (closing) end();
  };
}

self.onmessage = async (e) => {
  self.onmessage = (later) => { self.scorchPending.push(later.data); };
  let module = e.data && e.data.module;
  const isUp = e.data && e.data.port ? joinPort(e.data.port) : null;
  if (e.data && e.data.compile) {
    self.postMessage({ type: 'Compiling' });
    const wasm = await (compiler || import('./wasm.js')).catch(() => null);
    // The page's first, then this worker's own: both are inflated and decoded on this thread, and together
    // (their chunks taken in turn) the page's was ready only with the engine's. The page waits for its module
    // to start at all; the engine is wanted only once the page asks for its profile, after its own start
    // (a load by link drew 4–8 % sooner this way; 100 MB loads did not move: docs/BENCHMARKS.md).
    // The gzip'd files' bodies, when the page asked for them (www/boot.js).
    const gz = e.data.gz || {};
    const page = wasm ? wasm.compileWasm('scorch-app', gz.page).catch(() => null) : Promise.resolve(null);
    page.then((m) => self.postMessage({ type: 'PageModule', module: m }));
    module = wasm ? await page.then(() => wasm.compileWasm('scorch-engine', gz.engine)).catch(() => null) : null;
    self.postMessage({ type: 'Module', module });
  }
  // Kept for the parse workers this worker may start (crates/app/src/worker/slices.rs).
  self.scorchModule = module;
  const { default: init } = await glue;
  // Its size is read by bench/load-browser.mjs (where a load's memory sits: page or worker).
  self.scorchMemory = (await init({ module_or_path: module || new URL('../scorch-engine_bg.wasm', import.meta.url) })).memory;
  if (isUp) isUp();
};
