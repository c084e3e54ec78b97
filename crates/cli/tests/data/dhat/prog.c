/* A small program for scorch's DHAT test (MIT OR Apache-2.0, as scorch): allocations from several call
 * paths, a helper shared by two callers, blocks freed early and blocks kept to the end, reads and writes. */
#include <stdlib.h>
#include <string.h>

static char *make(size_t n) {
    char *p = malloc(n);
    memset(p, 1, n);
    return p;
}

static char *dup_of(const char *s, size_t n) {
    char *p = make(n);
    memcpy(p, s, n);
    return p;
}

static long sum(const char *p, size_t n) {
    long t = 0;
    for (size_t i = 0; i < n; i++) t += p[i];
    return t;
}

static char **keep;

static void start(void) {
    for (int i = 0; i < 100; i++) {
        char *p = make(64 + i);
        free(p);
    }
}

static void end(void) {
    keep = malloc(50 * sizeof *keep);
    for (int i = 0; i < 50; i++) keep[i] = make(1000);
}

static long churn(void) {
    long t = 0;
    char *a = make(4096);
    for (int i = 0; i < 20; i++) {
        char *b = dup_of(a, 4096);
        t += sum(b, 4096);
        free(b);
    }
    free(a);
    return t;
}

static void *grow(void) {
    void *p = NULL;
    for (size_t n = 16; n < 100000; n *= 2) p = realloc(p, n);
    return p;
}

int main(void) {
    start();
    end();
    long t = churn();
    void *g = grow();
    free(g);
    return t == 42;
}
