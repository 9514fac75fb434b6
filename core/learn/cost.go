package learn

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"wkpi-web/core/kernel"
)

// Problem is one metric-learning problem: the per-class pixel sums of a
// training set (from PairSums.Training), the pixel centres in the
// (birth, persistence) plane and the constants of the terms added to TC
// (see Objective and the package documentation).
type Problem struct {
	A, B    [][]float64 // a_t, b_t per class t, length N each
	Centres [][2]float64
	Penalty float64 // c of the paper's penalty c sum_r exp(-W_r)
	// Contrast is mu of the contrast barrier -mu ln(B.w / (B_max sum_s w_s)),
	// with B = sum_t b_t the per-pixel sum of M over all ordered pairs and
	// B_max its largest entry.
	Contrast float64
	// Prior is lambda of the quadratic prior
	//   lambda/m sum_r [((X_r-X0_r)/L)^2 + ((Y_r-Y0_r)/L)^2
	//                   + ln(Sigma_r/Sigma0_r)^2 + ln(W_r/W0_r)^2]
	// around the mixture Anchor (X0, Y0, Sigma0, W0), with L the larger
	// side of the box of the centres. The term needs an Anchor with as
	// many components as the mixture; Fit anchors at the initial mixture
	// (in its normalisation) when Anchor is empty.
	Prior  float64
	Anchor kernel.Mixture
}

func (p Problem) validate() error {
	if len(p.A) == 0 || len(p.A) != len(p.B) {
		return fmt.Errorf("learn: %d within-class and %d all-pairs sums", len(p.A), len(p.B))
	}
	for t := range p.A {
		if len(p.A[t]) != len(p.Centres) || len(p.B[t]) != len(p.Centres) {
			return fmt.Errorf("learn: class %d sums have %d and %d pixels for %d centres",
				t, len(p.A[t]), len(p.B[t]), len(p.Centres))
		}
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"penalty", p.Penalty}, {"contrast", p.Contrast}, {"prior", p.Prior}} {
		if c.v < 0 || math.IsNaN(c.v) || math.IsInf(c.v, 0) {
			return fmt.Errorf("learn: %s %g must be finite and >= 0", c.name, c.v)
		}
	}
	if p.Anchor.Len() > 0 {
		if err := p.Anchor.Validate(); err != nil {
			return fmt.Errorf("learn: anchor: %w", err)
		}
		for r, w := range p.Anchor.W {
			if w <= 0 {
				// ln(W_r/W0_r) needs W0_r > 0.
				return fmt.Errorf("learn: anchor component %d has weight %g <= 0", r, w)
			}
		}
	}
	return nil
}

// TotalCost returns TC = sum_t cost(t,t) / cost(t,.) = sum_t (a_t.w)/(b_t.w)
// for pixel weights w. Classes with cost(t,.) = 0 (absent, or all their
// images identical to every other) contribute 0.
func TotalCost(a, b [][]float64, w []float64) float64 {
	var tc float64
	for t := range a {
		if den := floats.Dot(b[t], w); den > 0 {
			tc += floats.Dot(a[t], w) / den
		}
	}
	return tc
}

// Gradient holds the partial derivatives of the objective with respect to
// each mixture parameter.
type Gradient struct{ X, Y, Sigma, W []float64 }

// Objective returns TC(w) + Penalty * sum_r exp(-W_r) plus the contrast
// barrier and the prior (see Problem) for the pixel weights w of mix at the
// centres, and when grad is not nil fills it with the analytic gradient. It
// is +Inf, with a zero gradient, when Contrast > 0 and w has no weight where
// two training images differ. It costs O(N (k + m)).
func (p Problem) Objective(mix kernel.Mixture, grad *Gradient) float64 {
	return newEvaluator(p).objective(mix, grad)
}

// evaluator evaluates a Problem's objective repeatedly. The Gaussians are
// separable, exp(-(dx^2+dy^2)/S^2) = exp(-dx^2/S^2) exp(-dy^2/S^2), and
// pixel centres sit on a grid repeated per channel, so it evaluates
// exponentials once per distinct x and distinct y instead of once per pixel.
type evaluator struct {
	p        Problem
	ux, uy   []float64 // distinct centre coordinates
	xi, yi   []int32   // per pixel, its index in ux and uy
	side     float64   // L of the prior
	total    []float64 // B = sum_t b_t, for the contrast barrier
	totalMax float64   // B_max; 0 turns the barrier off (no pair differs)
}

func newEvaluator(p Problem) *evaluator {
	e := &evaluator{p: p, xi: make([]int32, len(p.Centres)), yi: make([]int32, len(p.Centres))}
	if e.side = BoxSide(p.Centres); !(e.side > 0) {
		e.side = 1
	}
	if p.Contrast > 0 {
		e.total = make([]float64, len(p.Centres))
		for _, b := range p.B {
			floats.Add(e.total, b)
		}
		e.totalMax = floats.Max(e.total)
	}
	index := func(axis int, idx []int32) []float64 {
		at := map[float64]int32{}
		var u []float64
		for s, c := range p.Centres {
			q, ok := at[c[axis]]
			if !ok {
				q = int32(len(u))
				at[c[axis]] = q
				u = append(u, c[axis])
			}
			idx[s] = q
		}
		return u
	}
	e.ux, e.uy = index(0, e.xi), index(1, e.yi)
	return e
}

func (e *evaluator) objective(mix kernel.Mixture, grad *Gradient) float64 {
	p := e.p
	m, N := mix.Len(), len(p.Centres)
	// phi[r][s]: unweighted Gaussian r at pixel s.
	phi := make([][]float64, m)
	w := make([]float64, N)
	ex, ey := make([]float64, len(e.ux)), make([]float64, len(e.uy))
	for r := range phi {
		s2 := mix.Sigma[r] * mix.Sigma[r]
		for q, x := range e.ux {
			ex[q] = math.Exp(-(x - mix.X[r]) * (x - mix.X[r]) / s2)
		}
		for q, y := range e.uy {
			ey[q] = math.Exp(-(y - mix.Y[r]) * (y - mix.Y[r]) / s2)
		}
		phi[r] = make([]float64, N)
		for s := range phi[r] {
			phi[r][s] = ex[e.xi[s]] * ey[e.yi[s]]
		}
		floats.AddScaled(w, mix.W[r], phi[r])
	}
	f := TotalCost(p.A, p.B, w)
	barrier := e.totalMax > 0
	var bw, sw float64
	if barrier {
		bw, sw = floats.Dot(e.total, w), floats.Sum(w)
		if !(bw > 0) {
			// No weight left where any two images differ: the kernel
			// sees every graph as the same, the barrier is infinite.
			if grad != nil {
				*grad = Gradient{X: make([]float64, m), Y: make([]float64, m), Sigma: make([]float64, m), W: make([]float64, m)}
			}
			return math.Inf(1)
		}
		f -= p.Contrast * math.Log(bw/(e.totalMax*sw))
	}
	terms := MixtureTerms{Penalty: p.Penalty, Prior: p.Prior, Anchor: p.Anchor, Side: e.side}
	f += terms.Value(mix)
	if grad == nil {
		return f
	}
	// g[s] = dTC/dw_s = sum_t (a_t[s] - b_t[s] A_t/B_t) / B_t, in this
	// order because B_t^2 underflows when the weight function has all but
	// left the image.
	g := make([]float64, N)
	if barrier {
		// d/dw_s of -mu (ln B.w - ln sum w) = -mu (B_s / B.w - 1 / sum w).
		floats.AddScaled(g, -p.Contrast/bw, e.total)
		floats.AddConst(p.Contrast/sw, g)
	}
	for t := range p.A {
		num, den := floats.Dot(p.A[t], w), floats.Dot(p.B[t], w)
		if den > 0 {
			floats.AddScaled(g, 1/den, p.A[t])
			floats.AddScaled(g, -(num/den)/den, p.B[t])
		}
	}
	*grad = terms.Gradient(mix, p.Centres, phi, g)
	return f
}

// MixtureTerms are the objective's terms on the mixture itself: the
// paper's penalty Penalty sum_r exp(-W_r) and the quadratic prior around
// Anchor, (Prior/m) sum_r [|centre_r - centre0_r|^2 / Side^2 +
// ln^2(Sigma_r/Sigma0_r) + ln^2(W_r/W0_r)] (none when Prior is 0 or Anchor
// has another length); Side is the length scale of the centres. Package
// pdkernel's trainPWGK shares them.
type MixtureTerms struct {
	Penalty, Prior float64
	Anchor         kernel.Mixture
	Side           float64
}

func (t MixtureTerms) prior(m int) (on bool, lam float64) {
	// lambda/m keeps the prior's scale independent of m.
	return t.Prior > 0 && t.Anchor.Len() == m, t.Prior / float64(m)
}

// Value is the terms' value at mix.
func (t MixtureTerms) Value(mix kernel.Mixture) float64 {
	var f float64
	for _, wr := range mix.W {
		f += t.Penalty * math.Exp(-wr)
	}
	if on, lam := t.prior(mix.Len()); on {
		a, L := t.Anchor, t.Side
		for r := range mix.W {
			dx, dy := (mix.X[r]-a.X[r])/L, (mix.Y[r]-a.Y[r])/L
			ls, lw := math.Log(mix.Sigma[r]/a.Sigma[r]), math.Log(mix.W[r]/a.W[r])
			f += lam * (dx*dx + dy*dy + ls*ls + lw*lw)
		}
	}
	return f
}

// Gradient is the gradient in mix of sum_u g[u] w(points[u]), w the
// mixture's weight function and phi[r][u] its unweighted component r at
// points[u], plus the gradient of the terms.
func (t MixtureTerms) Gradient(mix kernel.Mixture, points [][2]float64, phi [][]float64, g []float64) Gradient {
	m := mix.Len()
	grad := Gradient{X: make([]float64, m), Y: make([]float64, m), Sigma: make([]float64, m), W: make([]float64, m)}
	on, lam := t.prior(m)
	L := t.Side
	for r := 0; r < m; r++ {
		s2 := mix.Sigma[r] * mix.Sigma[r]
		var gw, gx, gy, gs float64
		for u, c := range points {
			v := g[u] * phi[r][u]
			if v == 0 {
				// Also avoids 0 * Inf when a centre has drifted far away.
				continue
			}
			dx, dy := c[0]-mix.X[r], c[1]-mix.Y[r]
			gw += v
			gx += v * dx
			gy += v * dy
			gs += v * (dx*dx + dy*dy)
		}
		grad.W[r] = gw - t.Penalty*math.Exp(-mix.W[r])
		grad.X[r] = mix.W[r] * 2 * gx / s2
		grad.Y[r] = mix.W[r] * 2 * gy / s2
		grad.Sigma[r] = mix.W[r] * 2 * gs / (s2 * mix.Sigma[r])
		if on {
			a := t.Anchor
			// d/dX of lambda/m ((X - X0)/L)^2, d/dSigma of lambda/m ln(Sigma/Sigma0)^2, ...
			grad.X[r] += 2 * lam * (mix.X[r] - a.X[r]) / (L * L)
			grad.Y[r] += 2 * lam * (mix.Y[r] - a.Y[r]) / (L * L)
			grad.Sigma[r] += 2 * lam * math.Log(mix.Sigma[r]/a.Sigma[r]) / mix.Sigma[r]
			grad.W[r] += 2 * lam * math.Log(mix.W[r]/a.W[r]) / mix.W[r]
		}
	}
	return grad
}

// BoxSide returns the larger side of the bounding box of the points (0
// when they do not spread): the length scale of the prior.
func BoxSide(centres [][2]float64) float64 {
	var side float64
	for a := 0; a < 2; a++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, c := range centres {
			lo, hi = min(lo, c[a]), max(hi, c[a])
		}
		if hi > lo {
			side = max(side, hi-lo)
		}
	}
	return side
}

// DirectCost computes TC in its ratio form straight from the n x n matrix
// d2 of pairwise D_w^2 and the labels: the O(n^2 N) definition that the fast
// path replaces, kept as its check.
func DirectCost(d2 [][]float64, labels []int) float64 {
	k := 0
	for _, l := range labels {
		k = max(k, l+1)
	}
	within, all := make([]float64, k), make([]float64, k)
	for i, row := range d2 {
		for j, v := range row {
			all[labels[i]] += v
			if labels[i] == labels[j] {
				within[labels[i]] += v
			}
		}
	}
	var tc float64
	for t := range within {
		if all[t] > 0 {
			tc += within[t] / all[t]
		}
	}
	return tc
}

// LaplacianCost computes TC by the matrix form of the paper's Theorem 3.6,
// TC = k - Tr(H L H^T), where L = Deg - D is the Laplacian of the complete
// graph weighted by d2 = D_w^2 and row t of the k x n matrix H is the
// indicator of class t divided by sqrt(cost(t,.)). k counts the classes
// with cost(t,.) > 0.
func LaplacianCost(d2 [][]float64, labels []int) float64 {
	n := len(d2)
	k := 0
	for _, l := range labels {
		k = max(k, l+1)
	}
	L := mat.NewSymDense(n, nil)
	deg := make([]float64, n)
	all := make([]float64, k)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			L.SetSym(i, j, -d2[i][j])
		}
		deg[i] = floats.Sum(d2[i])
		all[labels[i]] += deg[i]
	}
	for i := 0; i < n; i++ {
		L.SetSym(i, i, L.At(i, i)+deg[i])
	}
	H := mat.NewDense(k, n, nil)
	present := 0
	for i, l := range labels {
		if all[l] > 0 {
			H.Set(l, i, 1/math.Sqrt(all[l]))
		}
	}
	for _, v := range all {
		if v > 0 {
			present++
		}
	}
	var HL, HLH mat.Dense
	HL.Mul(H, L)
	HLH.Mul(&HL, H.T())
	return float64(present) - mat.Trace(&HLH)
}
