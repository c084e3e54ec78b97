// A small program for scorch's heap profile test (MIT OR Apache-2.0, as scorch): allocations from a few
// functions, a shared callee reached from two callers, and recursion, kept alive so the sampling heap
// profiler still holds them when the process exits.
'use strict';
const keep = (globalThis.scorchKeep = []);

function makeString(n) {
  return 'x'.repeat(n) + n;
}

function makeArray(n) {
  const a = new Array(n);
  for (let i = 0; i < n; i++) a[i] = { i, s: makeString(i % 64) };
  return a;
}

function buffers(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(Buffer.alloc(4096 + i));
  return out;
}

function tree(depth) {
  if (depth === 0) return { leaf: makeString(32) };
  return { left: tree(depth - 1), right: tree(depth - 1), pad: new Array(8).fill(depth) };
}

function strings() {
  for (let i = 0; i < 2000; i++) keep.push(makeString(200 + (i % 300)));
}

function main() {
  for (let r = 0; r < 40; r++) keep.push(makeArray(500));
  keep.push(buffers(200));
  keep.push(tree(12));
  strings();
}

main();
console.log('kept', keep.length);
