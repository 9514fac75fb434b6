package filtration

import "testing"

func benchmarkRicci(b *testing.B, name string) {
	graphs := readTU(b, name)
	for b.Loop() {
		for _, g := range graphs {
			RicciCurvature(g, DefaultAlpha)
		}
	}
}

// BenchmarkRicciPROTEINS computes the curvature of all 81,044 edges of the
// 1113 PROTEINS graphs per iteration.
func BenchmarkRicciPROTEINS(b *testing.B) { benchmarkRicci(b, "PROTEINS") }

// BenchmarkRicciMUTAG covers the 188 MUTAG graphs (3721 edges).
func BenchmarkRicciMUTAG(b *testing.B) { benchmarkRicci(b, "MUTAG") }

// BenchmarkHKSPROTEINS computes the heat kernel signature of all 1113
// PROTEINS graphs (one dense eigendecomposition each, up to 620 nodes).
func BenchmarkHKSPROTEINS(b *testing.B) {
	graphs := readTU(b, "PROTEINS")
	for b.Loop() {
		for _, g := range graphs {
			HeatKernelSignature(g, DefaultHKSTime)
		}
	}
}
