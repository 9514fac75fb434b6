package graph_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
)

// canonicalForm writes g renumbered by its canonical labelling under a
// search of at most maxNodes: node labels by position, then the sorted
// edges with their labels.
func canonicalForm(t *testing.T, g *graph.Graph, maxNodes int) (string, bool) {
	t.Helper()
	pos, exact := g.CanonicalLabelling(maxNodes)
	if !slices.Equal(slices.Sorted(slices.Values(pos)), identity(g.N)) {
		t.Fatalf("labelling %v is no permutation", pos)
	}
	at := make([]int, g.N)
	for v, p := range pos {
		at[p] = v
	}
	c := g.Renumbered(pos)
	var b strings.Builder
	for p := range c.N {
		if g.NodeLabels != nil {
			fmt.Fprintf(&b, "%s ", g.NodeLabels[at[p]])
		}
	}
	for i, e := range c.Edges {
		fmt.Fprintf(&b, "%d-%d", e.U, e.V)
		if c.EdgeLabels != nil {
			fmt.Fprintf(&b, ":%s", c.EdgeLabels[i])
		}
		b.WriteByte(' ')
	}
	return b.String(), exact
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// TestCanonicalLabelling: every numbering of a molecule of RDKit's NCI
// sample (1,000 of them, each renumbered at random three times), of
// stars of twins and of random regular graphs, where colour refinement
// splits nothing and the search does all the work, gives the same
// canonical form, exactly. With no room to search beyond the first leaf,
// the molecules and stars still get one form (their classes are orbits),
// marked not exact.
func TestCanonicalLabelling(t *testing.T) {
	all := testenv.NCISmiles(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var molecules []*graph.Graph
	for i := 0; i < len(all) && len(molecules) < 1000; i += 5 {
		if g, err := smiles.Parse(all[i]); err == nil {
			molecules = append(molecules, g)
		}
	}
	if len(molecules) < 900 {
		t.Fatalf("only %d molecules read", len(molecules))
	}
	// wantExact: 1 exact, 0 not, -1 either (no search beyond the first
	// leaf is exact when nothing was left to search).
	check := func(name string, g *graph.Graph, maxNodes int, wantExact int) {
		t.Helper()
		want, exact := canonicalForm(t, g, maxNodes)
		if wantExact >= 0 && exact != (wantExact == 1) {
			t.Fatalf("%s: exact %v, want %v", name, exact, wantExact)
		}
		for range 3 {
			if got, _ := canonicalForm(t, g.Renumbered(rng.Perm(g.N)), maxNodes); got != want {
				t.Fatalf("%s (search of %d nodes at most): canonical forms differ between numberings:\n%s\n%s", name, maxNodes, want, got)
			}
		}
	}
	for i, g := range molecules {
		check(fmt.Sprintf("molecule %d", i), g, 1<<20, 1)
		check(fmt.Sprintf("molecule %d", i), g, 0, -1)
	}
	// The stars' only ties are twins, set apart without a search.
	stars := starsOfTwins(t)
	check("stars", stars, 1<<20, 1)
	check("stars", stars, 0, 1)
	for i, g := range regularGraphs(t, rng) {
		check(fmt.Sprintf("regular graph %d", i), g, 1<<20, 1)
	}
}

// starsOfTwins are stars of 3 and 2,000 leaves joined at their hubs,
// and a clique of three leaves on one hub: set apart one leaf at a time,
// the search would take millions of nodes.
func starsOfTwins(t *testing.T) *graph.Graph {
	var stars []graph.Edge
	for leaf := 2; leaf < 2005; leaf++ {
		stars = append(stars, graph.Edge{U: min(leaf-2, 1), V: leaf})
	}
	stars = append(stars, graph.Edge{U: 0, V: 1}, graph.Edge{U: 2005, V: 2006}, graph.Edge{U: 2006, V: 2007}, graph.Edge{U: 2005, V: 2007},
		graph.Edge{U: 0, V: 2005}, graph.Edge{U: 0, V: 2006}, graph.Edge{U: 0, V: 2007})
	labels := make([]string, 2008)
	for v := range labels {
		labels[v] = "C"
	}
	bonds := make([]string, len(stars))
	for i := range bonds {
		bonds[i] = "1"
	}
	return mustNew(t, 2008, stars, bonds, labels)
}

// TestCanonicalLabellingLimit: a graph that colour refinement cannot
// split and whose nodes no automorphism relates (two triangles against a
// hexagon, all one class) gets a permutation from the first leaf when
// the search may not go on, and an exact one when it may.
func TestCanonicalLabellingLimit(t *testing.T) {
	regular := []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 0, V: 2}, {U: 3, V: 4}, {U: 4, V: 5}, {U: 3, V: 5},
		{U: 6, V: 7}, {U: 7, V: 8}, {U: 8, V: 9}, {U: 9, V: 10}, {U: 10, V: 11}, {U: 6, V: 11}}
	g := mustNew(t, 12, regular, nil, nil)
	if _, exact := canonicalForm(t, g, 1); exact {
		t.Errorf("search of 1 node: exact")
	}
	if _, exact := canonicalForm(t, g, 1<<20); !exact {
		t.Errorf("search of 2^20 nodes: not exact")
	}
	if pos, exact := (&graph.Graph{}).CanonicalLabelling(0); len(pos) != 0 || !exact {
		t.Errorf("empty graph: %v, %v", pos, exact)
	}
}

// TestCanonicalPruning: pruning by automorphisms and setting twins apart
// at once never change the result: the search that examines every leaf
// finds the same smallest certificate (regular graphs, and molecules
// with symmetric parts).
func TestCanonicalPruning(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	graphs := regularGraphs(t, rng)
	for _, s := range []string{"C12C3C4C1C5C2C3C45", "c1ccc(cc1)C(c1ccccc1)(c1ccccc1)c1ccccc1", "C1CC1.C1CCCCC1", "C1CCC2(CC1)CCCCC2", "FC(F)(F)c1ccccc1C(F)(F)F"} {
		g, err := smiles.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		graphs = append(graphs, g)
	}
	pruned := 0
	for _, g := range graphs {
		fast, fastNodes := graph.CanonicalSearch(g, false)
		slow, slowNodes := graph.CanonicalSearch(g, true)
		if !slices.Equal(fast, slow) {
			t.Fatalf("%v: pruned search gives certificate %v, exhaustive %v", g.Edges, fast, slow)
		}
		if fastNodes < slowNodes {
			pruned++
		}
	}
	if pruned < len(graphs)/2 {
		t.Fatalf("pruning saved nodes in only %d of %d graphs: the test checks too little", pruned, len(graphs))
	}
}

// randomRegular is a random simple graph on n nodes of degree d (n*d
// even), unlabelled (all nodes C, all edges 1): colour refinement cannot
// split it at all, so only the search tells its nodes apart.
func randomRegular(t *testing.T, rng *rand.Rand, n, d int) *graph.Graph {
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
		return mustNew(t, n, edges, el, labels)
	}
}

// regularGraphs are random regular graphs: 2-regular ones are unions
// of cycles (a triangle and a hexagon against a nonagon), 3-regular ones
// have few or many automorphisms.
func regularGraphs(t *testing.T, rng *rand.Rand) []*graph.Graph {
	var out []*graph.Graph
	for _, nd := range [][2]int{{9, 2}, {12, 2}, {8, 3}, {10, 3}, {12, 3}, {14, 3}, {10, 4}} {
		for range 30 {
			out = append(out, randomRegular(t, rng, nd[0], nd[1]))
		}
	}
	return out
}

// BenchmarkCanonicalLabelling times the canonical labelling of a
// drug-sized molecule.
func BenchmarkCanonicalLabelling(b *testing.B) {
	g, err := smiles.Parse("c1ccc(-c2nc3ccccc3c(=O)n2Cc2ccc(N3CCOCC3)cc2)cc1")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		g.CanonicalLabelling(1 << 20)
	}
}
