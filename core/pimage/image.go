package pimage

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"wkpi-web/core/persistence"
)

// Weighting chooses how much a point counts in an image, by its
// persistence.
type Weighting string

const (
	// Constant gives every point weight 1.
	Constant Weighting = "constant"
	// Linear is the piecewise-linear weighting of Adams et al.: 0 at
	// persistence 0, rising linearly to 1 at Options.MaxPersistence and
	// staying 1 above, so that points near the diagonal (noise) fade out.
	// With MaxPersistence the largest persistence of the training
	// diagrams it is the PI-PL baseline of Zhao & Wang's comparison.
	Linear Weighting = "linear"
)

// Options set how points become an image.
type Options struct {
	Rows      int       `json:"rows"`      // rows of the grid to fit (FitGrid); DefaultRows if unsure
	Tau       float64   `json:"tau"`       // standard deviation of each point's Gaussian
	Weighting Weighting `json:"weighting"` // Constant or Linear
	// MaxPersistence is where the Linear weight reaches 1; use
	// MaxPersistence over the whole dataset so that all images share one
	// scale. Ignored by Constant.
	MaxPersistence float64 `json:"maxPersistence"`
}

// Validate reports whether the options describe an image.
func (o Options) Validate() error {
	switch {
	case o.Rows <= 0:
		return fmt.Errorf("persistence image: %d rows, want at least 1", o.Rows)
	case !(o.Tau > 0) || math.IsInf(o.Tau, 1):
		return fmt.Errorf("persistence image: tau %v, want a positive number", o.Tau)
	case o.Weighting == Constant:
	case o.Weighting == Linear:
		if !(o.MaxPersistence > 0) || math.IsInf(o.MaxPersistence, 1) {
			return fmt.Errorf("persistence image: linear weighting up to %v, want a positive number", o.MaxPersistence)
		}
	default:
		return fmt.Errorf("persistence image: unknown weighting %q", o.Weighting)
	}
	return nil
}

// Weight returns the weight of a point of persistence t under o.
func (o Options) Weight(t float64) float64 {
	if o.Weighting == Linear {
		return math.Min(math.Max(t/o.MaxPersistence, 0), 1)
	}
	return 1
}

// MaxPersistence returns the largest persistence |d-b| of the finite
// points of all diagrams, 0 if there are none.
func MaxPersistence(diagrams [][]persistence.Point) float64 {
	m := 0.0
	for _, d := range diagrams {
		for _, p := range d {
			if finite(p) {
				_, y := Transform(p)
				m = math.Max(m, y)
			}
		}
	}
	return m
}

// Image returns the persistence image of the points on g, Rows·Cols values
// in the package's row-major layout. Pixel (r, c) holds the exact integral
// over its square of the sum over points p of Weight(p) times the normal
// density centred at Transform(p) with covariance Tau²·I. The density is
// separable, so each point contributes the outer product of its mass per
// row and per column (see Masses), and the image is one matrix product.
// Infinite points and zero-weight points are skipped. o must be valid as
// a whole, though o.Rows is not used here (the grid has its own).
func (g Grid) Image(points []persistence.Point, o Options) ([]float64, error) {
	m, err := g.Masses(points, o)
	if err != nil {
		return nil, err
	}
	img := mat.NewDense(g.Rows, g.Cols, nil)
	if m.Rows.IsEmpty() {
		return img.RawMatrix().Data, nil
	}
	img.Mul(m.Rows.T(), m.Cols)
	return img.RawMatrix().Data, nil
}

// PointMasses are each point's share of an image: point p adds
// Rows[p][r]·Cols[p][c] to pixel (r, c), its weight included in Rows.
type PointMasses struct {
	Rows, Cols *mat.Dense // P×Rows and P×Cols; empty when no point counts
	// Index lists, per row of Rows and Cols, the point's position in the
	// input (infinite and zero-weight points have none).
	Index []int
}

// Masses returns every point's mass per row and per column of the grid,
// the factors whose products Image sums: what one point contributes to
// one pixel, the basis of explanations (core/explain).
func (g Grid) Masses(points []persistence.Point, o Options) (PointMasses, error) {
	if err := g.Validate(); err != nil {
		return PointMasses{}, err
	}
	if err := o.Validate(); err != nil {
		return PointMasses{}, err
	}
	var xs, ys, ws []float64
	var index []int
	for i, p := range points {
		if !finite(p) {
			continue
		}
		x, y := Transform(p)
		if w := o.Weight(y); w > 0 {
			xs, ys, ws = append(xs, x), append(ys, y), append(ws, w)
			index = append(index, i)
		}
	}
	if len(xs) == 0 {
		return PointMasses{Rows: &mat.Dense{}, Cols: &mat.Dense{}}, nil
	}
	rowMass := mat.NewDense(len(xs), g.Rows, nil)
	colMass := mat.NewDense(len(xs), g.Cols, nil)
	tails := make([]float64, max(g.Rows, g.Cols)+1)
	// Points of a diagram often share a coordinate (integer descriptors,
	// symmetric atoms, bond ranks): such a point's masses are copied from
	// the first one's, with the same bits (a row's weight is a function
	// of y alone).
	firstY, firstX := make(map[float64]int), make(map[float64]int)
	for p := range xs {
		if q, ok := firstY[ys[p]]; ok {
			copy(rowMass.RawRowView(p), rowMass.RawRowView(q))
		} else {
			firstY[ys[p]] = p
			g.axisMass(rowMass.RawRowView(p), tails, g.MinY, ys[p], o.Tau)
			floats.Scale(ws[p], rowMass.RawRowView(p))
		}
		if q, ok := firstX[xs[p]]; ok {
			copy(colMass.RawRowView(p), colMass.RawRowView(q))
		} else {
			firstX[xs[p]] = p
			g.axisMass(colMass.RawRowView(p), tails, g.MinX, xs[p], o.Tau)
		}
	}
	return PointMasses{Rows: rowMass, Cols: colMass, Index: index}, nil
}

// axisMass sets dst[k] to the probability that a normal variable of mean
// mu and standard deviation tau falls in pixel k of an axis starting at
// lo, using tails (len(dst)+1) as scratch. Differences of two CDF values
// near 1 (or near 0) would cancel, so each boundary keeps the mass of the
// tail beyond it, 0.5·erfc(|z|), and intervals are taken between tails on
// their own side of mu.
func (g Grid) axisMass(dst, tails []float64, lo, mu, tau float64) {
	z := func(k int) float64 { return (lo + float64(k)*g.Pixel - mu) / (tau * math.Sqrt2) }
	for k := range len(dst) + 1 {
		tails[k] = 0.5 * math.Erfc(math.Abs(z(k)))
	}
	for k := range dst {
		a, b := z(k), z(k+1)
		switch {
		case a >= 0:
			dst[k] = tails[k] - tails[k+1]
		case b <= 0:
			dst[k] = tails[k+1] - tails[k]
		default:
			dst[k] = 1 - tails[k] - tails[k+1]
		}
	}
}
