// The import worker (crates/app/src/worker.rs): the same wasm as the page; its `main` sees no window and
// serves import requests (protocol: crates/app/src/protocol.rs). The first message carries the page's compiled
// module (`{ module }`), so the wasm is compiled once; without one it loads the file itself. A file of its own
// so the page's CSP (script-src 'self') allows it.
import init from '../scorch-app.js';

// A trap inside an async import (an allocation failure aborts) can surface as a rejected promise; rethrow it
// so the page's `worker.onerror` hears about it and says so, instead of waiting forever.
self.addEventListener('unhandledrejection', (e) => { setTimeout(() => { throw e.reason; }); });

self.onmessage = async (e) => {
  self.onmessage = null;
  const module = e.data && e.data.module;
  await init({ module_or_path: module || new URL('../scorch-app_bg.wasm', import.meta.url) });
};
