package persistence

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"wkpi-web/core/graph"
)

// TestExtendedOrigins checks every origin against what it claims, on
// random graphs with many ties: a 0-dimensional point is born at its
// vertex's value and dies at its edge's; an Ext0 point spans the values at
// its two vertices; an Ext1 point's edges form a simple cycle whose
// largest and smallest values are the point's birth and death, and the
// cycles together are independent (a basis of the cycle space, over
// GF(2)). The diagrams are Extended's.
func TestExtendedOrigins(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		levels := []int{1, 2, 3, 5, 1000}[trial%5]
		// At most 45 edges: an edge set fits a uint64.
		g, f := randomGraph(t, r, 10, 0.2+0.5*r.Float64(), levels)
		d, o := ExtendedOrigins(g, f)
		if !reflect.DeepEqual(d, Extended(g, f)) {
			t.Fatalf("trial %d: ExtendedOrigins' diagrams differ from Extended's", trial)
		}
		fail := func(what string, i int, p Point, or Origin) {
			t.Fatalf("trial %d, %d nodes, edges %v, f %v: %s point %d %v, origin %+v", trial, g.N, g.Edges, f, what, i, p, or)
		}
		for name, sub := range map[string]struct {
			ps   []Point
			os   []Origin
			edge func(a, b float64) float64
		}{"Ord0": {d.Ord0, o.Ord0, math.Max}, "Rel1": {d.Rel1, o.Rel1, math.Min}} {
			if len(sub.os) != len(sub.ps) {
				t.Fatalf("trial %d: %s has %d points and %d origins", trial, name, len(sub.ps), len(sub.os))
			}
			for i, p := range sub.ps {
				if msg := zeroDimOrigin(g, f, sub.edge, nil, p, sub.os[i]); msg != "" {
					fail(name+" ("+msg+")", i, p, sub.os[i])
				}
			}
		}
		for i, p := range d.Ext0 {
			or := o.Ext0[i]
			ends := map[float64]float64{}
			for k, v := range or.Vertices {
				ends[f[v]] += or.VertexShare(k)
			}
			want := map[float64]float64{p.Birth: 0.5, p.Death: 0.5}
			if p.Birth == p.Death {
				want = map[float64]float64{p.Birth: 1}
			}
			if len(or.Edges) != 0 || !sameShares(ends, want) {
				fail("Ext0", i, p, or)
			}
		}
		if len(o.Ext1) != len(d.Ext1) {
			t.Fatalf("trial %d: %d Ext1 points, %d origins", trial, len(d.Ext1), len(o.Ext1))
		}
		var basis []uint64 // the cycles as edge sets, reduced over GF(2)
		for i, p := range d.Ext1 {
			or := o.Ext1[i]
			if !simpleCycle(g, or.Edges) {
				fail("Ext1 (not a simple cycle)", i, p, or)
			}
			hi, lo := math.Inf(-1), math.Inf(1)
			var set uint64
			for _, e := range or.Edges {
				hi = max(hi, f[g.Edges[e].U], f[g.Edges[e].V])
				lo = min(lo, f[g.Edges[e].U], f[g.Edges[e].V])
				set |= 1 << e
			}
			if hi != p.Birth || lo != p.Death {
				fail("Ext1 (values)", i, p, or)
			}
			for _, b := range basis {
				set = min(set, set^b)
			}
			if set == 0 {
				fail("Ext1 (dependent on the cycles before it)", i, p, or)
			}
			basis = append(basis, set)
			slices.SortFunc(basis, func(a, b uint64) int { return -cmpBits(a, b) })
		}
	}
}

// cmpBits orders edge sets by their highest edge, for the elimination.
func cmpBits(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// simpleCycle reports whether edges form one simple cycle of g: at least
// three distinct edges, every vertex they touch of degree 2, connected.
func simpleCycle(g *graph.Graph, edges []int) bool {
	if len(edges) < 3 {
		return false
	}
	deg := map[int]int{}
	adj := map[int][]int{}
	seen := map[int]bool{}
	for _, i := range edges {
		if seen[i] {
			return false
		}
		seen[i] = true
		e := g.Edges[i]
		deg[e.U]++
		deg[e.V]++
		adj[e.U], adj[e.V] = append(adj[e.U], e.V), append(adj[e.V], e.U)
	}
	for _, d := range deg {
		if d != 2 {
			return false
		}
	}
	start := g.Edges[edges[0]].U
	reached := map[int]bool{start: true}
	stack := []int{start}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, y := range adj[x] {
			if !reached[y] {
				reached[y] = true
				stack = append(stack, y)
			}
		}
	}
	return len(reached) == len(deg)
}

// TestSublevel0Origins: the same points as Sublevel0, edge values or not,
// each born at its vertex; the finite ones die at their edge's value.
func TestSublevel0Origins(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 100 {
		g, f := randomGraph(t, r, 10, 0.4, 4)
		var edge []float64
		if trial%2 == 1 {
			edge = make([]float64, len(g.Edges))
			for i := range edge {
				edge[i] = float64(r.IntN(6))
			}
		}
		ps, os := Sublevel0Origins(g, f, edge)
		if !reflect.DeepEqual(ps, Sublevel0(g, f, edge)) || len(os) != len(ps) {
			t.Fatalf("trial %d: points differ from Sublevel0's", trial)
		}
		for i, p := range ps {
			if msg := zeroDimOrigin(g, f, math.Max, edge, p, os[i]); msg != "" {
				t.Fatalf("trial %d: point %v, origin %+v: %s", trial, p, os[i], msg)
			}
		}
	}
}

// zeroDimOrigin checks a 0-dimensional point's origin: vertices of the
// birth value, edges (pick of their ends' values, raised to edge) of the
// death value and none for an essential class, the shares of each kind
// positive and summing to 1. It says what is wrong, or "".
func zeroDimOrigin(g *graph.Graph, f []float64, pick func(a, b float64) float64, edge []float64, p Point, o Origin) string {
	if len(o.Vertices) == 0 || math.IsInf(p.Death, 0) != (len(o.Edges) == 0) {
		return "simplices missing"
	}
	var sum float64
	for k, v := range o.Vertices {
		if f[v] != p.Birth || o.VertexShare(k) <= 0 {
			return "a vertex not of the birth value"
		}
		sum += o.VertexShare(k)
	}
	if math.Abs(sum-1) > 1e-12 {
		return "vertex shares do not sum to 1"
	}
	sum = 0
	for k, i := range o.Edges {
		e := g.Edges[i]
		w := pick(f[e.U], f[e.V])
		if edge != nil {
			w = max(w, edge[i])
		}
		if w != p.Death || o.EdgeShare(k) <= 0 {
			return "an edge not of the death value"
		}
		sum += o.EdgeShare(k)
	}
	if len(o.Edges) > 0 && math.Abs(sum-1) > 1e-12 {
		return "edge shares do not sum to 1"
	}
	return ""
}

// sameShares compares two distributions to 1e-12.
func sameShares(a, b map[float64]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		if math.Abs(x-b[k]) > 1e-12 {
			return false
		}
	}
	return true
}

// TestOriginsTieFree: renumbering a graph's vertices at random changes
// the order its sweeps take tied values in, and must not change any
// point's origin (the same simplices with the same shares), on random
// graphs whose values tie often, lower-star and with edge values.
func TestOriginsTieFree(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 300 {
		g, f := randomGraph(t, r, 12, 0.2+0.5*r.Float64(), []int{1, 2, 3}[trial%3])
		var edge []float64
		if trial%2 == 1 {
			edge = make([]float64, len(g.Edges))
			for i := range edge {
				edge[i] = float64(r.IntN(3))
			}
		}
		want := originKeys(g, f, edge, nil)
		for range 3 {
			pos := r.Perm(g.N)
			if got := originKeys(g, f, edge, pos); !slices.Equal(got, want) {
				t.Fatalf("trial %d, edges %v, f %v, renumbered %v:\n got %q\nwant %q", trial, g.Edges, f, pos, got, want)
			}
		}
	}
}

// originKeys renumbers g (vertex v to pos[v]; nil keeps it), computes its
// extended persistence's and Sublevel0Origins' 0-dimensional origins and
// writes each point with its origin in g's own numbering, sorted.
func originKeys(g *graph.Graph, f, edge []float64, pos []int) []string {
	h, hf, hedge := g, f, edge
	back := make([]int, g.N)
	for v := range back {
		back[v] = v
	}
	if pos != nil {
		h = g.Renumbered(pos)
		hf = make([]float64, g.N)
		for v, p := range pos {
			hf[p], back[p] = f[v], v
		}
		if edge != nil {
			byEnds := map[graph.Edge]float64{}
			for i, e := range g.Edges {
				byEnds[graph.Edge{U: min(pos[e.U], pos[e.V]), V: max(pos[e.U], pos[e.V])}] = edge[i]
			}
			hedge = make([]float64, len(h.Edges))
			for i, e := range h.Edges {
				hedge[i] = byEnds[graph.Edge{U: min(e.U, e.V), V: max(e.U, e.V)}]
			}
		}
	}
	key := func(kind string, p Point, o Origin) string {
		var parts []string
		for k, v := range o.Vertices {
			parts = append(parts, fmt.Sprintf("v%d:%.12f", back[v], o.VertexShare(k)))
		}
		for k, i := range o.Edges {
			e := h.Edges[i]
			a, b := back[e.U], back[e.V]
			parts = append(parts, fmt.Sprintf("e%d-%d:%.12f", min(a, b), max(a, b), o.EdgeShare(k)))
		}
		slices.Sort(parts)
		return fmt.Sprint(kind, p, parts)
	}
	var out []string
	d, o := ExtendedOrigins(h, hf)
	for kind, sub := range map[string]struct {
		ps []Point
		os []Origin
	}{"ord0": {d.Ord0, o.Ord0}, "rel1": {d.Rel1, o.Rel1}, "ext0": {d.Ext0, o.Ext0}} {
		for i, p := range sub.ps {
			out = append(out, key(kind, p, sub.os[i]))
		}
	}
	ps, os := Sublevel0Origins(h, hf, hedge)
	for i, p := range ps {
		out = append(out, key("sub", p, os[i]))
	}
	slices.Sort(out)
	return out
}

// TestSharedOriginsHandWorked: origins worked out by hand where values
// tie.
func TestSharedOriginsHandWorked(t *testing.T) {
	for _, c := range []struct {
		name  string
		g     *graph.Graph
		f     []float64
		point Point
		want  Origin
	}{{
		// a - b - c, a and c at 0: either may survive; the point (0, 1)
		// is born at each half the time and ends at the edge next to it.
		name: "path with tied ends", g: mustGraph(t, 3, edgeList(0, 1, 1, 2)...), f: []float64{0, 1, 0},
		point: Point{Birth: 0, Death: 1}, want: Origin{Vertices: []int{0, 2}, Edges: []int{0, 1}},
	}, {
		// The same with c at 0.5: c's class surely dies, at its own edge.
		name: "path without ties", g: mustGraph(t, 3, edgeList(0, 1, 1, 2)...), f: []float64{0, 1, 0.5},
		point: Point{Birth: 0.5, Death: 1}, want: Origin{Vertices: []int{2}, Edges: []int{1}},
	}, {
		// A triangle at 0 with a pendant vertex at 0 on vertex 0, edges
		// entering at 0: 4 candidates, 3 points, each born at every
		// vertex alike; the edges incident to each candidate weighted
		// 3/4, split among its edges: 0's three edges 1/4 each, the
		// others' two 3/8; edge 0-1 (0 and 1) 1/4 + 3/8, 0-2 the same,
		// 0-3 1/4 + 3/4, 1-2 3/8 + 3/8, of 3 in all.
		name: "triangle with a pendant", g: mustGraph(t, 4, edgeList(0, 1, 0, 2, 0, 3, 1, 2)...), f: []float64{0, 0, 0, 0},
		point: Point{Birth: 0, Death: 0}, want: Origin{Vertices: []int{0, 1, 2, 3}, Edges: []int{0, 1, 2, 3},
			EdgeShares: []float64{5.0 / 24, 5.0 / 24, 8.0 / 24, 6.0 / 24}},
	}} {
		ps, os := Sublevel0Origins(c.g, c.f, nil)
		found := false
		for i, p := range ps {
			if p != c.point {
				continue
			}
			found = true
			got := os[i]
			if !slices.Equal(got.Vertices, c.want.Vertices) || !slices.Equal(got.Edges, c.want.Edges) || !closeAll(got.VertexShares, c.want.VertexShares) || !closeAll(got.EdgeShares, c.want.EdgeShares) {
				t.Errorf("%s: point %v has origin %+v, want %+v", c.name, p, got, c.want)
			}
		}
		if !found {
			t.Errorf("%s: no point %v in %v", c.name, c.point, ps)
		}
	}
}

func closeAll(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12 {
			return false
		}
	}
	return true
}

// TestDropZeroOrigins: the points DropZero keeps, with their origins.
func TestDropZeroOrigins(t *testing.T) {
	g := mustGraph(t, 4, edgeList(0, 1, 1, 2, 2, 0, 2, 3)...)
	f := []float64{1, 1, 2, 1}
	d, o := ExtendedOrigins(g, f)
	kd, ko := DropZeroOrigins(d, o)
	if !reflect.DeepEqual(kd, d.DropZero()) {
		t.Fatalf("DropZeroOrigins kept %+v, DropZero %+v", kd, d.DropZero())
	}
	for _, c := range []struct {
		ps   []Point
		os   []Origin
		all  []Origin
		allP []Point
	}{{kd.Ord0, ko.Ord0, o.Ord0, d.Ord0}, {kd.Rel1, ko.Rel1, o.Rel1, d.Rel1}, {kd.Ext0, ko.Ext0, o.Ext0, d.Ext0}, {kd.Ext1, ko.Ext1, o.Ext1, d.Ext1}} {
		j := 0
		for i, p := range c.allP {
			if p.Birth != p.Death {
				if !reflect.DeepEqual(c.os[j], c.all[i]) {
					t.Errorf("kept point %v has origin %+v, want %+v", p, c.os[j], c.all[i])
				}
				j++
			}
		}
		if j != len(c.os) {
			t.Errorf("%d origins kept for %d points", len(c.os), j)
		}
	}
}
