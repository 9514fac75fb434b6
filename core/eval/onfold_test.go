package eval

import (
	"context"
	"reflect"
	"testing"
)

// TestOnFoldSeesEachFoldOnce: OnFold gets every fold the plan runs, once
// and in order of index, each equal to the report's fold, and before the
// next fold starts (the progress report of fold k follows OnFold of k).
func TestOnFoldSeesEachFoldOnce(t *testing.T) {
	_, w := toyWKPI(t)
	cfg := toyConfig()
	for _, tc := range []struct {
		name string
		only []int
		want []int // fold indices OnFold must see, in order
	}{
		{"all folds", nil, []int{0, 1, 2, 3}},
		{"a part", []int{3, 1}, []int{1, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var seen []Fold
			var events []string
			plan := Plan{Folds: 4, Seed: 5, Only: tc.only, OnFold: func(f Fold) {
				seen = append(seen, f)
				events = append(events, "fold")
			}}
			prog := func(stage string, done, total int) {
				if stage == "folds" {
					events = append(events, "progress")
				}
			}
			rep, err := w.CrossValidate(context.Background(), cfg, plan, prog)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, f := range seen {
				got = append(got, f.Index)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("OnFold saw folds %v, want %v", got, tc.want)
			}
			if !reflect.DeepEqual(seen, rep.Folds) {
				t.Errorf("OnFold's folds differ from the report's:\n got %+v\nwant %+v", seen, rep.Folds)
			}
			for i, e := range events {
				if want := []string{"fold", "progress"}[i%2]; e != want {
					t.Fatalf("event %d is %s, want %s (events %v)", i, e, want, events)
				}
			}
			for _, f := range seen {
				if len(f.Trace.Cost) == 0 || len(f.Predicted) != len(f.Test) || len(f.BaselinePredicted) != len(f.Test) {
					t.Errorf("fold %d incomplete: %d costs, %d/%d predictions for %d tests", f.Index, len(f.Trace.Cost), len(f.Predicted), len(f.BaselinePredicted), len(f.Test))
				}
			}
		})
	}
}
