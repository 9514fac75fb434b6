package eval

import (
	"context"
	"testing"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

func mutag(tb testing.TB) *WKPI {
	tb.Helper()
	ds, err := tu.ReadDir(testenv.Dataset(tb, "MUTAG"))
	if err != nil {
		tb.Fatal(err)
	}
	set, err := features.Compute(context.Background(), ds, features.Default(filtration.KindRicci), nil)
	if err != nil {
		tb.Fatal(err)
	}
	w, err := NewWKPI(set, ds.Labels, len(ds.Classes))
	if err != nil {
		tb.Fatal(err)
	}
	return w
}

// BenchmarkCrossValidateMUTAG: 10-fold CV with fixed hyper-parameters on
// MUTAG's Ricci images (target: under 2 s native), learned and baseline.
func BenchmarkCrossValidateMUTAG(b *testing.B) {
	w := mutag(b)
	for b.Loop() {
		if _, err := w.CrossValidate(context.Background(), DefaultConfig(), Plan{Folds: 10, Seed: 1}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTrainMUTAGFold: one training (metric learning, Gram, SVM) on
// the training set of one MUTAG fold, with the unlearned baseline and the
// fold's predictions (target: under 0.1 s native). The pair table is
// built before timing, as a cross-validation builds it once for all folds.
func BenchmarkTrainMUTAGFold(b *testing.B) {
	w := mutag(b)
	if _, err := w.pairsFor(context.Background(), DefaultConfig().Sigma, DefaultConfig().Variant); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := w.CrossValidate(context.Background(), DefaultConfig(), Plan{Folds: 10, Seed: 1, Only: []int{0}}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
