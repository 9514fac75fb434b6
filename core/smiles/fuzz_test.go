package smiles_test

import (
	"errors"
	"testing"

	"wkpi-web/core/smiles"
)

// FuzzParse checks that Parse never panics, that an error is a
// *SyntaxError pointing into the string, and that every graph it returns
// satisfies graph.New's invariants with molfile-style labels and comes out
// the same on a second reading. Seeds live in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		g, err := smiles.Parse(s)
		if err != nil {
			var se *smiles.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%q: error %T %v is not a *SyntaxError", s, err, err)
			}
			if s == "" && se.Pos != 0 || s != "" && (se.Pos < 1 || se.Pos > len(s)) {
				t.Fatalf("%q: error position %d outside the string: %v", s, se.Pos, err)
			}
			return
		}
		if g.N > len(s) {
			t.Fatalf("%q: %d nodes from %d characters", s, g.N, len(s))
		}
		if len(g.NodeLabels) != g.N || len(g.EdgeLabels) != len(g.Edges) || g.NodeValues != nil {
			t.Fatalf("%q: %d nodes with %d labels, %d edges with %d labels", s, g.N, len(g.NodeLabels), len(g.Edges), len(g.EdgeLabels))
		}
		for k, e := range g.Edges {
			if e.U < 0 || e.U >= e.V || e.V >= g.N {
				t.Fatalf("%q: edge %v out of range for %d nodes", s, e, g.N)
			}
			if k > 0 {
				p := g.Edges[k-1]
				if p.U > e.U || p.U == e.U && p.V >= e.V {
					t.Fatalf("%q: edges not sorted and distinct: %v", s, g.Edges)
				}
			}
			switch g.EdgeLabels[k] {
			case smiles.BondSingle, smiles.BondDouble, smiles.BondTriple, smiles.BondAromatic, smiles.BondQuadruple:
			default:
				t.Fatalf("%q: edge label %q", s, g.EdgeLabels[k])
			}
		}
		for _, l := range g.NodeLabels {
			if l == "" || len(l) > 2 {
				t.Fatalf("%q: node label %q", s, l)
			}
		}
		again, err := smiles.Parse(s)
		if err != nil {
			t.Fatalf("%q: second reading fails: %v", s, err)
		}
		if a, b := describe(g), describe(again); a != b {
			t.Fatalf("%q: readings differ:\n%s\n%s", s, a, b)
		}
	})
}
