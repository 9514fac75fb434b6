package features

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

func parse(t *testing.T, s string) *graph.Graph {
	t.Helper()
	g, err := smiles.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func bondSettings(atoms string) Settings {
	s := Default(filtration.KindBonds)
	s.Filtration.Atoms = atoms
	return s
}

// The bond-order filtration by hand: a ring's 1-dimensional point is born
// at its highest bond rank (aromatic 1, single 2, double 3) and dies at
// its lowest vertex, an atom at 0; the 0-dimensional points are the
// bonds of a spanning tree that takes the lowest ranks first.
func TestBondDiagrams(t *testing.T) {
	for _, c := range []struct {
		smiles string
		ext1   []persistence.Point
		ord0   []float64 // deaths of the (0, d) points
	}{
		{"c1ccccc1", []persistence.Point{{Birth: 1, Death: 0}}, []float64{1, 1, 1, 1, 1}},
		{"C1=CC=CC=C1", []persistence.Point{{Birth: 1, Death: 0}}, []float64{1, 1, 1, 1, 1}}, // Kekulé: perceived aromatic
		{"C1CCCCC1", []persistence.Point{{Birth: 2, Death: 0}}, []float64{2, 2, 2, 2, 2}},
		{"C1=CCCCC1", []persistence.Point{{Birth: 3, Death: 0}}, []float64{2, 2, 2, 2, 2}},
		{"CC=O", nil, []float64{2, 3}},
	} {
		ds, origins, err := GraphOrigins(parse(t, c.smiles), nil, bondSettings(""))
		if err != nil {
			t.Fatal(err)
		}
		d := ds[0]
		if len(d.Ext1)+len(c.ext1) > 0 && !reflect.DeepEqual(d.Ext1, c.ext1) {
			t.Errorf("%s: ext1 %v, want %v", c.smiles, d.Ext1, c.ext1)
		}
		var deaths []float64
		for _, p := range d.Ord0 {
			if p.Birth != 0 {
				t.Errorf("%s: ord0 point %v not born at an atom", c.smiles, p)
			}
			deaths = append(deaths, p.Death)
		}
		slices.Sort(deaths)
		if !slices.Equal(deaths, c.ord0) {
			t.Errorf("%s: ord0 deaths %v, want %v", c.smiles, deaths, c.ord0)
		}
		// Origins name the molecule's atoms and bonds: a ring's point
		// goes to its six bonds.
		if len(c.ext1) == 1 {
			edges := slices.Clone(origins[0].Ext1[0].Edges)
			slices.Sort(edges)
			if !slices.Equal(edges, []int{0, 1, 2, 3, 4, 5}) || origins[0].Ext1[0].Vertices != nil {
				t.Errorf("%s: ring point from %+v", c.smiles, origins[0].Ext1[0])
			}
		}
	}
}

// Two writings of one molecule give one set of diagrams: the five-valent
// nitro group and the charge pair, an azide both ways.
func TestWritingsOfOneMolecule(t *testing.T) {
	for _, pair := range [][2]string{
		{"c1ccccc1N(=O)=O", "c1ccccc1[N+](=O)[O-]"},
		{"O=N(=O)c1ccc(cc1)N(=O)=O", "[O-][N+](=O)c1ccc(cc1)[N+]([O-])=O"},
		{"CN=N#N", "CN=[N+]=[N-]"},
	} {
		for _, atoms := range []string{"", "~O", "~N", "N+O"} {
			a, _, err := GraphOrigins(parse(t, pair[0]), nil, bondSettings(atoms))
			if err != nil {
				t.Fatal(err)
			}
			b, _, err := GraphOrigins(parse(t, pair[1]), nil, bondSettings(atoms))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("bonds:%s: %s gives %v, %s %v", atoms, pair[0], a, pair[1], b)
			}
		}
	}
}

// Element groups: nitrobenzene's N+O subgraph is the nitro group, whose
// component lives from its atoms (0) to its N=O bond (3); its origins are
// the nitro atoms and bonds.
func TestElementGroupDiagrams(t *testing.T) {
	g := parse(t, "c1ccccc1[N+](=O)[O-]")
	ds, origins, err := GraphOrigins(g, nil, bondSettings("N+O"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []persistence.Point{{Birth: 0, Death: 3}}; !reflect.DeepEqual(ds[0].Ext0, want) {
		t.Errorf("ext0 %v, want %v", ds[0].Ext0, want)
	}
	nitroAtoms, nitroBonds := []int{6, 7, 8}, []int{7, 8} // bond 6 is C-N
	for _, o := range slices.Concat(origins[0].Ord0, origins[0].Ext0, origins[0].Rel1) {
		for _, v := range o.Vertices {
			if !slices.Contains(nitroAtoms, v) {
				t.Errorf("origin %+v names atom %d outside the nitro group", o, v)
			}
		}
		for _, e := range o.Edges {
			if !slices.Contains(nitroBonds, e) {
				t.Errorf("origin %+v names bond %d outside the nitro group", o, e)
			}
		}
	}
}

// Ties in the bond-order filtration, shared: benzene's five (0, 1)
// points are born at every ring atom and end at every ring bond alike,
// however the atoms are numbered; toluene's ring bonds enter at one rank
// and its methyl's bond at another, so the methyl carbon's point (0, 2)
// ends at that bond alone, born at the methyl carbon or at any ring atom
// (the ring's component may survive through any of its six, each 1/7),
// and the ring's points share the ring atoms and bonds.
func TestBondOriginsShared(t *testing.T) {
	for _, c := range []struct {
		smiles string
		point  persistence.Point
		want   persistence.Origin
	}{
		{"c1ccccc1", persistence.Point{Birth: 0, Death: 1}, persistence.Origin{Vertices: []int{0, 1, 2, 3, 4, 5}, Edges: []int{0, 1, 2, 3, 4, 5}}},
		// Bonds in order of their ends: the methyl's, 2-3, is bond 3.
		{"c1cc(C)ccc1", persistence.Point{Birth: 0, Death: 1}, persistence.Origin{Vertices: []int{0, 1, 2, 4, 5, 6}, Edges: []int{0, 1, 2, 4, 5, 6}}},
		{"c1cc(C)ccc1", persistence.Point{Birth: 0, Death: 2}, persistence.Origin{Vertices: []int{0, 1, 2, 3, 4, 5, 6}, Edges: []int{3},
			VertexShares: []float64{1.0 / 12, 1.0 / 12, 1.0 / 12, 1.0 / 2, 1.0 / 12, 1.0 / 12, 1.0 / 12}}},
	} {
		ds, origins, err := GraphOrigins(parse(t, c.smiles), nil, bondSettings(""))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i, p := range ds[0].Ord0 {
			if p != c.point {
				continue
			}
			n++
			o := origins[0].Ord0[i]
			if !sameOrigin(o, c.want) {
				t.Errorf("%s: point %v from %+v, want %+v", c.smiles, p, o, c.want)
			}
		}
		if n == 0 {
			t.Errorf("%s: no point %v in %v", c.smiles, c.point, ds[0].Ord0)
		}
	}
}

// sameOrigin compares two origins' simplices and shares, in any order,
// to 1e-12.
func sameOrigin(a, b persistence.Origin) bool {
	same := func(ids []int, share func(int) float64, wantIDs []int, want func(int) float64) bool {
		if len(ids) != len(wantIDs) {
			return false
		}
		for k, id := range ids {
			j := slices.Index(wantIDs, id)
			if j < 0 || math.Abs(share(k)-want(j)) > 1e-12 {
				return false
			}
		}
		return true
	}
	return same(a.Vertices, a.VertexShare, b.Vertices, b.VertexShare) && same(a.Edges, a.EdgeShare, b.Edges, b.EdgeShare)
}

// A TU dataset's codes are read through its README's tables: MUTAG's
// graphs give the diagrams of the same graphs written with element
// symbols and bond types.
func TestCodesReadThroughTables(t *testing.T) {
	graphs, named, codes := mutagNamed(t, 20)
	s := Default(filtration.KindElectronegativity)
	s.Extra = []filtration.Options{{Kind: filtration.KindBonds}, {Kind: filtration.KindBonds, Atoms: "C"}}
	coded := s
	coded.Codes = codes
	for i, g := range graphs {
		want, err := GraphDiagramsOf(named[i], s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := GraphDiagramsOf(g, coded)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("graph %d: diagrams through the tables differ from the named graph's", i)
		}
	}
	if _, err := GraphDiagramsOf(graphs[0], s); err == nil {
		t.Error("codes without tables were read as a molecule")
	}
}

// mutagNamed returns MUTAG's first n graphs as its TU folder gives them
// (integer codes), the same graphs with element symbols and bond types
// in place of the codes, and the README's code tables.
func mutagNamed(t *testing.T, n int) (coded, named []*graph.Graph, codes *Codes) {
	t.Helper()
	dir := testenv.Dataset(t, "MUTAG")
	ds, err := tu.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	nodes, edges, err := tu.ReadLabelNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	bondWords := map[string]string{"aromatic": "4", "single": "1", "double": "2", "triple": "3"}
	for _, g := range ds.Graphs[:n] {
		h := *g
		h.NodeLabels, h.EdgeLabels = nil, nil
		for _, l := range g.NodeLabels {
			h.NodeLabels = append(h.NodeLabels, nodes[l])
		}
		for _, l := range g.EdgeLabels {
			h.EdgeLabels = append(h.EdgeLabels, bondWords[edges[l]])
		}
		named = append(named, &h)
	}
	return ds.Graphs[:n], named, &Codes{Nodes: nodes, Edges: edges}
}
