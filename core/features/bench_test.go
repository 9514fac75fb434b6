package features

import (
	"context"
	"testing"

	"wkpi-web/core/filtration"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// BenchmarkDiagramsMUTAG: Ricci curvature and extended persistence of all
// 188 MUTAG graphs (target: under 100 ms native).
func BenchmarkDiagramsMUTAG(b *testing.B) {
	ds, err := tu.ReadDir(testenv.Dataset(b, "MUTAG"))
	if err != nil {
		b.Fatal(err)
	}
	s := Default(filtration.KindRicci)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Diagrams(context.Background(), ds.Graphs, s, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImagesMUTAG: grid fit and both channels' images of all 188
// MUTAG graphs from precomputed Ricci diagrams.
func BenchmarkImagesMUTAG(b *testing.B) {
	ds, err := tu.ReadDir(testenv.Dataset(b, "MUTAG"))
	if err != nil {
		b.Fatal(err)
	}
	s := Default(filtration.KindRicci)
	diags, err := Diagrams(context.Background(), ds.Graphs, s, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		grid, fitted, err := FitGrid(diags, s)
		if err != nil {
			b.Fatal(err)
		}
		for _, d := range diags {
			if _, err := Image(d, grid, fitted); err != nil {
				b.Fatal(err)
			}
		}
	}
}
