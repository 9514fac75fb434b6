package persistence

import (
	"testing"
	"wkpi-web/core/filtration"
)

func BenchmarkExtendedMUTAG(b *testing.B) {
	gs := mutag(b)
	fs := make([][]float64, len(gs))
	for i, g := range gs {
		fs[i] = filtration.Degree(g)
	}
	b.ResetTimer()
	for b.Loop() {
		for i, g := range gs {
			Extended(g, fs[i])
		}
	}
}
