package features

import (
	"math"
	"reflect"
	"testing"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
)

func TestSnapTies(t *testing.T) {
	tests := []struct {
		name               string
		vertex, edge       []float64
		wantVertex, wantEd []float64
	}{
		{name: "apart: unchanged", vertex: []float64{3, 1, 2}, wantVertex: []float64{3, 1, 2}},
		{name: "a last-bit pair takes the smaller value",
			vertex: []float64{0.1 + 0.2, 0.3, 1}, wantVertex: []float64{0.3, 0.3, 1}},
		// Gaps of 0.6e-10 and 0.6e-10 at scale 1: one run, though its ends
		// are 1.2e-10 apart.
		{name: "a run is found by gaps", vertex: []float64{1, 1 - 0.6e-10, 1 - 1.2e-10, 0},
			wantVertex: []float64{1 - 1.2e-10, 1 - 1.2e-10, 1 - 1.2e-10, 0}},
		{name: "a gap of 2e-10 at scale 1 is kept", vertex: []float64{1, 1 - 2e-10}, wantVertex: []float64{1, 1 - 2e-10}},
		{name: "the scale is the largest |value|: 1e-12 apart at scale 1e-3 is kept",
			vertex: []float64{1e-3, 0, 1e-12}, wantVertex: []float64{1e-3, 0, 1e-12}},
		{name: "vertex and edge values together", vertex: []float64{-0.5, 1}, edge: []float64{-0.5 + 1e-17, 2},
			wantVertex: []float64{-0.5, 1}, wantEd: []float64{-0.5, 2}},
		{name: "all zero", vertex: []float64{0, 0}, wantVertex: []float64{0, 0}},
		{name: "empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snapTies(tc.vertex, tc.edge)
			if !reflect.DeepEqual(tc.vertex, tc.wantVertex) || !reflect.DeepEqual(tc.edge, tc.wantEd) {
				t.Errorf("got %v %v, want %v %v", tc.vertex, tc.edge, tc.wantVertex, tc.wantEd)
			}
		})
	}
}

// TestHKSTiesExact: in the heat kernel signature of nitrobenzene, whose
// symmetric atoms have equal signatures in exact arithmetic, the values
// the diagrams are made of are exactly equal (they are not, by a few
// units in the last place, as filtration.HeatKernelSignature returns
// them), and the vertices stay in the order of their signatures.
func TestHKSTiesExact(t *testing.T) {
	// O=[N+]([O-])c1ccccc1: oxygens 0 and 2, ortho 4 and 8, meta 5 and 7.
	var edges []graph.Edge
	for _, e := range [][2]int{{0, 1}, {1, 2}, {1, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {3, 8}} {
		edges = append(edges, graph.Edge{U: e[0], V: e[1]})
	}
	g, err := graph.New(9, edges, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := filtration.Options{Kind: filtration.KindHKS}
	_, _, f, err := diagramOf(g, nil, o, false, false)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := filtration.Compute(g, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]int{{0, 2}, {4, 8}, {5, 7}} {
		a, b := pair[0], pair[1]
		t.Logf("vertices %d and %d: signatures %v apart before", a, b, raw.Vertex[a]-raw.Vertex[b])
		if f.Vertex[a] != f.Vertex[b] {
			t.Errorf("vertices %d and %d: %v and %v, want them equal", a, b, f.Vertex[a], f.Vertex[b])
		}
		if math.Abs(f.Vertex[a]-raw.Vertex[a]) > 1e-15 {
			t.Errorf("vertex %d moved from %v to %v", a, raw.Vertex[a], f.Vertex[a])
		}
	}
	for u := range g.N {
		for v := range g.N {
			if raw.Vertex[u]-raw.Vertex[v] > 1e-10 && f.Vertex[u] <= f.Vertex[v] {
				t.Errorf("vertices %d and %d swapped order", u, v)
			}
		}
	}
}
