package pdkernel

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/persistence"
)

// synthDiagrams returns n labelled diagrams: a few random points each and
// one near a class-specific place, so the classes differ by where their
// points sit. Coordinates are rounded so that points repeat, as on graphs.
func synthDiagrams(seed uint64, n int) ([][]persistence.Point, []int) {
	rng := rand.New(rand.NewPCG(seed, 9))
	round := func(v float64) float64 { return math.Round(v*20) / 20 }
	classPoint := [][2]float64{{0.2, 0.7}, {0.7, 0.9}}
	var ds [][]persistence.Point
	var labels []int
	for i := range n {
		l := i % 2
		var d []persistence.Point
		for range 2 + rng.IntN(3) {
			b := round(rng.Float64())
			d = append(d, persistence.Point{Birth: b, Death: round(b + 0.6*rng.Float64() - 0.2)})
		}
		c := classPoint[l]
		d = append(d, persistence.Point{Birth: round(c[0] + 0.05*rng.NormFloat64()), Death: round(c[1] + 0.05*rng.NormFloat64())})
		ds, labels = append(ds, d), append(labels, l)
	}
	return ds, labels
}

func testMixture() kernel.Mixture {
	return kernel.Mixture{
		X:     []float64{0.2, 0.6, 0.9},
		Y:     []float64{0.5, 0.1, 0.3},
		Sigma: []float64{0.3, 0.25, 0.4},
		W:     []float64{1.2, 0.7, 1.1},
	}
}

// TestPWGKObjectiveBruteForce: the fast objective against its definition
// from the PWGK Gram matrix of PWGKLinear with the mixture as weight:
// TC by learn.DirectCost on D^2 = SquaredDistances(K), the contrast ratio
// R = sum D^2 / (2 n trace K), the penalty and the prior written out.
func TestPWGKObjectiveBruteForce(t *testing.T) {
	ctx := context.Background()
	ds, labels := synthDiagrams(1, 14)
	ds = append(ds, nil) // an empty diagram, K = 0 with everything
	labels = append(labels, 0)
	// And diagrams whose coordinates are all distinct.
	cont := randomDiagrams(rand.New(rand.NewPCG(8, 8)), 12, 5)
	for i := range cont {
		for k := range cont[i] {
			cont[i][k].Birth += 0.01 * float64(i*7+k)
		}
	}
	for c, rho := range []float64{0.05, 0.3, 0.5} {
		ds, labels := ds, labels
		if c == 2 {
			ds, labels = cont, []int{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 1}
		}
		pr, err := newPWGKProblem(ds, labels, rho)
		if err != nil {
			t.Fatal(err)
		}
		mix := testMixture()
		anchor := kernel.Mixture{X: []float64{0.3, 0.5, 0.8}, Y: []float64{0.4, 0.2, 0.3}, Sigma: []float64{0.2, 0.3, 0.5}, W: []float64{1, 1, 1}}
		pr.penalty, pr.contrast, pr.prior, pr.anchor = 0.5, 0.1, 0.3, anchor
		got := pr.objective(mix, nil)

		K, err := PWGKLinear(ctx, ds, PWGKParams{Rho: rho, Weight: MixtureWeight(mix)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		d2 := SquaredDistances(K)
		want := learn.DirectCost(d2, labels)
		var sumD2, trace float64
		for i := range d2 {
			trace += K[i][i]
			for j := range d2 {
				sumD2 += d2[i][j]
			}
		}
		want -= 0.1 * math.Log(sumD2/(2*float64(len(ds))*trace))
		L := learn.BoxSide(pr.xy)
		for r := range mix.W {
			want += 0.5 * math.Exp(-mix.W[r])
			want += 0.3 / 3 * (math.Pow((mix.X[r]-anchor.X[r])/L, 2) + math.Pow((mix.Y[r]-anchor.Y[r])/L, 2) +
				math.Pow(math.Log(mix.Sigma[r]/anchor.Sigma[r]), 2) + math.Pow(math.Log(mix.W[r]/anchor.W[r]), 2))
		}
		if math.Abs(got-want) > 1e-10*math.Abs(want) {
			t.Errorf("rho %g: objective %.15g, brute force %.15g", rho, got, want)
		}
	}
}

// TestPWGKGradientFiniteDifferences checks every partial derivative, with
// respect to the mixture and to the optimiser's free vector theta, by
// central differences, with all terms of the objective on.
func TestPWGKGradientFiniteDifferences(t *testing.T) {
	ds, labels := synthDiagrams(2, 16)
	labels[3] = 2 // three classes, one of a single diagram
	pr, err := newPWGKProblem(ds, labels, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	pr.penalty, pr.contrast, pr.prior = 1, 0.05, 0.3
	pr.anchor = kernel.Mixture{X: []float64{0.3, 0.5, 0.8}, Y: []float64{0.4, 0.2, 0.3}, Sigma: []float64{0.2, 0.3, 0.5}, W: []float64{1, 1, 1}}
	mix := testMixture()
	var g learn.Gradient
	pr.objective(mix, &g)
	const h = 1e-6
	for _, field := range []struct {
		name string
		v, g []float64
	}{{"X", mix.X, g.X}, {"Y", mix.Y, g.Y}, {"Sigma", mix.Sigma, g.Sigma}, {"W", mix.W, g.W}} {
		for r := range field.v {
			old := field.v[r]
			field.v[r] = old + h
			fp := pr.objective(mix, nil)
			field.v[r] = old - h
			fm := pr.objective(mix, nil)
			field.v[r] = old
			fd := (fp - fm) / (2 * h)
			if math.Abs(fd-field.g[r]) > 1e-6*math.Max(1, math.Abs(fd)) || field.g[r] == 0 {
				t.Errorf("d/d%s[%d]: analytic %v, finite difference %v", field.name, r, field.g[r], fd)
			}
		}
	}
	pts := pr.xy
	p := newParams(mix.Len(), pts, 0.2)
	theta := p.Theta(mix)
	grad := make([]float64, len(theta))
	objective(p, pr, theta, grad)
	for q := range theta {
		old := theta[q]
		theta[q] = old + h
		fp := objective(p, pr, theta, nil)
		theta[q] = old - h
		fm := objective(p, pr, theta, nil)
		theta[q] = old
		if fd := (fp - fm) / (2 * h); math.Abs(fd-grad[q]) > 1e-6*math.Max(1, math.Abs(fd)) {
			t.Errorf("d/dtheta[%d]: analytic %v, finite difference %v", q, grad[q], fd)
		}
	}
	// The parametrisation reproduces the mixture (weights rescaled to mean 1).
	back := p.Mixture(theta)
	for r := range mix.W {
		if math.Abs(back.X[r]-mix.X[r]) > 1e-9 || math.Abs(back.Sigma[r]-mix.Sigma[r]) > 1e-9 ||
			math.Abs(back.W[r]-mix.W[r]*3/(1.2+0.7+1.1)) > 1e-9 {
			t.Errorf("component %d: mixture(theta(mix)) = %v, from %v", r, back, mix)
		}
	}
}

// TestLearnPWGK: learning lowers the total cost on separable synthetic
// diagrams, with the paper's plain objective and with the default terms,
// and the learned weight makes a valid PWGK.
func TestLearnPWGK(t *testing.T) {
	ctx := context.Background()
	ds, labels := synthDiagrams(3, 30)
	init := kernel.Mixture{X: []float64{0.3, 0.6}, Y: []float64{0.3, 0.3}, Sigma: []float64{0.4, 0.4}, W: []float64{1, 1}}
	for _, o := range []learn.Options{
		{Optimizer: learn.GD, MaxIter: 100},
		{Optimizer: learn.LBFGS, MaxIter: 100, Penalty: 1, Contrast: 0.03, Prior: 0.3},
	} {
		mix, tr, err := LearnPWGK(ctx, ds, labels, 0.1, init, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := mix.Validate(); err != nil {
			t.Fatal(err)
		}
		if len(tr.Cost) < 2 || !(tr.Cost[len(tr.Cost)-1] < tr.Cost[0]) {
			t.Errorf("%s: cost trace %v does not decrease", o.Optimizer, tr.Cost)
		}
		tc := func(m kernel.Mixture) float64 {
			K, err := PWGKLinear(ctx, ds, PWGKParams{Rho: 0.1, Weight: MixtureWeight(m)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			return learn.DirectCost(SquaredDistances(K), labels)
		}
		before, after := tc(init), tc(mix)
		t.Logf("%s: TC %.4f -> %.4f in %d iterations (converged %v)", o.Optimizer, before, after, tr.Iterations, tr.Converged)
		if o.Contrast == 0 && !(after < before) {
			t.Errorf("%s: TC %.4f -> %.4f did not fall", o.Optimizer, before, after)
		}
	}
}

func TestLearnPWGKErrors(t *testing.T) {
	ctx := context.Background()
	ds, labels := synthDiagrams(4, 6)
	init := testMixture()
	o := learn.Options{MaxIter: 5}
	cases := []struct {
		want string
		err  error
	}{
		{"labels", third(LearnPWGK(ctx, ds, labels[:5], 0.1, init, o, nil))},
		{"negative label", third(LearnPWGK(ctx, ds, []int{0, 1, -1, 0, 1, 0}, 0.1, init, o, nil))},
		{"rho", third(LearnPWGK(ctx, ds, labels, 0, init, o, nil))},
		{"initial mixture", third(LearnPWGK(ctx, ds, labels, 0.1, kernel.Mixture{}, o, nil))},
		{"empty", third(LearnPWGK(ctx, [][]persistence.Point{{}, {}}, []int{0, 1}, 0.1, init, o, nil))},
		{"diagram 1 point 0", third(LearnPWGK(ctx, [][]persistence.Point{{}, {{Birth: math.Inf(-1), Death: 0}}}, []int{0, 1}, 0.1, init, o, nil))},
		{"optimizer", third(LearnPWGK(ctx, ds, labels, 0.1, init, learn.Options{Optimizer: "newton"}, nil))},
		{"penalty", third(LearnPWGK(ctx, ds, labels, 0.1, init, learn.Options{Penalty: -1}, nil))},
	}
	for _, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want one mentioning %q", c.err, c.want)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := third(LearnPWGK(cctx, ds, labels, 0.1, init, o, nil)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v", err)
	}
}

func third[A, B any](_ A, _ B, err error) error { return err }
