package persistence

import (
	"math"

	"wkpi-web/core/graph"
)

// Extended returns the extended persistence of the lower-star filtration
// of g by f (one value per node), as GUDHI's extend_filtration followed by
// extended_persistence computes it:
//
//   - Ord0: the finite sublevel pairs (Birth <= Death), as Sublevel0;
//   - Ext0: one point (min f, max f) per connected component, in order of
//     the component's smallest node; an isolated vertex v gives (f(v), f(v));
//   - Rel1: the finite superlevel pairs (Birth >= Death), as Superlevel0;
//   - Ext1: one point per independent cycle, m - n + c in all, with
//     Birth >= Death.
//
// Zero-persistence points are kept so that these counts hold (n - c points
// in Ord0 and in Rel1); DropZero removes them, and callers building
// features normally should.
//
// Each Ext1 point pairs an edge closing a cycle in the superlevel sweep
// (its death, at the smaller value of its ends) with the edge that created
// the cycle in the sublevel sweep (its birth). Following Yan et al., "Link
// prediction with persistent homology" (ICML 2021), the superlevel sweep
// keeps a spanning forest: an edge e closing a cycle with the forest path P
// dies against the edge of e+P that enters last in the sublevel order,
// which then leaves the forest in exchange for e. This matches the column
// reduction of the extended filtration (checked against a brute-force
// reduction in the tests) at O(n) per cycle.
func Extended(g *graph.Graph, f []float64) Diagrams {
	d, _ := extended(g, f, false)
	return d
}

// ExtendedOrigins is Extended with the origin of every point (see Origin):
// the same diagrams, and for each point the simplices that make it.
func ExtendedOrigins(g *graph.Graph, f []float64) (Diagrams, Origins) {
	return extended(g, f, true)
}

// extended computes Extended, and the points' origins when asked (the
// cycles' edge lists cost an allocation per cycle, which features of a
// whole dataset need not pay).
func extended(g *graph.Graph, f []float64, withOrigins bool) (Diagrams, Origins) {
	up := edgeValues(g, f, math.Max)
	down := edgeValues(g, f, math.Min)
	sub := sweep(g, f, up, ascending)
	super := sweep(g, f, down, descending)
	ext0, ends := componentRanges(g, f, withOrigins)
	ext1, loops := cycles(g, up, down, sub.order, super, withOrigins)
	d := Diagrams{Ord0: sub.pairs, Rel1: super.pairs, Ext0: ext0, Ext1: ext1}
	if !withOrigins {
		return d, Origins{}
	}
	ord0, _ := sharedOrigins(g, f, up, ascending, sub)
	rel1, _ := sharedOrigins(g, f, down, descending, super)
	return d, Origins{Ord0: ord0, Rel1: rel1, Ext0: ends, Ext1: loops}
}

// componentRanges gives (min, max) of f over each connected component,
// in order of the component's smallest node, and with withOrigins the
// vertices where they are reached: every vertex at the minimum, with half
// the point's part shared among them, and every one at the maximum with
// the other half (all of the component's, evenly, where f is constant on
// it; past maxShared of them, the first).
func componentRanges(g *graph.Graph, f []float64, withOrigins bool) ([]Point, []Origin) {
	comp, count := g.Components()
	ps := make([]Point, count)
	seen := make([]bool, count)
	for v, c := range comp {
		if !seen[c] {
			seen[c] = true
			ps[c] = Point{Birth: f[v], Death: f[v]}
		}
		ps[c].Birth = min(ps[c].Birth, f[v])
		ps[c].Death = max(ps[c].Death, f[v])
	}
	if !withOrigins {
		return ps, nil
	}
	lo, hi := make([][]int, count), make([][]int, count)
	for v, c := range comp {
		if f[v] == ps[c].Birth {
			lo[c] = append(lo[c], v)
		}
		if f[v] == ps[c].Death && f[v] != ps[c].Birth {
			hi[c] = append(hi[c], v)
		}
	}
	ends := make([]Origin, count)
	for c := range ends {
		// Past maxShared (a hub's leaves), the sweep's own: the first.
		if len(lo[c]) > maxShared {
			lo[c] = lo[c][:1]
		}
		if len(hi[c]) > maxShared {
			hi[c] = hi[c][:1]
		}
		ends[c].Vertices = append(lo[c], hi[c]...)
		if len(hi[c]) > 0 && len(lo[c]) != len(hi[c]) {
			for _, n := range []int{len(lo[c]), len(hi[c])} {
				for range n {
					ends[c].VertexShares = append(ends[c].VertexShares, 0.5/float64(n))
				}
			}
		}
	}
	return ps, ends
}

// cycles pairs the cycle-closing edges of the superlevel sweep with their
// sublevel creators, swapping them through a spanning forest (see
// Extended). With withOrigins it also returns each point's cycle: the
// closing edge followed by the forest path between its ends.
func cycles(g *graph.Graph, up, down []float64, subOrder []int, super sweepResult, withOrigins bool) ([]Point, []Origin) {
	rank := make([]int, len(subOrder)) // position of each edge in the sublevel sweep
	for r, i := range subOrder {
		rank[i] = r
	}
	// Incident edges of each node, flattened: node x's are
	// incident[start[x]:start[x+1]]. The forest is the edges marked in it.
	start := make([]int, g.N+1)
	for _, ed := range g.Edges {
		start[ed.U+1]++
		start[ed.V+1]++
	}
	for x := range g.N {
		start[x+1] += start[x]
	}
	incident := make([]int, 2*len(g.Edges))
	fill := append([]int(nil), start[:g.N]...)
	for i, ed := range g.Edges {
		incident[fill[ed.U]], incident[fill[ed.V]] = i, i
		fill[ed.U]++
		fill[ed.V]++
	}
	inForest := make([]bool, len(g.Edges))
	via := make([]int, g.N) // edge by which the path search reached a node, -1 at the start
	mark := make([]int, g.N)
	stamp := 0
	var stack []int
	var ps []Point
	var loops []Origin
	for _, e := range super.order {
		u, v := g.Edges[e].U, g.Edges[e].V
		if !super.cycle[e] {
			inForest[e] = true
			continue
		}
		// Depth-first search for the forest path from u to v.
		stamp++
		mark[u], via[u] = stamp, -1
		stack = append(stack[:0], u)
		for len(stack) > 0 && mark[v] != stamp {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, t := range incident[start[x]:start[x+1]] {
				y := g.Edges[t].U + g.Edges[t].V - x
				if inForest[t] && mark[y] != stamp {
					mark[y], via[y] = stamp, t
					stack = append(stack, y)
				}
			}
		}
		last := e
		var loop Origin
		if withOrigins {
			loop.Edges = []int{e}
		}
		for x := v; via[x] >= 0; {
			t := via[x]
			if rank[t] > rank[last] {
				last = t
			}
			if withOrigins {
				loop.Edges = append(loop.Edges, t)
			}
			x = g.Edges[t].U + g.Edges[t].V - x
		}
		ps = append(ps, Point{Birth: up[last], Death: down[e]})
		if withOrigins {
			loops = append(loops, loop)
		}
		inForest[last], inForest[e] = false, last != e
	}
	return ps, loops
}
