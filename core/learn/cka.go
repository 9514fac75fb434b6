package learn

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"wkpi-web/core/kernel"
	"wkpi-web/core/progress"
)

// Objectives of metric learning (Options.Objective).
const (
	// ObjectiveTC is the paper's total cost with the terms of Problem
	// (the default, also when Options.Objective is "").
	ObjectiveTC = "tc"
	// ObjectiveCKA maximises the centred kernel-target alignment of the
	// SVM's kernel over the mixture's component weights (see Alignment).
	ObjectiveCKA = "cka"
)

// CheckObjective reports an unknown objective name.
func CheckObjective(name string) error {
	switch name {
	case "", ObjectiveTC, ObjectiveCKA:
		return nil
	}
	return fmt.Errorf("learn: unknown objective %q (want tc or cka)", name)
}

// Alignment is the centred kernel-target alignment (Cristianini et al.
// 2002; Cortes, Mohri and Rostamizadeh, JMLR 2012) of a kernel that is a
// non-negative combination K = sum_r W_r K_r of component Gram matrices:
//
//	A(W) = <H K H, H Y H>_F / (||H K H||_F ||H Y H||_F)
//
// with H = I - 11^T/n the centring matrix and Y_ij = 1 when samples i and
// j share a class, 0 otherwise (for two classes this is the usual yy^T up
// to centring and scale). The WKPI kernel is linear in the pixel weights,
// and the pixel weights are linear in the mixture's W, so K_r is the Gram
// matrix of component r's Gaussian alone and A(W) = a.W / (sqrt(W^T M W)
// ||HYH||) with a_r = <HK_rH, Y> and M_rq = <HK_rH, HK_qH>: after one pass
// over the Gram matrices every evaluation costs O(m^2).
//
// Unlike TC, A measures the kernel the SVM actually uses, is invariant to
// the scale of W, and its maximum over W >= 0 is not reached by collapsing
// the kernel (a constant kernel has alignment 0 after centring).
type Alignment struct {
	a     []float64
	m     *mat.SymDense
	yNorm float64
}

// NewAlignment prepares the alignment of the component Gram matrices
// grams[r] (each n x n, symmetric) with the classes of labels.
func NewAlignment(grams [][][]float64, labels []int) (*Alignment, error) {
	n := len(labels)
	if len(grams) == 0 {
		return nil, errors.New("learn: alignment needs at least one Gram matrix")
	}
	centred := make([][]float64, len(grams)) // row-major n*n
	for r, g := range grams {
		if len(g) != n {
			return nil, fmt.Errorf("learn: Gram matrix %d has %d rows for %d labels", r, len(g), n)
		}
		c := make([]float64, n*n)
		rowMean := make([]float64, n)
		var all float64
		for i, row := range g {
			if len(row) != n {
				return nil, fmt.Errorf("learn: Gram matrix %d row %d has %d entries, want %d", r, i, len(row), n)
			}
			rowMean[i] = floats.Sum(row) / float64(n)
			all += rowMean[i] / float64(n)
		}
		// H K H: K symmetric, so column means equal row means.
		for i, row := range g {
			for j, v := range row {
				c[i*n+j] = v - rowMean[i] - rowMean[j] + all
			}
		}
		centred[r] = c
	}
	al := &Alignment{a: make([]float64, len(grams)), m: mat.NewSymDense(len(grams), nil)}
	// <HKH, Y> = sum over same-class pairs of the centred entries (H is
	// idempotent, so <HKH, HYH> = <HKH, Y>).
	for r, c := range centred {
		for i := range n {
			for j := range n {
				if labels[i] == labels[j] {
					al.a[r] += c[i*n+j]
				}
			}
		}
		for q := r; q < len(centred); q++ {
			al.m.SetSym(r, q, floats.Dot(c, centred[q]))
		}
	}
	// ||HYH||^2 from class counts: Y = sum_t z_t z_t^T for class
	// indicators z_t, so ||HYH||^2 = sum_{t,u} ((Hz_t).(Hz_u))^2 with
	// (Hz_t).(Hz_u) = [t=u] n_t - n_t n_u / n.
	count := map[int]float64{}
	for _, l := range labels {
		count[l]++
	}
	var y2 float64
	for t, nt := range count {
		for u, nu := range count {
			d := -nt * nu / float64(n)
			if t == u {
				d += nt
			}
			y2 += d * d
		}
	}
	al.yNorm = math.Sqrt(y2)
	return al, nil
}

// Value returns A(W) and, when grad is not nil, dA/dW_r in grad. It is 0
// (with a zero gradient) when the combined kernel is constant after
// centring or all samples share one class.
func (al *Alignment) Value(w, grad []float64) float64 {
	num := floats.Dot(al.a, w)
	mw := make([]float64, len(w))
	mat.NewVecDense(len(mw), mw).MulVec(al.m, mat.NewVecDense(len(w), w))
	q := floats.Dot(w, mw)
	if grad != nil {
		for r := range grad {
			grad[r] = 0
		}
	}
	if !(q > 0) || !(al.yNorm > 0) {
		return 0
	}
	s := math.Sqrt(q)
	if grad != nil {
		for r := range grad {
			grad[r] = al.a[r]/(s*al.yNorm) - num*mw[r]/(q*s*al.yNorm)
		}
	}
	return num / (s * al.yNorm)
}

// AlignmentObjective is what FitAlignment minimises over u = ln W:
//
//	f(u) = -A(exp(u)) + prior/m sum_r (u_r - ln W0_r)^2
//
// the prior pulling each weight towards the initial mixture's W0 (it
// also fixes the overall scale, to which A is blind). grad, when not
// nil, gets df/du.
func AlignmentObjective(al *Alignment, u, w0 []float64, prior float64, grad []float64) float64 {
	m := len(u)
	w := make([]float64, m)
	for r := range u {
		w[r] = math.Exp(u[r])
	}
	f := -al.Value(w, grad)
	for r := range u {
		d := u[r] - math.Log(w0[r])
		f += prior / float64(m) * d * d
		if grad != nil {
			grad[r] = -grad[r]*w[r] + 2*prior/float64(m)*d
		}
	}
	return f
}

// FitAlignment learns the component weights W of init by maximising the
// alignment al (built from the Gram matrices of init's components on the
// training set), with o.Prior as the prior's weight; centres and widths
// stay at init's. The result's weights are normalised to mean 1.
func FitAlignment(ctx context.Context, al *Alignment, init kernel.Mixture, o Options, prog progress.Func) (kernel.Mixture, Trace, error) {
	if err := init.Validate(); err != nil {
		return kernel.Mixture{}, Trace{}, err
	}
	w, trace, err := FitWeights(ctx, al, init.W, o, prog)
	if err != nil {
		return kernel.Mixture{}, Trace{}, err
	}
	return kernel.Mixture{
		X: append([]float64(nil), init.X...), Y: append([]float64(nil), init.Y...),
		Sigma: append([]float64(nil), init.Sigma...), W: w,
	}, trace, nil
}

// FitWeights maximises the alignment al over non-negative weights of its
// Gram matrices, from and with the prior around w0 (o.Prior; weights of 0
// start at 1e-12 of the mean), by L-BFGS on u = ln W stopped like Fit. It
// returns the weights normalised to mean 1; Trace.Cost holds
// AlignmentObjective.
func FitWeights(ctx context.Context, al *Alignment, w0 []float64, o Options, prog progress.Func) ([]float64, Trace, error) {
	o = o.withDefaults()
	m := len(w0)
	if len(al.a) != m {
		return nil, Trace{}, fmt.Errorf("learn: alignment of %d Gram matrices for %d weights", len(al.a), m)
	}
	mean := floats.Sum(w0) / float64(m)
	if !(mean > 0) {
		return nil, Trace{}, fmt.Errorf("learn: initial weights %v have no positive mean", w0)
	}
	start := make([]float64, m)
	u := make([]float64, m)
	for r, w := range w0 {
		start[r] = max(w, 1e-12*mean) // ln W needs W > 0
		u[r] = math.Log(start[r])
	}
	// L-BFGS on the smooth log-weights; the alignment lies in [-1, 1], so
	// Fit's tolerance on TC would stop at the first step.
	o.Optimizer, o.Tol = LBFGS, o.Tol*1e-2
	x, trace, err := Minimize(ctx, func(x, g []float64) float64 { return AlignmentObjective(al, x, start, o.Prior, g) }, u, o, "learn", prog)
	if err != nil {
		return nil, Trace{}, err
	}
	w := make([]float64, m)
	for r := range w {
		w[r] = math.Exp(x[r])
	}
	floats.Scale(float64(m)/floats.Sum(w), w)
	return w, trace, nil
}
