package pimage

import (
	"testing"

	"wkpi-web/core/persistence"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// BenchmarkImageMUTAG makes one 40-row image per MUTAG graph from its
// extended persistence under the degree function.
func BenchmarkImageMUTAG(b *testing.B) {
	ds, err := tu.ReadDir(testenv.Dataset(b, "MUTAG"))
	if err != nil {
		b.Fatal(err)
	}
	diagrams := make([][]persistence.Point, len(ds.Graphs))
	for i, g := range ds.Graphs {
		f := make([]float64, g.N)
		for v, nb := range g.Neighbors() {
			f[v] = float64(len(nb))
		}
		d := persistence.Extended(g, f).DropZero()
		diagrams[i] = append(append(append(d.Ord0, d.Rel1...), d.Ext0...), d.Ext1...)
	}
	o := Options{Rows: DefaultRows, Tau: 0.1, Weighting: Linear, MaxPersistence: MaxPersistence(diagrams)}
	grid, err := FitGrid(diagrams, o.Rows, o.Tau)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(grid.Rows*grid.Cols), "pixels")
	b.ResetTimer()
	for b.Loop() {
		for _, d := range diagrams {
			if _, err := grid.Image(d, o); err != nil {
				b.Fatal(err)
			}
		}
	}
}
