package eval

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/model"
)

// TestCrossValidateCKA: the alignment objective runs through a whole
// cross-validation, lowers its cost in every fold, and refuses altWKPI.
func TestCrossValidateCKA(t *testing.T) {
	_, w := toyWKPI(t)
	cfg := toyConfig()
	cfg.Learn.Objective = learn.ObjectiveCKA
	rep, err := w.CrossValidate(context.Background(), cfg, Plan{Folds: 4, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Folds {
		c := f.Trace.Cost
		if len(c) == 0 || c[len(c)-1] > c[0] {
			t.Errorf("fold %d: cost %v did not decrease", f.Index, c)
		}
	}
	if rep.Learned.Accuracy < 0.75 {
		t.Errorf("accuracy %v on trees against cyclic graphs, want >= 0.75", rep.Learned.Accuracy)
	}
	cfg.Variant = kernel.Alt
	if _, err := w.CrossValidate(context.Background(), cfg, Plan{Folds: 4, Seed: 1}, nil); err == nil {
		t.Error("cka with altWKPI did not fail")
	}
}

// TestChannelScalesRaiseAlignment: the learned block scales have mean 1
// and align the SVM's kernel, built independently (kernel.Kernel on the
// images, centred alignment by plain loops), better than equal scales.
func TestChannelScalesRaiseAlignment(t *testing.T) {
	s := features.Default(filtration.KindDegree)
	s.Extra = []filtration.Options{{Kind: filtration.KindHKS, HKSTime: 1}}
	_, w := toyWKPIWith(t, s)
	cfg := toyConfig()
	cfg.Learn.Channels, cfg.Learn.Prior = true, 0
	train := indices(len(w.Labels))
	init, err := w.Initial(train, cfg.Learn)
	if err != nil {
		t.Fatal(err)
	}
	scales, err := w.channelScales(context.Background(), train, init, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(scales) != 4 || math.Abs(floats.Sum(scales)-4) > 1e-9 {
		t.Fatalf("scales %v, want 4 with mean 1", scales)
	}
	align := func(sc []float64) float64 {
		k := model.KernelForScaled(init, features.Centres(w.Set.Grid, w.Set.Settings), cfg.Sigma, cfg.Variant, sc)
		gram, err := k.Gram(context.Background(), w.Set.Images, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := len(gram)
		row := make([]float64, n)
		var all float64
		for i := range gram {
			row[i] = floats.Sum(gram[i]) / float64(n)
			all += row[i] / float64(n)
		}
		var num, kk, yy float64
		for i := range gram {
			for j := range gram {
				y := 0.0
				if w.Labels[i] == w.Labels[j] {
					y = 1
				}
				c := gram[i][j] - row[i] - row[j] + all
				num += c * y
				kk += c * c
			}
		}
		// ||HYH||^2 entry by entry, from the definition.
		cy := func(i, j int) float64 {
			var ri, rj, a float64
			for k := range n {
				if w.Labels[i] == w.Labels[k] {
					ri++
				}
				if w.Labels[j] == w.Labels[k] {
					rj++
				}
			}
			for k := range n {
				for l := range n {
					if w.Labels[k] == w.Labels[l] {
						a++
					}
				}
			}
			y := 0.0
			if w.Labels[i] == w.Labels[j] {
				y = 1
			}
			return y - ri/float64(n) - rj/float64(n) + a/float64(n*n)
		}
		for i := range n {
			for j := range n {
				yy += cy(i, j) * cy(i, j)
			}
		}
		return num / math.Sqrt(kk*yy)
	}
	equal, learned := align([]float64{1, 1, 1, 1}), align(scales)
	if !(learned > equal+1e-9) {
		t.Errorf("alignment %v with scales %v, %v with equal scales", learned, scales, equal)
	}
}
