// Starts scorch. A file of its own (not an inline script) so that the page can forbid inline scripts in its
// Content-Security-Policy; Trunk is told not to inject its inline loader (Trunk.toml: inject_scripts = false).
//
// The wasm is compiled once here and shared with the import workers (`window.__scorchWasm`, posted to each
// worker as its first message: crates/app/src/load.rs). When the link names a profile (`#url=`, `#base=`), the
// first worker starts now, so it boots while the page does (`window.__scorchEarlyWorker`).
import init from '../scorch-app.js';

const wasmUrl = new URL('../scorch-app_bg.wasm', import.meta.url);
let module;
try {
  module = await WebAssembly.compileStreaming(fetch(wasmUrl));
} catch {
  // A server that does not send `application/wasm`: compile from the bytes.
  module = await WebAssembly.compile(await (await fetch(wasmUrl)).arrayBuffer());
}
window.__scorchWasm = module;
if (/^#(.*&)?(url|base)=/.test(location.hash)) {
  try {
    const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    w.onmessage = (e) => { if (e.data && e.data.type === 'Ready') w.__scorchReady = true; };
    w.postMessage({ module });
    window.__scorchEarlyWorker = w;
  } catch { /* the page starts its own worker, or reads on the page */ }
}
await init({ module_or_path: module });
