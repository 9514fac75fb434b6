package persistence

import (
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
			born := map[int]bool{}
			for i, p := range sub.ps {
				or := sub.os[i]
				if len(or.Vertices) != 1 || len(or.Edges) != 1 || born[or.Vertices[0]] {
					fail(name, i, p, or)
				}
				v, e := or.Vertices[0], g.Edges[or.Edges[0]]
				born[v] = true
				if f[v] != p.Birth || sub.edge(f[e.U], f[e.V]) != p.Death {
					fail(name, i, p, or)
				}
			}
		}
		for i, p := range d.Ext0 {
			or := o.Ext0[i]
			lo, hi := or.Vertices[0], or.Vertices[len(or.Vertices)-1]
			if len(or.Edges) != 0 || len(or.Vertices) > 2 || f[lo] != p.Birth || f[hi] != p.Death {
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
			or := os[i]
			if f[or.Vertices[0]] != p.Birth {
				t.Fatalf("trial %d: point %v born at vertex %d of value %v", trial, p, or.Vertices[0], f[or.Vertices[0]])
			}
			if math.IsInf(p.Death, 0) != (len(or.Edges) == 0) {
				t.Fatalf("trial %d: point %v with edges %v", trial, p, or.Edges)
			}
			if len(or.Edges) == 1 {
				e := g.Edges[or.Edges[0]]
				w := max(f[e.U], f[e.V])
				if edge != nil {
					w = max(w, edge[or.Edges[0]])
				}
				if w != p.Death {
					t.Fatalf("trial %d: point %v killed by edge %v of value %v", trial, p, e, w)
				}
			}
		}
	}
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
