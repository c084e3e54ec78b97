// A small CPU-bound script for scorch's source-line tests (crates/cli/tests/lines.rs): a few hot lines in two
// functions. Licence: MIT OR Apache-2.0.
'use strict';

function mix(x) {
  x ^= x >>> 16;
  x = Math.imul(x, 0x45d9f3b);
  x ^= x >>> 16;
  return x >>> 0;
}

function sum(n) {
  let s = 0;
  for (let i = 0; i < n; i++) {
    s = (s + mix(i + s)) >>> 0;
  }
  return s;
}

let acc = 0;
const end = Date.now() + 1000;
while (Date.now() < end) {
  acc = (acc + sum(20000)) >>> 0;
}
console.log(acc);
