// work.js: a small CPU-bound Node program for scorch's stack-health recordings.
function mix(h, n) {
  for (let i = 0; i < n; i++) h = (Math.imul(h, 1664525) + 1013904223) >>> 0;
  return h;
}
function sortBlock(buf, seed) {
  for (let i = 0; i < buf.length; i++) { seed = mix(seed, 3); buf[i] = seed; }
  buf.sort((a, b) => a - b);
  return seed;
}
const buf = new Array(20000).fill(0);
let seed = 1;
const t0 = Date.now();
while (Date.now() - t0 < 1500) seed = sortBlock(buf, seed);
console.log(seed);
