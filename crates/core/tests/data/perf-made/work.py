import time
def spin(n):
    s = 0
    for i in range(n):
        s += i * i
    return s
def nap():
    time.sleep(0.02)
for _ in range(6):
    spin(200000)
    nap()
