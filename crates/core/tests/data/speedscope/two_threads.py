import threading

def leaf_work(n):
    s = 0
    for i in range(n):
        s += i * i
    return s

def worker_a():
    t = 0
    for _ in range(1200):
        t += leaf_work(20000)
    return t

def compute_b(n):
    return sum(leaf_work(5000) for _ in range(n))

def worker_b():
    return compute_b(6000)

def main():
    th = threading.Thread(target=worker_b, name="worker-b")
    th.start()
    worker_a()
    th.join()

main()
