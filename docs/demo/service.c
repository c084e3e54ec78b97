/* A toy request loop for scorch's demo profile: steady request handling, and once a second a 200 ms burst of
 * log compression: the kind of stall a flame graph of the whole run averages away and a heatmap shows. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <stdlib.h>

static volatile uint64_t sink;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

__attribute__((noinline)) static uint64_t hash_bytes(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 1099511628211ULL;
    return h;
}

__attribute__((noinline)) static void parse_headers(char *buf, size_t n) {
    for (int k = 0; k < 40; k++)
        for (size_t i = 0; i < n; i++) buf[i] = (char)(buf[i] ^ (buf[(i * 7) % n] + k));
}

__attribute__((noinline)) static uint64_t lookup_session(const char *buf, size_t n) {
    uint64_t acc = 0;
    for (int k = 0; k < 60; k++) acc += hash_bytes(buf, n);
    return acc;
}

__attribute__((noinline)) static void render_response(char *out, size_t n) {
    for (int k = 0; k < 30; k++) {
        memset(out, 'a' + k % 26, n);
        sink += hash_bytes(out, n / 4);
    }
}

__attribute__((noinline)) static void handle_request(void) {
    char buf[2048], out[4096];
    memset(buf, 'x', sizeof buf);
    parse_headers(buf, sizeof buf);
    sink += lookup_session(buf, sizeof buf);
    render_response(out, sizeof out);
}

__attribute__((noinline)) static void deflate_block(char *blk, size_t n) {
    for (int k = 0; k < 200; k++)
        for (size_t i = 1; i < n; i++) blk[i] = (char)(blk[i] + blk[i - 1] * 31 + k);
}

__attribute__((noinline)) static void compress_logs(void) {
    static char blk[65536];
    deflate_block(blk, sizeof blk);
    sink += hash_bytes(blk, sizeof blk);
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 6.0;
    double start = now();
    while (now() - start < seconds) {
        double t = now() - start;
        double frac = t - (int)t;
        if (frac >= 0.6 && frac < 0.8) compress_logs();  /* the burst */
        else {
            /* about a third of the time busy with requests, the rest waiting for the next one */
            double until = now() + 0.001;
            while (now() < until) handle_request();
            struct timespec pause = {0, 2000000};
            nanosleep(&pause, NULL);
        }
    }
    printf("%llu\n", (unsigned long long)sink);
    return 0;
}
