package graph

// CanonicalSearch runs the whole canonical search on g, with pruning by
// automorphisms or without (exhaustive), and returns the smallest leaf
// certificate and the nodes the search tree examined.
func CanonicalSearch(g *Graph, exhaustive bool) (certificate []int, nodes int) {
	c := newCanon(g)
	c.maxNodes = 1 << 30
	c.exhaustive = exhaustive
	c.visit(c.refine(c.initial()), nil)
	return c.best, c.nodes
}
