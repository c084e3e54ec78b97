// Records a small Chrome trace with V8 CPU samples from headless Chromium over CDP.
// Run from the repo root: node crates/core/tests/data/v8/record-trace.cjs OUT.json
const { chromium } = require('playwright-core');
const fs = require('fs');
(async () => {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  const page = await browser.newPage();
  const work = 'function fib(n){return n<2?n:fib(n-1)+fib(n-2)}\n' +
    'function squares(n){let s=0;for(let i=0;i<n;i++)s+=Math.sqrt(i)*Math.sqrt(i);return s}\n' +
    'function work(){const end=performance.now()+300;let a=0;while(performance.now()<end){a+=fib(20);a+=squares(100000)}return a}\n';
  await page.route('http://scorch.test/**', (route) => route.request().url().endsWith('.js')
    ? route.fulfill({ contentType: 'text/javascript', body: work })
    : route.fulfill({ contentType: 'text/html', body: '<html><body><script src="work.js"></script></body></html>' }));
  await page.goto('http://scorch.test/index.html');
  const cdp = await page.context().newCDPSession(page);
  const chunks = [];
  cdp.on('Tracing.dataCollected', (e) => chunks.push(...e.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-v8.cpu_profiler', 'v8'] },
  });
  await page.evaluate(() => work());
  await cdp.send('Tracing.end');
  await done;
  await browser.close();
  fs.writeFileSync(process.argv[2], JSON.stringify({ traceEvents: chunks }));
})();
