package filtration

import (
	"math"
	"testing"

	"wkpi-web/core/graph"
)

// Hand-worked: each want entry is |N(u) ∩ N(v)| / |N(u) ∪ N(v)| counted on
// paper, in g.Edges order.
func TestJaccardIndex(t *testing.T) {
	e := func(u, v int) graph.Edge { return graph.Edge{U: u, V: v} }
	tests := []struct {
		name  string
		n     int
		edges []graph.Edge
		want  []float64
	}{
		{"K2", 2, []graph.Edge{e(0, 1)}, []float64{0}},
		// N(0)={1,2}, N(1)={0,2}: ∩={2}, ∪={0,1,2}.
		{"K3", 3, []graph.Edge{e(0, 1), e(0, 2), e(1, 2)}, []float64{1. / 3, 1. / 3, 1. / 3}},
		// ∩ = the other two vertices, ∪ = all four.
		{"K4", 4, []graph.Edge{e(0, 1), e(0, 2), e(0, 3), e(1, 2), e(1, 3), e(2, 3)},
			[]float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5}},
		{"path", 4, []graph.Edge{e(0, 1), e(1, 2), e(2, 3)}, []float64{0, 0, 0}},
		// Square 0-1-2-3 with diagonal 0-2. Edge 01: N(0)={1,2,3},
		// N(1)={0,2}: ∩={2}, ∪={0,1,2,3}. Edge 02: N(0)={1,2,3},
		// N(2)={0,1,3}: ∩={1,3}, ∪={0,1,2,3}.
		{"diamond", 4, []graph.Edge{e(0, 1), e(1, 2), e(2, 3), e(0, 3), e(0, 2)},
			[]float64{0.25, 0.5, 0.25, 0.25, 0.25}},
		// Triangle 0-1-2 with pendant 3 on 2. Edge 12: N(1)={0,2},
		// N(2)={0,1,3}: ∩={0}, ∪={0,1,2,3}. Edge 23: N(2)={0,1,3}, N(3)={2}.
		{"triangle+pendant", 5, []graph.Edge{e(0, 1), e(0, 2), e(1, 2), e(2, 3)},
			[]float64{1. / 3, 0.25, 0.25, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGraph(t, tc.n, tc.edges)
			got := JaccardIndex(g)
			if len(got) != len(tc.want) {
				t.Fatalf("%d values for %d edges", len(got), len(tc.want))
			}
			for i := range got {
				if math.Abs(got[i]-tc.want[i]) > 1e-15 {
					t.Errorf("edge %v: %v, want %v", g.Edges[i], got[i], tc.want[i])
				}
			}
		})
	}
}
