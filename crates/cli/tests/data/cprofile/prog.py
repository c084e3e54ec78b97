"""A small program for scorch's cProfile test (MIT OR Apache-2.0, as scorch): a callee shared by two callers
doing different work below it, direct and mutual recursion, builtins and a generator."""


def spin(n):
    t = 0
    for i in range(n):
        t += i * i
    return t


def do_read(n):
    return spin(n)


def do_write(n):
    return spin(3 * n) + len(str(n))


def backup(reading, n):
    return do_read(n) if reading else do_write(n)


def start():
    return sum(backup(True, 2000) for _ in range(30))


def end():
    return sum(backup(False, 2000) for _ in range(30))


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def text_work():
    words = [str(i) * 3 for i in range(20000)]
    return len(sorted(words, key=len))


def main():
    start()
    end()
    fib(18)
    is_even(300)
    text_work()


if __name__ == "__main__":
    main()
