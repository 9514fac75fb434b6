package scaffold

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"wkpi-web/core/graph"
)

// ErrTooSymmetric is returned when the canonical search would exceed
// MaxSearchNodes: a guard against graphs far more symmetric than
// molecules, not a limit molecules reach.
var ErrTooSymmetric = errors.New("scaffold: graph too symmetric for a canonical form within the search limit")

// MaxSearchNodes bounds the nodes of the canonical search tree
// (graph.Graph.CanonicalLabelling).
const MaxSearchNodes = 1 << 20

// Canonical returns the canonical form of a labelled graph: a string
// that is equal for two graphs exactly when they are isomorphic with
// their node labels and edge labels (nil labels count as empty ones).
// It lists the node labels in canonical order (graph.Graph.
// CanonicalLabelling), then each edge as the canonical positions of its
// ends and its label:
//
//	C,C,O|0-1:1,1-2:2
//
// is C-C=O (positions 0, 1, 2; bonds "1" and "2"). The empty graph gives "".
// Node values are not read.
func Canonical(g *graph.Graph) (string, error) {
	if g.N == 0 {
		return "", nil
	}
	labelled := graph.Graph{N: g.N, Edges: g.Edges, NodeLabels: g.NodeLabels, EdgeLabels: g.EdgeLabels}
	pos, exact := labelled.CanonicalLabelling(MaxSearchNodes)
	if !exact {
		return "", ErrTooSymmetric
	}
	label := func(labels []string, i int) string {
		if labels == nil {
			return ""
		}
		return labels[i]
	}
	at := make([]int, g.N) // at[p] is the node at canonical position p
	for v, p := range pos {
		at[p] = v
	}
	var b strings.Builder
	for p, v := range at {
		if p > 0 {
			b.WriteByte(',')
		}
		b.WriteString(label(g.NodeLabels, v))
	}
	b.WriteByte('|')
	type edge struct {
		u, v  int
		label string
	}
	edges := make([]edge, len(g.Edges))
	for i, e := range g.Edges {
		u, v := pos[e.U], pos[e.V]
		if u > v {
			u, v = v, u
		}
		edges[i] = edge{u, v, label(g.EdgeLabels, i)}
	}
	slices.SortFunc(edges, func(a, b edge) int { return cmp.Or(cmp.Compare(a.u, b.u), cmp.Compare(a.v, b.v)) })
	for i, e := range edges {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d-%d:%s", e.u, e.v, e.label)
	}
	return b.String(), nil
}
