package eval

import (
	"context"
	"reflect"
	"testing"
)

// TestCrossValidatePassesMatch: CrossValidate on the direct path in two
// passes (crossValidatePasses: the unlearned kernels in the pass of the
// pair sums, every fold's SVM choice and unlearned SVM before learning)
// gives the report of the general path (run, testFolds: the pair sums'
// pass, then the learned and unlearned kernels of each group of folds),
// fold for fold (choices, traces, predictions, scores), with the SVM
// choice on and off, with all folds in one pass or one weight function a
// pass, and for some folds only (a shard's part).
func TestCrossValidatePassesMatch(t *testing.T) {
	with := toyConfig()
	with.SVM = DefaultSVMGrid()
	for _, cfg := range []Config{toyConfig(), with} {
		for _, plan := range []Plan{{Folds: 4, Seed: 7}, {Folds: 5, Seed: 2, Only: []int{1, 3}}} {
			var want Report
			for i, budget := range []int64{0, 0, 1} {
				_, w := toyWKPI(t)
				w.MaxTableBytes, w.generalPath = budget, i == 0
				if two, err := w.twoPasses(context.Background(), cfg, nil); err != nil || !two {
					t.Fatalf("budget %d: two passes %v (%v), want true", budget, two, err)
				}
				rep, err := w.CrossValidate(context.Background(), cfg, plan, nil)
				if err != nil {
					t.Fatal(err)
				}
				rep.Seconds, rep.Learned.Seconds, rep.Baseline.Seconds = 0, 0, 0
				if i == 0 {
					want = rep
					continue
				}
				if !reflect.DeepEqual(rep, want) {
					t.Errorf("SVM choice %v, plan %+v, budget %d: two passes\n%+v\ngeneral path\n%+v", cfg.SVM != nil, plan, budget, rep.Folds, want.Folds)
				}
			}
		}
	}
}
