#!/usr/bin/env python3
"""Independent reading of the tracepoint samples in perf script's text, written from what perf script prints,
not from scorch's code.

A sample starts with an unindented header line: `COMM [PID/]TID [CPU] SECONDS.FRACTION: [PERIOD] EVENT: PAYLOAD`
(the comm may hold spaces; the CPU and period columns are optional). A tracepoint's event is `system:name`
(`sched:sched_switch`); other events have no `:` inside (`cpu-clock`, `cpu-clock/freq=199/`) or only perf's
modifier letters after it (`cycles:u`, `cpu-clock:ppp`: `u k h p G H I S D P W e`).
Each tracepoint sample is one marker: on its thread (the comm), at its time (the fraction's digits as
nanoseconds, exactly), named by its event — for `sched:sched_switch`, followed by `PREV → NEXT`, the comms
between `prev_comm=` and ` prev_pid=` and between `next_comm=` and ` next_pid=`.

Usage: perf_tracepoints.py FILE[.gz] -> lines `THREAD<TAB>NAME<TAB>START_NS`, sorted.
"""
import gzip
import re
import sys

HEADER = re.compile(
    r'^(?P<comm>\S.*?)\s+(?:(?P<pid>-?\d+)/)?(?P<tid>-?\d+)\s+(?:\[(?P<cpu>\d+)\]\s+)?'
    r'(?P<sec>\d+)\.(?P<frac>\d+):\s+(?:(?P<period>\d+)\s+)?(?P<event>\S+?):(?:\s+(?P<payload>.*))?$')
SWITCH = re.compile(r'prev_comm=(?P<prev>.*) prev_pid=.* ==> next_comm=(?P<next>.*) next_pid=')


def main():
    path = sys.argv[1]
    opener = gzip.open if path.endswith('.gz') else open
    rows = []
    with opener(path, 'rt', encoding='utf-8', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line[0] in ' \t#':
                continue
            m = HEADER.match(line)
            if not m or ':' not in m.group('event'):
                continue
            if re.fullmatch(r'[ukhpGHISDPWe]+', m.group('event').split(':', 1)[1]):
                continue
            event, payload = m.group('event'), m.group('payload') or ''
            name = event
            s = SWITCH.search(payload) if event == 'sched:sched_switch' else None
            if s:
                name = '%s %s → %s' % (event, s.group('prev'), s.group('next'))
            start = int(m.group('sec')) * 10**9 + int(m.group('frac').ljust(9, '0')[:9])
            rows.append((m.group('comm'), name, start))
    for r in sorted(rows):
        print('\t'.join(map(str, r)))


main()
