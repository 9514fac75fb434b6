package explain

import (
	"fmt"
	"math/rand/v2"

	"wkpi-web/core/graph"
)

// EdgeRole is an edge's part in a planted-motif graph.
type EdgeRole int8

const (
	BaseEdge  EdgeRole = iota // in the random tree
	MotifEdge                 // in the planted motif: what decides the class
	JoinEdge                  // the one edge joining motif and tree, counted as neither
)

// Motifs is a planted-motif benchmark: graphs, and for each the role of
// every edge (in Graph.Edges order).
type Motifs struct {
	Dataset *graph.Dataset
	Roles   [][]EdgeRole
}

// BA2Motifs draws n graphs of the BA-2Motifs benchmark of explanation
// papers (Luo et al., "Parameterized explainer for graph neural
// network", NeurIPS 2020): a Barabasi-Albert tree of 20 nodes (each new
// node attached to one earlier node, chosen in proportion to its degree)
// with a five-node motif joined to it by one edge between a random node
// of each; class "house" (a square with a roof: 6 edges) or "cycle" (a
// five-cycle), alternately. The node order is shuffled, so that no index
// tells motif from tree. Graphs carry no labels: only structure decides.
func BA2Motifs(n int, seed uint64) Motifs {
	r := rand.New(rand.NewPCG(seed, 0x2a))
	out := Motifs{Dataset: &graph.Dataset{Name: "BA-2Motifs", Classes: []string{"house", "cycle"}}}
	const tree = 20
	for i := range n {
		class := i % 2
		var edges []graph.Edge
		ends := []int{0} // one entry per edge end: degree-proportional choice
		for v := 1; v < tree; v++ {
			u := ends[r.IntN(len(ends))]
			edges = append(edges, graph.Edge{U: u, V: v})
			ends = append(ends, u, v)
		}
		motif := [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}} // five-cycle
		if class == 0 {
			motif = [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 4}, {1, 4}} // house
		}
		role := map[graph.Edge]EdgeRole{}
		for _, e := range motif {
			ed := graph.Edge{U: tree + min(e[0], e[1]), V: tree + max(e[0], e[1])}
			edges = append(edges, ed)
			role[ed] = MotifEdge
		}
		join := graph.Edge{U: r.IntN(tree), V: tree + r.IntN(5)}
		edges = append(edges, join)
		role[join] = JoinEdge
		// Shuffle the node order.
		perm := r.Perm(tree + 5)
		shuffled := make([]graph.Edge, len(edges))
		for j, e := range edges {
			shuffled[j] = graph.Edge{U: perm[e.U], V: perm[e.V]}
		}
		g, err := graph.New(tree+5, shuffled, nil, nil)
		if err != nil {
			panic(fmt.Sprintf("explain: BA2Motifs built a bad graph: %v", err)) // a bug, not bad input
		}
		roles := make([]EdgeRole, len(g.Edges))
		inverse := make([]int, len(perm))
		for old, nw := range perm {
			inverse[nw] = old
		}
		for j, e := range g.Edges {
			a, b := inverse[e.U], inverse[e.V]
			roles[j] = role[graph.Edge{U: min(a, b), V: max(a, b)}]
		}
		out.Dataset.Graphs = append(out.Dataset.Graphs, g)
		out.Dataset.Labels = append(out.Dataset.Labels, class)
		out.Roles = append(out.Roles, roles)
	}
	return out
}
