/* A program busy in periodic_job() during [200, 300) ms of every second of CLOCK_MONOTONIC (perf's clock when
 * recorded with -k CLOCK_MONOTONIC), and in background_work() for about 1 ms of every 10 ms outside that band.
 * Runs for 10 seconds. Build: cc -O1 -fno-omit-frame-pointer -fno-inline -o periodic periodic.c */
#include <time.h>
#include <stdint.h>

static volatile uint64_t sink;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t offset_ms(int64_t t) { return (t % 1000000000) / 1000000; }

/* Spins until the clock leaves [200, 300) ms of the current second. */
__attribute__((noinline)) static void periodic_job(void) {
    while (offset_ms(now_ns()) >= 200 && offset_ms(now_ns()) < 300)
        for (int i = 0; i < 1000; i++) sink += i;
}

/* Spins for up to 1 ms, never into the band. */
__attribute__((noinline)) static void background_work(void) {
    int64_t end = now_ns() + 1000000;
    while (now_ns() < end && offset_ms(now_ns()) != 199)
        for (int i = 0; i < 1000; i++) sink ^= i * 7;
}

/* Sleeps up to 9 ms, waking at the band's start if it comes sooner. */
static void rest(void) {
    int64_t t = now_ns();
    int64_t within = t % 1000000000;
    int64_t until_band = 200000000 - within;
    int64_t d = 9000000;
    if (until_band > 0 && until_band < d) d = until_band;
    struct timespec ts = {0, (long)d};
    nanosleep(&ts, 0);
}

int main(void) {
    int64_t stop = now_ns() + 10 * 1000000000LL;
    while (now_ns() < stop) {
        int64_t ms = offset_ms(now_ns());
        if (ms >= 200 && ms < 300) {
            periodic_job();
        } else {
            background_work();
            rest();
        }
    }
    return 0;
}
