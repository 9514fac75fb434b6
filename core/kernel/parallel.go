package kernel

import (
	"runtime"
	"sync"
)

// Parts is how many goroutines the pairwise passes of this package use
// for n images: one per CPU, but none with fewer than minRowsPerPart rows.
// Under WebAssembly there is one CPU and everything runs inline.
func Parts(n int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n/minRowsPerPart))
}

const minRowsPerPart = 16

// SumParts is how many parts a pass that also sums over its pairs (the
// learning's pair sums: SplitsVisit with a visitor) splits its rows into.
// It depends on n alone, unlike Parts: the parts' sums are added in part
// order, so their rounding, and every learned weight after it, is then
// the same for any number of CPUs (a Web Worker's one thread, a Slurm
// task's one CPU, this project's 2-core machine). Two keep the figures
// measured on 2 CPUs and each part's accumulator in memory; machines with
// more CPUs use them in the other passes.
func SumParts(n int) int {
	return max(1, min(sumParts, n/minRowsPerPart))
}

const sumParts = 2

// Parallel runs f(p) for p in 0..parts-1 on separate goroutines and
// returns the first error.
func Parallel(parts int, f func(p int) error) error {
	if parts == 1 {
		return f(0)
	}
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[p] = f(p)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
