// A small CPU-bound workload with pprof labels, for recording a profile (scorch scrub tests).
package main

import (
	"context"
	"math"
	"os"
	"runtime/pprof"
	"time"
)

func work(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += math.Sqrt(float64(i)) * math.Sin(float64(i))
	}
	return s
}

func handle(ctx context.Context, tenant string, n int) float64 {
	var out float64
	labels := pprof.Labels("tenant", tenant, "user", "hkarlsson", "db_host", "db-03.orders.internal")
	pprof.Do(ctx, labels, func(ctx context.Context) { out = work(n) })
	return out
}

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	defer pprof.StopCPUProfile()
	until := time.Now().Add(1500 * time.Millisecond)
	total := 0.0
	for i := 0; time.Now().Before(until); i++ {
		tenant := []string{"acme-corp", "globex"}[i%2]
		total += handle(context.Background(), tenant, 200000+(i%3)*100000)
	}
	if total == 42 {
		println(total)
	}
}
