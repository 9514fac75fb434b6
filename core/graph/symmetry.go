package graph

import "encoding/binary"

// SymmetryClasses partitions g's nodes and edges into the classes that
// colour refinement (the 1-dimensional Weisfeiler-Lehman test) cannot
// tell apart, reading everything g carries: node labels, edge labels and
// node values (each only when present).
//
// Nodes start coloured by (label, value); each round a node's colour
// becomes its old colour with the multiset of (neighbour's colour, edge
// label) over its edges, until no class splits. An edge's class is the
// pair of its ends' classes with its label. Nodes (edges) that an
// automorphism of g maps onto each other, preserving labels and values,
// always share a class; the converse holds for trees and nearly every
// molecule, but not for every graph (all nodes of a regular graph share a
// class even when no automorphism relates them).
//
// Classes are numbered 0, 1, ... in order of their first node (edge).
func (g *Graph) SymmetryClasses() (nodes, edges []int) {
	c := newCanon(g)
	colour := c.refine(c.initial())
	var n numbering
	nodes = make([]int, g.N)
	for v, k := range colour {
		nodes[v] = n.of(binary.AppendUvarint(nil, uint64(k)))
	}
	n = numbering{}
	edges = make([]int, len(g.Edges))
	for i, e := range g.Edges {
		a, b := nodes[e.U], nodes[e.V]
		key := binary.AppendUvarint(nil, uint64(min(a, b)))
		key = binary.AppendUvarint(key, uint64(max(a, b)))
		edges[i] = n.of(append(key, g.edgeLabel(i)...))
	}
	return nodes, edges
}

// numbering gives each distinct key the next class number.
type numbering struct{ ids map[string]int }

func (n *numbering) of(key []byte) int {
	if n.ids == nil {
		n.ids = map[string]int{}
	}
	id, ok := n.ids[string(key)]
	if !ok {
		id = len(n.ids)
		n.ids[string(key)] = id
	}
	return id
}
