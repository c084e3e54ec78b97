// main.go: a small CPU-bound Go program for scorch's stack-health recordings.
package main

import (
	"fmt"
	"sort"
	"time"
)

//go:noinline
func mix(h uint64, n int) uint64 {
	for i := 0; i < n; i++ {
		h = h*6364136223846793005 + 1442695040888963407
	}
	return h
}

//go:noinline
func sortBlock(buf []int, seed uint64) uint64 {
	for i := range buf {
		seed = mix(seed, 3)
		buf[i] = int(seed >> 33)
	}
	sort.Ints(buf)
	return seed
}

func main() {
	buf := make([]int, 20000)
	seed := uint64(1)
	start := time.Now()
	for time.Since(start) < 1500*time.Millisecond {
		seed = sortBlock(buf, seed)
	}
	fmt.Println(seed)
}
