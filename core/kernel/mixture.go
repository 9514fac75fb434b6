package kernel

import (
	"errors"
	"fmt"
	"math"
)

// Mixture is the weight function of WKPI, a mixture of m isotropic
// Gaussians:
//
//	w(x, y) = sum_r W[r] exp(-((x-X[r])^2 + (y-Y[r])^2) / Sigma[r]^2)
//
// (no factor 2 in the exponent, as in the paper's Definition 3.1).
type Mixture struct {
	X     []float64 `json:"x"`
	Y     []float64 `json:"y"`
	Sigma []float64 `json:"sigma"`
	W     []float64 `json:"w"`
}

// Len returns the number of components m.
func (m Mixture) Len() int { return len(m.X) }

// Validate reports whether the four slices have equal, non-zero length, all
// values are finite, every Sigma is positive and every W non-negative.
func (m Mixture) Validate() error {
	n := len(m.X)
	if n == 0 {
		return errors.New("kernel: mixture has no components")
	}
	if len(m.Y) != n || len(m.Sigma) != n || len(m.W) != n {
		return fmt.Errorf("kernel: mixture lengths differ: x %d, y %d, sigma %d, w %d",
			n, len(m.Y), len(m.Sigma), len(m.W))
	}
	for r := 0; r < n; r++ {
		for _, v := range [...]float64{m.X[r], m.Y[r], m.Sigma[r], m.W[r]} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("kernel: mixture component %d is not finite", r)
			}
		}
		if m.Sigma[r] <= 0 {
			return fmt.Errorf("kernel: mixture component %d has sigma %g <= 0", r, m.Sigma[r])
		}
		if m.W[r] < 0 {
			return fmt.Errorf("kernel: mixture component %d has weight %g < 0", r, m.W[r])
		}
	}
	return nil
}

// At evaluates the weight function at (x, y).
func (m Mixture) At(x, y float64) float64 {
	var w float64
	for r := range m.X {
		w += m.W[r] * m.Component(r, x, y)
	}
	return w
}

// Component returns the unweighted r-th Gaussian at (x, y).
func (m Mixture) Component(r int, x, y float64) float64 {
	dx, dy := x-m.X[r], y-m.Y[r]
	return math.Exp(-(dx*dx + dy*dy) / (m.Sigma[r] * m.Sigma[r]))
}

// PixelWeights evaluates the weight function at every pixel centre.
func (m Mixture) PixelWeights(centres [][2]float64) []float64 {
	pw := make([]float64, len(centres))
	for s, c := range centres {
		pw[s] = m.At(c[0], c[1])
	}
	return pw
}
