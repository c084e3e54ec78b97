// Call-graph layout benchmark (not a test): the release build in dist/ (with the `testing` feature), in the browser
// SCORCH_BROWSER picks. Lays out the core's `layout_benchmark` shape (a call-graph-like graph: 60 levels, a tree of
// calls one level down, more one to three levels down, one in twenty back up; crates/app/src/testing/graph.rs) in
// the app's wasm with the engine's box sizes, five times, and reports each run's time.
// Usage: node bench/graph-layout-browser.mjs [NODES] [EDGES]   (after `trunk build --release --features testing`)
import { serve, browser, ENGINE } from '../tests/e2e/harness.mjs';

const [n, m] = [Number(process.argv[2] || 10_000), Number(process.argv[3] || 40_000)];
const server = await serve();
const b = await browser();
try {
  await b.page.goto(server.url);
  await b.page.waitForFunction(() => typeof window.__scorchBenchGraphLayout === 'function', null, { timeout: 30000 });
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await b.page.evaluate(([n, m]) => window.__scorchBenchGraphLayout(n, m), [n, m]));
  const ms = runs.map((r) => +r.ms.toFixed(0));
  console.log(`${ENGINE}: layout of ${n} nodes, ${m} edges: ${ms.join(', ')} ms (${runs[0].ranks} ranks, ${runs[0].points} points, ${runs[0].crossings} crossings)`);
} finally { await b.close(); await server.close(); }
