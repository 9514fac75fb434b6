package eval

import (
	"context"
	"reflect"
	"testing"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
)

// TestSelectFeatures: with two copies of one feature set the first wins
// every fold and the report's predictions are CrossValidate's; with two
// different sets each fold uses the one whose inner CV (on that fold's
// training graphs alone) scored best, and predicts as that set's own
// cross-validation does on the fold.
func TestSelectFeatures(t *testing.T) {
	ds, w := toyWKPI(t)
	cfg := toyConfig()
	plan := Plan{Folds: 4, Seed: 3}
	whole, err := w.CrossValidate(context.Background(), cfg, plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	same, err := SelectFeatures(context.Background(), []*WKPI{w, w}, []Config{cfg, cfg}, plan, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(same.Learned.Predictions, whole.Learned.Predictions) || !reflect.DeepEqual(same.Baseline.Predictions, whole.Baseline.Predictions) {
		t.Errorf("two copies: predictions %v, CrossValidate %v", same.Learned.Predictions, whole.Learned.Predictions)
	}
	for _, f := range same.Folds {
		if f.Candidate != 0 {
			t.Errorf("fold %d chose copy %d, want the first on a tie", f.Index, f.Candidate)
		}
	}

	s := features.Default(filtration.KindHKS)
	_, w2 := toyWKPIWith(t, s)
	cfg2 := cfg
	cfg2.Sigma = 0.2
	rep, err := SelectFeatures(context.Background(), []*WKPI{w, w2}, []Config{cfg, cfg2}, plan, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	folds, err := StratifiedKFold(w.Labels, plan.Folds, plan.Seed)
	if err != nil {
		t.Fatal(err)
	}
	train, _ := foldSplit(indices(len(ds.Labels)), folds, plan.Folds)
	for _, f := range rep.Folds {
		var accs [2]float64
		for c, cand := range []*WKPI{w, w2} {
			cc := []Config{cfg, cfg2}[c]
			cell := Grid{Ms: []int{cc.Learn.M}, Sigmas: []float64{cc.Sigma}, Cs: []float64{cc.C}}
			if _, accs[c], err = cand.innerSearch(context.Background(), cc, cell, train[f.Index], 3, plan.Seed+int64(f.Index)+1, nil); err != nil {
				t.Fatal(err)
			}
		}
		want := 0
		if accs[1] > accs[0] {
			want = 1
		}
		if f.Candidate != want || f.InnerAccuracy != accs[want] {
			t.Errorf("fold %d: candidate %d (inner %v), inner accuracies %v", f.Index, f.Candidate, f.InnerAccuracy, accs)
		}
		one, err := []*WKPI{w, w2}[want].CrossValidate(context.Background(), []Config{cfg, cfg2}[want], Plan{Folds: plan.Folds, Seed: plan.Seed, Only: []int{f.Index}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(f.Predicted, one.Folds[0].Predicted) {
			t.Errorf("fold %d: predictions %v, candidate's own CV %v", f.Index, f.Predicted, one.Folds[0].Predicted)
		}
	}

	other := append([]int(nil), ds.Labels...) // w shares ds.Labels
	other[0] = 1 - other[0]
	w3, err := NewWKPI(w.Set, other, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := SelectFeatures(context.Background(), []*WKPI{w, w3}, []Config{cfg, cfg}, plan, 3, nil); err == nil {
		t.Error("candidates with different labels were accepted")
	}
}
