package learn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"wkpi-web/core/kernel"
	"wkpi-web/core/pimage"
)

// synth returns n two-channel persistence-image-like vectors on a
// side x side grid over [0,1]^2 and their labels: every image has a few
// Gaussian blobs (truncated to exact zero) at random places, and class c
// has an extra blob near a class-specific point, so the classes differ by
// where their mass sits.
func synth(seed uint64, n, side int) (images [][]float64, labels []int, centres [][2]float64, points [][2]float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	for ch := 0; ch < 2; ch++ {
		for r := 0; r < side; r++ {
			for c := 0; c < side; c++ {
				centres = append(centres, [2]float64{(float64(c) + 0.5) / float64(side), (float64(r) + 0.5) / float64(side)})
			}
		}
	}
	classPoint := [][2]float64{{0.25, 0.3}, {0.7, 0.65}}
	const sd = 0.07
	N := len(centres)
	for i := 0; i < n; i++ {
		label := i % 2
		img := make([]float64, N)
		var pts [][2]float64
		for b := 0; b < 2+rng.IntN(2); b++ {
			pts = append(pts, [2]float64{rng.Float64(), rng.Float64()})
		}
		cp := classPoint[label]
		pts = append(pts, [2]float64{cp[0] + 0.05*rng.NormFloat64(), cp[1] + 0.05*rng.NormFloat64()})
		for q, p := range pts {
			ch := q % 2
			for s := ch * N / 2; s < (ch+1)*N/2; s++ {
				z := centres[s]
				d2 := (z[0]-p[0])*(z[0]-p[0]) + (z[1]-p[1])*(z[1]-p[1])
				if d2 < 9*sd*sd {
					img[s] += math.Exp(-d2 / (2 * sd * sd))
				}
			}
		}
		images = append(images, img)
		labels = append(labels, label)
		points = append(points, pts...)
	}
	return images, labels, centres, points
}

// plainD2 is the oracle D_w^2 written out over all pixels.
func plainD2(w, a, b []float64, sigma float64) float64 {
	var d float64
	for s := range a {
		d += w[s] * (2 - 2*math.Exp(-(a[s]-b[s])*(a[s]-b[s])/(2*sigma*sigma)))
	}
	return d
}

func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func TestPairSumsMatchDirectCosts(t *testing.T) {
	images, labels, centres, _ := synth(1, 24, 8)
	images = append(images, make([]float64, len(centres))) // an empty diagram
	labels = append(labels, 1)
	// A third class to exercise k > 2.
	labels[3], labels[10], labels[17] = 2, 2, 2
	const nFolds, sigma = 4, 0.3
	folds := make([]int, len(images))
	for i := range folds {
		folds[i] = (i * 7) % nFolds
	}
	sums, err := NewPairSums(context.Background(), pimage.SparseAll(images), labels, folds, nFolds, sigma, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	w := make([]float64, len(centres))
	for s := range w {
		w[s] = rng.Float64()
	}
	for _, exclude := range []int{-1, 0, 3} {
		var idx []int
		for i := range images {
			if folds[i] != exclude {
				idx = append(idx, i)
			}
		}
		d2 := make([][]float64, len(idx))
		sub := make([]int, len(idx))
		for p, i := range idx {
			sub[p] = labels[i]
			d2[p] = make([]float64, len(idx))
			for q, j := range idx {
				d2[p][q] = plainD2(w, images[i], images[j], sigma)
			}
		}
		a, b := sums.Training(exclude)
		for tc := 0; tc < 3; tc++ {
			var within, all float64
			for p := range idx {
				for q := range idx {
					if sub[p] == tc {
						all += d2[p][q]
						if sub[q] == tc {
							within += d2[p][q]
						}
					}
				}
			}
			if got := dot(a[tc], w); !near(got, within, 1e-12) {
				t.Errorf("exclude %d class %d: a.w = %v, direct cost(t,t) = %v", exclude, tc, got, within)
			}
			if got := dot(b[tc], w); !near(got, all, 1e-12) {
				t.Errorf("exclude %d class %d: b.w = %v, direct cost(t,.) = %v", exclude, tc, got, all)
			}
		}
		fast, direct, lap := TotalCost(a, b, w), DirectCost(d2, sub), LaplacianCost(d2, sub)
		if !near(fast, direct, 1e-12) || !near(lap, direct, 1e-10) {
			t.Errorf("exclude %d: TC fast %v, ratio form %v, matrix form %v", exclude, fast, direct, lap)
		}
	}

	// Rows split over workers and merged with Add give the same sums.
	b := kernel.BalancedSplit(len(images), 3)
	var merged *PairSums
	for p := 0; p < 3; p++ {
		part, err := NewPairSumsRows(context.Background(), pimage.SparseAll(images), labels, folds, nFolds, sigma, b[p], b[p+1], nil)
		if err != nil {
			t.Fatal(err)
		}
		if merged == nil {
			merged = part
		} else if err := merged.Add(part); err != nil {
			t.Fatal(err)
		}
	}
	for q := range sums.Blocks {
		for s := range sums.Blocks[q] {
			if !near(merged.Blocks[q][s], sums.Blocks[q][s], 1e-13) {
				t.Fatalf("merged block %d pixel %d = %v, want %v", q, s, merged.Blocks[q][s], sums.Blocks[q][s])
			}
		}
	}
}

func dot(a, b []float64) float64 {
	var d float64
	for i := range a {
		d += a[i] * b[i]
	}
	return d
}

// TestLaplacianHandWorked checks both matrix-based forms on a 3-point
// example worked by hand: classes {0,1} and {2}, D^2(0,1) = 1,
// D^2(0,2) = 2, D^2(1,2) = 3.
func TestLaplacianHandWorked(t *testing.T) {
	d2 := [][]float64{{0, 1, 2}, {1, 0, 3}, {2, 3, 0}}
	labels := []int{0, 0, 1}
	// cost(0,0) = 1+1 = 2; cost(0,.) = (1+2) + (1+3) = 7;
	// cost(1,1) = 0; cost(1,.) = 5. TC = 2/7.
	want := 2.0 / 7
	if got := DirectCost(d2, labels); !near(got, want, 1e-15) {
		t.Errorf("DirectCost = %v, want %v", got, want)
	}
	if got := LaplacianCost(d2, labels); !near(got, want, 1e-14) {
		t.Errorf("LaplacianCost = %v, want %v", got, want)
	}
}

func testProblem(t *testing.T) (Problem, kernel.Mixture) {
	t.Helper()
	images, labels, centres, points := synth(2, 30, 10)
	sums, err := NewPairSums(context.Background(), pimage.SparseAll(images), labels, nil, 1, 0.3, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := sums.Training(-1)
	o := DefaultOptions()
	o.M = 4
	init, err := InitMixture(points, [4]float64{0, 0, 1, 1}, o)
	if err != nil {
		t.Fatal(err)
	}
	return Problem{A: a, B: b, Centres: centres, Penalty: 0.5}, init
}

func TestGradientFiniteDifferences(t *testing.T) {
	base, init := testProblem(t)
	// The anchor differs from the point of evaluation in every parameter so
	// that each prior term has a non-zero gradient.
	anchor := kernel.Mixture{X: []float64{0.1, 0.5, 0.9, 0.4}, Y: []float64{0.8, 0.2, 0.5, 0.6},
		Sigma: []float64{0.2, 0.3, 0.25, 0.4}, W: []float64{1.2, 0.8, 1, 1}}
	for _, tc := range []struct {
		name            string
		contrast, prior float64
	}{{"paper", 0, 0}, {"contrast", 0.2, 0}, {"prior", 0, 0.7}, {"both", 0.2, 0.7}} {
		t.Run(tc.name, func(t *testing.T) {
			prob := base
			prob.Contrast, prob.Prior, prob.Anchor = tc.contrast, tc.prior, anchor
			mix := kernel.Mixture{X: append([]float64(nil), init.X...), Y: append([]float64(nil), init.Y...),
				Sigma: append([]float64(nil), init.Sigma...), W: []float64{0.7, 1.3, 0.9, 2}}
			checkGradient(t, prob, mix)
		})
	}
}

func checkGradient(t *testing.T, prob Problem, mix kernel.Mixture) {
	t.Helper()
	var g Gradient
	prob.Objective(mix, &g)
	const h = 1e-6
	for _, field := range []struct {
		name string
		v    []float64
		g    []float64
	}{{"X", mix.X, g.X}, {"Y", mix.Y, g.Y}, {"Sigma", mix.Sigma, g.Sigma}, {"W", mix.W, g.W}} {
		for r := range field.v {
			old := field.v[r]
			field.v[r] = old + h
			fp := prob.Objective(mix, nil)
			field.v[r] = old - h
			fm := prob.Objective(mix, nil)
			field.v[r] = old
			fd := (fp - fm) / (2 * h)
			if math.Abs(fd-field.g[r]) > 1e-6*math.Max(1, math.Abs(fd)) || field.g[r] == 0 {
				t.Errorf("d/d%s[%d]: analytic %v, finite difference %v", field.name, r, field.g[r], fd)
			}
		}
	}
	// The optimiser's gradient in theta (see Params) too.
	p := newParams(mix.Len(), prob.Centres)
	theta := p.Theta(mix)
	grad := make([]float64, len(theta))
	p.objective(newEvaluator(prob), theta, grad)
	for q := range theta {
		old := theta[q]
		theta[q] = old + h
		fp := p.objective(newEvaluator(prob), theta, nil)
		theta[q] = old - h
		fm := p.objective(newEvaluator(prob), theta, nil)
		theta[q] = old
		if fd := (fp - fm) / (2 * h); math.Abs(fd-grad[q]) > 1e-6*math.Max(1, math.Abs(fd)) {
			t.Errorf("d/dtheta[%d]: analytic %v, finite difference %v", q, grad[q], fd)
		}
	}
}

func TestFitConverges(t *testing.T) {
	prob, init := testProblem(t)
	for _, opt := range []string{GD, LBFGS} {
		o := DefaultOptions()
		o.Optimizer = opt
		o.MaxIter = 2000
		mix, tr, err := Fit(context.Background(), prob, init, o, nil)
		if err != nil {
			t.Fatalf("%s: %v", opt, err)
		}
		if !tr.Converged || tr.Iterations >= o.MaxIter {
			t.Errorf("%s: converged %v after %d iterations", opt, tr.Converged, tr.Iterations)
		}
		if len(tr.Cost) != tr.Iterations+1 {
			t.Errorf("%s: %d costs for %d iterations", opt, len(tr.Cost), tr.Iterations)
		}
		if opt == GD {
			// Armijo backtracking accepts only decreasing steps.
			for i := 1; i < len(tr.Cost); i++ {
				if tr.Cost[i] > tr.Cost[i-1] {
					t.Errorf("gd: cost rose at iteration %d: %v -> %v", i, tr.Cost[i-1], tr.Cost[i])
				}
			}
		}
		first, last := tr.Cost[0], tr.Cost[len(tr.Cost)-1]
		if !(last < first-0.01) {
			t.Errorf("%s: cost %v -> %v did not drop", opt, first, last)
		}
		if got := prob.Objective(mix, nil); !near(got, last, 1e-12) {
			t.Errorf("%s: returned mixture has cost %v, trace ends at %v", opt, got, last)
		}
		if err := mix.Validate(); err != nil {
			t.Errorf("%s: %v", opt, err)
		}
		var mean float64
		for _, w := range mix.W {
			mean += w / float64(len(mix.W))
		}
		if !near(mean, 1, 1e-12) {
			t.Errorf("%s: mean weight %v, want 1", opt, mean)
		}
		t.Logf("%s: %d iterations, cost %.4f -> %.4f", opt, tr.Iterations, first, last)
	}
}

func TestLearnFoldAndBatched(t *testing.T) {
	images, labels, centres, points := synth(3, 40, 8)
	folds := make([]int, len(images))
	for i := range folds {
		folds[i] = i % 5
	}
	sums, err := NewPairSums(context.Background(), pimage.SparseAll(images), labels, folds, 5, 0.3, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.M = 3
	init, err := InitMixture(points, [4]float64{0, 0, 1, 1}, o)
	if err != nil {
		t.Fatal(err)
	}
	_, tr, err := Learn(context.Background(), sums, 2, centres, init, o, nil)
	if err != nil || !tr.Converged {
		t.Fatalf("Learn: converged %v, err %v", tr.Converged, err)
	}

	o.BatchSize = 16
	o.MaxIter = 100
	mix1, tr1, err := LearnBatched(context.Background(), pimage.SparseAll(images), labels, centres, 0.3, init, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	mix2, _, err := LearnBatched(context.Background(), pimage.SparseAll(images), labels, centres, 0.3, init, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	for r := range mix1.X {
		if mix1.X[r] != mix2.X[r] || mix1.W[r] != mix2.W[r] {
			t.Fatal("LearnBatched is not deterministic for a seed")
		}
	}
	if err := mix1.Validate(); err != nil {
		t.Error(err)
	}
	if tr1.Iterations == 0 || tr1.Iterations > o.MaxIter || len(tr1.Cost) != tr1.Iterations {
		t.Errorf("batched trace: %d iterations, %d costs", tr1.Iterations, len(tr1.Cost))
	}
	// A batch as large as the set is plain Fit on all of it.
	o.BatchSize = len(images)
	whole, _, err := LearnBatched(context.Background(), pimage.SparseAll(images), labels, centres, 0.3, init, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	one, err := NewPairSums(context.Background(), pimage.SparseAll(images), labels, nil, 1, 0.3, nil)
	if err != nil {
		t.Fatal(err)
	}
	all, _, err := Learn(context.Background(), one, -1, centres, init, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	for r := range whole.X {
		if whole.X[r] != all.X[r] || whole.Sigma[r] != all.Sigma[r] {
			t.Fatalf("full-size batch %+v differs from Learn %+v", whole, all)
		}
	}
}

func TestInitMixture(t *testing.T) {
	// Three tight clusters around known means.
	means := [][2]float64{{0, 0}, {10, 0}, {0, 10}}
	var points [][2]float64
	for _, m := range means {
		for _, d := range [][2]float64{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {0, 0}} {
			points = append(points, [2]float64{m[0] + d[0], m[1] + d[1]})
		}
	}
	domain := [4]float64{-1, -1, 11, 11}
	for _, init := range []string{InitKMeans, InitKCenter} {
		o := Options{M: 3, Init: init, Seed: 4}
		mix, err := InitMixture(points, domain, o)
		if err != nil {
			t.Fatal(err)
		}
		// One centre per cluster (k-center picks points within 1 of a mean,
		// k-means finds the means exactly).
		tol := 1.0
		if init == InitKMeans {
			tol = 1e-12
		}
		for _, m := range means {
			found := false
			for r := range mix.X {
				if math.Hypot(mix.X[r]-m[0], mix.Y[r]-m[1]) <= tol {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: no centre near cluster mean %v: %v %v", init, m, mix.X, mix.Y)
			}
		}
		again, _ := InitMixture(points, domain, o)
		for r := range mix.X {
			if again.X[r] != mix.X[r] || again.Y[r] != mix.Y[r] {
				t.Errorf("%s: not deterministic", init)
			}
			if mix.W[r] != 1 {
				t.Errorf("%s: W = %v, want 1", init, mix.W)
			}
		}
		if init == InitKMeans {
			// Sigma = mean nearest-centre distance: 10, 10, 10.
			if !near(mix.Sigma[0], 10, 1e-12) {
				t.Errorf("kmeans: Sigma = %v, want 10", mix.Sigma)
			}
		}
	}
	mix, err := InitMixture(nil, domain, Options{M: 5, Init: InitRandom, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for r := range mix.X {
		if mix.X[r] < domain[0] || mix.X[r] > domain[2] || mix.Y[r] < domain[1] || mix.Y[r] > domain[3] {
			t.Errorf("random centre (%v, %v) outside %v", mix.X[r], mix.Y[r], domain)
		}
	}
	one, err := InitMixture(points, domain, Options{M: 1, Init: InitKCenter})
	if err != nil || !near(one.Sigma[0], math.Hypot(12, 12)/2, 1e-12) {
		t.Errorf("single component: Sigma %v, err %v", one.Sigma, err)
	}
	for _, bad := range []Options{{M: 0}, {M: 2, Init: "spectral"}} {
		if _, err := InitMixture(points, domain, bad); err == nil {
			t.Errorf("InitMixture accepted %+v", bad)
		}
	}
	if _, err := InitMixture(nil, domain, Options{M: 2, Init: InitKMeans}); err == nil {
		t.Error("k-means without points accepted")
	}
}

func TestErrorsAndCancel(t *testing.T) {
	images, labels, _, _ := synth(4, 6, 4)
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		labels []int
		folds  []int
		nFolds int
		sigma  float64
	}{
		{"labels", labels[:3], nil, 1, 1},
		{"negative label", []int{0, -1, 0, 1, 0, 1}, nil, 1, 1},
		{"fold range", labels, []int{0, 0, 0, 0, 0, 5}, 2, 1},
		{"sigma", labels, nil, 1, 0},
	} {
		if _, err := NewPairSums(ctx, pimage.SparseAll(images), tc.labels, tc.folds, tc.nFolds, tc.sigma, nil); err == nil {
			t.Errorf("%s: NewPairSums accepted bad input", tc.name)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := NewPairSums(cancelled, pimage.SparseAll(images), labels, nil, 1, 1, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("NewPairSums on cancelled context: %v", err)
	}
	prob, init := testProblem(t)
	if _, _, err := Fit(cancelled, prob, init, DefaultOptions(), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Fit on cancelled context: %v", err)
	}
	o := DefaultOptions()
	o.Optimizer = "newton"
	if _, _, err := Fit(ctx, prob, init, o, nil); err == nil {
		t.Error("Fit accepted an unknown optimizer")
	}
	for _, bad := range []func(*Problem){
		func(p *Problem) { p.Contrast = -1 },
		func(p *Problem) { p.Prior = math.NaN() },
		func(p *Problem) { p.Penalty = math.Inf(1) },
		func(p *Problem) {
			p.Prior, p.Anchor = 1, kernel.Mixture{X: []float64{0}, Y: []float64{0}, Sigma: []float64{1}, W: []float64{1}}
		},
		func(p *Problem) {
			p.Prior, p.Anchor = 1, kernel.Mixture{X: []float64{0}, Y: []float64{0}, Sigma: []float64{1}, W: []float64{0}}
		},
	} {
		p := prob
		bad(&p)
		if _, _, err := Fit(ctx, p, init, DefaultOptions(), nil); err == nil {
			t.Errorf("Fit accepted penalty %v, contrast %v, prior %v, anchor %+v", p.Penalty, p.Contrast, p.Prior, p.Anchor)
		}
	}
}

// TestContrastBarrierInfinite: a mixture whose Gaussians underflow to 0 on
// every pixel leaves no pair of images apart; TC treats that as cost 0,
// the barrier as +Inf.
func TestContrastBarrierInfinite(t *testing.T) {
	prob, init := testProblem(t)
	far := init
	far.X = []float64{1e3, 1e3, 1e3, 1e3}
	prob.Penalty = 0
	if got := prob.Objective(far, nil); got != 0 {
		t.Errorf("without the barrier: %v, want 0", got)
	}
	prob.Contrast = 0.1
	var g Gradient
	if got := prob.Objective(far, &g); !math.IsInf(got, 1) {
		t.Errorf("with the barrier: %v, want +Inf", got)
	}
	for r := range g.X {
		if g.X[r] != 0 || g.W[r] != 0 || math.IsNaN(g.Sigma[r]+g.Y[r]) {
			t.Errorf("gradient at +Inf: %+v", g)
		}
	}
}

func BenchmarkPairSums(b *testing.B) {
	// MUTAG size: 188 graphs, two channels of 40 x 40 = 3200 pixels.
	images, labels, _, _ := synth(5, 188, 40)
	folds := make([]int, len(images))
	for i := range folds {
		folds[i] = i % 10
	}
	for b.Loop() {
		if _, err := NewPairSums(context.Background(), pimage.SparseAll(images), labels, folds, 10, 0.3, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLearn(b *testing.B) {
	images, labels, centres, points := synth(5, 188, 40)
	folds := make([]int, len(images))
	for i := range folds {
		folds[i] = i % 10
	}
	sums, err := NewPairSums(context.Background(), pimage.SparseAll(images), labels, folds, 10, 0.3, nil)
	if err != nil {
		b.Fatal(err)
	}
	o := DefaultOptions()
	init, err := InitMixture(points, [4]float64{0, 0, 1, 1}, o)
	if err != nil {
		b.Fatal(err)
	}
	var iters int
	for b.Loop() {
		_, tr, err := Learn(context.Background(), sums, 0, centres, init, o, nil)
		if err != nil {
			b.Fatal(err)
		}
		iters = tr.Iterations
	}
	b.ReportMetric(float64(iters), "iterations")
}
