package scaffold

import (
	"math/rand/v2"
	"slices"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
)

// permuted returns g with its nodes renumbered by a random permutation.
func permuted(t testing.TB, g *graph.Graph, rng *rand.Rand) *graph.Graph {
	t.Helper()
	perm := rng.Perm(g.N)
	var labels []string
	if g.NodeLabels != nil {
		labels = make([]string, g.N)
		for v, l := range g.NodeLabels {
			labels[perm[v]] = l
		}
	}
	edges := make([]graph.Edge, len(g.Edges))
	for i, e := range g.Edges {
		edges[i] = graph.Edge{U: perm[e.U], V: perm[e.V]}
	}
	// Edge order changes too: graph.New sorts them.
	order := rng.Perm(len(edges))
	shuffled := make([]graph.Edge, len(edges))
	var elabels []string
	if g.EdgeLabels != nil {
		elabels = make([]string, len(edges))
	}
	for i, j := range order {
		shuffled[i] = edges[j]
		if elabels != nil {
			elabels[i] = g.EdgeLabels[j]
		}
	}
	h, err := graph.New(g.N, shuffled, elabels, labels)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func mustCanonical(t testing.TB, g *graph.Graph) string {
	t.Helper()
	c, err := Canonical(g)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// isomorphic is the oracle: a backtracking search over bijections that
// checks each new node's edges (and their labels) to the nodes before it.
func isomorphic(a, b *graph.Graph) bool {
	if a.N != b.N || len(a.Edges) != len(b.Edges) {
		return false
	}
	edgesOf := func(g *graph.Graph) map[[2]int]string {
		m := map[[2]int]string{}
		for i, e := range g.Edges {
			m[[2]int{e.U, e.V}], m[[2]int{e.V, e.U}] = g.EdgeLabels[i], g.EdgeLabels[i]
		}
		return m
	}
	ea, eb := edgesOf(a), edgesOf(b)
	perm := make([]int, a.N)
	used := make([]bool, a.N)
	var try func(v int) bool
	try = func(v int) bool {
		if v == a.N {
			return true
		}
		for w := range b.N {
			if used[w] || a.NodeLabels[v] != b.NodeLabels[w] {
				continue
			}
			ok := true
			for u := range v {
				la, ina := ea[[2]int{u, v}]
				lb, inb := eb[[2]int{perm[u], w}]
				if ina != inb || la != lb {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			used[w], perm[v] = true, w
			if try(v + 1) {
				return true
			}
			used[w] = false
		}
		return false
	}
	return try(0)
}

// profile is a graph's node count and sorted degrees.
func profile(g *graph.Graph) []int {
	deg := make([]int, g.N)
	for _, e := range g.Edges {
		deg[e.U]++
		deg[e.V]++
	}
	slices.Sort(deg)
	return append(deg, g.N)
}

func randomGraph(t testing.TB, rng *rand.Rand, n int) *graph.Graph {
	var edges []graph.Edge
	var elabels []string
	for u := range n {
		for v := u + 1; v < n; v++ {
			if rng.IntN(3) == 0 {
				edges = append(edges, graph.Edge{U: u, V: v})
				elabels = append(elabels, []string{"1", "2"}[rng.IntN(2)])
			}
		}
	}
	labels := make([]string, n)
	for v := range labels {
		labels[v] = []string{"C", "N"}[rng.IntN(4)/3]
	}
	g, err := graph.New(n, edges, elabels, labels)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestCanonicalIsIsomorphism: on random small labelled graphs, equal
// canonical forms exactly when the brute-force oracle finds an
// isomorphism, and every form is unchanged by renumbering the nodes.
func TestCanonicalIsIsomorphism(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var graphs []*graph.Graph
	for range 300 {
		g := randomGraph(t, rng, 2+rng.IntN(5))
		graphs = append(graphs, g, permuted(t, g, rng))
	}
	forms := make([]string, len(graphs))
	for i, g := range graphs {
		forms[i] = mustCanonical(t, g)
	}
	same := 0
	for i := range graphs {
		for j := i + 1; j < len(graphs); j++ {
			// Graphs of different sizes or degree sequences are not
			// isomorphic; the others go to the oracle.
			iso := slices.Equal(profile(graphs[i]), profile(graphs[j])) && isomorphic(graphs[i], graphs[j])
			if eq := forms[i] == forms[j]; eq != iso {
				t.Fatalf("graphs %d and %d: isomorphic %v, equal forms %v\n%v %v\n%v %v", i, j, iso, eq, graphs[i].Edges, graphs[i].NodeLabels, graphs[j].Edges, graphs[j].NodeLabels)
			}
			if iso {
				same++
			}
		}
	}
	if same < 300 {
		t.Fatalf("only %d isomorphic pairs: the test checks too little", same)
	}
}

// TestCanonicalSymmetric: graphs far more symmetric than molecules (the
// Petersen graph, the 4-cube, eight disjoint benzene rings, cubane,
// C60) get one form however they are numbered, within the search limit.
func TestCanonicalSymmetric(t *testing.T) {
	cycle := func(n int) ([]graph.Edge, int) {
		var e []graph.Edge
		for i := range n {
			e = append(e, graph.Edge{U: i, V: (i + 1) % n})
		}
		return e, n
	}
	var petersen []graph.Edge
	for i := range 5 {
		petersen = append(petersen, graph.Edge{U: i, V: (i + 1) % 5}, graph.Edge{U: i, V: i + 5}, graph.Edge{U: 5 + i, V: 5 + (i+2)%5})
	}
	var cube []graph.Edge
	for v := range 16 {
		for b := 1; b < 16; b <<= 1 {
			if v&b == 0 {
				cube = append(cube, graph.Edge{U: v, V: v | b})
			}
		}
	}
	var benzenes []graph.Edge
	for k := range 8 {
		ring, _ := cycle(6)
		for _, e := range ring {
			benzenes = append(benzenes, graph.Edge{U: 6*k + e.U, V: 6*k + e.V})
		}
	}
	plain := func(n int, edges []graph.Edge) *graph.Graph {
		labels := make([]string, n)
		el := make([]string, len(edges))
		for i := range labels {
			labels[i] = "C"
		}
		for i := range el {
			el[i] = "4"
		}
		g, err := graph.New(n, edges, el, labels)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	cases := map[string]*graph.Graph{
		"petersen": plain(10, petersen),
		"4-cube":   plain(16, cube),
		"benzenes": plain(48, benzenes),
	}
	for name, s := range map[string]string{
		"cubane": "C12C3C4C1C5C2C3C45",
		"C60":    "c12c3c4c5c1c1c6c7c2c2c8c3c3c9c4c4c%10c5c5c1c1c6c6c%11c7c2c2c7c8c3c3c8c9c4c4c9c%10c5c5c1c1c6c6c%11c2c2c7c3c3c8c4c4c9c5c1c1c6c2c3c41",
	} {
		g, err := smiles.Parse(s)
		if err != nil {
			t.Fatal(name, err)
		}
		cases[name] = g
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for name, g := range cases {
		want := mustCanonical(t, g)
		for range 5 {
			if got := mustCanonical(t, permuted(t, g, rng)); got != want {
				t.Fatalf("%s: renumbered form differs:\n%s\n%s", name, got, want)
			}
		}
	}
}

// TestCanonicalLabelsCount: a form keeps every node label and edge
// label, so graphs differing only in a label differ.
func TestCanonicalLabelsCount(t *testing.T) {
	parse := func(s string) *graph.Graph {
		g, err := smiles.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	forms := map[string]string{}
	for _, s := range []string{"CC=O", "CCO", "CC=N", "C=CO", "OCC", "C1CC1", "C1=CC1", "C.CO", ""} {
		var g *graph.Graph
		if s == "" {
			g = &graph.Graph{}
		} else {
			g = parse(s)
		}
		forms[s] = mustCanonical(t, g)
	}
	if forms["CCO"] != forms["OCC"] {
		t.Errorf("CCO and OCC differ: %s, %s", forms["CCO"], forms["OCC"])
	}
	if forms["CC=O"] != "C,C,O|0-1:1,1-2:2" || forms[""] != "" {
		t.Errorf("forms %q", forms)
	}
	seen := map[string]string{}
	for s, f := range forms {
		if s == "OCC" {
			continue
		}
		if other, dup := seen[f]; dup {
			t.Errorf("%s and %s share form %s", s, other, f)
		}
		seen[f] = s
	}
}
