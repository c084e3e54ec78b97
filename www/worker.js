// The import worker (crates/app/src/worker.rs): the same wasm as the page; its `main` sees no window and
// serves import requests (protocol: crates/app/src/protocol.rs). A file of its own so the page's CSP
// (script-src 'self') allows it.
import init from '../scorch-app.js';

await init({ module_or_path: new URL('../scorch-app_bg.wasm', import.meta.url) });
