package graph

import (
	"errors"
	"fmt"
	"sort"
)

// Edge is an undirected edge between node indices U < V.
type Edge struct{ U, V int }

// Graph is a simple undirected graph on nodes 0..N-1.
type Graph struct {
	N          int
	Edges      []Edge    // U < V, sorted by (U, V), no duplicates, no self-loops
	NodeLabels []string  // nil, or one per node
	EdgeLabels []string  // nil, or one per edge of Edges
	NodeValues []float64 // nil, or one real value per node (SWC descriptor, given attributes)
	// Atoms is nil, or one entry per node of a molecule read from SMILES or
	// a molfile: charge, hydrogen count, isotope and aromaticity.
	Atoms []Atom `json:",omitempty"`
}

// ErrSelfLoop reports an edge from a node to itself; a simplicial complex has no such edge.
var ErrSelfLoop = errors.New("self-loop")

// New builds a normalised graph on n nodes. Edges may come in either
// orientation and repeated; the first label seen for an edge is kept.
// edgeLabels is nil or parallel to edges. nodeLabels is nil or of length n.
func New(n int, edges []Edge, edgeLabels, nodeLabels []string) (*Graph, error) {
	if n < 0 {
		return nil, fmt.Errorf("negative node count %d", n)
	}
	if edgeLabels != nil && len(edgeLabels) != len(edges) {
		return nil, fmt.Errorf("%d edge labels for %d edges", len(edgeLabels), len(edges))
	}
	if nodeLabels != nil && len(nodeLabels) != n {
		return nil, fmt.Errorf("%d node labels for %d nodes", len(nodeLabels), n)
	}
	type labelled struct {
		e     Edge
		label string
		order int
	}
	all := make([]labelled, 0, len(edges))
	for i, e := range edges {
		if e.U < 0 || e.U >= n || e.V < 0 || e.V >= n {
			return nil, fmt.Errorf("edge (%d, %d): node out of range 0..%d", e.U, e.V, n-1)
		}
		if e.U == e.V {
			return nil, fmt.Errorf("edge (%d, %d): %w", e.U, e.V, ErrSelfLoop)
		}
		if e.U > e.V {
			e.U, e.V = e.V, e.U
		}
		l := labelled{e: e, order: i}
		if edgeLabels != nil {
			l.label = edgeLabels[i]
		}
		all = append(all, l)
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i].e, all[j].e
		return a.U < b.U || (a.U == b.U && a.V < b.V)
	})
	g := &Graph{N: n, NodeLabels: nodeLabels}
	if edgeLabels != nil {
		g.EdgeLabels = []string{}
	}
	for i, l := range all {
		if i > 0 && all[i-1].e == l.e {
			continue
		}
		g.Edges = append(g.Edges, l.e)
		if edgeLabels != nil {
			g.EdgeLabels = append(g.EdgeLabels, l.label)
		}
	}
	return g, nil
}

// Neighbors returns the sorted neighbour list of every node.
func (g *Graph) Neighbors() [][]int {
	adj := make([][]int, g.N)
	for _, e := range g.Edges {
		adj[e.U] = append(adj[e.U], e.V)
		adj[e.V] = append(adj[e.V], e.U)
	}
	for _, a := range adj {
		sort.Ints(a)
	}
	return adj
}

// Components labels each node with its connected component (0..count-1,
// numbered in order of their smallest node) and returns the count.
func (g *Graph) Components() (comp []int, count int) {
	parent := NewDisjointSets(g.N)
	find := parent.Find
	for _, e := range g.Edges {
		a, b := find(e.U), find(e.V)
		if a != b {
			if a < b {
				parent[b] = a
			} else {
				parent[a] = b
			}
		}
	}
	comp = make([]int, g.N)
	id := map[int]int{}
	for i := range comp {
		r := find(i)
		c, ok := id[r]
		if !ok {
			c = len(id)
			id[r] = c
		}
		comp[i] = c
	}
	return comp, len(id)
}

// Renumbered returns g with node v numbered to[v], to a permutation of
// 0..N-1: the same graph written in another order, its labels, values and
// atoms carried along and its edges sorted as New sorts them. It panics
// if to is not a permutation, a programming error.
func (g *Graph) Renumbered(to []int) *Graph {
	if len(to) != g.N {
		panic(fmt.Sprintf("graph: renumbering of %d nodes for %d", len(to), g.N))
	}
	edges := make([]Edge, len(g.Edges))
	for i, e := range g.Edges {
		edges[i] = Edge{U: to[e.U], V: to[e.V]}
	}
	var labels []string
	if g.NodeLabels != nil {
		labels = make([]string, g.N)
		for v, l := range g.NodeLabels {
			labels[to[v]] = l
		}
	}
	h, err := New(g.N, edges, g.EdgeLabels, labels)
	if err != nil || len(h.Edges) != len(g.Edges) {
		panic(fmt.Sprintf("graph: %v is no renumbering: %v", to, err))
	}
	if g.NodeValues != nil {
		h.NodeValues = make([]float64, g.N)
		for v, x := range g.NodeValues {
			h.NodeValues[to[v]] = x
		}
	}
	if g.Atoms != nil {
		h.Atoms = make([]Atom, g.N)
		for v, a := range g.Atoms {
			h.Atoms[to[v]] = a
		}
	}
	return h
}
