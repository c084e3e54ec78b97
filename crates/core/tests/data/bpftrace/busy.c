#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <fcntl.h>
static volatile unsigned long sink;
__attribute__((noinline)) unsigned long spin(unsigned long n) { unsigned long s = 0; for (unsigned long i = 0; i < n; i++) s += i * i; return s; }
__attribute__((noinline)) void compute(void) { for (int k = 0; k < 40000; k++) sink += spin(200000); }
__attribute__((noinline)) void do_io(void) { char buf[4096]; for (int k = 0; k < 4000000; k++) { int fd = open("/proc/self/stat", O_RDONLY); if (fd >= 0) { (void)read(fd, buf, sizeof buf); close(fd); } } }
static void *worker(void *arg) { (void)arg; do_io(); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, worker, NULL); compute(); pthread_join(t, NULL); printf("%lu\n", sink); return 0; }
