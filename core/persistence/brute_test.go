package persistence

import (
	"math/rand/v2"
	"sort"
	"testing"

	"wkpi-web/core/graph"
)

// bruteExtended computes extended persistence by the textbook route: the
// cone construction of Cohen-Steiner, Edelsbrunner and Harer, reduced
// column by column over Z/2. The filtration is the cone vertex w, the
// graph's simplices in ascending lower-star order, then the cone w*s on
// each simplex s in descending upper-star order. Ties are broken by
// dimension, then index, in the same total orders Extended uses, so even
// the zero-persistence points must agree.
func bruteExtended(g *graph.Graph, f []float64) Diagrams {
	const (
		omega = iota
		vertex
		edge
		coneVertex
		coneEdge
	)
	type simplex struct {
		kind, id int
		value    float64 // filtration value of this simplex
		boundary []int   // positions of its faces
	}
	type item struct {
		value    float64
		dim, idx int
	}
	up := make([]float64, len(g.Edges))
	down := make([]float64, len(g.Edges))
	for i, ed := range g.Edges {
		up[i] = max(f[ed.U], f[ed.V])
		down[i] = min(f[ed.U], f[ed.V])
	}
	var asc, desc []item
	for v := range g.N {
		asc = append(asc, item{f[v], 0, v})
		desc = append(desc, item{f[v], 0, v})
	}
	for i := range g.Edges {
		asc = append(asc, item{up[i], 1, i})
		desc = append(desc, item{down[i], 1, i})
	}
	less := func(a, b item, ascendingValue bool) bool {
		if a.value != b.value {
			return (a.value < b.value) == ascendingValue
		}
		if a.dim != b.dim {
			return a.dim < b.dim
		}
		return a.idx < b.idx
	}
	sort.Slice(asc, func(i, j int) bool { return less(asc[i], asc[j], true) })
	sort.Slice(desc, func(i, j int) bool { return less(desc[i], desc[j], false) })

	cx := []simplex{{kind: omega}}
	posV, posE := make([]int, g.N), make([]int, len(g.Edges))
	posCV, posCE := make([]int, g.N), make([]int, len(g.Edges))
	for _, it := range asc {
		if it.dim == 0 {
			posV[it.idx] = len(cx)
			cx = append(cx, simplex{kind: vertex, id: it.idx, value: it.value})
		} else {
			ed := g.Edges[it.idx]
			posE[it.idx] = len(cx)
			cx = append(cx, simplex{kind: edge, id: it.idx, value: it.value, boundary: []int{posV[ed.U], posV[ed.V]}})
		}
	}
	for _, it := range desc {
		if it.dim == 0 {
			posCV[it.idx] = len(cx)
			cx = append(cx, simplex{kind: coneVertex, id: it.idx, value: it.value, boundary: []int{0, posV[it.idx]}})
		} else {
			ed := g.Edges[it.idx]
			posCE[it.idx] = len(cx)
			cx = append(cx, simplex{kind: coneEdge, id: it.idx, value: it.value,
				boundary: []int{posE[it.idx], posCV[ed.U], posCV[ed.V]}})
		}
	}

	// Standard reduction: add earlier columns while the lowest entry
	// clashes with another column's lowest entry.
	n := len(cx)
	owner := make([]int, n) // column whose low is this row, or -1
	for i := range owner {
		owner[i] = -1
	}
	cols := make([][]bool, n)
	low := func(c []bool) int {
		for i := len(c) - 1; i >= 0; i-- {
			if c[i] {
				return i
			}
		}
		return -1
	}
	var d Diagrams
	paired := make([]bool, n)
	for j, s := range cx {
		col := make([]bool, n)
		for _, b := range s.boundary {
			col[b] = !col[b]
		}
		for l := low(col); l >= 0 && owner[l] >= 0; l = low(col) {
			for r, x := range cols[owner[l]] {
				col[r] = col[r] != x
			}
		}
		cols[j] = col
		l := low(col)
		if l < 0 {
			continue
		}
		owner[l] = j
		paired[l], paired[j] = true, true
		p := Point{Birth: cx[l].value, Death: s.value}
		switch {
		case cx[l].kind == vertex && s.kind == edge:
			d.Ord0 = append(d.Ord0, p)
		case cx[l].kind == vertex && s.kind == coneVertex:
			d.Ext0 = append(d.Ext0, p)
		case cx[l].kind == edge && s.kind == coneEdge:
			d.Ext1 = append(d.Ext1, p)
		case cx[l].kind == coneVertex && s.kind == coneEdge:
			d.Rel1 = append(d.Rel1, p)
		default:
			panic("unexpected pair of simplex kinds")
		}
	}
	// The cone is contractible, so only w itself stays unpaired.
	for i, p := range paired {
		if !p && i != 0 {
			panic("unpaired simplex besides the cone vertex")
		}
	}
	return d
}

// randomGraph draws a graph on 1..maxN nodes with edge probability p and
// integer values in 0..levels-1, so ties are frequent.
func randomGraph(tb testing.TB, r *rand.Rand, maxN int, p float64, levels int) (*graph.Graph, []float64) {
	n := 1 + r.IntN(maxN)
	var edges []graph.Edge
	for u := range n {
		for v := u + 1; v < n; v++ {
			if r.Float64() < p {
				edges = append(edges, graph.Edge{U: u, V: v})
			}
		}
	}
	f := make([]float64, n)
	for i := range f {
		f[i] = float64(r.IntN(levels))
	}
	return mustGraph(tb, n, edges...), f
}

func TestExtendedBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 240 {
		levels := []int{1, 2, 3, 5, 1000}[trial%5]
		g, f := randomGraph(t, r, 10, 0.2+0.5*r.Float64(), levels)
		got, want := Extended(g, f), bruteExtended(g, f)
		for _, c := range []struct {
			name   string
			gd, wd []Point
		}{
			{"Ord0", got.Ord0, want.Ord0},
			{"Rel1", got.Rel1, want.Rel1},
			{"Ext0", got.Ext0, want.Ext0},
			{"Ext1", got.Ext1, want.Ext1},
		} {
			if !sameMultiset(c.gd, c.wd, 0) {
				t.Fatalf("trial %d, %d nodes, edges %v, f %v:\n%s = %v\nbrute force %v",
					trial, g.N, g.Edges, f, c.name, sorted(c.gd), sorted(c.wd))
			}
		}
	}
}
