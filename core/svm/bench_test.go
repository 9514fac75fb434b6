package svm

import (
	"context"
	"testing"
)

// BenchmarkTrain188 trains on an RBF Gram matrix of MUTAG's size (188
// graphs, 2 classes) at C = 1.
func BenchmarkTrain188(b *testing.B) {
	p := problem{name: "bench", classes: 2, n: 188, m: 1, dim: 5, sep: 0.7, kernel: "rbf", gamma: 0.2}
	K, y, _ := p.generate(188)
	for _, shrink := range []bool{false, true} {
		name := "noshrink"
		if shrink {
			name = "shrink"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Train(context.Background(), K, y, Options{C: 1, NoShrinking: !shrink}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
