package dataset_test

import (
	"testing"

	"wkpi-web/core/dataset"
)

// BenchmarkParseNCI5K reads 4,993 of RDKit's NCI molecules from a SMILES
// table (SMILES, id, TPSA) into a labelled dataset: CSV parsing, SMILES
// parsing, graph building, threshold (skipped without rdkit-data).
func BenchmarkParseNCI5K(b *testing.B) {
	rows := nciRows(b)
	data := nciCSV(rows)
	cut := 46.38
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		ds, _, err := dataset.Parse("nci.csv", data, dataset.Options{Threshold: &cut})
		if err != nil || len(ds.Graphs) != len(rows) {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rows)), "molecules/op")
}
