package graphfile_test

import (
	"testing"

	"wkpi-web/core/graphfile"
)

// fuzzNames chooses the parser; the last one has no extension, so the
// content is sniffed.
var fuzzNames = []string{"f.txt", "f.graphml", "f.sdf", "f.json", "f"}

// FuzzParse checks that Parse never panics and that every graph it
// returns satisfies graph.New's invariants. Seeds live in
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		gs, err := graphfile.Parse(fuzzNames[int(kind)%len(fuzzNames)], data)
		if err != nil {
			return
		}
		if len(gs) == 0 {
			t.Fatal("no graphs and no error")
		}
		for _, g := range gs {
			for k, e := range g.Edges {
				if e.U < 0 || e.U >= e.V || e.V >= g.N {
					t.Fatalf("edge %v out of range for %d nodes", e, g.N)
				}
				if k > 0 {
					p := g.Edges[k-1]
					if p.U > e.U || (p.U == e.U && p.V >= e.V) {
						t.Fatalf("edges not sorted and distinct: %v", g.Edges)
					}
				}
			}
			if g.NodeLabels != nil && len(g.NodeLabels) != g.N {
				t.Fatalf("%d node labels for %d nodes", len(g.NodeLabels), g.N)
			}
			if g.EdgeLabels != nil && len(g.EdgeLabels) != len(g.Edges) {
				t.Fatalf("%d edge labels for %d edges", len(g.EdgeLabels), len(g.Edges))
			}
			if g.NodeValues != nil && len(g.NodeValues) != g.N {
				t.Fatalf("%d node values for %d nodes", len(g.NodeValues), g.N)
			}
		}
	})
}
