// scorch test program: two goroutines burning CPU in different functions (frame pointers: Go's default).
package main

import (
	"os"
	"strconv"
	"sync"
)

var sink uint64

//go:noinline
func workOne(n uint64) uint64 {
	var s uint64
	for i := uint64(0); i < n; i++ {
		s += i * 3
	}
	return s
}

//go:noinline
func workTwo(n uint64) uint64 {
	var s uint64
	for i := uint64(0); i < n; i++ {
		s ^= i * 5
	}
	return s
}

func main() {
	rounds := uint64(100)
	if len(os.Args) > 1 {
		if n, err := strconv.ParseUint(os.Args[1], 10, 64); err == nil {
			rounds = n
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, f := range []func(uint64) uint64{workOne, workTwo} {
		wg.Add(1)
		go func(f func(uint64) uint64) {
			defer wg.Done()
			for r := uint64(0); r < rounds; r++ {
				v := f(1000000)
				mu.Lock()
				sink += v
				mu.Unlock()
			}
		}(f)
	}
	wg.Wait()
}
