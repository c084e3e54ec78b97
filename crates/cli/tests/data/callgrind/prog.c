/* A small program for scorch's callgrind test (MIT OR Apache-2.0). Its call graph has a shared callee reached
 * from two callers with different work below it (backup), direct recursion (fib) and mutual recursion
 * (is_even/is_odd), and calls into libc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void spin(unsigned n) {
    for (unsigned i = 0; i < n; i++) sink += i;
}
__attribute__((noinline)) static void do_read(void) { spin(4000); }
__attribute__((noinline)) static void do_write(void) { spin(9000); }
__attribute__((noinline)) static void backup(int read) {
    if (read) do_read(); else do_write();
}
__attribute__((noinline)) static void start(void) { for (int i = 0; i < 3; i++) backup(1); }
__attribute__((noinline)) static void end(void) { backup(0); spin(500); }

__attribute__((noinline)) static unsigned long fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__attribute__((noinline)) static int is_odd(unsigned n);
__attribute__((noinline)) static int is_even(unsigned n) { spin(10); return n == 0 ? 1 : is_odd(n - 1); }
__attribute__((noinline)) static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

__attribute__((noinline)) static void text_work(void) {
    char *buf = malloc(4096);
    for (int i = 0; i < 50; i++) {
        snprintf(buf, 4096, "line %d of %s", i, "the text");
        sink += strlen(buf);
    }
    free(buf);
}

int main(void) {
    start();
    end();
    sink += fib(15);
    sink += is_even(40);
    text_work();
    printf("%lu\n", sink);
    return 0;
}
