package graphfile

import (
	"reflect"
	"strings"
	"testing"

	"wkpi-web/core/graph"
)

// TestMolfile writes molecules read from SMILES as molfiles and reads
// them back: the same element symbols, bonds, bond types, charges and
// isotopes, in the same order.
func TestMolfile(t *testing.T) {
	for _, s := range []string{
		"c1ccc(cc1)[N+](=O)[O-] nitrobenzene",
		"[13CH3]C#N labelled acetonitrile",
		"[NH4+].[Cl-] salt",
		"C[N+](C)(C)CC(=O)[O-].[Na+].[Na+].[Na+].[Na+].[Na+].[Na+].[Na+].[Na+].[Cl-] nine charges",
		"C single atom",
	} {
		in := read(t, "in.smi", s)
		text, err := Molfile(in.Records[0].Name, in.Records[0].Graph)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		out := read(t, "out.mol", text)
		g, h := in.Records[0].Graph, out.Records[0].Graph
		if out.Records[0].Name != in.Records[0].Name || !reflect.DeepEqual(g.NodeLabels, h.NodeLabels) ||
			!reflect.DeepEqual(g.Edges, h.Edges) || !reflect.DeepEqual(g.EdgeLabels, h.EdgeLabels) {
			t.Errorf("%s: read back as %q %v %v %v\n%s", s, out.Records[0].Name, h.NodeLabels, h.Edges, h.EdgeLabels, text)
		}
		for v := range g.N {
			if a, b := g.Atoms[v], h.Atoms[v]; a.Charge != b.Charge || a.Isotope != b.Isotope {
				t.Errorf("%s: atom %d read back with charge %d isotope %d, want %d %d", s, v, b.Charge, b.Isotope, a.Charge, a.Isotope)
			}
		}
	}
}

func read(t *testing.T, name, text string) *File {
	t.Helper()
	f, err := ReadFile(name, []byte(text), Options{})
	if err != nil || f.Records[0].Err != nil {
		t.Fatalf("%s: %v %v", name, err, f.Records[0].Err)
	}
	return f
}

// TestMolfileErrors: graphs that are not molecules a V2000 molfile holds.
func TestMolfileErrors(t *testing.T) {
	path := func(n int) *graph.Graph {
		g := &graph.Graph{N: n, NodeLabels: make([]string, n)}
		for v := range n {
			g.NodeLabels[v] = "C"
			if v > 0 {
				g.Edges = append(g.Edges, graph.Edge{U: v - 1, V: v})
				g.EdgeLabels = append(g.EdgeLabels, "1")
			}
		}
		return g
	}
	unlabelled := path(3)
	unlabelled.NodeLabels = nil
	helix := path(2)
	helix.NodeLabels[1] = "helix"
	quadruple := path(2)
	quadruple.EdgeLabels[0] = "$"
	for _, c := range []struct {
		name string
		g    *graph.Graph
		want string
	}{
		{"no labels", unlabelled, "no element symbols"},
		{"not an element", helix, `node 1 is labelled "helix"`},
		{"quadruple bond", quadruple, `edge 0-1 is labelled "$"`},
		{"1,000 atoms", path(1000), "at most 999"},
	} {
		if _, err := Molfile(c.name, c.g); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}
