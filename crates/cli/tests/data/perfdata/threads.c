/* scorch test program: two named worker threads burning CPU in different functions. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void work_one(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * 3; }
__attribute__((noinline)) static void work_two(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink ^= i * 5; }
static unsigned long rounds = 100;
static void *one(void *a) { (void)a; for (unsigned long r = 0; r < rounds; r++) work_one(1000000); return 0; }
static void *two(void *a) { (void)a; for (unsigned long r = 0; r < rounds; r++) work_two(1000000); return 0; }
int main(int argc, char **argv) {
  if (argc > 1) rounds = strtoul(argv[1], 0, 10);
  pthread_t a, b;
  pthread_create(&a, 0, one, 0); pthread_setname_np(a, "worker-one");
  pthread_create(&b, 0, two, 0); pthread_setname_np(b, "worker-two");
  pthread_join(a, 0); pthread_join(b, 0);
  return 0;
}
