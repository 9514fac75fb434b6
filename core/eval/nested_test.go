package eval

import (
	"context"
	"reflect"
	"testing"
)

// TestNestedInnerPasses: on the direct path the inner folds of a nested
// CV share passes over the pairs, all m of a sigma at once. One inner
// fold a pass and all in one pass must give the same report to the bit,
// and the pair-table path (per-cell kernels, float32 terms instead of
// float32 Gram entries) the same choices and predictions.
func TestNestedInnerPasses(t *testing.T) {
	// m = 2 wins outer fold 0 over m = 1, the first cell: a cell scored
	// with another cell's kernel would not.
	grid := Grid{Ms: []int{1, 2}, Sigmas: []float64{0.05, 0.5}, Cs: []float64{1, 10}}
	plan := Plan{Folds: 3, Seed: 2}
	var reports []Report
	// Budget 1 and 0 take the direct path (1: one inner fold a pass; 0:
	// the default budget for the passes, all in one); the default budget
	// fits the toy data's pair table.
	for _, budget := range []int64{1, 0, DefaultMaxTableBytes} {
		_, w := toyWKPI(t)
		w.MaxTableBytes = budget
		rep, err := w.Nested(context.Background(), toyConfig(), grid, plan, 4, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, table := w.tables[0.05]; table != (budget == DefaultMaxTableBytes) {
			t.Fatalf("budget %d: pair table %v", budget, table)
		}
		rep.Seconds = 0
		reports = append(reports, rep)
	}
	// Folds, not whole reports: a report's p-values may be NaN.
	if !reflect.DeepEqual(reports[0].Folds, reports[1].Folds) {
		t.Errorf("one inner fold a pass and all in one differ:\n%+v\n%+v", reports[0].Folds, reports[1].Folds)
	}
	for f := range reports[0].Folds {
		a, b := reports[0].Folds[f], reports[2].Folds[f]
		if a.Config.Sigma != b.Config.Sigma || a.Config.Learn.M != b.Config.Learn.M || a.Config.C != b.Config.C ||
			!reflect.DeepEqual(a.Predicted, b.Predicted) || !reflect.DeepEqual(a.BaselinePredicted, b.BaselinePredicted) {
			t.Errorf("outer fold %d: direct path chose sigma %g m %d C %g and predicted %v; the pair table %g %d %g, %v",
				f, a.Config.Sigma, a.Config.Learn.M, a.Config.C, a.Predicted, b.Config.Sigma, b.Config.Learn.M, b.Config.C, b.Predicted)
		}
	}
}
