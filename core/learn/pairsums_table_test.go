package learn

import (
	"context"
	"math"
	"testing"

	"wkpi-web/core/kernel"
	"wkpi-web/core/pimage"
)

// TestPairSumsTable: sums from a pair table over a subset equal the direct
// pass (NewPairSums) over that subset's images, fold by fold.
func TestPairSumsTable(t *testing.T) {
	images, labels, _, _ := synth(5, 24, 6)
	const sigma = 0.3
	tab, err := kernel.NewTable(context.Background(), pimage.SparseAll(images), sigma, kernel.WKPI, 1<<30, nil)
	if err != nil {
		t.Fatal(err)
	}
	subset := []int{3, 0, 7, 8, 11, 12, 15, 20, 21, 23}
	subImages := make([][]float64, len(subset))
	subLabels := make([]int, len(subset))
	folds := make([]int, len(subset))
	for i, s := range subset {
		subImages[i], subLabels[i], folds[i] = images[s], labels[s], i%3
	}
	want, err := NewPairSums(context.Background(), pimage.SparseAll(subImages), subLabels, folds, 3, sigma, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := NewPairSumsTable(context.Background(), tab, subset, subLabels, folds, 3)
	if err != nil {
		t.Fatal(err)
	}
	for ex := -1; ex < 3; ex++ {
		wa, wb := want.Training(ex)
		ga, gb := got.Training(ex)
		for c := range wa {
			for s := range wa[c] {
				for _, pair := range [][2]float64{{ga[c][s], wa[c][s]}, {gb[c][s], wb[c][s]}} {
					if math.Abs(pair[0]-pair[1]) > 1e-5*math.Max(1, math.Abs(pair[1])) {
						t.Fatalf("exclude %d class %d pixel %d: table %g, direct %g", ex, c, s, pair[0], pair[1])
					}
				}
			}
		}
	}
	alt, _ := kernel.NewTable(context.Background(), pimage.SparseAll(images), sigma, kernel.Alt, 1<<30, nil)
	if _, err := NewPairSumsTable(context.Background(), alt, subset, subLabels, folds, 3); err == nil {
		t.Error("altWKPI table: no error")
	}
}
