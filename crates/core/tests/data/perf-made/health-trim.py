# Keeps every K-th event of `perf script` text (events are separated by blank lines).
import sys
k = int(sys.argv[1])
events = open(sys.argv[2]).read().split('\n\n')
events = [e for e in events if e.strip()]
sys.stdout.write(''.join(e.strip('\n') + '\n\n' for i, e in enumerate(events) if i % k == 0))
