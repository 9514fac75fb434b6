package dataset_test

import (
	"errors"
	"testing"

	"wkpi-web/core/dataset"
)

// fuzzNames choose the format; "upload" is read by its content.
func fuzzNames() []string { return []string{"f.csv", "f.tsv", "f.sdf", "f.graphml", "upload"} }

// FuzzParse checks that Parse never panics, and that a dataset it returns
// is whole: one label (of at least two classes) and one name per graph,
// every record either read or reported skipped; and that a failure over
// bad records lists them. Seeds live in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, kind uint8, skip bool, threshold float64, useThreshold bool, data []byte) {
		o := dataset.Options{SkipBad: skip}
		if useThreshold {
			o.Threshold = &threshold
		}
		names := fuzzNames()
		ds, rep, err := dataset.Parse(names[int(kind)%len(names)], data, o)
		if err != nil {
			var bad *dataset.BadRecordsError
			if errors.As(err, &bad) && (len(bad.Bad) == 0 || len(bad.Bad) > bad.Total || skip && len(bad.Bad) != bad.Total) {
				t.Fatalf("bad records error %+v", bad)
			}
			return
		}
		n := len(ds.Graphs)
		if n == 0 || len(ds.Labels) != n || len(ds.Names) != n || len(ds.Classes) < 2 {
			t.Fatalf("%d graphs, %d labels, %d names, classes %v", n, len(ds.Labels), len(ds.Names), ds.Classes)
		}
		seen := make([]bool, len(ds.Classes))
		for i, l := range ds.Labels {
			if l < 0 || l >= len(ds.Classes) || ds.Graphs[i] == nil || ds.Names[i] == "" {
				t.Fatalf("graph %d: label %d of %d classes, name %q", i, l, len(ds.Classes), ds.Names[i])
			}
			seen[l] = true
		}
		for c, s := range seen {
			if !s {
				t.Fatalf("class %q has no graph", ds.Classes[c])
			}
		}
		if rep.Records != n+len(rep.Skipped) || !skip && len(rep.Skipped) > 0 {
			t.Fatalf("%d records, %d graphs, %d skipped (skip %v)", rep.Records, n, len(rep.Skipped), skip)
		}
	})
}
