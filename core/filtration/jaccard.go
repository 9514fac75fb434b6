package filtration

import "wkpi-web/core/graph"

// JaccardIndex returns |N(u) ∩ N(v)| / |N(u) ∪ N(v)| for every edge uv of
// g, in the order of g.Edges, with open neighbourhoods: u and v are in the
// union but never in the intersection, so a tree edge gets 0.
func JaccardIndex(g *graph.Graph) []float64 {
	adj := g.Neighbors()
	jac := make([]float64, len(g.Edges))
	for i, e := range g.Edges {
		common := intersectSorted(adj[e.U], adj[e.V])
		union := len(adj[e.U]) + len(adj[e.V]) - common
		jac[i] = float64(common) / float64(union)
	}
	return jac
}

// intersectSorted counts the values shared by two sorted lists.
func intersectSorted(p, q []int) int {
	n := 0
	for len(p) > 0 && len(q) > 0 {
		switch {
		case p[0] < q[0]:
			p = p[1:]
		case p[0] > q[0]:
			q = q[1:]
		default:
			n++
			p, q = p[1:], q[1:]
		}
	}
	return n
}
