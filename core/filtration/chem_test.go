package filtration

import (
	"math"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/graph"
)

// molecule builds a graph from atoms and "u-v:type" bonds.
func molecule(t *testing.T, atoms []string, bonds ...string) *graph.Graph {
	t.Helper()
	var edges []graph.Edge
	var types []string
	for _, b := range bonds {
		pair, typ, _ := strings.Cut(b, ":")
		a, c, _ := strings.Cut(pair, "-")
		u, v := atoi(t, a), atoi(t, c)
		edges, types = append(edges, graph.Edge{U: u, V: v}), append(types, typ)
	}
	g, err := graph.New(len(atoms), edges, types, atoms)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("bad atom index %q", s)
		}
		n = 10*n + int(c-'0')
	}
	return n
}

// nitrobenzene: ring atoms 0-5 (aromatic), N 6 on atom 0, O 7 (double)
// and O 8 (single) on the N.
func nitrobenzene(t *testing.T) *graph.Graph {
	return molecule(t, []string{"C", "C", "C", "C", "C", "C", "N", "O", "O"},
		"0-1:4", "1-2:4", "2-3:4", "3-4:4", "4-5:4", "5-0:4", "0-6:1", "6-7:2", "6-8:1")
}

func TestBondsSubdivides(t *testing.T) {
	g := nitrobenzene(t)
	f, err := Compute(g, Options{Kind: KindBonds})
	if err != nil {
		t.Fatal(err)
	}
	d := f.On
	if d == nil || d.Graph.N != g.N+len(g.Edges) || len(d.Graph.Edges) != 2*len(g.Edges) {
		t.Fatalf("subdivision: %+v", d)
	}
	// Atoms at 0, each bond's vertex at its type's rank.
	rank := map[string]float64{"4": 1, "1": 2, "2": 3}
	for v := range g.N {
		if f.Vertex[v] != 0 || d.Vertex[v] != (Ref{Index: v}) {
			t.Errorf("atom %d: value %v, stands for %+v", v, f.Vertex[v], d.Vertex[v])
		}
	}
	for i := range g.Edges {
		b := g.N + i
		if f.Vertex[b] != rank[g.EdgeLabels[i]] || d.Vertex[b] != (Ref{Index: i, Edge: true}) {
			t.Errorf("bond %d (%s): value %v, stands for %+v", i, g.EdgeLabels[i], f.Vertex[b], d.Vertex[b])
		}
	}
	// Each half-bond joins an atom of the bond to the bond's vertex.
	for j, e := range d.Graph.Edges {
		bond := g.Edges[d.Edge[j]]
		if e.V != g.N+d.Edge[j] || (e.U != bond.U && e.U != bond.V) {
			t.Errorf("half-edge %v mapped to bond %d %v", e, d.Edge[j], bond)
		}
	}
}

func TestElementGroup(t *testing.T) {
	g := nitrobenzene(t)
	f, err := Compute(g, Options{Kind: KindElectronegativity, Atoms: "N+O"})
	if err != nil {
		t.Fatal(err)
	}
	if f.On.Graph.N != 3 || !slices.Equal(f.Vertex, []float64{3.04, 3.44, 3.44}) {
		t.Fatalf("N+O subgraph: %d atoms, values %v", f.On.Graph.N, f.Vertex)
	}
	if want := []Ref{{Index: 6}, {Index: 7}, {Index: 8}}; !slices.Equal(f.On.Vertex, want) {
		t.Errorf("atoms %v, want %v", f.On.Vertex, want)
	}
	if !slices.Equal(f.On.Edge, []int{7, 8}) {
		t.Errorf("bonds %v, want the N=O and N-O bonds 7 and 8", f.On.Edge)
	}
	// The bond graph of a group maps through both steps: the N+O
	// subgraph's bond 0 is the molecule's bond 7.
	f, err = Compute(g, Options{Kind: KindBonds, Atoms: "O+N"})
	if err != nil {
		t.Fatal(err)
	}
	if f.On.Graph.N != 5 || f.On.Vertex[3] != (Ref{Index: 7, Edge: true}) || f.On.Vertex[0] != (Ref{Index: 6}) {
		t.Errorf("bond graph of N+O: %d vertices, %+v", f.On.Graph.N, f.On.Vertex)
	}
	if !slices.Equal(f.On.Edge, []int{7, 8, 7, 8}) {
		t.Errorf("half-edges on bonds %v", f.On.Edge)
	}
	// The bonds around O: nitrobenzene's N=O and N-O, with the N and both
	// O; the C-N bond has no O end.
	f, err = Compute(g, Options{Kind: KindDegree, Atoms: "~O"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []Ref{{Index: 6}, {Index: 7}, {Index: 8}}; !slices.Equal(f.On.Vertex, want) || !slices.Equal(f.On.Edge, []int{7, 8}) {
		t.Errorf("around O: atoms %v, bonds %v", f.On.Vertex, f.On.Edge)
	}
	// Around C: every bond has a carbon end but the N=O and N-O.
	f, err = Compute(g, Options{Kind: KindDegree, Atoms: "~C"})
	if err != nil {
		t.Fatal(err)
	}
	if f.On.Graph.N != 7 || !slices.Equal(f.On.Edge, []int{0, 1, 2, 3, 4, 5, 6}) {
		t.Errorf("around C: %d atoms, bonds %v", f.On.Graph.N, f.On.Edge)
	}
	// A group absent from the molecule leaves an empty graph.
	f, err = Compute(g, Options{Kind: KindBonds, Atoms: "halogens"})
	if err != nil || f.On.Graph.N != 0 {
		t.Errorf("halogens of nitrobenzene: %v, %+v", err, f.On)
	}
}

// TestCharge checks the Gasteiger charges of nitrobenzene written as a
// TU dataset writes it (one N=O, one N-O, no charges) against RDKit's of
// c1ccccc1[N+](=O)[O-] (ComputeGasteigerCharges, renumbered: RDKit's
// atom 5 carries the N), and their restriction to an element group.
func TestCharge(t *testing.T) {
	g := nitrobenzene(t)
	want := []float64{0.268922, 0.015875, -0.055436, -0.06177, -0.055436, 0.015875, 0.062183, -0.25831, -0.25831}
	f, err := Compute(g, Options{Kind: KindCharge})
	if err != nil {
		t.Fatal(err)
	}
	for v, q := range f.Vertex {
		if math.Abs(q-want[v]) > 1e-6 {
			t.Errorf("atom %d: %.6f, RDKit %.6f", v, q, want[v])
		}
	}
	// Around O: the N and both oxygens, at their charges in the molecule.
	around, err := Compute(g, Options{Kind: KindCharge, Atoms: "~O"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(around.Vertex, f.Vertex[6:]) {
		t.Errorf("around O: %v, want %v", around.Vertex, f.Vertex[6:])
	}
}

func TestChemistryRefused(t *testing.T) {
	g := nitrobenzene(t)
	coded, err := graph.New(2, []graph.Edge{{U: 0, V: 1}}, []string{"1"}, []string{"0", "1"})
	if err != nil {
		t.Fatal(err)
	}
	bare, err := graph.New(2, []graph.Edge{{U: 0, V: 1}}, nil, []string{"C", "C"})
	if err != nil {
		t.Fatal(err)
	}
	dummy := molecule(t, []string{"*", "C", "C"}, "0-1:1", "1-2:1")
	for _, c := range []struct {
		g    *graph.Graph
		o    Options
		want string
	}{
		{g, Options{Kind: KindDegree, Atoms: "Xx"}, `"Xx" is not an element symbol`},
		{dummy, Options{Kind: KindBonds}, "atom 0 is a dummy atom (*, an attachment point or R group)"},
		{coded, Options{Kind: KindBonds}, `node 0 is labelled "0"`},
		{bare, Options{Kind: KindBonds}, "no bond types"},
		{cycle(t, 4), Options{Kind: KindElectronegativity}, "no atom types"},
		{cycle(t, 4), Options{Kind: KindCharge}, "no atom types"},
		{bare, Options{Kind: KindCharge}, "no bond types"},
		{cycle(t, 4), Options{Kind: KindHKS, Atoms: "C"}, "no atom types"},
	} {
		_, err := Compute(c.g, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.o, err, c.want)
		}
	}
}

// TestLabelGroup checks groups of node labels on a graph with codes for
// atoms and no bond types (NCI1's kind): the subgraph is the one a
// group of elements would give with the codes as symbols.
func TestLabelGroup(t *testing.T) {
	// A 6-ring of label 3 with a 1-2-1 chain on vertex 0: 0-6, 6-7, 7-8.
	// graph.New sorts the edges: 0-1 0-5 0-6 1-2 2-3 3-4 4-5 6-7 7-8.
	edges := []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 4}, {U: 4, V: 5}, {U: 0, V: 5}, {U: 0, V: 6}, {U: 6, V: 7}, {U: 7, V: 8}}
	g, err := graph.New(9, edges, nil, []string{"3", "3", "3", "3", "3", "3", "1", "2", "1"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Compute(g, Options{Kind: KindDegree, Atoms: "#3"})
	if err != nil {
		t.Fatal(err)
	}
	if f.On.Graph.N != 6 || !slices.Equal(f.Vertex, []float64{2, 2, 2, 2, 2, 2}) || !slices.Equal(f.On.Edge, []int{0, 1, 3, 4, 5, 6}) {
		t.Errorf("#3: %d atoms, degrees %v, bonds %v", f.On.Graph.N, f.Vertex, f.On.Edge)
	}
	// Around label 1: the bonds 0-6, 6-7 and 7-8 with their ends.
	f, err = Compute(g, Options{Kind: KindDegree, Atoms: "~#1"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []Ref{{Index: 0}, {Index: 6}, {Index: 7}, {Index: 8}}; !slices.Equal(f.On.Vertex, want) || !slices.Equal(f.On.Edge, []int{2, 7, 8}) || !slices.Equal(f.Vertex, []float64{1, 2, 2, 1}) {
		t.Errorf("~#1: atoms %v, bonds %v, degrees %v", f.On.Vertex, f.On.Edge, f.Vertex)
	}
	f, err = Compute(g, Options{Kind: KindDegree, Atoms: "#1+#2"})
	if err != nil || f.On.Graph.N != 3 || !slices.Equal(f.On.Edge, []int{7, 8}) {
		t.Errorf("#1+#2: %v, %+v", err, f.On)
	}
	// Codes are labels, not elements: "#C" is the label "C", and element
	// groups still need element symbols.
	if _, err := Compute(g, Options{Kind: KindDegree, Atoms: "C"}); err == nil {
		t.Error("an element group accepted a graph of codes")
	}
	bare := cycle(t, 4)
	if _, err := Compute(bare, Options{Kind: KindDegree, Atoms: "#3"}); err == nil || !strings.Contains(err.Error(), "needs node labels") {
		t.Errorf("#3 on a graph without labels: %v", err)
	}
}

func TestParseAtoms(t *testing.T) {
	got, around, err := ParseAtoms("~#3+#14+#3")
	if err != nil || !around || !slices.Equal(got, []string{"3", "14"}) {
		t.Errorf("~#3+#14+#3: %v, %v, %v", got, around, err)
	}
	got, around, err = ParseAtoms("C+halogens+Cl")
	if err != nil || around || !slices.Equal(got, []string{"C", "F", "Cl", "Br", "I"}) {
		t.Errorf("C+halogens+Cl: %v, %v, %v", got, around, err)
	}
	got, around, err = ParseAtoms("~O")
	if err != nil || !around || !slices.Equal(got, []string{"O"}) {
		t.Errorf("~O: %v, %v, %v", got, around, err)
	}
	for _, bad := range []string{"~", "O~", "~~O", "C+", "#", "#1+O", "~#"} {
		if _, _, err := ParseAtoms(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
