package filtration

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"wkpi-web/core/graph"
)

// DefaultLabelTime is the diffusion time of LabelHeat when none is given:
// at t = 1 a label's heat reaches its neighbours (e^-1 of it stays put on
// an isolated pair) without spreading over the whole molecule, so the
// function still tells which part of a graph holds the label.
const DefaultLabelTime = 1.0

// LabelHeat returns one vertex function per label group: the heat
// diffusion h_k = exp(-tL) 1_k of the indicator of the vertices whose
// group[v] is k (0 <= k < groups), for the normalised Laplacian L of HKS.
// h_k(v) is high where label k is at or near v. It uses the same Chebyshev
// expansion as HKS, applied to one vector per group: sparse products only,
// (2m+n) times the number of terms per group.
func LabelHeat(g *graph.Graph, group []int, groups int, t float64) ([][]float64, error) {
	if len(group) != g.N {
		return nil, fmt.Errorf("label heat: %d label groups for %d nodes", len(group), g.N)
	}
	if !(t > 0) || math.IsInf(t, 1) {
		return nil, fmt.Errorf("label heat: time %v is not a positive finite number", t)
	}
	signals := make([][]float64, groups)
	for k := range signals {
		signals[k] = make([]float64, g.N)
	}
	for v, k := range group {
		if k < 0 || k >= groups {
			return nil, fmt.Errorf("label heat: node %d in group %d of %d", v, k, groups)
		}
		signals[k][v] = 1
	}
	rows := shiftedLaplacian(g)
	c := expChebyshev(t)
	out := make([][]float64, groups)
	for k, x := range signals {
		out[k] = chebyshevApply(rows, c, x)
	}
	return out, nil
}

// chebyshevApply returns (c_0/2 + sum_k c_k T_k(Y)) x by the three-term
// recurrence T_{k+1}(Y)x = 2Y T_k(Y)x - T_{k-1}(Y)x.
func chebyshevApply(rows [][]entry, c []float64, x []float64) []float64 {
	n := len(x)
	mul := func(dst, src []float64) {
		for v, row := range rows {
			var s float64
			for _, e := range row {
				s += e.w * src[e.col]
			}
			dst[v] = s
		}
	}
	prev := append([]float64(nil), x...) // T_0 x
	cur := make([]float64, n)            // T_1 x
	mul(cur, prev)
	out := make([]float64, n)
	floats.AddScaled(out, c[0]/2, prev)
	floats.AddScaled(out, c[1], cur)
	next := make([]float64, n)
	for k := 2; k < len(c); k++ {
		mul(next, cur)
		for v := range next {
			next[v] = 2*next[v] - prev[v]
		}
		floats.AddScaled(out, c[k], next)
		prev, cur, next = cur, next, prev
	}
	return out
}
