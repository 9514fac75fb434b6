package features

import (
	"cmp"
	"math"
	"slices"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
)

// tieTolerance is how close two values of one graph's filtration must be,
// relative to its largest |value|, to be taken as equal (snapTies).
const tieTolerance = 1e-10

// snapTies sets every run of values (vertex and edge values together)
// whose neighbours in sorted order lie less than tieTolerance·max|value|
// apart to the run's smallest value, in place.
//
// Values equal in exact arithmetic (the heat kernel signatures of
// symmetric or cospectral vertices, the curvatures of symmetric edges)
// come out of floating point a few units in the last place apart, and
// apart differently on each platform and with each numbering of the
// atoms (the order of a sum).
// Left so, their order in the persistence sweeps would be their
// rounding's, not the tie-break by index the sweeps promise: which
// vertex a point is born at, and which edge ends it (persistence.Origin,
// handed to atoms by package explain), would differ between the browser
// and the command line, and a difference could be a point of persistence
// 1e-16. Runs are found by gaps, not by rounding to a grid, so that two
// values a platform's noise apart never straddle a boundary.
func snapTies(vertex, edge []float64) {
	values := make([]*float64, 0, len(vertex)+len(edge))
	var scale float64
	for _, xs := range [][]float64{vertex, edge} {
		for i := range xs {
			values = append(values, &xs[i])
			scale = max(scale, math.Abs(xs[i]))
		}
	}
	slices.SortFunc(values, func(a, b *float64) int { return cmp.Compare(*a, *b) })
	sorted := make([]float64, len(values))
	for k, x := range values {
		sorted[k] = *x
	}
	tol := tieTolerance * scale
	for k := 1; k < len(values); k++ {
		if sorted[k]-sorted[k-1] < tol {
			*values[k] = *values[k-1]
		}
	}
}

// canonicalOrder is the position of each node of g in a canonical
// labelling (graph.Graph.CanonicalLabelling) of the molecule when the
// settings read one (mol, numbered as g), whose bond types are the same
// for every writing of it, else of g without its edge labels, which no
// structure-only descriptor reads and which a file may write in more than
// one way (a Kekulé structure or aromatic bonds).
//
// Sweeps break ties by index. A 0-dimensional point's origin names
// every simplex an order of the ties could give it (persistence.Origin),
// but a cycle's is the one cycle its sweep finds, which decides which
// bonds its share of a prediction goes to. The index is how a file
// happens to number the atoms: the same molecule written two ways would
// get two explanations. The explanations' sweeps take tied values in
// this order instead (tieOrder); the diagrams themselves do not depend
// on it.
func canonicalOrder(g, mol *graph.Graph) []int {
	h := mol
	if h == nil {
		h = &graph.Graph{N: g.N, Edges: g.Edges, NodeLabels: g.NodeLabels, NodeValues: g.NodeValues}
	}
	// A search costs about its nodes times the graph's size: bounding the
	// product leaves molecules their exact labelling (every graph of
	// NCI1, PTC_MR and PROTEINS) and keeps large social graphs, whose
	// thousands of near-alike users would take long, to the first leaf
	// (REDDIT-BINARY: 19 ms on average, 80 ms at most; explain log).
	pos, _ := h.CanonicalLabelling(canonicalWork / max(h.N, 1))
	return pos
}

// canonicalWork bounds canonicalOrder's search: nodes of the search tree
// times nodes of the graph.
const canonicalWork = 1 << 18

// tieOrder is the position of each vertex of the graph a filtration lives
// on in the order its sweeps take tied values: canon, the canonical
// positions of g's nodes (canonicalOrder), or through on when the
// filtration lives on a graph derived from g, a bond's vertex after the
// atoms, bonds by the positions of their ends.
func tieOrder(canon []int, g *graph.Graph, on *filtration.Derived) []int {
	if on == nil {
		return canon
	}
	type key struct{ bond, a, b int }
	keys := make([]key, len(on.Vertex))
	for i, r := range on.Vertex {
		if !r.Edge {
			keys[i] = key{a: canon[r.Index]}
			continue
		}
		e := g.Edges[r.Index]
		a, b := canon[e.U], canon[e.V]
		keys[i] = key{bond: 1, a: min(a, b), b: max(a, b)}
	}
	byKey := make([]int, len(keys))
	for i := range byKey {
		byKey[i] = i
	}
	slices.SortFunc(byKey, func(x, y int) int {
		return cmp.Or(cmp.Compare(keys[x].bond, keys[y].bond), cmp.Compare(keys[x].a, keys[y].a), cmp.Compare(keys[x].b, keys[y].b))
	})
	order := make([]int, len(keys))
	for p, i := range byKey {
		order[i] = p
	}
	return order
}

// renumbered is g with vertex v numbered order[v] (Graph.Renumbered),
// the vertex and edge values carried along, and the map of its edges'
// indices back to g's.
func renumbered(g *graph.Graph, vertex, edge []float64, order []int) (*graph.Graph, []float64, []float64, []int) {
	plain := graph.Graph{N: g.N, Edges: g.Edges}
	h := plain.Renumbered(order)
	index := make(map[graph.Edge]int, len(g.Edges))
	for i, e := range g.Edges {
		a, b := order[e.U], order[e.V]
		index[graph.Edge{U: min(a, b), V: max(a, b)}] = i
	}
	values := make([]float64, g.N)
	for v, x := range vertex {
		values[order[v]] = x
	}
	back := make([]int, len(h.Edges))
	var edgeValues []float64
	if edge != nil {
		edgeValues = make([]float64, len(h.Edges))
	}
	for j, e := range h.Edges {
		back[j] = index[e]
		if edge != nil {
			edgeValues[j] = edge[back[j]]
		}
	}
	return h, values, edgeValues, back
}

// originsOn maps origins on a graph renumbered by order (renumbered) back
// to the graph's own vertices and edges.
func originsOn(o persistence.Origins, order, edgeBack []int) persistence.Origins {
	vertexBack := make([]int, len(order))
	for v, p := range order {
		vertexBack[p] = v
	}
	back := func(os []persistence.Origin) []persistence.Origin {
		out := make([]persistence.Origin, len(os))
		for i, x := range os {
			out[i] = persistence.Origin{VertexShares: x.VertexShares, EdgeShares: x.EdgeShares}
			for _, v := range x.Vertices {
				out[i].Vertices = append(out[i].Vertices, vertexBack[v])
			}
			for _, e := range x.Edges {
				out[i].Edges = append(out[i].Edges, edgeBack[e])
			}
		}
		return out
	}
	return persistence.Origins{Ord0: back(o.Ord0), Rel1: back(o.Rel1), Ext0: back(o.Ext0), Ext1: back(o.Ext1)}
}

// alignOrigins gives the points of d, in their order, the origins oc of
// the same points in another order (dc): points of equal birth and death
// are alike to every image, so any of them may take either's origin. It
// reports false if the diagrams are not the same multisets.
func alignOrigins(d, dc persistence.Diagrams, oc persistence.Origins) (persistence.Origins, bool) {
	align := func(want, got []persistence.Point, origins []persistence.Origin) ([]persistence.Origin, bool) {
		if len(want) != len(got) {
			return nil, false
		}
		at := make(map[persistence.Point][]int, len(got))
		for i, p := range got {
			at[p] = append(at[p], i)
		}
		out := make([]persistence.Origin, len(want))
		for k, p := range want {
			left := at[p]
			if len(left) == 0 {
				return nil, false
			}
			out[k], at[p] = origins[left[0]], left[1:]
		}
		return out, true
	}
	var out persistence.Origins
	var ok [4]bool
	out.Ord0, ok[0] = align(d.Ord0, dc.Ord0, oc.Ord0)
	out.Rel1, ok[1] = align(d.Rel1, dc.Rel1, oc.Rel1)
	out.Ext0, ok[2] = align(d.Ext0, dc.Ext0, oc.Ext0)
	out.Ext1, ok[3] = align(d.Ext1, dc.Ext1, oc.Ext1)
	return out, ok == [4]bool{true, true, true, true}
}
