// A small C++ program for scorch's perf.data demangling test: namespaces, a class template, overloads, an
// operator, a lambda, an anonymous namespace and a std::function, each burning CPU so perf samples them.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace work {

template <typename T> struct Acc {
    T total{};
    __attribute__((noinline)) void add(T v) {
        for (int i = 0; i < 2000; i++) total = total * 3 + v + i;
    }
    __attribute__((noinline)) Acc &operator+=(const Acc &o) {
        for (int i = 0; i < 3000; i++) total = total * 5 + o.total;
        return *this;
    }
};

__attribute__((noinline)) long burn(long n) {
    long s = 0;
    for (long i = 0; i < n; i++) s = s * 7 + i;
    return s;
}

__attribute__((noinline)) long burn(double x) {
    long s = 0;
    for (int i = 0; i < 20000; i++) s = s * 11 + (long)(x * i);
    return s;
}

}  // namespace work

namespace {
__attribute__((noinline)) long hidden(std::vector<int> &v) {
    long s = 0;
    for (int r = 0; r < 40; r++)
        for (int x : v) s = s * 13 + x;
    return s;
}
}  // namespace

__attribute__((noinline)) long apply(const std::function<long(long)> &f, long n) { return f(n); }

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 300;
    std::vector<int> v(1000, 3);
    long sink = 0;
    work::Acc<long> a, b;
    work::Acc<double> d;
    for (int r = 0; r < rounds; r++) {
        sink += work::burn(30000L);
        sink += work::burn(1.5);
        a.add(r);
        d.add(r);
        a += b;
        sink += hidden(v);
        sink += apply([&](long n) { return work::burn(n) + sink; }, 20000);
    }
    printf("%ld %ld %f\n", sink, a.total, d.total);
    return 0;
}
