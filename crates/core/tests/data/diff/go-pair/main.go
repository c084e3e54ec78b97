// A small CPU-bound program whose work mix is set by flags, profiled with runtime/pprof.
package main

import (
	"crypto/sha256"
	"flag"
	"os"
	"runtime/pprof"
	"sort"
	"strings"
	"time"
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

func main() {
	out := flag.String("o", "cpu.pb.gz", "profile")
	h := flag.Int("hash", 1, "hash units")
	s := flag.Int("sort", 1, "sort units")
	t := flag.Int("str", 1, "string units")
	d := flag.Duration("d", 2*time.Second, "duration")
	flag.Parse()
	f, _ := os.Create(*out)
	pprof.StartCPUProfile(f)
	end := time.Now().Add(*d)
	for time.Now().Before(end) {
		hashWork(2000 * *h)
		sortWork(20 * *s)
		stringWork(200 * *t)
	}
	pprof.StopCPUProfile()
	f.Close()
}
