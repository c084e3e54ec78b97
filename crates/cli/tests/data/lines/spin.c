#include <stdio.h>
static volatile unsigned long sink;
__attribute__((noinline)) void leaf(int n) {
    for (int i = 0; i < n; i++) {
        sink += i * 3;
        sink ^= i;
    }
}
__attribute__((noinline)) void middle(int n) {
    leaf(n);
    leaf(n / 2);
}
int main(void) {
    for (int k = 0; k < 3000; k++) middle(200000);
    printf("%lu\n", sink);
    return 0;
}
