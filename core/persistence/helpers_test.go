package persistence

import (
	"math"
	"sort"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// mustGraph builds a graph or fails the test.
func mustGraph(tb testing.TB, n int, edges ...graph.Edge) *graph.Graph {
	tb.Helper()
	g, err := graph.New(n, edges, nil, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// edgeList pairs up node indices: edgeList(0, 1, 1, 2) is the path 0-1-2.
func edgeList(ends ...int) []graph.Edge {
	es := make([]graph.Edge, 0, len(ends)/2)
	for i := 0; i+1 < len(ends); i += 2 {
		es = append(es, graph.Edge{U: ends[i], V: ends[i+1]})
	}
	return es
}

// sorted returns a sorted copy, so diagrams compare as multisets.
func sorted(ps []Point) []Point {
	out := append([]Point(nil), ps...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Birth != out[j].Birth {
			return out[i].Birth < out[j].Birth
		}
		return out[i].Death < out[j].Death
	})
	return out
}

// sameMultiset compares two diagrams up to order within tol.
func sameMultiset(a, b []Point, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = sorted(a), sorted(b)
	for i := range a {
		if !close(a[i].Birth, b[i].Birth, tol) || !close(a[i].Death, b[i].Death, tol) {
			return false
		}
	}
	return true
}

func close(x, y, tol float64) bool {
	return x == y || math.Abs(x-y) <= tol
}

// mutag loads the MUTAG graphs.
func mutag(tb testing.TB) []*graph.Graph {
	tb.Helper()
	ds, err := tu.ReadDir(testenv.Dataset(tb, "MUTAG"))
	if err != nil {
		tb.Fatal(err)
	}
	return ds.Graphs
}
