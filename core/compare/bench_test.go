package compare

import (
	"context"
	"testing"

	"wkpi-web/core/eval"
)

// BenchmarkCompareMUTAG runs every method on MUTAG with the default
// protocol (10 outer folds, 3 inner, the documented grids) and reports
// each method's seconds; the whole comparison should stay under a minute
// on 2 cores (docs/results.md has the figures).
func BenchmarkCompareMUTAG(b *testing.B) {
	d := mutag(b)
	for b.Loop() {
		d.reports = map[string]eval.Report{} // WKPI runs again each time
		res, err := Run(context.Background(), d, Names(), DefaultOptions(), nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range res.Methods {
			b.ReportMetric(m.Seconds, m.Name+"-s")
		}
	}
}
