package smiles_test

import (
	"testing"

	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
)

// BenchmarkParseNCI5K parses every SMILES of RDKit's NCI sample once per
// iteration (skipped without the rdkit-data package).
func BenchmarkParseNCI5K(b *testing.B) {
	list := testenv.NCISmiles(b)
	atoms := 0
	for _, s := range list {
		if g, err := smiles.Parse(s); err == nil {
			atoms += g.N
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, s := range list {
			if _, err := smiles.Parse(s); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(list)), "smiles/op")
	b.ReportMetric(float64(atoms), "atoms/op")
}
