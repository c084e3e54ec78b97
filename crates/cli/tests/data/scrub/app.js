// A small CPU-bound workload for recording profiles (scorch scrub tests).
const billing = require('./billing.js');
function work(n) { let s = 0; for (let i = 0; i < n; i++) { s += Math.cbrt(i); } return s; }
function handleRequest(i) { return billing.charge(20000 + (i % 7) * 1000) + work(30000); }
const until = Date.now() + Number(process.argv[2] || 1000);
let total = 0, i = 0;
while (Date.now() < until) { total += handleRequest(i++); }
console.log(i, total > 0);
