#include <pthread.h>
#include <stdio.h>
static volatile unsigned long sink;
__attribute__((noinline)) unsigned long spin(unsigned long n) { unsigned long s = 0; for (unsigned long i = 0; i < n; i++) s += i * i; return s; }
__attribute__((noinline)) void work_a(void) { for (int k = 0; k < 6000; k++) sink += spin(200000); }
__attribute__((noinline)) void work_b(void) { for (int k = 0; k < 3000; k++) sink += spin(200000); }
static void *worker(void *arg) { (void)arg; work_b(); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, worker, NULL); work_a(); pthread_join(t, NULL); printf("%lu\n", sink); return 0; }
