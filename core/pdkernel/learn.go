package pdkernel

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
	"wkpi-web/core/progress"
)

// MixtureWeight returns the PWGK point weight w(b, d) = mix.At(b, |d-b|),
// the weight function of WKPI and trainPWGK evaluated in the
// (birth, persistence) plane; use it as PWGKParams.Weight.
func MixtureWeight(mix kernel.Mixture) func(birth, death float64) float64 {
	return func(b, d float64) float64 {
		return mix.At(pimage.Transform(persistence.Point{Birth: b, Death: d}))
	}
}

// WeightPoints returns every point of the diagrams in the
// (birth, persistence) plane where the trainPWGK weight function is
// evaluated, for learn.InitMixture.
func WeightPoints(diagrams [][]persistence.Point) [][2]float64 {
	var out [][2]float64
	for _, d := range diagrams {
		for _, p := range d {
			x, y := pimage.Transform(p)
			out = append(out, [2]float64{x, y})
		}
	}
	return out
}

// maxTableCells bounds the tables of trainPWGK (8 bytes a cell, so about
// 100 MB): Vb^2 + Vd^2 + Vb Vd for Vb distinct births and Vd distinct
// deaths among the points.
const maxTableCells = 3 << 22

// pwgkProblem is trainPWGK's objective on a fixed training set.
//
// Diagram points repeat heavily across graphs (MUTAG's 1945 points take 25
// distinct positions, NCI1's 59151 take 183), so everything is kept per
// distinct point u: w_u is evaluated once, and the class embeddings
// mu_t = sum_{i in t} sum_{p in D_i} w(p) k(p, .) have coefficient
// M_t[u] = N_t[u] w_u on k(p_u, .), N_t[u] counting u in class t. The
// Gaussian is separable, G_uv = Eb[b_u][b_v] Ed[d_u][d_v] with
// Eb[i][j] = exp(-(beta_i - beta_j)^2 / (2 rho^2)) over the distinct
// birth values beta and likewise Ed over the deaths, so the fields
// F_t[u] = sum_v G_uv M_t[v] that every step needs come from two passes
// through a births x deaths table Z: Z[i][d] = sum_{v: b_v = i} M_t[v]
// Ed[d][d_v], then F_t[u] = sum_i Eb[b_u][i] Z[i][d_u]. That costs
// O(U (Vb + Vd)) per class instead of O(U^2) (PROTEINS: 8566 distinct
// points on 479 births and 439 deaths), and is exact.
type pwgkProblem struct {
	xy                       [][2]float64 // (birth, persistence) of each distinct point, where w is evaluated
	ib, id                   []int32      // each distinct point's birth and death index
	eb, ed                   [][]float64  // the Gaussian tables Eb and Ed
	count                    [][]float64  // count[t][u] = N_t[u]; the last row is the total over classes
	classOf                  []int        // class of each diagram
	sizes                    []float64    // n_t, diagrams per class
	diag                     []diagram    // each diagram's distinct points
	penalty, contrast, prior float64
	anchor                   kernel.Mixture
	side                     float64 // L of the prior
}

// diagram is one diagram's distinct points idx with multiplicities c.
type diagram struct {
	idx []int32
	c   []float64
}

func newPWGKProblem(diagrams [][]persistence.Point, labels []int, rho float64) (*pwgkProblem, error) {
	if !(rho > 0) || math.IsInf(rho, 0) {
		return nil, fmt.Errorf("pdkernel: trainPWGK rho %g must be positive and finite", rho)
	}
	if len(labels) != len(diagrams) {
		return nil, fmt.Errorf("pdkernel: %d labels for %d diagrams", len(labels), len(diagrams))
	}
	if err := checkDiagrams("", diagrams); err != nil {
		return nil, err
	}
	k := 0
	for i, l := range labels {
		if l < 0 {
			return nil, fmt.Errorf("pdkernel: diagram %d has negative label %d", i, l)
		}
		k = max(k, l+1)
	}
	pr := &pwgkProblem{classOf: labels, sizes: make([]float64, k), count: make([][]float64, k+1), diag: make([]diagram, len(diagrams))}
	at := map[persistence.Point]int32{}
	births, deaths := map[float64]int32{}, map[float64]int32{}
	var bv, dv []float64
	index := func(at map[float64]int32, vals *[]float64, v float64) int32 {
		q, ok := at[v]
		if !ok {
			q = int32(len(*vals))
			at[v] = q
			*vals = append(*vals, v)
		}
		return q
	}
	for i, d := range diagrams {
		pr.sizes[labels[i]]++
		pts, c := distinct(d)
		dg := diagram{idx: make([]int32, len(pts)), c: c}
		for q, p := range pts {
			u, ok := at[p]
			if !ok {
				u = int32(len(pr.xy))
				at[p] = u
				x, y := pimage.Transform(p)
				pr.xy = append(pr.xy, [2]float64{x, y})
				pr.ib = append(pr.ib, index(births, &bv, p.Birth))
				pr.id = append(pr.id, index(deaths, &dv, p.Death))
			}
			dg.idx[q] = u
		}
		pr.diag[i] = dg
	}
	U := len(pr.xy)
	if U == 0 {
		return nil, errors.New("pdkernel: trainPWGK needs diagram points, all diagrams are empty")
	}
	if cells := len(bv)*len(bv) + len(dv)*len(dv) + len(bv)*len(dv); cells > maxTableCells {
		return nil, fmt.Errorf("pdkernel: trainPWGK: %d distinct births and %d distinct deaths need %d table cells, more than %d",
			len(bv), len(dv), cells, maxTableCells)
	}
	for t := range pr.count {
		pr.count[t] = make([]float64, U)
	}
	for i, dg := range pr.diag {
		for a, u := range dg.idx {
			pr.count[labels[i]][u] += dg.c[a]
			pr.count[k][u] += dg.c[a]
		}
	}
	c := 1 / (2 * rho * rho)
	table := func(vals []float64) [][]float64 {
		e := make([][]float64, len(vals))
		for i, x := range vals {
			e[i] = make([]float64, len(vals))
			for j, y := range vals {
				e[i][j] = math.Exp(-c * (x - y) * (x - y))
			}
		}
		return e
	}
	pr.eb, pr.ed = table(bv), table(dv)
	pr.side = 1
	if s := learn.BoxSide(pr.xy); s > 0 {
		pr.side = s
	}
	return pr, nil
}

// gauss returns G_uv.
func (pr *pwgkProblem) gauss(u, v int32) float64 {
	return pr.eb[pr.ib[u]][pr.ib[v]] * pr.ed[pr.id[u]][pr.id[v]]
}

// fields returns F[t][u] = sum_v G_uv coef[t][v] for every row t of coef
// by the two passes through the births x deaths table (see pwgkProblem).
func (pr *pwgkProblem) fields(coef [][]float64) [][]float64 {
	F := make([][]float64, len(coef))
	Z := make([][]float64, len(pr.eb))
	for i := range Z {
		Z[i] = make([]float64, len(pr.ed))
	}
	for t, m := range coef {
		for _, z := range Z {
			clear(z)
		}
		for v, mv := range m {
			if mv != 0 {
				floats.AddScaled(Z[pr.ib[v]], mv, pr.ed[pr.id[v]])
			}
		}
		F[t] = make([]float64, len(pr.xy))
		for u := range F[t] {
			e, d := pr.eb[pr.ib[u]], pr.id[u]
			var s float64
			for i, z := range Z {
				s += e[i] * z[d]
			}
			F[t][u] = s
		}
	}
	return F
}

// objective returns TC(w) plus the penalty, contrast barrier and prior
// (see LearnPWGK) for the mixture, and fills grad when it is not nil.
func (pr *pwgkProblem) objective(mix kernel.Mixture, grad *learn.Gradient) float64 {
	U, m, k := len(pr.xy), mix.Len(), len(pr.sizes)
	phi := make([][]float64, m)
	w := make([]float64, U)
	for r := range phi {
		phi[r] = make([]float64, U)
		for u, z := range pr.xy {
			phi[r][u] = mix.Component(r, z[0], z[1])
		}
		floats.AddScaled(w, mix.W[r], phi[r])
	}
	// Class coefficients M[t][u] = N_u^t w_u (row k: all classes) and
	// their fields F[t][u] = sum_v G_uv M[t][v].
	M := make([][]float64, k+1)
	for t := range M {
		M[t] = make([]float64, U)
		floats.MulTo(M[t], pr.count[t], w)
	}
	F := pr.fields(M)
	// Self terms: S[t] = sum_{i in t} K_ii, and sig[t][u] =
	// sum_{i in t} c_iu sigma_iu with sigma_iu = sum_{v in D_i} c_iv w_v G_uv,
	// so that dS_t/dw_u = 2 sig[t][u]; row k sums the classes.
	S := make([]float64, k+1)
	sig := make([][]float64, k+1)
	for t := range sig {
		sig[t] = make([]float64, U)
	}
	for i, dg := range pr.diag {
		t := pr.classOf[i]
		for a, u := range dg.idx {
			var s float64
			for b, v := range dg.idx {
				s += pr.gauss(u, v) * dg.c[b] * w[v]
			}
			S[t] += dg.c[a] * w[u] * s
			sig[t][u] += dg.c[a] * s
			sig[k][u] += dg.c[a] * s
		}
	}
	S[k] = floats.Sum(S[:k])
	n := floats.Sum(pr.sizes)
	all := k
	// A_t = cost(t,t) = 2 n_t S_t - 2 Q_tt; B_t = cost(t,.) =
	// n S_t + n_t S - 2 Q_t,all, with Q_tu = mu_t . mu_u = M_t . F_u.
	A, B := make([]float64, k), make([]float64, k)
	var f float64
	for t := range k {
		A[t] = 2*pr.sizes[t]*S[t] - 2*floats.Dot(M[t], F[t])
		B[t] = n*S[t] + pr.sizes[t]*S[all] - 2*floats.Dot(M[t], F[all])
		if B[t] > 0 {
			f += A[t] / B[t]
		}
	}
	// Contrast R = sum_ij D^2_ij / (2 n S) = 1 - Q_all / (n S): the mean
	// squared RKHS distance against its largest value at this scale.
	qAll := floats.Dot(M[all], F[all])
	R := 1 - qAll/(n*S[all])
	barrier := pr.contrast > 0
	if barrier {
		if !(R > 0) {
			if grad != nil {
				*grad = zeroGradient(m)
			}
			return math.Inf(1)
		}
		f -= pr.contrast * math.Log(R)
	}
	terms := learn.MixtureTerms{Penalty: pr.penalty, Prior: pr.prior, Anchor: pr.anchor, Side: pr.side}
	f += terms.Value(mix)
	if grad == nil {
		return f
	}
	// g[u] = df/dw_u.
	g := make([]float64, U)
	for t := range k {
		if !(B[t] > 0) {
			continue
		}
		ratio := A[t] / B[t]
		for u := range g {
			dA := 4*pr.sizes[t]*sig[t][u] - 4*pr.count[t][u]*F[t][u]
			dB := 2*n*sig[t][u] + 2*pr.sizes[t]*sig[all][u] -
				2*(pr.count[t][u]*F[all][u]+pr.count[all][u]*F[t][u])
			g[u] += (dA - ratio*dB) / B[t]
		}
	}
	if barrier {
		// d(-mu ln R) = mu (dQ_all - Q_all dS / S) / (n S R).
		for u := range g {
			dQ, dS := 2*pr.count[all][u]*F[all][u], 2*sig[all][u]
			g[u] += pr.contrast * (dQ - qAll*dS/S[all]) / (n * S[all] * R)
		}
	}
	*grad = terms.Gradient(mix, pr.xy, phi, g)
	return f
}

func zeroGradient(m int) learn.Gradient {
	return learn.Gradient{X: make([]float64, m), Y: make([]float64, m), Sigma: make([]float64, m), W: make([]float64, m)}
}

// newParams is package learn's parametrisation of the mixture (centres in
// the widened box of the points, Sigma above a floor, W = m softmax(u))
// with the floor on Sigma half the smaller of rho (the PWGK cannot tell
// points closer than about rho apart) and a tenth of the box's smaller
// side (a unit side where the points do not spread, as learn's box).
func newParams(m int, pts [][2]float64, rho float64) learn.Params {
	side := math.Inf(1)
	for a := range 2 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, c := range pts {
			lo, hi = min(lo, c[a]), max(hi, c[a])
		}
		if !(hi > lo) {
			lo, hi = 0, 1
		}
		side = min(side, hi-lo)
	}
	return learn.NewParams(m, pts, min(rho, side/10)/2)
}

// objective returns f(theta) and, when grad is not nil, df/dtheta.
func objective(p learn.Params, pr *pwgkProblem, theta, grad []float64) float64 {
	mix := p.Mixture(theta)
	if grad == nil {
		return pr.objective(mix, nil)
	}
	var g learn.Gradient
	f := pr.objective(mix, &g)
	p.Chain(theta, mix, g, grad)
	return f
}

// LearnPWGK learns the weight function of the linear PWGK of bandwidth rho
// (trainPWGK) on labelled training diagrams from the initial mixture init
// (for example learn.InitMixture on the points' (birth, persistence)),
// and returns the learned mixture, weights normalised to mean 1, and its
// cost trace. Use it through PWGKParams{Rho: rho, Weight: MixtureWeight(mix)}.
//
// The objective is package learn's with the PWGK distance: WKPI's total
// cost TC = sum_t cost(t,t)/cost(t,.) over D^2(D,E) = K(D,D) + K(E,E) -
// 2K(D,E), which is a quadratic form in the point weights, plus
// o.Penalty sum_r exp(-W_r), the contrast barrier -o.Contrast ln R with
// R = sum_ij D^2_ij / (2n sum_i K(D_i,D_i)) (the mean squared distance
// against its largest value at this weight scale, scale-invariant like
// TC; it keeps the weight from leaving the points where diagrams differ)
// and o.Prior's quadratic prior around init in the same form as learn's.
// The gradient is exact. Optimiser and stopping rule are o.Optimizer,
// o.MaxIter, o.Tol and o.Patience as in learn.Fit; o.M, o.Init, o.Seed
// and o.BatchSize are not used.
//
// Each step costs O(k U (Vb + Vd) + sum_i m_i^2) for k classes, U
// distinct points on Vb distinct births and Vd distinct deaths, and m_i
// distinct points in diagram i (see pwgkProblem); the sums are exact.
func LearnPWGK(ctx context.Context, diagrams [][]persistence.Point, labels []int, rho float64, init kernel.Mixture, o learn.Options, prog progress.Func) (kernel.Mixture, learn.Trace, error) {
	if err := init.Validate(); err != nil {
		return kernel.Mixture{}, learn.Trace{}, fmt.Errorf("pdkernel: initial mixture: %w", err)
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"penalty", o.Penalty}, {"contrast", o.Contrast}, {"prior", o.Prior}, {"tol", o.Tol}} {
		if c.v < 0 || math.IsNaN(c.v) || math.IsInf(c.v, 0) {
			return kernel.Mixture{}, learn.Trace{}, fmt.Errorf("pdkernel: %s %g must be finite and >= 0", c.name, c.v)
		}
	}
	pr, err := newPWGKProblem(diagrams, labels, rho)
	if err != nil {
		return kernel.Mixture{}, learn.Trace{}, err
	}
	pr.penalty, pr.contrast, pr.prior = o.Penalty, o.Contrast, o.Prior
	p := newParams(init.Len(), pr.xy, rho)
	theta := p.Theta(init)
	pr.anchor = p.Mixture(theta)

	x, trace, err := learn.Minimize(ctx, func(theta, grad []float64) float64 { return objective(p, pr, theta, grad) }, theta, o, "trainpwgk", prog)
	if err != nil {
		return kernel.Mixture{}, learn.Trace{}, fmt.Errorf("pdkernel: %w", err)
	}
	return p.Mixture(x), trace, nil
}
