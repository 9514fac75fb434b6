package features

import (
	"cmp"
	"math"
	"slices"
)

// tieTolerance is how close two values of one graph's filtration must be,
// relative to its largest |value|, to be taken as equal (snapTies).
const tieTolerance = 1e-10

// snapTies sets every run of values (vertex and edge values together)
// whose neighbours in sorted order lie less than tieTolerance·max|value|
// apart to the run's smallest value, in place.
//
// Values equal in exact arithmetic (the heat kernel signatures of
// symmetric or cospectral vertices) come out of floating point a few
// units in the last place apart, and apart differently on each platform.
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
