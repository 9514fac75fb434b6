package eval

import (
	"context"
	"reflect"
	"testing"

	"wkpi-web/core/crossval"
	"wkpi-web/core/kernel"
)

// TestFoldGroupsAgree: the direct path's folds share passes over the
// pairs in groups as the budget allows; one fold per pass, two folds
// per pass and all four in one pass must give the same report, fold for
// fold, and the groups must be the ones the budget asks for.
func TestFoldGroupsAgree(t *testing.T) {
	cfg := toyConfig()
	plan := Plan{Folds: 4, Seed: 7}
	_, w := toyWKPI(t)
	folds, err := crossval.StratifiedKFold(w.Labels, plan.Folds, plan.Seed)
	if err != nil {
		t.Fatal(err)
	}
	train, test := crossval.Split(indices(len(w.Labels)), folds, plan.Folds)
	var fits []fitted
	// The budget for two folds a pass: three quarters of it hold 2.5
	// times the largest fold's packed Gram and cross matrices (two weight
	// functions), the largest unpacked Gram matrix and what a pass
	// prepares of the images.
	var fold, gram, prepared int64
	for f := range plan.Folds {
		// group looks at the folds' sizes and number of weight functions only.
		fits = append(fits, fitted{fold: Fold{Index: f, Config: cfg, Test: test[f]}, mixes: make([]kernel.Mixture, 2)})
		nt, ne := int64(len(train[f])), int64(len(test[f]))
		fold, gram = max(fold, 2*(4*nt*(nt+1)/2+8*ne*nt)), max(gram, 8*nt*nt)
	}
	// What a pass prepares: f of each non-zero pixel, a bitmap of 64-bit
	// words with a 32-bit rank each, a divergence from zero.
	for _, img := range w.Set.Images {
		prepared += 8*int64(len(img.Val)) + 12*int64((img.Len+63)/64) + 8
	}
	two := (5*fold/2 + gram + prepared) * 4 / 3
	var reports []Report
	for _, tc := range []struct {
		budget int64
		groups []int // ends of the groups
	}{{1, []int{1, 2, 3, 4}}, {two, []int{2, 4}}, {0, []int{4}}} {
		w.MaxTableBytes, w.generalPath = tc.budget, true
		if p, err := w.pairsFor(context.Background(), cfg.Sigma, cfg.Variant, nil); err != nil {
			t.Fatal(err)
		} else if _, ok := p.(directPairs); !ok {
			t.Fatalf("budget %d: a pair table, want the direct path", tc.budget)
		}
		var ends []int
		for a := 0; a < len(fits); a = ends[len(ends)-1] {
			ends = append(ends, w.group(fits, a, train))
		}
		if !reflect.DeepEqual(ends, tc.groups) {
			t.Errorf("budget %d: groups end at %v, want %v", tc.budget, ends, tc.groups)
		}
		rep, err := w.CrossValidate(context.Background(), cfg, plan, nil)
		if err != nil {
			t.Fatal(err)
		}
		rep.Seconds, rep.Learned.Seconds, rep.Baseline.Seconds = 0, 0, 0
		reports = append(reports, rep)
	}
	for i := 1; i < len(reports); i++ {
		if !reflect.DeepEqual(reports[i], reports[0]) {
			t.Errorf("groups %d: report %+v\none fold per pass: %+v", i, reports[i].Folds, reports[0].Folds)
		}
	}
}
