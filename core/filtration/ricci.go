package filtration

import (
	"math"

	"wkpi-web/core/graph"
)

// RicciCurvature returns the Ollivier-Ricci curvature of every edge of g,
// in the order of g.Edges, with idleness alpha in [0, 1] (see the package
// documentation). An alpha outside [0, 1] makes every value NaN.
func RicciCurvature(g *graph.Graph, alpha float64) []float64 {
	kappa := make([]float64, len(g.Edges))
	if !(alpha >= 0 && alpha <= 1) {
		for i := range kappa {
			kappa[i] = math.NaN()
		}
		return kappa
	}
	adj := g.Neighbors()
	d := supportDistances{mark: make([]int, g.N)}
	var w transport
	var a, b []float64
	for i, e := range g.Edges {
		a = measure(a[:0], adj[e.U], alpha)
		b = measure(b[:0], adj[e.V], alpha)
		cost := d.costs(adj, e.U, e.V)
		a, b, cost = cancelShared(a, b, cost)
		// d(u,v) = 1 for an edge, so no division.
		kappa[i] = 1 - w.w1(a, b, cost)
	}
	return kappa
}

// cancelShared removes the mass that both measures put on the same point
// (cost 0: u, v and common neighbours) and drops the points left empty,
// compacting a, b and cost in place. For a metric cost W1 depends only on
// a - b (Kantorovich-Rubinstein duality), so the distance is unchanged,
// and the transport problem loses at least one of the two copies of u and
// one of v. Dropping a remnant below massEps moves W1 by at most 3 massEps.
func cancelShared(a, b []float64, cost []int) ([]float64, []float64, []int) {
	l := len(b)
	for i := range a {
		for j := range b {
			if cost[i*l+j] == 0 {
				m := min(a[i], b[j])
				a[i] -= m
				b[j] -= m
			}
		}
	}
	// Compact cost first: it reads the uncompacted masses.
	n := 0
	for i := range a {
		for j := range b {
			if a[i] > massEps && b[j] > massEps {
				cost[n] = cost[i*l+j] // n <= i*l+j: in place is safe
				n++
			}
		}
	}
	return compact(a), compact(b), cost[:n]
}

// compact keeps the masses above massEps, in order, in place.
func compact(m []float64) []float64 {
	k := 0
	for _, x := range m {
		if x > massEps {
			m[k] = x
			k++
		}
	}
	return m[:k]
}

// measure appends m_u on the support [u, neighbours of u...].
func measure(m []float64, nbrs []int, alpha float64) []float64 {
	m = append(m, alpha)
	share := (1 - alpha) / float64(len(nbrs))
	for range nbrs {
		m = append(m, share)
	}
	return m
}

// supportDistances computes graph distances between the closed
// neighbourhoods of an edge's endpoints; its buffers are reused per edge.
type supportDistances struct {
	mark  []int // mark[z] == stamp when z is a neighbour of the current x
	stamp int
	cost  []int
}

// costs returns the row-major distance matrix from N[u] = [u, adj[u]...]
// to N[v] = [v, adj[v]...], for an edge uv. Every such distance is at most
// 3 (x-u-v-y), and it is 2 exactly when x and y are distinct, not adjacent,
// and have a common neighbour somewhere in the graph.
func (d *supportDistances) costs(adj [][]int, u, v int) []int {
	l := len(adj[v]) + 1
	d.cost = d.cost[:0]
	for i := -1; i < len(adj[u]); i++ {
		x := u
		if i >= 0 {
			x = adj[u][i]
		}
		d.stamp++
		for _, z := range adj[x] {
			d.mark[z] = d.stamp
		}
		for j := -1; j < l-1; j++ {
			y := v
			if j >= 0 {
				y = adj[v][j]
			}
			d.cost = append(d.cost, d.distance(adj, x, y))
		}
	}
	return d.cost
}

// distance is d(x, y) for x whose neighbours carry the current stamp.
func (d *supportDistances) distance(adj [][]int, x, y int) int {
	switch {
	case x == y:
		return 0
	case d.mark[y] == d.stamp:
		return 1
	}
	for _, z := range adj[y] {
		if d.mark[z] == d.stamp {
			return 2
		}
	}
	return 3
}
