package eval

import (
	"context"
	"testing"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// BenchmarkFamilyGramNCI1: the Gram matrices of two weight functions (one
// kernel.Family, as a CV fold computes its learned and initial kernels)
// on the Ricci images of 600 NCI1 graphs (~830 non-zero pixels each, 575
// in common per pair): the direct path that NCI1's CV takes (its pair
// table is over the memory budget). docs/benchmarks.md has the figures.
func BenchmarkFamilyGramNCI1(b *testing.B) {
	ds, err := tu.ReadDir(testenv.Dataset(b, "NCI1"))
	if err != nil {
		b.Fatal(err)
	}
	set, err := features.Compute(context.Background(), ds, features.Default(filtration.KindRicci), nil)
	if err != nil {
		b.Fatal(err)
	}
	images, centres := set.Images[:600], features.Centres(set.Grid, set.Settings)
	m1 := kernel.Mixture{X: []float64{0.2, 0.6}, Y: []float64{0.1, 0.4}, Sigma: []float64{0.3, 0.2}, W: []float64{1, 0.5}}
	m2 := kernel.Mixture{X: []float64{0.5}, Y: []float64{0.3}, Sigma: []float64{0.5}, W: []float64{1}}
	fam := kernel.Family{Weights: [][]float64{m1.PixelWeights(centres), m2.PixelWeights(centres)}, Sigma: 0.01}
	for b.Loop() {
		if _, err := fam.Gram(context.Background(), images, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPairSumsNCI1: the metric learning's pair sums of 600 NCI1
// graphs' Ricci images over 10 folds, the one pass over all pairs a CV
// makes per kernel width before learning (direct path, as for NCI1).
func BenchmarkPairSumsNCI1(b *testing.B) {
	ds, err := tu.ReadDir(testenv.Dataset(b, "NCI1"))
	if err != nil {
		b.Fatal(err)
	}
	set, err := features.Compute(context.Background(), ds, features.Default(filtration.KindRicci), nil)
	if err != nil {
		b.Fatal(err)
	}
	images, labels := set.Images[:600], ds.Labels[:600]
	folds, err := StratifiedKFold(labels, 10, 1)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := learn.NewPairSums(context.Background(), images, labels, folds, 10, 0.01, nil); err != nil {
			b.Fatal(err)
		}
	}
}
