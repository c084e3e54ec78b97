// A local server for the load benches (not a test): DIST under /scorch/, the bench profiles
// (target/bench-profiles) under /p/. `const port = serveDist(dist)`; `closeDist()` when done.
import http from 'node:http'; import fs from 'node:fs'; import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROFILES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'target', 'bench-profiles');
const TYPES = { '.wasm': 'application/wasm', '.js': 'text/javascript', '.html': 'text/html', '.css': 'text/css' };
let server = null;

/** Serves `dist` and the profiles on a free port of 127.0.0.1; returns the port. */
export async function serveDist(dist) {
  server = http.createServer((req, res) => {
    const u = decodeURIComponent(req.url.split('?')[0].split('#')[0]);
    const f = u.startsWith('/p/') ? path.join(PROFILES, u.slice(3)) : path.join(dist, u.replace(/^\/scorch\//, '/'));
    if (!fs.existsSync(f) || fs.statSync(f).isDirectory()) { res.writeHead(404); return res.end(); }
    res.writeHead(200, { 'content-type': TYPES[path.extname(f)] || 'application/octet-stream', 'content-length': fs.statSync(f).size });
    fs.createReadStream(f).pipe(res);
  }).listen(0, '127.0.0.1');
  await new Promise((r) => server.on('listening', r));
  return server.address().port;
}

export function closeDist() {
  if (server) server.close();
}
