package persistence

import "testing"

func BenchmarkExtendedMUTAG(b *testing.B) {
	gs := mutag(b)
	fs := make([][]float64, len(gs))
	for i, g := range gs {
		fs[i] = degrees(g)
	}
	b.ResetTimer()
	for b.Loop() {
		for i, g := range gs {
			Extended(g, fs[i])
		}
	}
}
