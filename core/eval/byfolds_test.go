package eval

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"wkpi-web/core/crossval"
	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
)

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
	folds, err := crossval.StratifiedKFold(ds.Labels, plan.Folds, plan.Seed)
	if err != nil {
		t.Fatal(err)
	}
	train, _ := crossval.Split(indices(len(ds.Labels)), folds, plan.Folds)
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
