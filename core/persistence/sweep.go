package persistence

import (
	"math"
	"slices"

	"wkpi-web/core/graph"
)

// Sublevel0 returns the 0-dimensional persistence of the sublevel
// filtration of g by the vertex values f (one per node): one point per
// vertex, Birth <= Death, with Death = +Inf for the essential class of
// each connected component. Zero-persistence points are kept; see DropZero.
//
// edge is nil for the lower-star filtration (an edge enters at the larger
// value of its ends) or holds one value per edge of g.Edges; an edge value
// below one of its ends is raised to it, since an edge cannot enter a
// filtration before its vertices.
//
// Ties are broken by index: vertices in order of (value, node) and edges in
// order of (value, position in g.Edges), so the result is deterministic.
// It panics if f (or a non-nil edge) has the wrong length, a programming
// error rather than bad input.
func Sublevel0(g *graph.Graph, f []float64, edge []float64) []Point {
	s := sweep(g, f, sublevelValues(g, f, edge), ascending)
	return append(s.pairs, s.essential(f, math.Inf(1))...)
}

// Sublevel0Origins is Sublevel0 with the origin of every point: the
// vertices that give birth to the component and the edges that merge it
// into an elder one (none for an essential class), with their shares
// where values tie (see Origin).
func Sublevel0Origins(g *graph.Graph, f []float64, edge []float64) ([]Point, []Origin) {
	w := sublevelValues(g, f, edge)
	s := sweep(g, f, w, ascending)
	pairs, elders := sharedOrigins(g, f, w, ascending, s)
	return append(s.pairs, s.essential(f, math.Inf(1))...), append(pairs, elders...)
}

// sublevelValues are the edges' values in the sublevel filtration of
// Sublevel0.
func sublevelValues(g *graph.Graph, f []float64, edge []float64) []float64 {
	if edge != nil && len(edge) != len(g.Edges) {
		panic("persistence: edge values do not match the edge count")
	}
	w := edgeValues(g, f, math.Max)
	for i := range edge {
		w[i] = math.Max(w[i], edge[i])
	}
	return w
}

// Superlevel0 returns the 0-dimensional persistence of the superlevel
// filtration of g by f (upper-star: an edge enters at the smaller value of
// its ends): one point per vertex, born at a local maximum with
// Birth >= Death, and Death = -Inf for each component's essential class.
// Ties are broken as in Sublevel0, by node and edge index.
func Superlevel0(g *graph.Graph, f []float64) []Point {
	s := sweep(g, f, edgeValues(g, f, math.Min), descending)
	return append(s.pairs, s.essential(f, math.Inf(-1))...)
}

// direction selects the sweep order of a filtration.
type direction bool

const (
	ascending  direction = true
	descending direction = false
)

// edgeValues gives each edge the value pick(f(u), f(v)).
func edgeValues(g *graph.Graph, f []float64, pick func(a, b float64) float64) []float64 {
	if len(f) != g.N {
		panic("persistence: vertex values do not match the node count")
	}
	w := make([]float64, len(g.Edges))
	for i, e := range g.Edges {
		w[i] = pick(f[e.U], f[e.V])
	}
	return w
}

// precedes reports whether value a at index i enters before value b at
// index j in the given direction; equal values go by index so that every
// sweep is a total order.
func precedes(d direction, a float64, i int, b float64, j int) bool {
	if a != b {
		return (a < b) == bool(d)
	}
	return i < j
}

// edgeOrder lists edge indices in the order the sweep adds them.
func edgeOrder(w []float64, d direction) []int {
	order := make([]int, len(w))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int {
		switch {
		case x == y:
			return 0
		case precedes(d, w[x], x, w[y], y):
			return -1
		}
		return 1
	})
	return order
}

// sweepResult is one union-find pass over a filtration.
type sweepResult struct {
	pairs  []Point // (birth of the younger component, value of the merging edge)
	born   []int   // per pair: the younger component's birth vertex
	killer []int   // per pair: the merging edge
	order  []int   // edge indices in sweep order
	cycle  []bool  // per edge: it joined two vertices already connected
	elders []int   // birth vertex of each final component, ascending by vertex
}

func (s sweepResult) essential(f []float64, death float64) []Point {
	ps := make([]Point, len(s.elders))
	for i, v := range s.elders {
		ps[i] = Point{Birth: f[v], Death: death}
	}
	return ps
}

// sweep runs the elder rule: when an edge joins two components, the one
// born later (by precedes) dies at the edge's value. A union-find with
// path halving keeps this O(m log m), dominated by the sort.
func sweep(g *graph.Graph, f, w []float64, d direction) sweepResult {
	parent := graph.NewDisjointSets(g.N) // roots are always a component's elder vertex
	find := parent.Find
	s := sweepResult{
		order:  edgeOrder(w, d),
		cycle:  make([]bool, len(w)),
		pairs:  make([]Point, 0, g.N),
		born:   make([]int, 0, g.N),
		killer: make([]int, 0, g.N),
	}
	for _, i := range s.order {
		a, b := find(g.Edges[i].U), find(g.Edges[i].V)
		if a == b {
			s.cycle[i] = true
			continue
		}
		if precedes(d, f[b], b, f[a], a) {
			a, b = b, a
		}
		parent[b] = a
		s.pairs = append(s.pairs, Point{Birth: f[b], Death: w[i]})
		s.born, s.killer = append(s.born, b), append(s.killer, i)
	}
	for v := range parent {
		if parent[v] == v {
			s.elders = append(s.elders, v)
		}
	}
	return s
}
