package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/optimize"

	"wkpi-web/core/kernel"
	"wkpi-web/core/pimage"
	"wkpi-web/core/progress"
	"wkpi-web/core/wire"
)

// Optimisers.
const (
	GD    = "gd"    // gradient descent with Armijo backtracking
	LBFGS = "lbfgs" // limited-memory BFGS with a More-Thuente line search
)

// Options configure initialisation and training. Zero MaxIter, Tol and
// Patience take the defaults 2000, 1e-4 and 5; a zero Penalty means no
// penalty (use DefaultOptions for the paper's c = 1).
//
// Patience exists because the objective has plateaus, notably at the
// initial mixture, where a single gradient step changes the cost by less
// than Tol long before a minimum: with Patience 1 gradient descent often
// stops after a handful of iterations having learned nothing.
type Options struct {
	M         int     `json:"m"`         // mixture components
	Init      string  `json:"init"`      // InitKCenter (default), InitKMeans, InitRandom
	Penalty   float64 `json:"penalty"`   // c in c * sum_r exp(-W_r)
	Optimizer string  `json:"optimizer"` // GD (default) or LBFGS
	MaxIter   int     `json:"maxIter"`   // major iterations (batch steps for BatchSize > 0)
	Tol       float64 `json:"tol"`       // stop when |change of cost| <= Tol ...
	Patience  int     `json:"patience"`  // ... for Patience iterations in a row
	BatchSize int     `json:"batchSize"` // graphs per mini-batch in LearnBatched
	Seed      int64   `json:"seed"`
	// Prior is lambda of the quadratic prior that ties the mixture to the
	// initial one, and Contrast mu of the barrier on the kernel's contrast;
	// see Problem and the package documentation.
	Prior    float64 `json:"prior"`
	Contrast float64 `json:"contrast"`
	// Objective is ObjectiveTC ("" too) or ObjectiveCKA (see Alignment).
	Objective string `json:"objective,omitempty"`
	// Channels asks, after the weight function is learned, for one scale
	// per image block (channel and descriptor) chosen by kernel-target
	// alignment (FitWeights), so that learning can weigh descriptors and
	// sub-diagrams against each other.
	Channels bool `json:"channels,omitempty"`
}

// DefaultOptions returns the settings of the paper (10 components from
// k-center, c = 1, gradient descent, 2000 iterations, tolerance 1e-4) with
// a patience of 5 iterations, the contrast barrier mu = 0.03 and the prior
// lambda = 0.3. Without these two the learned weight function leaves the
// data on MUTAG and the SVM falls to the majority class (66.5 % against
// 87.3 % unlearned, 10-fold, sigma 0.01, C 100); with them it stays within
// a fold's noise of the unlearned one (86.7 %) on MUTAG and PTC_MR.
func DefaultOptions() Options {
	return Options{M: 10, Init: InitKCenter, Penalty: 1, Optimizer: GD, MaxIter: 2000, Tol: 1e-4, Patience: 5, Seed: 1,
		Contrast: 0.03, Prior: 0.3}
}

func (o Options) withDefaults() Options {
	if o.MaxIter == 0 {
		o.MaxIter = 2000
	}
	if o.Tol == 0 {
		o.Tol = 1e-4
	}
	if o.Patience == 0 {
		o.Patience = 5
	}
	return o
}

func (o Options) method() (optimize.Method, error) {
	switch o.Optimizer {
	case GD, "":
		return gradientDescent(), nil
	case LBFGS:
		// More-Thuente enforces the Wolfe curvature condition that keeps the
		// L-BFGS updates positive definite; gonum's default bisection search
		// fails on this objective after a few iterations.
		return &optimize.LBFGS{Linesearcher: &optimize.MoreThuente{}}, nil
	}
	return nil, fmt.Errorf("learn: unknown optimizer %q", o.Optimizer)
}

// gradientDescent is steepest descent with Armijo backtracking. gonum's
// default step sizer caps the trial step at 1 * gradient, which on TC (a
// flat ratio with gradients ~1e-3) makes single steps change the cost by less
// than Tol and stops the run at once; lifting the cap lets the first trial
// step move the steepest coordinate by 1 and backtracking shorten it.
func gradientDescent() *optimize.GradientDescent {
	return &optimize.GradientDescent{
		Linesearcher: &optimize.Backtracking{},
		StepSizer:    &optimize.QuadraticStepSize{MaxStepSize: math.MaxFloat64},
	}
}

// Trace records a training run (wire.Trace, plain data the page shows):
// Cost[0] is the objective at the start and Cost[i] after major
// iteration (or batch step) i.
type Trace = wire.Trace

// Params maps between a mixture and the optimiser's free vector
// theta = [a | b | v | u]: X = lo_x + (hi_x - lo_x) sigmoid(a) and likewise
// Y, with [lo, hi] the bounding box of the pixel centres widened by a
// quarter of its size on each side (so that a centre on the image's edge
// does not start where the sigmoid is flat);
// Sigma = SigmaMin + exp(v); W = m softmax(u).
//
// Why the box: TC only sees the weights at the pixels, and a component
// whose centre wanders off the image leaves a weight function of vanishing
// tails whose gradients vanish too; mini-batch steps do throw centres out.
//
// Why the softmax: TC is a ratio of linear forms in w, so it is unchanged
// when every W_r is scaled by the same factor, and the penalty
// c sum exp(-W_r) then lowers the objective without bound as the scale
// grows. Fixing the mean of W to 1 removes that direction; the penalty then
// keeps any W_r from collapsing to 0.
//
// Why the floor on Sigma: a Gaussian much narrower than a pixel is invisible
// to the grid, its gradient underflows to 0/0, and nothing pulls it back;
// half the pixel spacing is the narrowest width the image can resolve.
//
// Package pdkernel's trainPWGK shares it, with its own floor on Sigma.
type Params struct {
	m        int
	sigmaMin float64
	lo, span [2]float64 // the box of the centres, per axis
}

func newParams(m int, centres [][2]float64) Params {
	return NewParams(m, centres, pixelSpacing(centres)/2)
}

// NewParams is the parametrisation of m components whose centres stay in
// the box of points widened by a quarter on each side, with Sigma above
// sigmaMin.
func NewParams(m int, points [][2]float64, sigmaMin float64) Params {
	p := Params{m: m, sigmaMin: sigmaMin}
	for a := 0; a < 2; a++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, c := range points {
			lo, hi = min(lo, c[a]), max(hi, c[a])
		}
		if !(hi > lo) || math.IsInf(hi-lo, 0) {
			// One row or column of pixels (or none): a unit box around it.
			if math.IsInf(lo, 0) {
				lo = 0
			}
			lo, hi = lo-0.5, lo+0.5
		}
		margin := (hi - lo) / 4
		p.lo[a], p.span[a] = lo-margin, hi-lo+2*margin
	}
	return p
}

func sigmoid(a float64) float64 { return 1 / (1 + math.Exp(-a)) }

// logit inverts sigmoid, clamping t into (0, 1) so that a centre on or
// outside the box starts just inside it.
func logit(t float64) float64 {
	t = min(max(t, 1e-9), 1-1e-9)
	return math.Log(t / (1 - t))
}

// pixelSpacing returns the smallest positive gap between distinct x or
// distinct y coordinates of the pixel centres (0 when there is none).
func pixelSpacing(centres [][2]float64) float64 {
	gap := math.Inf(1)
	for axis := 0; axis < 2; axis++ {
		v := make([]float64, len(centres))
		for s, c := range centres {
			v[s] = c[axis]
		}
		sort.Float64s(v)
		for i := 1; i < len(v); i++ {
			if d := v[i] - v[i-1]; d > 0 {
				gap = min(gap, d)
			}
		}
	}
	if math.IsInf(gap, 1) {
		return 0
	}
	return gap
}

// Mixture is the mixture at theta.
func (p Params) Mixture(theta []float64) kernel.Mixture {
	m := p.m
	mix := kernel.Mixture{
		X:     make([]float64, m),
		Y:     make([]float64, m),
		Sigma: make([]float64, m),
		W:     make([]float64, m),
	}
	u := theta[3*m:]
	top := math.Inf(-1)
	for _, v := range u {
		top = max(top, v)
	}
	var z float64
	for r := 0; r < m; r++ {
		mix.X[r] = p.lo[0] + p.span[0]*sigmoid(theta[r])
		mix.Y[r] = p.lo[1] + p.span[1]*sigmoid(theta[m+r])
		mix.Sigma[r] = p.sigmaMin + math.Exp(theta[2*m+r])
		mix.W[r] = math.Exp(u[r] - top)
		z += mix.W[r]
	}
	for r := range mix.W {
		mix.W[r] *= float64(m) / z
	}
	return mix
}

// Theta is the free vector of mix.
func (p Params) Theta(mix kernel.Mixture) []float64 {
	m := p.m
	theta := make([]float64, 4*m)
	var mean float64
	for _, w := range mix.W {
		mean += w / float64(m)
	}
	for r := 0; r < m; r++ {
		theta[r] = logit((mix.X[r] - p.lo[0]) / p.span[0])
		theta[m+r] = logit((mix.Y[r] - p.lo[1]) / p.span[1])
		// An initial Sigma at or below the floor starts just above it.
		theta[2*m+r] = math.Log(max(mix.Sigma[r]-p.sigmaMin, 1e-3*p.sigmaMin, 1e-300))
		// A zero weight would be u = -Inf; start it tiny instead.
		theta[3*m+r] = math.Log(max(mix.W[r], 1e-12*mean))
	}
	return theta
}

// objective returns f(theta) and, when grad is not nil, df/dtheta.
func (p Params) objective(e *evaluator, theta, grad []float64) float64 {
	mix := p.Mixture(theta)
	if grad == nil {
		return e.objective(mix, nil)
	}
	var g Gradient
	f := e.objective(mix, &g)
	p.Chain(theta, mix, g, grad)
	return f
}

// Chain writes into grad the gradient in theta of a function whose
// gradient in the mixture mix = p.Mixture(theta) is g.
func (p Params) Chain(theta []float64, mix kernel.Mixture, g Gradient, grad []float64) {
	m := p.m
	var wg float64 // sum_r dF/dW_r W_r / m
	for r := 0; r < m; r++ {
		wg += g.W[r] * mix.W[r] / float64(m)
	}
	for r := 0; r < m; r++ {
		sx, sy := sigmoid(theta[r]), sigmoid(theta[m+r])
		grad[r] = g.X[r] * p.span[0] * sx * (1 - sx)
		grad[m+r] = g.Y[r] * p.span[1] * sy * (1 - sy)
		grad[2*m+r] = g.Sigma[r] * (mix.Sigma[r] - p.sigmaMin)
		grad[3*m+r] = mix.W[r] * (g.W[r] - wg)
	}
}

// Learn trains the weight function on the training set of sums that leaves
// out fold excludeFold (-1: all folds), from init, and returns the learned
// mixture (weights normalised to mean 1) with its cost trace.
func Learn(ctx context.Context, sums *PairSums, excludeFold int, centres [][2]float64, init kernel.Mixture, o Options, prog progress.Func) (kernel.Mixture, Trace, error) {
	a, b := sums.Training(excludeFold)
	return Fit(ctx, Problem{A: a, B: b, Centres: centres, Penalty: o.Penalty, Prior: o.Prior, Contrast: o.Contrast}, init, o, prog)
}

// cached serves gonum's separate Func and Grad calls at one point from a
// single evaluation: the gradient costs little more than the value.
type cached struct {
	objective func(theta, grad []float64) float64
	x, g      []float64
	f         float64
	valid     bool
}

func (c *cached) eval(x []float64) {
	if c.valid && floats.Equal(x, c.x) {
		return
	}
	c.x = append(c.x[:0], x...)
	c.g = make([]float64, len(x))
	c.f = c.objective(x, c.g)
	c.valid = true
}

func (c *cached) problem() optimize.Problem {
	return optimize.Problem{
		Func: func(x []float64) float64 { c.eval(x); return c.f },
		Grad: func(grad, x []float64) { c.eval(x); copy(grad, c.g) },
	}
}

// recorder collects the cost after each major iteration, reports progress
// and stops the optimiser when ctx is done.
type recorder struct {
	ctx   context.Context
	trace *Trace
	stage string
	prog  progress.Func
	max   int
}

func (r *recorder) Init() error { return nil }

func (r *recorder) Record(l *optimize.Location, op optimize.Operation, _ *optimize.Stats) error {
	if op == optimize.MajorIteration {
		r.trace.Cost = append(r.trace.Cost, l.F)
		r.prog.Report(r.stage, len(r.trace.Cost)-1, r.max) // Cost[0] is the start
	}
	return r.ctx.Err()
}

// Minimize minimises objective (its value, with the gradient written into
// grad) from theta0 with o's optimiser and stopping rule: o.Patience
// iterations in a row each lowering the cost by at most o.Tol, or
// o.MaxIter iterations. Progress is reported under stage. It is the
// optimiser of Fit, shared with other learned weight functions (package
// pdkernel's trainPWGK) so that all stop and report alike.
func Minimize(ctx context.Context, objective func(theta, grad []float64) float64, theta0 []float64, o Options, stage string, prog progress.Func) ([]float64, Trace, error) {
	o = o.withDefaults()
	method, err := o.method()
	if err != nil {
		return nil, Trace{}, err
	}
	var trace Trace
	c := &cached{objective: objective}
	res, err := optimize.Minimize(c.problem(), theta0, &optimize.Settings{
		Converger: &optimize.FunctionConverge{Absolute: o.Tol, Iterations: o.Patience},
		// gonum counts the starting point as major iteration 1.
		MajorIterations: o.MaxIter + 1,
		// A guard against line searches that never end.
		FuncEvaluations: 50 * o.MaxIter,
		Recorder:        &recorder{ctx: ctx, trace: &trace, stage: stage, prog: prog, max: o.MaxIter},
	}, method)
	if cerr := ctx.Err(); cerr != nil {
		return nil, Trace{}, cerr
	}
	if res == nil {
		return nil, Trace{}, fmt.Errorf("learn: optimize: %w", err)
	}
	// The recorder sees the start and every major iteration but the one
	// that ends the run.
	if res.Stats.MajorIterations > len(trace.Cost) {
		trace.Cost = append(trace.Cost, res.F)
	}
	trace.Iterations = len(trace.Cost) - 1
	switch {
	case err == nil:
		trace.Converged = res.Status == optimize.FunctionConvergence ||
			res.Status == optimize.GradientThreshold || res.Status == optimize.MethodConverge
	case errors.Is(err, optimize.ErrNoProgress):
		// The line search cannot move at floating-point precision: a
		// stationary point for all practical purposes.
		trace.Converged = true
	case errors.Is(err, optimize.ErrLinesearcherFailure):
		// Keep the best point found; the trace says it did not converge.
	default:
		return nil, Trace{}, fmt.Errorf("learn: optimize: %w", err)
	}
	return res.X, trace, nil
}

// Fit minimises prob's objective over the mixture parameters from init
// (see Minimize for the optimiser and its stopping rule).
func Fit(ctx context.Context, prob Problem, init kernel.Mixture, o Options, prog progress.Func) (kernel.Mixture, Trace, error) {
	if err := prob.validate(); err != nil {
		return kernel.Mixture{}, Trace{}, err
	}
	if err := init.Validate(); err != nil {
		return kernel.Mixture{}, Trace{}, err
	}
	p := newParams(init.Len(), prob.Centres)
	theta := p.Theta(init)
	if prob.Anchor.Len() == 0 {
		prob.Anchor = p.Mixture(theta)
	} else if prob.Anchor.Len() != init.Len() {
		return kernel.Mixture{}, Trace{}, fmt.Errorf("learn: anchor has %d components, mixture %d", prob.Anchor.Len(), init.Len())
	}
	e := newEvaluator(prob)
	x, trace, err := Minimize(ctx, func(theta, grad []float64) float64 { return p.objective(e, theta, grad) }, theta, o, "learn", prog)
	if err != nil {
		return kernel.Mixture{}, Trace{}, err
	}
	return p.Mixture(x), trace, nil
}

// maxBatchStep bounds the first and longest trial step of LearnBatched in
// theta units: full steps on single batches overfit them.
const maxBatchStep = 0.1

// LearnBatched trains on mini-batches, as the paper does for NCI1 and
// PROTEINS: each step draws a stratified random batch of o.BatchSize
// images (seeded by o.Seed), builds its class sums by the same fast path
// (NewPairSums on the batch) and takes one gradient-descent step with
// Armijo backtracking on the batch objective, the trial step adapting from
// the step the previous batch accepted. It stops after o.MaxIter steps, or
// when o.Patience steps in a row move no coordinate of theta (see Params)
// by more than o.Tol: costs of different batches differ by more than Tol
// at any fixed mixture, so the cost test of Fit does not apply. Trace.Cost
// holds each batch's cost before its step. With
// o.BatchSize <= 0 or >= the number of images it is Fit on the whole set.
func LearnBatched(ctx context.Context, images []pimage.Sparse, labels []int, centres [][2]float64, sigma float64, init kernel.Mixture, o Options, prog progress.Func) (kernel.Mixture, Trace, error) {
	o = o.withDefaults()
	n := len(images)
	if o.BatchSize <= 0 || o.BatchSize >= n {
		sums, err := NewPairSums(ctx, images, labels, nil, 1, sigma, nil)
		if err != nil {
			return kernel.Mixture{}, Trace{}, err
		}
		return Learn(ctx, sums, -1, centres, init, o, prog)
	}
	if len(labels) != n {
		return kernel.Mixture{}, Trace{}, fmt.Errorf("learn: %d labels for %d images", len(labels), n)
	}
	if err := init.Validate(); err != nil {
		return kernel.Mixture{}, Trace{}, err
	}
	var byClass [][]int
	for i, l := range labels {
		if l < 0 {
			return kernel.Mixture{}, Trace{}, fmt.Errorf("learn: image %d has negative label %d", i, l)
		}
		for len(byClass) <= l {
			byClass = append(byClass, nil)
		}
		byClass[l] = append(byClass[l], i)
	}
	rng := rand.New(rand.NewPCG(uint64(o.Seed), 0xbf58476d1ce4e5b9))
	p := newParams(init.Len(), centres)
	theta := p.Theta(init)
	anchor := p.Mixture(theta)
	var trace Trace
	var alpha, alphaMax float64 // accepted step length, carried across batches
	calm := 0                   // steps in a row that moved theta by <= Tol
	for step := 0; step < o.MaxIter; step++ {
		batch := stratified(byClass, o.BatchSize, n, rng)
		bImages := make([]pimage.Sparse, len(batch))
		bLabels := make([]int, len(batch))
		for q, i := range batch {
			bImages[q], bLabels[q] = images[i], labels[i]
		}
		sums, err := NewPairSums(ctx, bImages, bLabels, nil, 1, sigma, nil)
		if err != nil {
			return kernel.Mixture{}, Trace{}, err
		}
		a, b := sums.Training(-1)
		prob := Problem{A: a, B: b, Centres: centres, Penalty: o.Penalty, Prior: o.Prior, Anchor: anchor, Contrast: o.Contrast}
		if err := prob.validate(); err != nil {
			return kernel.Mixture{}, Trace{}, err
		}
		grad := make([]float64, len(theta))
		e := newEvaluator(prob)
		c := &cached{objective: func(theta, grad []float64) float64 { return p.objective(e, theta, grad) }}
		f := c.objective(theta, grad)
		trace.Cost = append(trace.Cost, f)
		gNorm := floats.Norm(grad, 2)
		if gNorm == 0 || math.IsNaN(gNorm) || math.IsInf(gNorm, 0) {
			// A stationary point of this batch (or every component has
			// left the image): no step to take.
			calm++
		} else if err := batchStep(c, theta, f, grad, gNorm, &alpha, &alphaMax, &calm, o.Tol); err != nil {
			return kernel.Mixture{}, Trace{}, fmt.Errorf("learn: batch step %d: %w", step, err)
		}
		trace.Iterations = step + 1
		prog.Report("learn", step+1, o.MaxIter)
		if calm >= o.Patience {
			trace.Converged = true
			break
		}
	}
	return p.Mixture(theta), trace, nil
}

// batchStep takes one Armijo gradient step on a batch from theta (updated
// in place), with cost f and gradient grad of 2-norm gNorm there. alpha is
// the step length the previous batch accepted and alphaMax the longest
// allowed (0 before the first step); calm counts steps in a row that moved
// no coordinate of theta by more than tol.
func batchStep(c *cached, theta []float64, f float64, grad []float64, gNorm float64, alpha, alphaMax *float64, calm *int, tol float64) error {
	if *alphaMax == 0 {
		// No trial step moves the steepest coordinate by more than
		// maxBatchStep: a tenth of the image, or of the log of Sigma.
		*alphaMax = maxBatchStep / floats.Norm(grad, math.Inf(1))
		*alpha = *alphaMax / 2
	}
	res, err := optimize.Minimize(c.problem(), theta, &optimize.Settings{
		InitValues: &optimize.Location{F: f, Gradient: grad},
		Converger:  optimize.NeverTerminate{},
		// gonum counts the start as major iteration 1; the second is the
		// one Armijo step.
		MajorIterations: 2,
	}, &optimize.GradientDescent{
		Linesearcher: &optimize.Backtracking{},
		StepSizer:    optimize.ConstantStepSize{Size: min(2**alpha, *alphaMax)},
	})
	switch {
	case err == nil:
		if floats.Distance(res.X, theta, math.Inf(1)) <= tol {
			*calm++
		} else {
			*calm = 0
		}
		// Next trial: twice the step this batch accepted, so the step
		// length adapts across batches instead of restarting large.
		*alpha = floats.Distance(res.X, theta, 2) / gNorm
		copy(theta, res.X)
	case errors.Is(err, optimize.ErrNoProgress), errors.Is(err, optimize.ErrLinesearcherFailure):
		// No Armijo step on this batch: keep theta, draw the next one.
		*alpha /= 2
		*calm++
	default:
		return err
	}
	return nil
}

// stratified draws about size indices without replacement, each class in
// proportion to its share of the n images but with at least two members
// (when it has them) so that its within-class cost is defined.
func stratified(byClass [][]int, size, n int, rng *rand.Rand) []int {
	var batch []int
	for _, members := range byClass {
		take := int(math.Round(float64(size) * float64(len(members)) / float64(n)))
		take = min(len(members), max(take, 2))
		for _, q := range rng.Perm(len(members))[:take] {
			batch = append(batch, members[q])
		}
	}
	return batch
}
