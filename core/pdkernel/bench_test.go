package pdkernel

import (
	"context"
	"testing"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/learn"
	"wkpi-web/core/persistence"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// datasetDiagrams returns one diagram per graph of a shared TU dataset: all
// points (Ord0, Ext0, Rel1, Ext1, zero-persistence points dropped) of its
// Ricci curvature extended persistence, the largest diagrams the
// comparison feeds these kernels.
func datasetDiagrams(tb testing.TB, name string) ([][]persistence.Point, []int) {
	tb.Helper()
	ds, err := tu.ReadDir(testenv.Dataset(tb, name))
	if err != nil {
		tb.Fatal(err)
	}
	diags, err := features.Diagrams(context.Background(), ds.Graphs, features.Default(filtration.KindRicci), nil)
	if err != nil {
		tb.Fatal(err)
	}
	out := make([][]persistence.Point, len(diags))
	for i, d := range diags {
		out[i] = append(append(append(append(out[i], d.Ord0...), d.Ext0...), d.Rel1...), d.Ext1...)
	}
	return out, ds.Labels
}

// benchAllPairs times f on all pairs of each dataset's diagrams.
// PROTEINS (1113 graphs, 44 points a diagram) shows the scaling; run it
// alone with -bench 'X/PROTEINS' -benchtime 1x.
func benchAllPairs(b *testing.B, f func(ds [][]persistence.Point) error) {
	for _, name := range []string{"MUTAG", "PTC_MR", "PROTEINS"} {
		b.Run(name, func(b *testing.B) {
			ds, _ := datasetDiagrams(b, name)
			for b.Loop() {
				if err := f(ds); err != nil {
					b.Fatal(err)
				}
			}
			points := 0
			for _, d := range ds {
				points += len(d)
			}
			b.ReportMetric(float64(points)/float64(len(ds)), "points/diagram")
		})
	}
}

// BenchmarkSlicedWasserstein: all pairs, 10 directions (GUDHI's default).
func BenchmarkSlicedWasserstein(b *testing.B) {
	benchAllPairs(b, func(ds [][]persistence.Point) error {
		_, err := SlicedWasserstein(context.Background(), ds, 10, nil)
		return err
	})
}

// BenchmarkPersistenceFisher: all pairs, exact sums.
func BenchmarkPersistenceFisher(b *testing.B) {
	benchAllPairs(b, func(ds [][]persistence.Point) error {
		_, err := PersistenceFisher(context.Background(), ds, 0.1, nil)
		return err
	})
}

// BenchmarkPWGK: all pairs of the linear PWGK, exact sums.
func BenchmarkPWGK(b *testing.B) {
	benchAllPairs(b, func(ds [][]persistence.Point) error {
		_, err := PWGKLinear(context.Background(), ds, PWGKParams{Rho: 0.1, C: 1, P: 5}, nil)
		return err
	})
}

// BenchmarkLearnPWGK: trainPWGK on all diagrams with learn.DefaultOptions
// (10 k-center components, gradient descent, the contrast barrier and the
// prior) and rho = 0.1.
func BenchmarkLearnPWGK(b *testing.B) {
	for _, name := range []string{"MUTAG", "PTC_MR", "PROTEINS"} {
		b.Run(name, func(b *testing.B) {
			ds, labels := datasetDiagrams(b, name)
			o := learn.DefaultOptions()
			init, err := learn.InitMixture(WeightPoints(ds), [4]float64{}, o)
			if err != nil {
				b.Fatal(err)
			}
			var tr learn.Trace
			for b.Loop() {
				if _, tr, err = LearnPWGK(context.Background(), ds, labels, 0.1, init, o, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(tr.Iterations), "iterations")
		})
	}
}
