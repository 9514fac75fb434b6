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
	colour := refine(g.adjacency(), g.nodeKeys())
	var n numbering
	nodes = make([]int, g.N)
	for v, c := range colour {
		nodes[v] = n.of(binary.AppendUvarint(nil, uint64(c)))
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

// CanonicalOrder returns a position for every node of g, a permutation of
// 0..N-1 that depends on g (its structure, labels and values, as
// SymmetryClasses reads them) and not on how its nodes are numbered: two
// numberings of one graph get orders that an automorphism maps onto each
// other. It is colour refinement with classes named by their content
// rather than by their first node, then individualisation: while a class
// holds several nodes, the first of the smallest class is set apart (all
// of it at once, in index order, when its nodes are twins that any
// permutation of them maps onto each other: a star's leaves) and the
// colours refined again. That is the search of canonical labelling tools
// without their backtracking, which nodes of one class that are
// automorphic do not need; a class of nodes that no automorphism relates,
// rare in molecules, is split by index.
func (g *Graph) CanonicalOrder() []int {
	adj := g.adjacency()
	colour := refine(adj, g.nodeKeys())
	keys := make([]string, g.N)
	for {
		size := make([]int, g.N)
		for _, c := range colour {
			size[c]++
		}
		shared := slices.IndexFunc(size, func(k int) bool { return k > 1 })
		if shared < 0 {
			return colour
		}
		var class []int
		for v, c := range colour {
			if c == shared {
				class = append(class, v)
			}
		}
		// Twins (a star's leaves, a CF3's fluorines) may be put in any
		// order: each swap of two is an automorphism. Others are set
		// apart one at a time.
		apart := class[:1]
		if twins(adj, class) {
			apart = class
		}
		for v, c := range colour {
			key := binary.AppendUvarint(nil, uint64(c))
			if k := slices.Index(apart, v); k >= 0 {
				key = binary.AppendUvarint(key, uint64(k))
			} else {
				key = binary.AppendUvarint(key, uint64(len(apart)))
			}
			keys[v] = string(key)
		}
		colour = refine(adj, keys)
	}
}

// twins says whether every permutation of class (nodes of one colour)
// is an automorphism: they have the same neighbours outside the class,
// over bonds of the same labels, and among themselves either no edge or
// every edge, all of one label.
func twins(adj [][]neighbour, class []int) bool {
	in := make(map[int]bool, len(class))
	for _, v := range class {
		in[v] = true
	}
	outside := func(v int) (out []neighbour, inner []string) {
		for _, x := range adj[v] {
			if in[x.node] {
				inner = append(inner, x.label)
			} else {
				out = append(out, x)
			}
		}
		slices.SortFunc(out, func(a, b neighbour) int {
			return cmp.Or(cmp.Compare(a.node, b.node), strings.Compare(a.label, b.label))
		})
		return out, inner
	}
	first, firstInner := outside(class[0])
	for _, v := range class {
		out, inner := outside(v)
		if !slices.Equal(out, first) || len(inner) != len(firstInner) || (len(inner) != 0 && len(inner) != len(class)-1) {
			return false
		}
		for _, l := range inner {
			if l != firstInner[0] {
				return false
			}
		}
	}
	return true
}

// adjacency lists each node's neighbours with the labels of the edges to
// them.
func (g *Graph) adjacency() [][]neighbour {
	adj := make([][]neighbour, g.N)
	for i, e := range g.Edges {
		l := g.edgeLabel(i)
		adj[e.U] = append(adj[e.U], neighbour{e.V, l})
		adj[e.V] = append(adj[e.V], neighbour{e.U, l})
	}
	return adj
}

// nodeKeys are the nodes' first colours: label and value, each when g
// has them.
func (g *Graph) nodeKeys() []string {
	keys := make([]string, g.N)
	for v := range keys {
		var key []byte
		if g.NodeLabels != nil {
			key = binary.AppendUvarint(key, uint64(len(g.NodeLabels[v])))
			key = append(key, g.NodeLabels[v]...)
		}
		if g.NodeValues != nil {
			key = binary.LittleEndian.AppendUint64(key, math.Float64bits(g.NodeValues[v]+0)) // +0: -0 becomes 0
		}
		keys[v] = string(key)
	}
	return keys
}

// refine runs colour refinement from the nodes' first keys: each round a
// node's colour becomes its old colour with the multiset of (neighbour's
// colour, edge label) over its edges, until no class splits. Colours are
// the ranks of their keys among the sorted distinct keys, so that they
// name a class by what it is, not by which node comes first.
func refine(adj [][]neighbour, keys []string) []int {
	colour, count := rank(keys)
	next := make([]string, len(adj))
	var sig []neighbour
	for {
		for v, ns := range adj {
			sig = sig[:0]
			for _, x := range ns {
				sig = append(sig, neighbour{colour[x.node], x.label})
			}
			slices.SortFunc(sig, func(a, b neighbour) int {
				return cmp.Or(cmp.Compare(a.node, b.node), strings.Compare(a.label, b.label))
			})
			key := binary.AppendUvarint(nil, uint64(colour[v]))
			for _, s := range sig {
				key = binary.AppendUvarint(key, uint64(s.node))
				key = binary.AppendUvarint(key, uint64(len(s.label)))
				key = append(key, s.label...)
			}
			next[v] = string(key)
		}
		refined, n := rank(next)
		// A round only splits classes, so an unchanged count is the fixed point.
		if n == count {
			return colour
		}
		colour, count = refined, n
	}
}

// rank numbers keys by their place among the sorted distinct keys and
// returns how many there are.
func rank(keys []string) ([]int, int) {
	distinct := slices.Compact(slices.Sorted(slices.Values(keys)))
	out := make([]int, len(keys))
	for v, k := range keys {
		out[v], _ = slices.BinarySearch(distinct, k)
	}
	return out, len(distinct)
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
