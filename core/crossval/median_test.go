package crossval

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestMedian(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{2, 3, 4, 50, 301, 640} {
		x := make([]float64, n)
		for i := range x {
			x[i] = r.Float64()
		}
		dist := func(i, j int) float64 { return math.Abs(x[i] - x[j]) }
		idx := indices(n)
		// The oracle: every pair of the samples Median promises to use.
		if n > medianSamples {
			idx = nil
			for i := range medianSamples {
				idx = append(idx, i*n/medianSamples)
			}
		}
		var d []float64
		for a := range idx {
			for b := range a {
				d = append(d, dist(idx[a], idx[b]))
			}
		}
		slices.Sort(d)
		want := d[len(d)/2]
		if len(d)%2 == 0 {
			want = (d[len(d)/2-1] + want) / 2
		}
		if got := Median(dist, indices(n)); got != want {
			t.Errorf("n = %d: median %g, want %g", n, got, want)
		}
	}
	if got := Median(func(int, int) float64 { return 0 }, indices(5)); got != 1 {
		t.Errorf("all-zero distances: median %g, want 1", got)
	}
}
