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

// randomRegular is a random simple graph on n nodes of degree d (n*d
// even), unlabelled (all nodes C, all edges 1): colour refinement cannot
// split it at all, so only the search tells its nodes apart.
func randomRegular(t testing.TB, rng *rand.Rand, n, d int) *graph.Graph {
	for {
		stubs := make([]int, 0, n*d)
		for v := range n {
			for range d {
				stubs = append(stubs, v)
			}
		}
		rng.Shuffle(len(stubs), func(i, j int) { stubs[i], stubs[j] = stubs[j], stubs[i] })
		seen := map[[2]int]bool{}
		var edges []graph.Edge
		ok := true
		for i := 0; i < len(stubs); i += 2 {
			u, v := min(stubs[i], stubs[i+1]), max(stubs[i], stubs[i+1])
			if u == v || seen[[2]int{u, v}] {
				ok = false
				break
			}
			seen[[2]int{u, v}] = true
			edges = append(edges, graph.Edge{U: u, V: v})
		}
		if !ok {
			continue
		}
		labels := make([]string, n)
		el := make([]string, len(edges))
		for i := range labels {
			labels[i] = "C"
		}
		for i := range el {
			el[i] = "1"
		}
		g, err := graph.New(n, edges, el, labels)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
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

// regularGraphs are random regular graphs: 2-regular ones are unions
// of cycles (a triangle and a hexagon against a nonagon), 3-regular ones
// have few or many automorphisms.
func regularGraphs(t testing.TB, rng *rand.Rand) []*graph.Graph {
	var out []*graph.Graph
	for _, nd := range [][2]int{{9, 2}, {12, 2}, {8, 3}, {10, 3}, {12, 3}, {14, 3}, {10, 4}} {
		for range 30 {
			out = append(out, randomRegular(t, rng, nd[0], nd[1]))
		}
	}
	return out
}

// TestCanonicalRegular: on regular graphs, where colour refinement
// splits nothing and the search does all the work, a graph renumbered
// keeps its form, and graphs of equal forms are isomorphic (the oracle
// finds the bijection).
func TestCanonicalRegular(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	graphs := regularGraphs(t, rng)
	byForm := map[string]*graph.Graph{}
	shared := 0
	for _, g := range graphs {
		f := mustCanonical(t, g)
		for range 3 {
			if got := mustCanonical(t, permuted(t, g, rng)); got != f {
				t.Fatalf("renumbered %v: form\n%s\nwant\n%s", g.Edges, got, f)
			}
		}
		if h, ok := byForm[f]; ok {
			if !isomorphic(g, h) {
				t.Fatalf("%v and %v share a form and are not isomorphic", g.Edges, h.Edges)
			}
			shared++
		}
		byForm[f] = g
	}
	if shared == 0 || len(byForm) < 60 {
		t.Fatalf("%d forms, %d shared: the test checks too little", len(byForm), shared)
	}
}

// TestCanonicalPruning: pruning by automorphisms never changes the
// result: the search that examines every leaf finds the same labelling
// (regular graphs, and molecules with symmetric parts).
func TestCanonicalPruning(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	graphs := regularGraphs(t, rng)
	for _, s := range []string{"C12C3C4C1C5C2C3C45", "c1ccc(cc1)C(c1ccccc1)(c1ccccc1)c1ccccc1", "C1CC1.C1CCCCC1", "C1CCC2(CC1)CCCCC2"} {
		graphs = append(graphs, parse(t, s))
	}
	pruned := 0
	for _, g := range graphs {
		fast, slow := newCanon(g), newCanon(g)
		slow.exhaustive = true
		a, err := fast.search()
		if err != nil {
			t.Fatal(err)
		}
		b, err := slow.search()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(fast.best, slow.best) {
			t.Fatalf("%v: pruned search gives labelling %v, exhaustive %v", g.Edges, a, b)
		}
		if fast.nodes < slow.nodes {
			pruned++
		}
	}
	if pruned < len(graphs)/2 {
		t.Fatalf("pruning saved nodes in only %d of %d graphs: the test checks too little", pruned, len(graphs))
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

// BenchmarkCanonical times the canonical form of a drug-sized scaffold.
func BenchmarkCanonical(b *testing.B) {
	g, err := smiles.Parse("c1ccc(-c2nc3ccccc3c(=O)n2Cc2ccc(N3CCOCC3)cc2)cc1")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Canonical(g); err != nil {
			b.Fatal(err)
		}
	}
}
