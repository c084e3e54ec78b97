// Starts scorch. A file of its own (not an inline script) so that the page can forbid inline scripts in its
// Content-Security-Policy; Trunk is told not to inject its inline loader (Trunk.toml: inject_scripts = false).
import init from '../scorch-app.js';

await init({ module_or_path: new URL('../scorch-app_bg.wasm', import.meta.url) });
