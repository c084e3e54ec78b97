/* work.c: a small CPU-bound C program for scorch's stack-health recordings.
   Three levels of its own calls (a shell sort, a hash mix) and a memcpy for ~1.5 s. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

__attribute__((noinline)) static void shell_sort(int *a, int n) {
    for (int gap = n / 2; gap > 0; gap /= 2)
        for (int i = gap; i < n; i++) {
            int v = a[i], j = i;
            for (; j >= gap && a[j - gap] > v; j -= gap) a[j] = a[j - gap];
            a[j] = v;
        }
}

__attribute__((noinline)) static unsigned long mix(unsigned long h, int n) {
    for (int i = 0; i < n; i++) h = h * 6364136223846793005UL + 1442695040888963407UL;
    return h;
}

__attribute__((noinline)) static void sort_block(int *buf, int *tmp, int n, unsigned long seed) {
    for (int i = 0; i < n; i++) { seed = mix(seed, 3); buf[i] = (int)(seed >> 33); }
    memcpy(tmp, buf, sizeof(int) * (size_t)n);
    shell_sort(tmp, n);
}

__attribute__((noinline)) static void run(double seconds) {
    int n = 20000;
    int *buf = malloc(sizeof(int) * (size_t)n), *tmp = malloc(sizeof(int) * (size_t)n);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    unsigned long seed = 1;
    do {
        sort_block(buf, tmp, n, seed++);
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
    free(buf); free(tmp);
}

int main(void) { run(1.5); return 0; }
