package swc_test

import (
	"math"
	"testing"

	"wkpi-web/core/swc"
)

// FuzzSWC checks that Parse never panics and that every tree it returns
// has valid edges, one label and one finite value per node, and N minus roots
// edges (each non-root sample adds exactly one). Seeds live in
// testdata/fuzz/FuzzSWC.
func FuzzSWC(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := swc.Parse("fuzz.swc", data)
		if err != nil {
			return
		}
		if len(g.NodeLabels) != g.N || len(g.NodeValues) != g.N {
			t.Fatalf("%d labels, %d values for %d nodes", len(g.NodeLabels), len(g.NodeValues), g.N)
		}
		for k, e := range g.Edges {
			if e.U < 0 || e.U >= e.V || e.V >= g.N || (k > 0 && !less(g.Edges[k-1].U, g.Edges[k-1].V, e.U, e.V)) {
				t.Fatalf("bad edge list %v", g.Edges)
			}
		}
		for _, v := range g.NodeValues {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("descriptor %v", v)
			}
		}
		if _, c := g.Components(); len(g.Edges) != g.N-c {
			t.Fatalf("%d edges, %d nodes, %d components: not a forest", len(g.Edges), g.N, c)
		}
	})
}

func less(u1, v1, u2, v2 int) bool { return u1 < u2 || (u1 == u2 && v1 < v2) }
