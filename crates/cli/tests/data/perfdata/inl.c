/* A small C program for scorch's inline-frames test (`scorch fold --inline`): `step` is inlined into `mix`
   and `mix` into `work` (always_inline), so a sample in the hot loop is work > mix > step; `churn` is inlined
   into `work` and calls the out-of-line `leaf`, so a caller's return address lies in inlined code too.
   Built with -O2 -g and frame pointers. */
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) unsigned long step(unsigned long x, unsigned long i) {
    return x * 6364136223846793005UL + i;
}

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x, unsigned long n) {
    for (unsigned long i = 0; i < n; i++) x = step(x, i) ^ (x >> 17);
    return x;
}

__attribute__((noinline)) unsigned long finish(unsigned long x) { return x ^ (x >> 29); }

/* Not a leaf (it calls `finish`), so it sets up its frame and its caller's return address is on the chain. */
__attribute__((noinline)) unsigned long leaf(unsigned long x, unsigned long n) {
    for (unsigned long i = 0; i < n; i++) x += i * x + (x >> 3);
    return finish(x) + 1;
}

static inline __attribute__((always_inline)) unsigned long churn(unsigned long x, unsigned long n) {
    x = leaf(x, n) ^ 0x5555;
    return leaf(x, n / 2) * 3;
}

__attribute__((noinline)) unsigned long work(unsigned long x, unsigned long n) {
    x = mix(x, n);
    return churn(x, n);
}

int main(int argc, char **argv) {
    unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 100;
    unsigned long x = 1;
    for (unsigned long r = 0; r < n; r++) x = work(x, 100000);
    printf("%lu\n", x);
    return 0;
}
