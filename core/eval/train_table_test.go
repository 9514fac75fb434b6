package eval

import (
	"context"
	"math"
	"testing"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
)

// TestTrainReusesTable: a training after a cross-validation of the same
// features uses the CV's pair table (float32 terms) instead of direct
// sums; its model must agree with a fresh training's (direct, float64) in
// every prediction, and in every decision value within a few times the
// SVM's stopping tolerance (1e-3 on the KKT violation: the float32 terms
// move the learning's and the solver's stopping points, measured 5e-4).
func TestTrainReusesTable(t *testing.T) {
	ds, fresh := toyWKPIWith(t, features.Default(filtration.KindDegree))
	_, reused := toyWKPIWith(t, features.Default(filtration.KindDegree))
	cfg := toyConfig()
	if _, err := reused.CrossValidate(context.Background(), cfg, Plan{Folds: 3, Seed: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if reused.tables[cfg.Sigma] == nil {
		t.Fatal("the CV left no pair table: the test would not test the reuse")
	}
	a, err := fresh.Train(context.Background(), ds.Name, ds.Classes, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := reused.Train(context.Background(), ds.Name, ds.Classes, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	pa, err := a.Predict(context.Background(), ds.Graphs)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := b.Predict(context.Background(), ds.Graphs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pa {
		if pa[i].Class != pb[i].Class {
			t.Errorf("graph %d: class %d fresh, %d after the CV", i, pa[i].Class, pb[i].Class)
		}
		for k, d := range pa[i].Decision {
			if e := pb[i].Decision[k]; math.Abs(d-e) > 3e-3*math.Max(1, math.Abs(d)) {
				t.Errorf("graph %d: decision %g fresh, %g after the CV", i, d, e)
			}
		}
	}
}
