// A small CPU-bound program for scorch's source-line tests (crates/cli/tests/lines.rs): a few hot lines, a
// function the compiler inlines (mix), one it must not (sum) and a recursion (walk). Licence: MIT OR Apache-2.0.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"time"
)

// mix is small enough to be inlined into hash.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 29
	return x
}

func hash(n int) uint64 {
	var h uint64
	for i := 0; i < n; i++ {
		h += mix(uint64(i) + h)
	}
	return h
}

//go:noinline
func sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x * x
	}
	return s
}

//go:noinline
func walk(depth int) uint64 {
	if depth == 0 {
		return hash(3000)
	}
	return walk(depth-1) + 1
}

func main() {
	out := flag.String("o", "cpu.pb", "where to write the CPU profile")
	d := flag.Duration("d", 2*time.Second, "how long to run")
	flag.Parse()
	f, err := os.Create(*out)
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	xs := make([]uint64, 4096)
	for i := range xs {
		xs[i] = uint64(i)
	}
	var acc uint64
	for end := time.Now().Add(*d); time.Now().Before(end); {
		acc += hash(5000)
		acc += sum(xs)
		acc += walk(6)
	}
	pprof.StopCPUProfile()
	f.Close()
	fmt.Println(acc)
}
