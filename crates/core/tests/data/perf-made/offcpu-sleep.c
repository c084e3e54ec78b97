// Off-CPU test program (crates/core/tests/data/perf-made/README.md): the thread `sleep_in_bed` sleeps 10 ms
// 100 times (a raw nanosleep system call made from that function, so frame-pointer unwinding keeps it on the
// stack without glibc's frame pointers) and sums each sleep as measured with CLOCK_MONOTONIC around the call;
// the thread `spin_work` spins meanwhile; main joins both. Prints the sleeper's measured total in nanoseconds.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>

static volatile int done;
static volatile uint64_t sink;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static inline __attribute__((always_inline)) long raw_nanosleep(const struct timespec *req) {
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"((long)SYS_nanosleep), "D"(req), "S"(0L) : "rcx", "r11", "memory");
    return ret;
}

__attribute__((noinline)) static void *sleep_in_bed(void *out) {
    uint64_t slept = 0;
    struct timespec ten_ms = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 100; i++) {
        uint64_t a = now_ns();
        raw_nanosleep(&ten_ms);
        slept += now_ns() - a;
    }
    *(uint64_t *)out = slept;
    done = 1;
    return NULL;
}

__attribute__((noinline)) static void *spin_work(void *arg) {
    (void)arg;
    uint64_t x = 1;
    while (!done) {
        for (int i = 0; i < 100000; i++) x = x * 6364136223846793005u + 1442695040888963407u;
        sink = x;
    }
    return NULL;
}

int main(void) {
    pthread_t sleeper, spinner;
    uint64_t slept = 0;
    pthread_create(&spinner, NULL, spin_work, NULL);
    pthread_create(&sleeper, NULL, sleep_in_bed, &slept);
    pthread_join(sleeper, NULL);
    pthread_join(spinner, NULL);
    printf("slept_ns %llu\n", (unsigned long long)slept);
    return 0;
}
