package graph

// DisjointSets is a union-find forest over the elements 0..n-1: each
// element's entry is its parent, a root its own. The caller links roots
// itself (d[b] = a), so that it decides which root stays: the persistence
// sweeps keep the elder component's.
//
// Written here because gonum keeps its union-find internal.
type DisjointSets []int

// NewDisjointSets is n elements, each a set of its own.
func NewDisjointSets(n int) DisjointSets {
	d := make(DisjointSets, n)
	for i := range d {
		d[i] = i
	}
	return d
}

// Find is the root of x's set, halving the path on the way.
func (d DisjointSets) Find(x int) int {
	for d[x] != x {
		d[x] = d[d[x]]
		x = d[x]
	}
	return x
}
