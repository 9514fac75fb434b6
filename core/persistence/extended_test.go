package persistence

import (
	"math"
	"testing"

	"wkpi-web/core/graph"
)

var inf = math.Inf(1)

// Hand-worked diagrams. Edges enter the sublevel sweep at the larger value
// of their ends and the superlevel sweep at the smaller one.
var handCases = []struct {
	name  string
	n     int
	edges []graph.Edge
	f     []float64
	want  Diagrams
	sub   []Point // Sublevel0
	super []Point // Superlevel0
}{
	{
		name: "single vertex",
		n:    1, f: []float64{5},
		want:  Diagrams{Ext0: []Point{{Birth: 5, Death: 5}}},
		sub:   []Point{{Birth: 5, Death: inf}},
		super: []Point{{Birth: 5, Death: -inf}},
	},
	{
		// 0 - 1 - 2 with a peak in the middle: nodes 0 and 2 are minima
		// (the later one, node 2 at 1, dies at 3 when the peak joins
		// them), the peak itself is born and dies at 3, and in the
		// superlevel sweep the peak is the only maximum, so both other
		// nodes die as soon as they enter.
		name: "path",
		n:    3, edges: edgeList(0, 1, 1, 2), f: []float64{0, 3, 1},
		want: Diagrams{
			Ord0: []Point{{Birth: 3, Death: 3}, {Birth: 1, Death: 3}},
			Rel1: []Point{{Birth: 1, Death: 1}, {Birth: 0, Death: 0}},
			Ext0: []Point{{Birth: 0, Death: 3}},
		},
		sub:   []Point{{Birth: 3, Death: 3}, {Birth: 1, Death: 3}, {Birth: 0, Death: inf}},
		super: []Point{{Birth: 1, Death: 1}, {Birth: 0, Death: 0}, {Birth: 3, Death: -inf}},
	},
	{
		// Square 0-1-2-3 with values 0, 2, 1, 3: minima 0 and 2 (value 1)
		// join at 2; maxima 3 and 1 (value 2) join at 1; the one cycle is
		// born when its last edge enters at 3 and dies when it is whole in
		// the superlevel set at 0.
		name: "cycle",
		n:    4, edges: edgeList(0, 1, 1, 2, 2, 3, 3, 0), f: []float64{0, 2, 1, 3},
		want: Diagrams{
			Ord0: []Point{{Birth: 2, Death: 2}, {Birth: 1, Death: 2}, {Birth: 3, Death: 3}},
			Rel1: []Point{{Birth: 1, Death: 1}, {Birth: 2, Death: 1}, {Birth: 0, Death: 0}},
			Ext0: []Point{{Birth: 0, Death: 3}},
			Ext1: []Point{{Birth: 3, Death: 0}},
		},
	},
	{
		// Triangle 0,1,2 at 1,2,3 with pendant 3 at 0 hanging off node 2:
		// the pendant is the global minimum, node 0 a second minimum that
		// dies when node 2 joins at 3; node 2 is the only maximum; the
		// cycle is born with its last edge (1,2)/(0,2) at 3 and dies when
		// the superlevel set at 1 contains the whole triangle.
		name: "triangle with pendant",
		n:    4, edges: edgeList(0, 1, 1, 2, 0, 2, 2, 3), f: []float64{1, 2, 3, 0},
		want: Diagrams{
			Ord0: []Point{{Birth: 2, Death: 2}, {Birth: 1, Death: 3}, {Birth: 3, Death: 3}},
			Rel1: []Point{{Birth: 2, Death: 2}, {Birth: 1, Death: 1}, {Birth: 0, Death: 0}},
			Ext0: []Point{{Birth: 0, Death: 3}},
			Ext1: []Point{{Birth: 3, Death: 1}},
		},
	},
	{
		name: "two components and an isolated vertex",
		n:    5, edges: edgeList(0, 1, 2, 3), f: []float64{4, 1, 2, 7, 6},
		want: Diagrams{
			Ord0: []Point{{Birth: 4, Death: 4}, {Birth: 7, Death: 7}},
			Rel1: []Point{{Birth: 1, Death: 1}, {Birth: 2, Death: 2}},
			Ext0: []Point{{Birth: 1, Death: 4}, {Birth: 2, Death: 7}, {Birth: 6, Death: 6}},
		},
		sub:   []Point{{Birth: 4, Death: 4}, {Birth: 7, Death: 7}, {Birth: 1, Death: inf}, {Birth: 2, Death: inf}, {Birth: 6, Death: inf}},
		super: []Point{{Birth: 1, Death: 1}, {Birth: 2, Death: 2}, {Birth: 4, Death: -inf}, {Birth: 7, Death: -inf}, {Birth: 6, Death: -inf}},
	},
	{
		// Star with centre 0 at 2 and leaves at 0, 1, 3, 4: leaves 1
		// (value 0) and 2 (value 1) are the sublevel minima, and the edge
		// to leaf 1 enters first, so leaf 2 dies at 2; leaves 3 and 4 are
		// born at 3, 4 and die at once (zero persistence), and dually.
		name: "star",
		n:    5, edges: edgeList(0, 1, 0, 2, 0, 3, 0, 4), f: []float64{2, 0, 1, 3, 4},
		want: Diagrams{
			Ord0: []Point{{Birth: 2, Death: 2}, {Birth: 1, Death: 2}, {Birth: 3, Death: 3}, {Birth: 4, Death: 4}},
			Rel1: []Point{{Birth: 3, Death: 2}, {Birth: 2, Death: 2}, {Birth: 1, Death: 1}, {Birth: 0, Death: 0}},
			Ext0: []Point{{Birth: 0, Death: 4}},
		},
	},
	{
		// K4 on constant values: every point has zero persistence, and
		// there are m - n + c = 3 cycles.
		name: "constant K4",
		n:    4, edges: edgeList(0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3), f: []float64{1, 1, 1, 1},
		want: Diagrams{
			Ord0: []Point{{Birth: 1, Death: 1}, {Birth: 1, Death: 1}, {Birth: 1, Death: 1}},
			Rel1: []Point{{Birth: 1, Death: 1}, {Birth: 1, Death: 1}, {Birth: 1, Death: 1}},
			Ext0: []Point{{Birth: 1, Death: 1}},
			Ext1: []Point{{Birth: 1, Death: 1}, {Birth: 1, Death: 1}, {Birth: 1, Death: 1}},
		},
	},
}

func TestExtendedHandWorked(t *testing.T) {
	for _, c := range handCases {
		t.Run(c.name, func(t *testing.T) {
			g := mustGraph(t, c.n, c.edges...)
			got := Extended(g, c.f)
			for _, d := range []struct {
				name      string
				got, want []Point
			}{
				{"Ord0", got.Ord0, c.want.Ord0},
				{"Rel1", got.Rel1, c.want.Rel1},
				{"Ext0", got.Ext0, c.want.Ext0},
				{"Ext1", got.Ext1, c.want.Ext1},
			} {
				if !sameMultiset(d.got, d.want, 0) {
					t.Errorf("%s = %v, want %v", d.name, d.got, d.want)
				}
			}
			_, comps := g.Components()
			if len(got.Ext0) != comps || len(got.Ext1) != len(g.Edges)-g.N+comps {
				t.Errorf("|Ext0| = %d, |Ext1| = %d; want c = %d and m-n+c = %d",
					len(got.Ext0), len(got.Ext1), comps, len(g.Edges)-g.N+comps)
			}
			if c.sub != nil {
				if s := Sublevel0(g, c.f, nil); !sameMultiset(s, c.sub, 0) {
					t.Errorf("Sublevel0 = %v, want %v", s, c.sub)
				}
			}
			if c.super != nil {
				if s := Superlevel0(g, c.f); !sameMultiset(s, c.super, 0) {
					t.Errorf("Superlevel0 = %v, want %v", s, c.super)
				}
			}
		})
	}
}

func TestSublevel0EdgeValues(t *testing.T) {
	// Path 0-1-2 at 0, 1, 0: with lower-star edges, node 2 dies at 1;
	// with explicit edge values 5 and 2 it dies at the later edge (value
	// 5, since the edges join in order 1-2 at 2 then 0-1 at 5), and an
	// edge value below its ends is raised to them.
	g := mustGraph(t, 3, edgeList(0, 1, 1, 2)...)
	f := []float64{0, 1, 0}
	for _, c := range []struct {
		name string
		edge []float64
		want []Point
	}{
		{"lower star", nil, []Point{{Birth: 1, Death: 1}, {Birth: 0, Death: 1}, {Birth: 0, Death: inf}}},
		{"explicit", []float64{5, 2}, []Point{{Birth: 1, Death: 2}, {Birth: 0, Death: 5}, {Birth: 0, Death: inf}}},
		{"raised", []float64{-1, -1}, []Point{{Birth: 1, Death: 1}, {Birth: 0, Death: 1}, {Birth: 0, Death: inf}}},
	} {
		if got := Sublevel0(g, f, c.edge); !sameMultiset(got, c.want, 0) {
			t.Errorf("%s: Sublevel0 = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDropZero(t *testing.T) {
	g := mustGraph(t, 5, edgeList(0, 1, 2, 3)...)
	got := Extended(g, []float64{4, 1, 2, 7, 6}).DropZero()
	want := Diagrams{Ext0: []Point{{Birth: 1, Death: 4}, {Birth: 2, Death: 7}}}
	if len(got.Ord0)+len(got.Rel1)+len(got.Ext1) != 0 || !sameMultiset(got.Ext0, want.Ext0, 0) {
		t.Errorf("DropZero = %+v, want %+v", got, want)
	}
}
