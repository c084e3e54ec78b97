# A small program whose time is in known lines: two functions, one loop each, a shared helper.
import time


def helper(x):
    return (x * 31 + 7) % 1000003


def spin_a(n):
    s = 0
    for i in range(n):
        s += helper(i)
    return s


def spin_b(n):
    s = 0
    for i in range(n):
        s ^= i * i
    return s


def main():
    end = time.time() + 3.0
    while time.time() < end:
        spin_a(20000)
        spin_b(30000)


main()
