package graphstats

import (
	"math"
	"testing"

	"wkpi-web/core/graph"
)

func mustGraph(t *testing.T, n int, edges ...graph.Edge) *graph.Graph {
	t.Helper()
	g, err := graph.New(n, edges, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestHandWorked: a triangle 0-1-2 with a pendant 3 on node 2, plus an
// isolated node 4 and an edge 5-6. V = 7, E = 5, components 3 (the
// triangle with its pendant, {4}, {5,6}), cycle rank 5 - 7 + 3 = 1, one
// triangle. Degrees 2, 2, 3, 1, 0, 1, 1: mean 10/7, max 3, density
// 10/42, histogram (1/7, 3/7, 2/7, 1/7, 0, 0).
func TestHandWorked(t *testing.T) {
	g := mustGraph(t, 7, graph.Edge{U: 0, V: 1}, graph.Edge{U: 1, V: 2}, graph.Edge{U: 0, V: 2}, graph.Edge{U: 2, V: 3}, graph.Edge{U: 5, V: 6})
	want := []float64{7, 5, 10.0 / 7, 3, 10.0 / 42, 1.0 / 7, 3.0 / 7, 2.0 / 7, 1.0 / 7, 0, 0, 3, 1, 1}
	got := Of(g)
	if len(got) != len(Names()) || len(got) != len(want) {
		t.Fatalf("%d features, %d names, want %d", len(got), len(Names()), len(want))
	}
	for k := range want {
		if math.Abs(got[k]-want[k]) > 1e-15 {
			t.Errorf("%s = %g, want %g", Names()[k], got[k], want[k])
		}
	}
}

// TestTriangles: K4 has 4 triangles and cycle rank 6 - 4 + 1 = 3; the
// empty graph has zeros everywhere (no division by zero).
func TestTriangles(t *testing.T) {
	var es []graph.Edge
	for u := range 4 {
		for v := u + 1; v < 4; v++ {
			es = append(es, graph.Edge{U: u, V: v})
		}
	}
	k4 := Of(mustGraph(t, 4, es...))
	if tri, rank := k4[len(k4)-1], k4[len(k4)-2]; tri != 4 || rank != 3 {
		t.Errorf("K4: %g triangles, cycle rank %g; want 4 and 3", tri, rank)
	}
	for k, v := range Of(mustGraph(t, 0)) {
		if v != 0 {
			t.Errorf("empty graph: %s = %g, want 0", Names()[k], v)
		}
	}
}

// TestScaler: statistics come from the training rows alone.
func TestScaler(t *testing.T) {
	rows := [][]float64{{1, 5}, {3, 5}, {100, -7}}
	s, err := Fit(rows, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	// Feature 0: mean 2, population std 1; feature 1 constant: std 1.
	want := [][]float64{{-1, 0}, {1, 0}, {98, -12}}
	for i, r := range rows {
		got := s.Apply(r)
		for k := range got {
			if got[k] != want[i][k] {
				t.Errorf("row %d feature %d: %g, want %g", i, k, got[k], want[i][k])
			}
		}
	}
	if _, err := Fit(rows, nil); err == nil {
		t.Error("no training rows accepted")
	}
	if _, err := Fit([][]float64{{1}, {1, 2}}, []int{0, 1}); err == nil {
		t.Error("ragged rows accepted")
	}
}
