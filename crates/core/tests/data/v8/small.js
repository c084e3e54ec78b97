// A small program with a few distinct hot functions, for `node --cpu-prof`.
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function sieve(limit) {
  const composite = new Uint8Array(limit + 1);
  let count = 0;
  for (let i = 2; i <= limit; i++) {
    if (!composite[i]) { count++; for (let j = i * i; j <= limit; j += i) composite[j] = 1; }
  }
  return count;
}
function strings(n) {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(97 + (i % 26));
  return s.split('').reverse().join('').length;
}
function sortNumbers(n) {
  const a = [];
  for (let i = 0; i < n; i++) a.push((i * 7919) % 10007);
  return a.sort((x, y) => x - y)[0];
}
const end = Date.now() + 1500;
let acc = 0;
while (Date.now() < end) {
  acc += fib(22);
  acc += sieve(200000);
  acc += strings(20000);
  acc += sortNumbers(20000);
}
console.log(acc > 0 ? 'done' : 'never');
