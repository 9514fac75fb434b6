package eval

import (
	"context"
	"testing"

	"wkpi-web/core/crossval"
	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/kernel"
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

// BenchmarkTrainMUTAGFold: one training on the training set of one MUTAG
// fold -- metric learning, the learned kernel's Gram matrix and the SVM
// (target: under 0.1 s native). The pair table and the fold sums, which a
// cross-validation shares between all its folds, are made before timing.
func BenchmarkTrainMUTAGFold(b *testing.B) {
	w := mutag(b)
	cfg := DefaultConfig()
	ctx := context.Background()
	folds, err := crossval.StratifiedKFold(w.Labels, 10, 1)
	if err != nil {
		b.Fatal(err)
	}
	p, err := w.pairsFor(ctx, cfg.Sigma, cfg.Variant, nil)
	if err != nil {
		b.Fatal(err)
	}
	sums, err := p.sums(ctx, indices(len(w.Labels)), w.Labels, folds, 10)
	if err != nil {
		b.Fatal(err)
	}
	train, _ := crossval.Split(indices(len(w.Labels)), folds, 10)
	for b.Loop() {
		mix, _, err := w.learnWeight(ctx, train[0], sums, 0, cfg, nil)
		if err != nil {
			b.Fatal(err)
		}
		ks, err := w.kernelSet(ctx, p, cfg, []kernel.Mixture{mix}, nil, train[0], nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.svm(ctx, ks, 0, cfg.C); err != nil {
			b.Fatal(err)
		}
	}
}
