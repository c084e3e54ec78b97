// A CPU-bound program for scorch's noise-aware diff gate (bench/diffgate/run.sh): four kinds of work of about
// equal cost in fixed amounts, profiled with runtime/pprof at 1000 Hz. `-double NAME` doubles one function's
// work (the "regressed build"); `-mem FILE` also writes a heap profile.
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
)

var sink int

func hashWork(n int) {
	b := []byte("scorch")
	for i := 0; i < n; i++ {
		s := sha256.Sum256(b)
		b = s[:]
	}
	sink += int(b[0])
}

func sortWork(n int) {
	for i := 0; i < n; i++ {
		xs := make([]int, 2000)
		for j := range xs {
			xs[j] = (j * 7919) % 2003
		}
		sort.Ints(xs)
		sink += xs[0]
	}
}

func stringWork(n int) {
	for i := 0; i < n; i++ {
		sink += len(strings.Repeat("ab", 300)) + strings.Count(strings.Repeat("abc", 200), "bc")
	}
}

func mathWork(n int) {
	x := 1.0
	for i := 0; i < n; i++ {
		x = x*1.0000001 + 1/(x+float64(i))
	}
	sink += int(x) & 1
}

// handle is one request: parse (hashing) then process (sorting, strings, arithmetic).
func handle(double string) {
	k := func(name string) int {
		if name == double {
			return 2
		}
		return 1
	}
	parse(k("main.hashWork"))
	process(k("main.sortWork"), k("main.stringWork"), k("main.mathWork"))
}

func parse(h int) { hashWork(8000 * h) }

func process(s, t, m int) {
	sortWork(20 * s)
	stringWork(400 * t)
	mathWork(200000 * m)
}

func main() {
	out := flag.String("o", "cpu.pb.gz", "CPU profile to write")
	mem := flag.String("mem", "", "also write a heap profile here")
	hz := flag.Int("hz", 100, "sampling rate")
	rounds := flag.Int("rounds", 200, "requests to handle")
	double := flag.String("double", "", "double this function's work (e.g. main.sortWork)")
	flag.Parse()
	if *mem != "" {
		runtime.MemProfileRate = 4096
	}
	// Set before StartCPUProfile, which then keeps this rate (and says so on stderr).
	if *hz != 100 {
		runtime.SetCPUProfileRate(*hz)
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i := 0; i < *rounds; i++ {
		handle(*double)
	}
	pprof.StopCPUProfile()
	f.Close()
	if *mem != "" {
		m, err := os.Create(*mem)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		pprof.WriteHeapProfile(m)
		m.Close()
	}
}
