#!/usr/bin/env python3
"""A perf script of 1,000,000 samples over 64 threads (8 comms) and 60 s, short stacks: the thread list's and the
thread filter's benchmark input (docs/BENCHMARKS.md, "Thread choice"). Usage: bench/gen-threads.py > FILE"""
import sys

out = sys.stdout
for i in range(1_000_000):
    tid = 1000 + (i * 7919) % 64
    t = 100.0 + i * 60.0 / 1_000_000
    out.write(f"worker{tid % 8} 1000/{tid} {t:.9f}: 1000000 cpu-clock:\n")
    out.write(f"\t1 leaf{i % 8}+0x1 (/bin/x)\n\t2 work{tid % 4}+0x2 (/bin/x)\n\t3 main+0x3 (/bin/x)\n\n")
