package graph_test

import (
	"fmt"
	"reflect"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
)

func ExampleGraph_SymmetryClasses() {
	// Nitrobenzene, O=[N+]([O-])c1ccccc1 without bond orders: the two
	// oxygens (0, 2), the ortho (4, 8) and the meta carbons (5, 7) pair up.
	labels := []string{"O", "N", "O", "C", "C", "C", "C", "C", "C"}
	edges := []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 1, V: 3}, {U: 3, V: 4}, {U: 4, V: 5}, {U: 5, V: 6}, {U: 6, V: 7}, {U: 7, V: 8}, {U: 3, V: 8}}
	g, err := graph.New(9, edges, nil, labels)
	if err != nil {
		panic(err)
	}
	nodes, bonds := g.SymmetryClasses()
	fmt.Println(nodes)
	fmt.Println(g.Edges)
	fmt.Println(bonds)
	// Output:
	// [0 1 0 2 3 4 5 4 3]
	// [{0 1} {1 2} {1 3} {3 4} {3 8} {4 5} {5 6} {6 7} {7 8}]
	// [0 0 1 2 2 3 4 4 3]
}

func TestSymmetryClasses(t *testing.T) {
	path := []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 4}}
	star := []graph.Edge{{U: 0, V: 1}, {U: 0, V: 2}, {U: 0, V: 3}, {U: 0, V: 4}}
	// Two triangles and a hexagon: every node has degree 2, so colour
	// refinement puts all twelve in one class, although no automorphism
	// maps a triangle's node onto the hexagon's.
	regular := []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 0, V: 2}, {U: 3, V: 4}, {U: 4, V: 5}, {U: 3, V: 5},
		{U: 6, V: 7}, {U: 7, V: 8}, {U: 8, V: 9}, {U: 9, V: 10}, {U: 10, V: 11}, {U: 6, V: 11}}
	tests := []struct {
		name       string
		g          *graph.Graph
		nodes      []int
		edges      []int
		fromSMILES string
	}{
		{name: "path: ends, their neighbours, the middle", g: mustNew(t, 5, path, nil, nil),
			nodes: []int{0, 1, 2, 1, 0}, edges: []int{0, 1, 1, 0}},
		{name: "path with symmetric node values", g: withValues(mustNew(t, 5, path, nil, nil), 1, 2, 3, 2, 1),
			nodes: []int{0, 1, 2, 1, 0}, edges: []int{0, 1, 1, 0}},
		{name: "path with one end's value apart: every node its own class", g: withValues(mustNew(t, 5, path, nil, nil), 1, 2, 3, 2, 1.5),
			nodes: []int{0, 1, 2, 3, 4}, edges: []int{0, 1, 2, 3}},
		{name: "path with -0 and 0 as values: equal", g: withValues(mustNew(t, 3, path[:2], nil, nil), 0, 1, negZero()),
			nodes: []int{0, 1, 0}, edges: []int{0, 0}},
		{name: "path with edge labels: the middle's bonds differ", g: mustNew(t, 5, path, []string{"1", "1", "2", "1"}, nil),
			nodes: []int{0, 1, 2, 3, 4}, edges: []int{0, 1, 2, 3}},
		{name: "star", g: mustNew(t, 5, star, nil, nil),
			nodes: []int{0, 1, 1, 1, 1}, edges: []int{0, 0, 0, 0}},
		{name: "star with one leaf labelled apart", g: mustNew(t, 5, star, nil, []string{"C", "C", "C", "C", "N"}),
			nodes: []int{0, 1, 1, 1, 2}, edges: []int{0, 0, 0, 1}},
		{name: "regular: coarser than the automorphisms", g: mustNew(t, 12, regular, nil, nil),
			nodes: make([]int, 12), edges: make([]int, 12)},
		{name: "toluene, aromatic: ortho and meta pairs", fromSMILES: "Cc1ccccc1",
			nodes: []int{0, 1, 2, 3, 4, 3, 2}, edges: []int{0, 1, 1, 2, 3, 3, 2}},
		{name: "toluene, Kekulé: the bond orders tell every ring atom apart", fromSMILES: "CC1=CC=CC=C1",
			nodes: []int{0, 1, 2, 3, 4, 5, 6}, edges: []int{0, 1, 2, 3, 4, 5, 6}},
		{name: "nitrobenzene: the oxygens differ by bond order", fromSMILES: "O=[N+]([O-])c1ccccc1",
			nodes: []int{0, 1, 2, 3, 4, 5, 6, 5, 4}, edges: []int{0, 1, 2, 3, 3, 4, 5, 5, 4}},
		{name: "no nodes", g: mustNew(t, 0, nil, nil, nil), nodes: []int{}, edges: []int{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.g
			if tc.fromSMILES != "" {
				var err error
				if g, err = smiles.Parse(tc.fromSMILES); err != nil {
					t.Fatal(err)
				}
			}
			nodes, edges := g.SymmetryClasses()
			if !reflect.DeepEqual(nodes, tc.nodes) || !reflect.DeepEqual(edges, tc.edges) {
				t.Errorf("classes of nodes %v, of edges %v (%v), want %v, %v", nodes, edges, g.Edges, tc.nodes, tc.edges)
			}
		})
	}
}

func mustNew(t *testing.T, n int, edges []graph.Edge, edgeLabels, nodeLabels []string) *graph.Graph {
	t.Helper()
	g, err := graph.New(n, edges, edgeLabels, nodeLabels)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func withValues(g *graph.Graph, values ...float64) *graph.Graph {
	g.NodeValues = values
	return g
}

func negZero() float64 {
	zero := 0.0
	return -zero
}

// TestSymmetryClassesRDKit: on 500 molecules of RDKit's NCI sample, the
// classes equal RDKit's symmetry classes (CanonicalRankAtoms with
// breakTies=False) of the same graph: bond orders as written, charges,
// isotopes, chirality and hydrogen counts cleared, since the graph keeps
// none of them (testdata/rdkit_symmetry.py). RDKit also counts each
// atom's ring memberships, which colour refinement cannot see; where that
// splits a class of ours the molecule is counted and shown, and it may
// not happen in more than 1 % of them. Ours are never finer.
func TestSymmetryClassesRDKit(t *testing.T) {
	py := testenv.Python(t, "rdkit")
	all := testenv.NCISmiles(t)
	var mols []string
	for i := 0; i < len(all) && len(mols) < 500; i += 10 {
		mols = append(mols, all[i])
	}
	var oracle []struct{ Written, Plain []int }
	testenv.RunJSON(t, py, []string{"testdata/rdkit_symmetry.py"}, mols, &oracle)
	var same, coarser, finer, plainFiner, plainCoarser int
	for i, s := range mols {
		g, err := smiles.Parse(s)
		if err != nil || oracle[i].Written == nil {
			t.Fatalf("%s: ours %v, RDKit read it: %v", s, err, oracle[i].Written != nil)
		}
		nodes, _ := g.SymmetryClasses()
		if len(oracle[i].Written) != g.N {
			t.Fatalf("%s: %d atoms for RDKit, %d nodes", s, len(oracle[i].Written), g.N)
		}
		c, f := compare(nodes, oracle[i].Written)
		switch {
		case f:
			finer++
			t.Errorf("%s: classes %v finer than RDKit's %v", s, nodes, oracle[i].Written)
		case c:
			coarser++
			t.Logf("%s: classes %v coarser than RDKit's %v", s, nodes, oracle[i].Written)
		default:
			same++
		}
		if oracle[i].Plain != nil {
			c, f := compare(nodes, oracle[i].Plain)
			plainCoarser += b2i(c)
			plainFiner += b2i(f)
		}
	}
	t.Logf("%d molecules: classes equal to RDKit's %d, coarser %d, finer %d; against RDKit's sanitised molecule "+
		"(aromatic bonds, charges and hydrogens counted) coarser somewhere in %d, finer somewhere in %d",
		len(mols), same, coarser, finer, plainCoarser, plainFiner)
	if coarser > len(mols)/100 {
		t.Errorf("coarser than RDKit in %d of %d molecules", coarser, len(mols))
	}
}

// compare reports whether partition a puts together two nodes that b
// keeps apart (coarser), and whether b puts together two that a keeps
// apart (finer).
func compare(a, b []int) (coarser, finer bool) {
	for i := range a {
		for j := range i {
			coarser = coarser || (a[i] == a[j] && b[i] != b[j])
			finer = finer || (a[i] != a[j] && b[i] == b[j])
		}
	}
	return coarser, finer
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
