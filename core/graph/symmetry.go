package graph

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"strings"
)

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
	adj := make([][]neighbour, g.N)
	for i, e := range g.Edges {
		l := g.edgeLabel(i)
		adj[e.U] = append(adj[e.U], neighbour{e.V, l})
		adj[e.V] = append(adj[e.V], neighbour{e.U, l})
	}
	var n numbering
	nodes = make([]int, g.N)
	for v := range nodes {
		var key []byte
		if g.NodeLabels != nil {
			key = binary.AppendUvarint(key, uint64(len(g.NodeLabels[v])))
			key = append(key, g.NodeLabels[v]...)
		}
		if g.NodeValues != nil {
			key = binary.LittleEndian.AppendUint64(key, math.Float64bits(g.NodeValues[v]+0)) // +0: -0 becomes 0
		}
		nodes[v] = n.of(key)
	}
	count := n.count()
	next := make([]int, g.N)
	var sig []neighbour
	for {
		n = numbering{}
		for v, ns := range adj {
			sig = sig[:0]
			for _, x := range ns {
				sig = append(sig, neighbour{nodes[x.node], x.label})
			}
			slices.SortFunc(sig, func(a, b neighbour) int {
				return cmp.Or(cmp.Compare(a.node, b.node), strings.Compare(a.label, b.label))
			})
			key := binary.AppendUvarint(nil, uint64(nodes[v]))
			for _, s := range sig {
				key = binary.AppendUvarint(key, uint64(s.node))
				key = binary.AppendUvarint(key, uint64(len(s.label)))
				key = append(key, s.label...)
			}
			next[v] = n.of(key)
		}
		// A round only splits classes, so an unchanged count is the fixed point.
		nodes, next = next, nodes
		if n.count() == count {
			break
		}
		count = n.count()
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

// neighbour is one entry of a node's adjacency: the other end (or its
// colour) and the label of the edge to it.
type neighbour struct {
	node  int
	label string
}

func (g *Graph) edgeLabel(i int) string {
	if g.EdgeLabels == nil {
		return ""
	}
	return g.EdgeLabels[i]
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

func (n *numbering) count() int { return len(n.ids) }
