/* Two threads that spin in short bursts, one burst per ~0.7 s, to be recorded with a tiny buffer and a high
   sampling rate so that perf loses events in several seconds of the recording. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void inner(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * i; }
__attribute__((noinline)) static void outer(unsigned long n) { for (int k = 0; k < 4; k++) inner(n / 4); }
static void *work(void *arg) { outer((unsigned long)arg); return NULL; }
int main(int argc, char **argv) {
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 150000UL;
    int rounds = argc > 2 ? atoi(argv[2]) : 4;
    for (int r = 0; r < rounds; r++) {
        pthread_t t[2];
        for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, work, (void *)n);
        for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
        usleep(700000);
    }
    return 0;
}
