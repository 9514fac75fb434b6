package pdkernel

import (
	"context"
	"fmt"
	"math"

	"wkpi-web/core/kernel"
	"wkpi-web/core/persistence"
	"wkpi-web/core/progress"
)

// checkDiagrams rejects points with an infinite or NaN coordinate, naming
// the list (what: "", "row " or "column "), the diagram and the point.
func checkDiagrams(what string, diagrams [][]persistence.Point) error {
	for i, d := range diagrams {
		for k, p := range d {
			if math.IsNaN(p.Birth) || math.IsNaN(p.Death) || math.IsInf(p.Birth, 0) || math.IsInf(p.Death, 0) {
				return fmt.Errorf("pdkernel: %sdiagram %d point %d (%g, %g) is not finite (drop essential points first)",
					what, i, k, p.Birth, p.Death)
			}
		}
	}
	return nil
}

// distinct returns the distinct points of d in their first order and how
// often each occurs. The PWGK and PF sums are linear in each point's
// mass, so a repeated point is one term with its multiplicity as factor;
// diagrams of graphs repeat points often (NCI1: 59151 points, 29697
// distinct within their diagrams), which halves the work per pair or better.
func distinct(d []persistence.Point) ([]persistence.Point, []float64) {
	at := make(map[persistence.Point]int, len(d))
	var pts []persistence.Point
	var count []float64
	for _, p := range d {
		k, ok := at[p]
		if !ok {
			k = len(pts)
			at[p] = k
			pts = append(pts, p)
			count = append(count, 0)
		}
		count[k]++
	}
	return pts, count
}

// gaussTable holds e(v_i - v_j) = exp(-c (v_i - v_j)^2) for the
// distinct coordinate values v of a set of diagrams. The Gaussians of PWGK
// and PF are separable, exp(-c |x-y|^2) = e(x_1 - y_1) e(x_2 - y_2), and
// the coordinates of graph diagrams take few distinct values (Ricci
// curvature on NCI1: 86 births, deaths and midpoints; PROTEINS: 2885), so
// a pair of points costs two look-ups instead of an exponential, 2 to 6
// times faster; the product differs from the single exponential by
// rounding only. A pair of diagrams reads only the table rows of one
// point at a time, so the table stays in cache however large it is.
type gaussTable struct {
	e     []float64 // e[i*n+j]; nil when there were too many values
	n     int
	index map[float64]int32
}

// maxTableValues bounds a gaussTable to 72 MB, freed after the call.
const maxTableValues = 3072

// newGaussTable returns the table over the births and deaths of every
// point of the lists, and their midpoints (b+d)/2 when mid is set, or a
// table with e == nil when they take more than maxValues values.
func newGaussTable(c float64, maxValues int, mid bool, lists ...[][]persistence.Point) gaussTable {
	t := gaussTable{index: map[float64]int32{}}
	var vals []float64
	for _, l := range lists {
		for _, d := range l {
			for _, p := range d {
				vs := [3]float64{p.Birth, p.Death, (p.Birth + p.Death) / 2}
				n := 2
				if mid {
					n = 3
				}
				for _, v := range vs[:n] {
					if _, ok := t.index[v]; !ok {
						if len(vals) == maxValues {
							return gaussTable{}
						}
						t.index[v] = int32(len(vals))
						vals = append(vals, v)
					}
				}
			}
		}
	}
	t.n = len(vals)
	t.e = make([]float64, t.n*t.n)
	for i, x := range vals {
		for j, y := range vals {
			t.e[i*t.n+j] = math.Exp(-c * (x - y) * (x - y))
		}
	}
	return t
}

// indices returns the table index of each value, or nil without a table.
func (t gaussTable) indices(vals func(k int) float64, n int) []int32 {
	if t.e == nil {
		return nil
	}
	out := make([]int32, n)
	for k := range out {
		out[k] = t.index[vals(k)]
	}
	return out
}

// pairFunc returns the value of one pair (i, j) of a matrix. A pass calls
// newPair once per goroutine, so the function may own scratch buffers.
type pairFunc func(i, j int) float64

// symmetric returns the n x n matrix with entries f(i, j), computing each
// upper-triangle entry once (the diagonal too, unless zeroDiag) and rows
// of equal work in parallel.
func symmetric(ctx context.Context, n int, zeroDiag bool, stage string, prog progress.Func, newPair func() pairFunc) ([][]float64, error) {
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, n)
	}
	b := kernel.BalancedSplit(n, kernel.Parts(n))
	tick := prog.Counter(stage, n)
	err := kernel.Parallel(len(b)-1, func(p int) error {
		f := newPair()
		for i := b[p]; i < b[p+1]; i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			if !zeroDiag {
				out[i][i] = f(i, i)
			}
			for j := i + 1; j < n; j++ {
				out[i][j] = f(i, j)
			}
			tick()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	kernel.Symmetrize(out)
	return out, nil
}

// cross returns the rows x cols matrix with entries f(i, j), ranges of
// rows in parallel.
func cross(ctx context.Context, rows, cols int, stage string, prog progress.Func, newPair func() pairFunc) ([][]float64, error) {
	out := make([][]float64, rows)
	parts := kernel.Parts(rows)
	tick := prog.Counter(stage, rows)
	err := kernel.Parallel(parts, func(p int) error {
		f := newPair()
		for i := p * rows / parts; i < (p+1)*rows/parts; i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			out[i] = make([]float64, cols)
			for j := range out[i] {
				out[i][j] = f(i, j)
			}
			tick()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Exp returns the matrix exp(-t m_ij), the kernel of a distance (SW, PF)
// or of a squared distance (PWGK, persistence images) matrix m.
func Exp(m [][]float64, t float64) [][]float64 {
	out := make([][]float64, len(m))
	for i, row := range m {
		out[i] = make([]float64, len(row))
		for j, v := range row {
			out[i][j] = math.Exp(-t * v)
		}
	}
	return out
}

// SquaredDistances returns the squared distances K_ii + K_jj - 2 K_ij of
// the feature space of a symmetric Gram matrix K, clamped at 0 against
// rounding.
func SquaredDistances(gram [][]float64) [][]float64 {
	self := make([]float64, len(gram))
	for i := range gram {
		self[i] = gram[i][i]
	}
	d, _ := SquaredDistancesCross(gram, self, self) // the lengths match by construction
	return d
}

// SquaredDistancesCross returns K(r,r) + K(c,c) - 2 K(r,c) for a cross
// Gram matrix K(rows, cols) and the self values rowSelf[i] = K(r_i, r_i),
// colSelf[j] = K(c_j, c_j) (PWGKSelf, or the diagonal of the training Gram
// matrix), clamped at 0.
func SquaredDistancesCross(cross [][]float64, rowSelf, colSelf []float64) ([][]float64, error) {
	if len(cross) != len(rowSelf) {
		return nil, fmt.Errorf("pdkernel: %d cross rows for %d row self values", len(cross), len(rowSelf))
	}
	out := make([][]float64, len(cross))
	for i, row := range cross {
		if len(row) != len(colSelf) {
			return nil, fmt.Errorf("pdkernel: cross row %d has %d columns for %d column self values", i, len(row), len(colSelf))
		}
		out[i] = make([]float64, len(row))
		for j, k := range row {
			out[i][j] = max(0, rowSelf[i]+colSelf[j]-2*k)
		}
	}
	return out, nil
}

// SquaredEuclidean returns the n x n matrix |x_i - x_j|^2 of equal-length
// vectors (persistence images, say), summed coordinate by coordinate rather
// than as |x|^2 + |y|^2 - 2 x.y, which cancels badly for close vectors.
func SquaredEuclidean(ctx context.Context, vectors [][]float64, prog progress.Func) ([][]float64, error) {
	if err := sameLength(vectors, vectors); err != nil {
		return nil, err
	}
	return symmetric(ctx, len(vectors), true, "euclidean", prog, func() pairFunc {
		return func(i, j int) float64 { return squaredDistance(vectors[i], vectors[j]) }
	})
}

// SquaredEuclideanCross returns the len(rows) x len(cols) matrix
// |r_i - c_j|^2.
func SquaredEuclideanCross(ctx context.Context, rows, cols [][]float64, prog progress.Func) ([][]float64, error) {
	if err := sameLength(rows, cols); err != nil {
		return nil, err
	}
	return cross(ctx, len(rows), len(cols), "euclidean", prog, func() pairFunc {
		return func(i, j int) float64 { return squaredDistance(rows[i], cols[j]) }
	})
}

func sameLength(rows, cols [][]float64) error {
	n := -1
	for _, list := range [2][][]float64{rows, cols} {
		for i, v := range list {
			if n < 0 {
				n = len(v)
			}
			if len(v) != n {
				return fmt.Errorf("pdkernel: vector %d has length %d, want %d", i, len(v), n)
			}
		}
	}
	return nil
}

func squaredDistance(a, b []float64) float64 {
	var s float64
	for k, v := range a {
		d := v - b[k]
		s += d * d
	}
	return s
}
