/* scorch test program: a few functions that burn CPU, built with frame pointers. */
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void leaf_a(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * 7; }
__attribute__((noinline)) static void leaf_b(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink ^= i * 13; }
__attribute__((noinline)) void middle(unsigned long n) { leaf_a(n); leaf_b(n / 2); }
__attribute__((noinline)) void outer(unsigned long n) { middle(n); leaf_a(n / 4); }
int main(int argc, char **argv) {
  unsigned long rounds = argc > 1 ? strtoul(argv[1], 0, 10) : 200;
  for (unsigned long r = 0; r < rounds; r++) outer(1000000);
  return 0;
}
