package pdkernel

import (
	"context"
	"fmt"
	"math"
	"slices"

	"wkpi-web/core/persistence"
	"wkpi-web/core/progress"
)

// projections holds, per direction k, a diagram's points projected on the
// line of angle theta_k and the projections of their diagonal
// projections, each sorted.
type projections struct {
	pts, diag [][]float64
}

func project(d []persistence.Point, directions int) projections {
	pr := projections{pts: make([][]float64, directions), diag: make([][]float64, directions)}
	for k := range directions {
		theta := -math.Pi/2 + float64(k)*math.Pi/float64(directions)
		c, s := math.Cos(theta), math.Sin(theta)
		pr.pts[k] = make([]float64, len(d))
		pr.diag[k] = make([]float64, len(d))
		for q, p := range d {
			pr.pts[k][q] = p.Birth*c + p.Death*s
			// The diagonal projection ((b+d)/2, (b+d)/2), written as GUDHI
			// writes it so that the two agree to the last bit.
			m := (p.Birth + p.Death) / 2
			pr.diag[k][q] = m*c + m*s
		}
		slices.Sort(pr.pts[k])
		slices.Sort(pr.diag[k])
	}
	return pr
}

func projectAll(diagrams [][]persistence.Point, directions int) []projections {
	out := make([]projections, len(diagrams))
	for i, d := range diagrams {
		out[i] = project(d, directions)
	}
	return out
}

// slicedWasserstein returns the mean over directions of the L1 distance
// between sorted(pts_a ∪ diag_b) and sorted(pts_b ∪ diag_a): both sorted
// unions are produced by merging the pre-sorted halves, in step.
func slicedWasserstein(a, b *projections) float64 {
	var total float64
	for k := range a.pts {
		x1, x2 := a.pts[k], b.diag[k] // first union
		y1, y2 := b.pts[k], a.diag[k] // second union
		var i1, i2, j1, j2 int
		var sum float64
		for range len(x1) + len(x2) {
			var x, y float64
			if i2 == len(x2) || (i1 < len(x1) && x1[i1] <= x2[i2]) {
				x = x1[i1]
				i1++
			} else {
				x = x2[i2]
				i2++
			}
			if j2 == len(y2) || (j1 < len(y1) && y1[j1] <= y2[j2]) {
				y = y1[j1]
				j1++
			} else {
				y = y2[j2]
				j2++
			}
			sum += math.Abs(x - y)
		}
		total += sum
	}
	return total / float64(len(a.pts))
}

func checkDirections(directions int) error {
	if directions < 1 {
		return fmt.Errorf("pdkernel: %d sliced Wasserstein directions, want at least 1", directions)
	}
	return nil
}

// SlicedWasserstein returns the symmetric matrix of sliced Wasserstein
// distances between all pairs of diagrams, approximated with directions
// lines evenly spaced on the half circle (Carriere et al. 2017,
// Algorithm 1; GUDHI's SlicedWassersteinDistance(num_directions)). The
// SW kernel is Exp(SW, 1/(2 sigma^2)).
func SlicedWasserstein(ctx context.Context, diagrams [][]persistence.Point, directions int, prog progress.Func) ([][]float64, error) {
	if err := checkDirections(directions); err != nil {
		return nil, err
	}
	if err := checkDiagrams("", diagrams); err != nil {
		return nil, err
	}
	pr := projectAll(diagrams, directions)
	return symmetric(ctx, len(diagrams), true, "sliced wasserstein", prog, func() pairFunc {
		return func(i, j int) float64 { return slicedWasserstein(&pr[i], &pr[j]) }
	})
}

// SlicedWassersteinCross returns the len(rows) x len(cols) matrix of
// sliced Wasserstein distances SW(rows[i], cols[j]).
func SlicedWassersteinCross(ctx context.Context, rows, cols [][]persistence.Point, directions int, prog progress.Func) ([][]float64, error) {
	if err := checkDirections(directions); err != nil {
		return nil, err
	}
	if err := checkDiagrams("row ", rows); err != nil {
		return nil, err
	}
	if err := checkDiagrams("column ", cols); err != nil {
		return nil, err
	}
	pr, pc := projectAll(rows, directions), projectAll(cols, directions)
	return cross(ctx, len(rows), len(cols), "sliced wasserstein", prog, func() pairFunc {
		return func(i, j int) float64 { return slicedWasserstein(&pr[i], &pc[j]) }
	})
}
