#!/usr/bin/env python3
"""Inlined frames for `perf script` text, from binutils' addr2line, read independently of scorch.

Usage: perf_inline.py SCRIPT DSO=FILE [DSO=FILE ...]

perf 6.1 prints no inlined frames for frame-pointer call chains (its `--inline` only reaches DWARF-unwound
ones), so `scorch fold --inline` is checked against this instead. For every frame line of SCRIPT whose dso is one
of the DSOs given, the file beside it is asked `addr2line -a -f -i -e FILE ADDRESS`: the frames it prints but
the last (the function that holds them) are inserted above the line, innermost first, as perf prints inlined
frames (`ADDRESS NAME (inlined)`). ADDRESS is perf's address column (a file offset) turned into the virtual
address through the file's loadable segments (`readelf -lW`); a return address (a frame whose leafward
neighbour is a user frame: neither the sample's first frame nor one right below kernel frames, dsos `[…]` but
`[unknown]`) is looked up one byte back, at its call. Prints the text with those lines added.
"""
import subprocess
import sys


def segments(path):
    """(offset, vaddr, filesz) of each LOAD segment."""
    out = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True, check=True).stdout
    segs = []
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "LOAD":
            segs.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))
    return segs


def vaddr(segs, offset):
    for off, va, size in segs:
        if off <= offset < off + max(size, 1):
            return offset - off + va
    return None


def inline_chains(path, addresses):
    """address -> function names addr2line prints for it, innermost first."""
    addresses = sorted(set(addresses))
    if not addresses:
        return {}
    out = subprocess.run(
        ["addr2line", "-a", "-f", "-i", "-e", path] + [hex(a) for a in addresses],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    chains, current, i = {}, None, 0
    while i < len(out):
        line = out[i]
        if line.startswith("0x"):
            current = int(line, 16)
            chains[current] = []
            i += 1
            continue
        chains[current].append(line)  # the function; the next line is its file:line
        i += 2
    return chains


def frame_dso(line):
    """The last parenthesised group of a frame line (balanced)."""
    body = line.rstrip()
    if not body.endswith(")"):
        return None
    depth = 0
    for i in range(len(body) - 1, -1, -1):
        c = body[i]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth == 0:
                return body[i + 1:-1]
    return None


def is_kernel(dso):
    return dso is not None and dso.startswith("[") and dso != "[unknown]"


def main():
    script = open(sys.argv[1]).read().splitlines()
    files = dict(arg.split("=", 1) for arg in sys.argv[2:])
    segs = {dso: segments(path) for dso, path in files.items()}
    # First pass: every (dso, probe address) asked; second: the text with the inlined frames.
    samples, block = [], []
    for line in script:
        if line.startswith("\t"):
            block.append(line)
        else:
            if block:
                samples.append(block)
            block = []
    if block:
        samples.append(block)
    wanted = {dso: [] for dso in files}

    def probe(block, i):
        line = block[i]
        dso = frame_dso(line)
        if dso not in files:
            return None
        offset = int(line.split()[0], 16)
        va = vaddr(segs[dso], offset)
        if va is None:
            return None
        exact = i == 0 or is_kernel(frame_dso(block[i - 1]))
        return dso, va if exact else va - 1

    for block in samples:
        for i in range(len(block)):
            p = probe(block, i)
            if p:
                wanted[p[0]].append(p[1])
    chains = {dso: inline_chains(files[dso], addrs) for dso, addrs in wanted.items()}
    out, block = [], []

    def flush():
        for i, line in enumerate(block):
            p = probe(block, i)
            if p:
                addr = line.split()[0]
                for name in chains[p[0]].get(p[1], [])[:-1]:
                    out.append(f"\t{addr:>16} {name} (inlined)")
            out.append(line)
        block.clear()

    for line in script:
        if line.startswith("\t"):
            block.append(line)
        else:
            flush()
            out.append(line)
    flush()
    print("\n".join(out))


if __name__ == "__main__":
    main()
