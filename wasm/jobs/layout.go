package jobs

import (
	"math"

	"wkpi-web/core/graph"
	"wkpi-web/wasm/protocol"
)

// Layout sizes: force layout up to maxForceNodes nodes (its cost is
// O(n^2) per iteration), a circle beyond.
const (
	maxForceNodes   = 1000
	forceIterations = 300
)

// Layout places g's nodes in [0,1]x[0,1] for drawing, deterministically:
// Fruchterman-Reingold (1991) started from a circle, with a weak pull to
// the centre so that components stay together. Hand-written because
// gonum's graph/layout needs its own graph type and gives no
// determinism guarantee across versions for the starting positions.
func Layout(g *graph.Graph, class string) (d protocol.Drawing, x, y []float64) {
	d = protocol.Drawing{N: g.N, Labels: g.NodeLabels, Class: class, Edges: make([][2]int, len(g.Edges))}
	for i, e := range g.Edges {
		d.Edges[i] = [2]int{e.U, e.V}
	}
	x, y = make([]float64, g.N), make([]float64, g.N)
	for i := range x {
		a := 2 * math.Pi * float64(i) / float64(max(g.N, 1))
		x[i], y[i] = math.Cos(a), math.Sin(a)
	}
	if g.N > 1 && g.N <= maxForceNodes {
		force(g, x, y)
	}
	normalise(x, y)
	return d, x, y
}

func force(g *graph.Graph, x, y []float64) {
	n := g.N
	k := 2 / math.Sqrt(float64(n)) // ideal edge length in a disc of radius 1
	dx, dy := make([]float64, n), make([]float64, n)
	temp := 0.2
	for it := 0; it < forceIterations; it++ {
		for i := range dx {
			// Gravity towards the origin keeps components from drifting apart.
			dx[i], dy[i] = -0.05*x[i], -0.05*y[i]
		}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				ux, uy := x[i]-x[j], y[i]-y[j]
				d2 := ux*ux + uy*uy
				if d2 < 1e-9 {
					ux, uy, d2 = 1e-3*float64(i-j), 1e-3, 1e-6
				}
				f := k * k / d2 // repulsion k^2/d, along the unit vector u/d
				dx[i] += ux * f
				dy[i] += uy * f
				dx[j] -= ux * f
				dy[j] -= uy * f
			}
		}
		for _, e := range g.Edges {
			ux, uy := x[e.U]-x[e.V], y[e.U]-y[e.V]
			f := math.Hypot(ux, uy) / k // attraction d^2/k, along u/d
			dx[e.U] -= ux * f
			dy[e.U] -= uy * f
			dx[e.V] += ux * f
			dy[e.V] += uy * f
		}
		for i := range x {
			l := math.Hypot(dx[i], dy[i])
			if l > 0 {
				s := math.Min(l, temp) / l
				x[i] += dx[i] * s
				y[i] += dy[i] * s
			}
		}
		temp *= 0.985
	}
}

// normalise maps the points into [0.05,0.95]^2 keeping the aspect ratio.
func normalise(x, y []float64) {
	if len(x) == 0 {
		return
	}
	minX, maxX, minY, maxY := x[0], x[0], y[0], y[0]
	for i := range x {
		minX, maxX = math.Min(minX, x[i]), math.Max(maxX, x[i])
		minY, maxY = math.Min(minY, y[i]), math.Max(maxY, y[i])
	}
	span := math.Max(maxX-minX, maxY-minY)
	if span == 0 {
		span = 1
	}
	ox := (span - (maxX - minX)) / 2
	oy := (span - (maxY - minY)) / 2
	for i := range x {
		x[i] = 0.05 + 0.9*(x[i]-minX+ox)/span
		y[i] = 0.05 + 0.9*(y[i]-minY+oy)/span
	}
}
