package filtration

import (
	"math"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/graph"
)

func TestComputeErrors(t *testing.T) {
	g := cycle(t, 4)
	tests := []struct {
		o    Options
		want string
	}{
		{Options{}, "unknown descriptor"},
		{Options{Kind: "curvature"}, "unknown descriptor"},
		{Options{Kind: KindRicci, Alpha: -0.5}, "alpha"},
		{Options{Kind: KindRicci, Alpha: 1.5}, "alpha"},
		{Options{Kind: KindRicci, Alpha: math.NaN()}, "alpha"},
		{Options{Kind: KindHKS, HKSTime: -1}, "hks time"},
		{Options{Kind: KindHKS, HKSTime: math.Inf(1)}, "hks time"},
		{Options{Kind: KindHKS, HKSTime: math.NaN()}, "hks time"},
		{Options{Kind: KindJaccard, Rule: "max"}, "rule"},
		{Options{Kind: KindJaccard, Isolated: math.NaN()}, "isolated"},
		{Options{Kind: KindJaccard, Isolated: math.Inf(-1)}, "isolated"},
		{Options{Kind: KindRicci, Rule: RuleMean, EdgeValued: true}, "edge-valued"},
		{Options{Kind: KindGiven}, "0 node values for 4 nodes"},
	}
	for _, tc := range tests {
		_, err := Compute(g, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Compute(%+v) error %v, want one mentioning %q", tc.o, err, tc.want)
		}
	}
}

// Path 0-1-2 with edge values 2 and 5, and isolated vertex 3, worked by hand.
func TestExtend(t *testing.T) {
	g := mustGraph(t, 4, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}})
	edge := []float64{2, 5}
	if got, want := extend(g, edge, RuleMin, -7), []float64{2, 2, 5, -7}; !slices.Equal(got, want) {
		t.Errorf("min: %v, want %v", got, want)
	}
	if got, want := extend(g, edge, RuleMean, 0), []float64{2, 3.5, 5, 0}; !slices.Equal(got, want) {
		t.Errorf("mean: %v, want %v", got, want)
	}
}

// The zero Options fields mean alpha 1/2, t = 10, rule min, isolated 0:
// on C5 plus an isolated vertex every edge has curvature 1/4.
func TestComputeDefaults(t *testing.T) {
	es := cycle(t, 5).Edges
	g := mustGraph(t, 6, es)
	f, err := Compute(g, Options{Kind: KindRicci})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{0.25, 0.25, 0.25, 0.25, 0.25, 0}; !closeAll(f.Vertex, want) || f.Edge != nil {
		t.Errorf("ricci: %+v, want vertex %v and no edge values", f, want)
	}
	f, err = Compute(g, Options{Kind: KindRicci, Alpha: 1, Isolated: -2})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{0, 0, 0, 0, 0, -2}; !closeAll(f.Vertex, want) {
		t.Errorf("ricci alpha 1: %v, want %v", f.Vertex, want)
	}
	f, err = Compute(g, Options{Kind: KindHKS})
	if err != nil {
		t.Fatal(err)
	}
	if want := HeatKernelSignature(g, 10); !slices.Equal(f.Vertex, want) {
		t.Errorf("hks: %v, want t=10 values %v", f.Vertex, want)
	}
}

func closeAll(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			return false
		}
	}
	return true
}

// With EdgeValued every kind yields one value per edge, no vertex above an
// incident edge (so sublevel sets are subcomplexes), and for edge kinds the
// edge's own descriptor value.
func TestComputeEdgeValued(t *testing.T) {
	graphs := []*graph.Graph{randomGraph(t, 25, 0.08, 9)}
	graphs = append(graphs, readTU(t, "MUTAG")[:10]...)
	for gi, g := range graphs {
		g.NodeValues = HeatKernelSignature(g, 1)
		for _, kind := range Kinds() {
			if (Options{Kind: kind}).Molecular() {
				continue // these graphs are no molecules; chem_test.go
			}
			f, err := Compute(g, Options{Kind: kind, EdgeValued: true, Isolated: 5})
			if err != nil {
				t.Fatalf("graph %d %s: %v", gi, kind, err)
			}
			if len(f.Vertex) != g.N || len(f.Edge) != len(g.Edges) {
				t.Fatalf("graph %d %s: %d vertex, %d edge values", gi, kind, len(f.Vertex), len(f.Edge))
			}
			for i, e := range g.Edges {
				if f.Vertex[e.U] > f.Edge[i] || f.Vertex[e.V] > f.Edge[i] {
					t.Errorf("graph %d %s: edge %v value %v below an endpoint (%v, %v)",
						gi, kind, e, f.Edge[i], f.Vertex[e.U], f.Vertex[e.V])
				}
			}
			var own []float64
			switch kind {
			case KindRicci:
				own = RicciCurvature(g, DefaultAlpha)
			case KindJaccard:
				own = JaccardIndex(g)
			}
			if own != nil && !slices.Equal(f.Edge, own) {
				t.Errorf("graph %d %s: edge values %v, want %v", gi, kind, f.Edge, own)
			}
		}
	}
}

// KindGiven passes the graph's own values through, checked for finiteness,
// and under EdgeValued gives an edge the larger endpoint value (hand-worked
// on the path 0-1-2).
func TestComputeGiven(t *testing.T) {
	g := mustGraph(t, 3, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}})
	g.NodeValues = []float64{4, -1, 2}
	f, err := Compute(g, Options{Kind: KindGiven, EdgeValued: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Vertex, g.NodeValues) || !slices.Equal(f.Edge, []float64{4, 2}) {
		t.Errorf("got %+v, want vertex %v and edges [4 2]", f, g.NodeValues)
	}
	f.Vertex[0] = 100
	if g.NodeValues[0] != 4 {
		t.Error("Function aliases the graph's NodeValues")
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		g.NodeValues = []float64{0, bad, 1}
		if _, err := Compute(g, Options{Kind: KindGiven}); err == nil || !strings.Contains(err.Error(), "vertex 1") {
			t.Errorf("value %v: error %v, want one naming vertex 1", bad, err)
		}
	}
}
