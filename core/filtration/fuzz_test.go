package filtration

import (
	"math"
	"testing"

	"wkpi-web/core/graph"
)

// FuzzCompute feeds arbitrary options and small graphs to Compute: it must
// return an error or finite values of the right lengths, never panic or
// hang.
func FuzzCompute(f *testing.F) {
	f.Add([]byte{0, 1, 1, 2, 2, 0, 2, 3}, "ricci", "", 0.5, 0.0, 0.0, false)
	f.Add([]byte{0, 1, 0, 2, 0, 3}, "jaccard", "mean", 0.0, 0.0, -1.0, false)
	f.Add([]byte{0, 1}, "hks", "min", 0.0, 0.1, 0.0, true)
	f.Add([]byte{}, "degree", "", 0.0, 0.0, 0.0, true)
	f.Add([]byte{5, 6, 6, 7}, "ricci", "mean", 1e-300, math.Inf(1), math.NaN(), true)
	f.Fuzz(func(t *testing.T, pairs []byte, kind, rule string, alpha, hks, isolated float64, edgeValued bool) {
		const n = 12
		var es []graph.Edge
		for i := 0; i+1 < len(pairs); i += 2 {
			if u, v := int(pairs[i]%n), int(pairs[i+1]%n); u != v {
				es = append(es, graph.Edge{U: u, V: v})
			}
		}
		g, err := graph.New(n, es, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		o := Options{Kind: Kind(kind), Rule: Rule(rule), Alpha: alpha, HKSTime: hks, Isolated: isolated, EdgeValued: edgeValued}
		fn, err := Compute(g, o)
		if err != nil {
			return
		}
		if len(fn.Vertex) != n || (edgeValued && len(fn.Edge) != len(g.Edges)) || (!edgeValued && fn.Edge != nil) {
			t.Fatalf("%+v: %d vertex, %d edge values", o, len(fn.Vertex), len(fn.Edge))
		}
		for _, x := range append(fn.Vertex, fn.Edge...) {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("%+v: value %v", o, x)
			}
		}
	})
}
