/* Three threads doing different work for scorch's thread tests: main spins in main_work, "alpha" in
   alpha_work, "beta" in beta_work (half as long), each named with pthread_setname_np so their comm differs. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <time.h>

static volatile uint64_t sink;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void spin(double seconds, uint64_t seed) {
    double end = now() + seconds;
    uint64_t x = seed;
    while (now() < end) {
        for (int i = 0; i < 10000; i++) x = x * 6364136223846793005ull + 1442695040888963407ull;
        sink = x;
    }
}

__attribute__((noinline)) static void alpha_work(void) { spin(0.40, 1); }
__attribute__((noinline)) static void beta_work(void) { spin(0.20, 2); }
__attribute__((noinline)) static void main_work(void) { spin(0.10, 3); }

static void *alpha(void *arg) {
    (void)arg;
    pthread_setname_np(pthread_self(), "alpha");
    alpha_work();
    return 0;
}

static void *beta(void *arg) {
    (void)arg;
    pthread_setname_np(pthread_self(), "beta");
    beta_work();
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, alpha, 0);
    pthread_create(&b, 0, beta, 0);
    main_work();
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
