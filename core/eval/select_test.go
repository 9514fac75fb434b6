package eval

import (
	"context"
	"reflect"
	"slices"
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

// TestByTrainingFolds: prepare sees each fold's training set (and nothing
// else); with one feature set for every fold the report is
// CrossValidate's; with the set chosen from the training set (here: by
// whether sample 0 is in it, as a vocabulary would change) each fold
// predicts as that set's own CV does on the fold, and plan.Only gives
// the part of those folds unmerged.
func TestByTrainingFolds(t *testing.T) {
	ds, w := toyWKPI(t)
	_, w2 := toyWKPIWith(t, features.Default(filtration.KindHKS))
	cfg := toyConfig()
	plan := Plan{Folds: 4, Seed: 3}
	run := func(w *WKPI, plan Plan) (Report, error) { return w.CrossValidate(context.Background(), cfg, plan, nil) }
	folds, err := StratifiedKFold(ds.Labels, plan.Folds, plan.Seed)
	if err != nil {
		t.Fatal(err)
	}
	train, _ := foldSplit(indices(len(ds.Labels)), folds, plan.Folds)
	var seen [][]int
	rep, err := ByTrainingFolds(context.Background(), ds.Labels, 2, plan, func(tr []int) (*WKPI, error) {
		seen = append(seen, tr)
		return w, nil
	}, run)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(seen, train) {
		t.Errorf("prepare saw %v, want the training sets %v", seen, train)
	}
	whole, err := run(w, plan)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rep.Learned.Predictions, whole.Learned.Predictions) || rep.Learned.Accuracy != whole.Learned.Accuracy {
		t.Errorf("one feature set: %v, CrossValidate %v", rep.Learned.Predictions, whole.Learned.Predictions)
	}

	pick := func(tr []int) (*WKPI, error) {
		if slices.Contains(tr, 0) {
			return w, nil
		}
		return w2, nil
	}
	rep, err = ByTrainingFolds(context.Background(), ds.Labels, 2, plan, pick, run)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Folds) != plan.Folds {
		t.Fatalf("%d folds, want %d", len(rep.Folds), plan.Folds)
	}
	for _, f := range rep.Folds {
		cand, _ := pick(train[f.Index])
		one, err := run(cand, Plan{Folds: plan.Folds, Seed: plan.Seed, Only: []int{f.Index}})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(f.Predicted, one.Folds[0].Predicted) {
			t.Errorf("fold %d: predictions %v, its feature set's CV %v", f.Index, f.Predicted, one.Folds[0].Predicted)
		}
	}
	part, err := ByTrainingFolds(context.Background(), ds.Labels, 2, Plan{Folds: 4, Seed: 3, Only: []int{2, 0}}, pick, run)
	if err != nil {
		t.Fatal(err)
	}
	if len(part.Folds) != 2 || part.Folds[0].Index != 0 || part.Folds[1].Index != 2 {
		t.Errorf("Only 2, 0: folds %+v", part.Folds)
	}
}
