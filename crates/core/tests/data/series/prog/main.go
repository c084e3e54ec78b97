// Two functions burning CPU; -v2 doubles the work of b. Writes a CPU profile (pprof) to -o.
package main

import (
	"flag"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

var sink uint64

//go:noinline
func a(n int) {
	for i := 0; i < n; i++ {
		sink += uint64(i) * 2654435761
	}
}

//go:noinline
func b(n int) {
	for i := 0; i < n; i++ {
		sink ^= uint64(i) * 40503
	}
}

func main() {
	out := flag.String("o", "cpu.pb.gz", "profile file")
	v2 := flag.Bool("v2", false, "version 2: b does twice the work")
	secs := flag.Float64("s", 1, "seconds to run")
	flag.Parse()
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	runtime.SetCPUProfileRate(500)
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	nb := 1_000_000
	if *v2 {
		nb *= 2
	}
	end := time.Now().Add(time.Duration(*secs * float64(time.Second)))
	for time.Now().Before(end) {
		a(1_000_000)
		b(nb)
	}
	pprof.StopCPUProfile()
	f.Close()
}
