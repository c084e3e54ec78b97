// A small CPU-bound workload for recording profiles (scorch scrub tests).
function work(n) { let s = 0; for (let i = 0; i < n; i++) { s += Math.sqrt(i) * Math.sin(i); } return s; }
function secret_rotate_keys(n) { return work(n) + work(n >> 1); }
module.exports = { charge: (n) => work(n) + secret_rotate_keys(n), work };
