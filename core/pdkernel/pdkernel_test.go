package pdkernel

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"wkpi-web/core/persistence"
)

func randomDiagrams(rng *rand.Rand, n, maxPoints int) [][]persistence.Point {
	ds := make([][]persistence.Point, n)
	for i := range ds {
		ds[i] = make([]persistence.Point, rng.IntN(maxPoints+1))
		for k := range ds[i] {
			b := math.Round(rng.Float64()*8) / 4 // repeated values, as on graphs
			ds[i][k] = persistence.Point{Birth: b, Death: b + rng.NormFloat64()}
		}
	}
	return ds
}

// lineW1 is the brute-force 1-Wasserstein distance between two equal-size
// multisets of reals: the cheapest of all perfect matchings.
func lineW1(a, b []float64) float64 {
	best := math.Inf(1)
	perm := make([]int, len(b))
	used := make([]bool, len(b))
	var rec func(k int, cost float64)
	rec = func(k int, cost float64) {
		if cost >= best {
			return
		}
		if k == len(a) {
			best = cost
			return
		}
		for j := range b {
			if !used[j] {
				used[j], perm[k] = true, j
				rec(k+1, cost+math.Abs(a[k]-b[j]))
				used[j] = false
			}
		}
	}
	rec(0, 0)
	return best
}

// bruteSW is SW by its definition in Carriere et al.: for each direction,
// the optimal matching of D1 + Delta(D2) with D2 + Delta(D1) projected on
// the line, found by trying all matchings; then the mean over directions.
func bruteSW(d1, d2 []persistence.Point, directions int) float64 {
	var total float64
	for k := range directions {
		th := -math.Pi/2 + float64(k)*math.Pi/float64(directions)
		proj := func(x, y float64) float64 { return x*math.Cos(th) + y*math.Sin(th) }
		var a, b []float64
		for _, p := range d1 {
			m := (p.Birth + p.Death) / 2
			a = append(a, proj(p.Birth, p.Death))
			b = append(b, proj(m, m))
		}
		for _, q := range d2 {
			m := (q.Birth + q.Death) / 2
			b = append(b, proj(q.Birth, q.Death))
			a = append(a, proj(m, m))
		}
		total += lineW1(a, b)
	}
	return total / float64(directions)
}

func TestSlicedWassersteinBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ds := randomDiagrams(rng, 8, 3) // includes empty diagrams
	for _, m := range []int{1, 4, 10} {
		got, err := SlicedWasserstein(context.Background(), ds, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ds {
			for j := range ds {
				if want := bruteSW(ds[i], ds[j], m); math.Abs(got[i][j]-want) > 1e-12 {
					t.Errorf("M=%d SW(%v, %v) = %.15g, brute force %.15g", m, ds[i], ds[j], got[i][j], want)
				}
			}
		}
	}
}

// TestSlicedWassersteinClosedForm: a one-point diagram {(b, d)} against
// the empty diagram projects, on direction theta, to two points at
// distance |d-b|/sqrt(2) |sin(theta - pi/4)|, whose mean over the half
// circle is 2/pi: exact SW = sqrt(2) |d-b| / pi. The M-direction rule
// converges to it at rate 1/M^2.
func TestSlicedWassersteinClosedForm(t *testing.T) {
	d := [][]persistence.Point{{{Birth: 0.5, Death: 2}}, {}}
	want := math.Sqrt2 * 1.5 / math.Pi
	var prevErr float64
	for _, m := range []int{10, 100, 1000} {
		got, err := SlicedWasserstein(context.Background(), d, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		e := math.Abs(got[0][1] - want)
		t.Logf("M=%d: SW %.10f, exact %.10f, error %.2g", m, got[0][1], want, e)
		if e > 2/float64(m*m) {
			t.Errorf("M=%d: error %.3g above 2/M^2", m, e)
		}
		if prevErr > 0 && e > prevErr/30 {
			t.Errorf("M=%d: error %.3g did not fall like 1/M^2 from %.3g", m, e, prevErr)
		}
		prevErr = e
	}
}

func TestPWGKClosedForm(t *testing.T) {
	ctx := context.Background()
	// One point each: K = w(p) w(q) exp(-|p-q|^2 / (2 rho^2)), here
	// w = arctan(1 * 1^1) = pi/4 for both, |p-q|^2 = 2, rho = 1.
	ds := [][]persistence.Point{{{Birth: 0, Death: 1}}, {{Birth: 1, Death: 2}}, {}}
	g, err := PWGKLinear(ctx, ds, PWGKParams{Rho: 1, C: 1, P: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := math.Pi / 4
	want := [][]float64{{w * w, w * w / math.E, 0}, {w * w / math.E, w * w, 0}, {0, 0, 0}}
	for i := range want {
		for j := range want[i] {
			if math.Abs(g[i][j]-want[i][j]) > 1e-15 {
				t.Errorf("K[%d][%d] = %.17g, want %.17g", i, j, g[i][j], want[i][j])
			}
		}
	}
	// RKHS distance: 2 w^2 (1 - 1/e) between the two one-point diagrams.
	d2 := SquaredDistances(g)
	if want := 2 * w * w * (1 - 1/math.E); math.Abs(d2[0][1]-want) > 1e-15 {
		t.Errorf("D^2 = %.17g, want %.17g", d2[0][1], want)
	}
	// A caller's weight: w(b, d) = b + d gives 1 and 3.
	g, err = PWGKLinear(ctx, ds[:2], PWGKParams{Rho: 1, Weight: func(b, d float64) float64 { return b + d }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := 3 / math.E; math.Abs(g[0][1]-want) > 1e-15 || g[1][1] != 9 {
		t.Errorf("custom weight: K = %v, want off-diagonal %g and K[1][1] = 9", g, want)
	}
	// Self values and the cross form agree with the Gram matrix.
	rng := rand.New(rand.NewPCG(3, 4))
	rs := randomDiagrams(rng, 9, 6)
	p := PWGKParams{Rho: 0.7, C: 2, P: 3}
	g, err = PWGKLinear(ctx, rs, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	self, err := PWGKSelf(ctx, rs, p)
	if err != nil {
		t.Fatal(err)
	}
	cr, err := PWGKLinearCross(ctx, rs[:4], rs, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := SquaredDistancesCross(cr, self[:4], self)
	if err != nil {
		t.Fatal(err)
	}
	if newGaussTable(1, maxTableValues, false, rs).e == nil {
		t.Fatal("the test diagrams do not take the table path")
	}
	ge, err := pwgkMatrix(ctx, rs, nil, p, 0, nil) // by exponentials
	if err != nil {
		t.Fatal(err)
	}
	dg := SquaredDistances(g)
	for i := range cr {
		if self[i] != g[i][i] {
			t.Errorf("PWGKSelf[%d] = %g, Gram diagonal %g", i, self[i], g[i][i])
		}
		for j := range cr[i] {
			if math.Abs(cr[i][j]-g[i][j]) > 1e-12 || math.Abs(dc[i][j]-dg[i][j]) > 1e-12 || math.Abs(ge[i][j]-g[i][j]) > 1e-12 {
				t.Errorf("cross [%d][%d] = %g (D^2 %g), Gram %g (D^2 %g), by exponentials %g", i, j, cr[i][j], dc[i][j], g[i][j], dg[i][j], ge[i][j])
			}
		}
	}
}

// bruteFisher is GUDHI's _persistence_fisher_distance written out
// literally: Theta = D1, Delta(D1), D2, Delta(D2); rho1 sums Gaussians at
// D1 and Delta(D2), rho2 at D2 and Delta(D1).
func bruteFisher(d1, d2 []persistence.Point, h float64) float64 {
	diag := func(d []persistence.Point) []persistence.Point {
		out := make([]persistence.Point, len(d))
		for k, p := range d {
			m := (p.Birth + p.Death) / 2
			out[k] = persistence.Point{Birth: m, Death: m}
		}
		return out
	}
	cat := func(parts ...[]persistence.Point) []persistence.Point {
		var out []persistence.Point
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	z := cat(d1, diag(d1), d2, diag(d2))
	u, v := cat(d1, diag(d2)), cat(d2, diag(d1))
	density := func(set []persistence.Point) []float64 {
		out := make([]float64, len(z))
		var s float64
		for k, p := range z {
			for _, q := range set {
				out[k] += math.Exp(-(math.Pow(p.Birth-q.Birth, 2) + math.Pow(p.Death-q.Death, 2)) / (2 * h * h))
			}
			s += out[k]
		}
		for k := range out {
			out[k] /= s
		}
		return out
	}
	ri, rj := density(u), density(v)
	var bc float64
	for k := range z {
		bc += math.Sqrt(ri[k] * rj[k])
	}
	return math.Acos(min(bc, 1))
}

func TestPersistenceFisherBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ds := randomDiagrams(rng, 10, 7)
	ds = append(ds, []persistence.Point{{Birth: 1, Death: 2}})
	if newFisher(1, maxTableValues, ds).t.e == nil {
		t.Fatal("the test diagrams do not take the table path")
	}
	ctx := context.Background()
	for _, h := range []float64{0.1, 1} {
		for _, maxValues := range []int{maxTableValues, 0} {
			got, err := persistenceFisher(ctx, ds, nil, h, maxValues, nil)
			if err != nil {
				t.Fatal(err)
			}
			cr, err := persistenceFisher(ctx, ds[:3], ds, h, maxValues, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range ds {
				for j := range ds {
					want := 0.0
					if i != j && len(ds[i])+len(ds[j]) > 0 {
						want = bruteFisher(ds[i], ds[j], h)
					}
					if math.Abs(got[i][j]-want) > 1e-9 {
						t.Errorf("h=%g, table up to %d values: d_FIM[%d][%d] = %.15g, brute force %.15g", h, maxValues, i, j, got[i][j], want)
					}
					if i < len(cr) && i != j && math.Abs(cr[i][j]-want) > 1e-9 {
						t.Errorf("h=%g, table up to %d values: cross [%d][%d] = %.15g, brute force %.15g", h, maxValues, i, j, cr[i][j], want)
					}
				}
			}
		}
	}
}

// TestPersistenceFisherLimits: identical diagrams are at distance 0; far
// apart diagrams smoothed by a narrow Gaussian have disjoint densities,
// so the Bhattacharyya sum is 0 and d_FIM = pi/2.
func TestPersistenceFisherLimits(t *testing.T) {
	d := []persistence.Point{{Birth: 0, Death: 1}, {Birth: 2, Death: 5}}
	far := []persistence.Point{{Birth: 100, Death: 104}}
	got, err := PersistenceFisherCross(context.Background(), [][]persistence.Point{d, d}, [][]persistence.Point{d, far}, 0.01, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got[0][0]) > 1e-7 || math.Abs(got[1][1]-math.Pi/2) > 1e-15 {
		t.Errorf("d(D, D) = %g, want 0; d(D, far) = %.17g, want pi/2", got[0][0], got[1][1])
	}
}

func TestSquaredEuclidean(t *testing.T) {
	v := [][]float64{{0, 0}, {3, 4}, {1, 1}}
	got, err := SquaredEuclidean(context.Background(), v, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{0, 25, 2}, {25, 0, 13}, {2, 13, 0}}
	cr, err := SquaredEuclideanCross(context.Background(), v[1:], v, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		for j := range want[i] {
			if got[i][j] != want[i][j] || (i > 0 && cr[i-1][j] != want[i][j]) {
				t.Errorf("[%d][%d] = %g, want %g", i, j, got[i][j], want[i][j])
			}
		}
	}
	k := Exp(got, 0.5)
	if k[0][2] != math.Exp(-1) || k[1][1] != 1 {
		t.Errorf("Exp: %v", k)
	}
	if _, err := SquaredEuclideanCross(context.Background(), v, [][]float64{{1}}, nil); err == nil {
		t.Error("vectors of different lengths: no error")
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	good := [][]persistence.Point{{{Birth: 0, Death: 1}}}
	bad := [][]persistence.Point{{{Birth: 0, Death: 1}}, {}, {{Birth: 0, Death: 1}, {Birth: 1, Death: math.Inf(1)}}}
	nan := [][]persistence.Point{{{Birth: math.NaN(), Death: 1}}}
	pw := PWGKParams{Rho: 1, C: 1, P: 1}
	for _, c := range []struct {
		name, want string
		err        error
	}{
		{"SW", "diagram 2 point 1", second(SlicedWasserstein(ctx, bad, 10, nil))},
		{"SW cross", "column diagram 2 point 1", second(SlicedWassersteinCross(ctx, good, bad, 10, nil))},
		{"SW directions", "directions", second(SlicedWasserstein(ctx, good, 0, nil))},
		{"PWGK", "diagram 2 point 1", second(PWGKLinear(ctx, bad, pw, nil))},
		{"PWGK NaN", "row diagram 0 point 0", second(PWGKLinearCross(ctx, nan, good, pw, nil))},
		{"PWGK self", "diagram 2 point 1", second(PWGKSelf(ctx, bad, pw))},
		{"PWGK rho", "rho", second(PWGKLinear(ctx, good, PWGKParams{C: 1, P: 1}, nil))},
		{"PWGK C", "C > 0", second(PWGKLinear(ctx, good, PWGKParams{Rho: 1, P: 1}, nil))},
		{"PWGK weight", "weight NaN", second(PWGKLinear(ctx, good, PWGKParams{Rho: 1, Weight: func(b, d float64) float64 { return math.NaN() }}, nil))},
		{"PF", "diagram 2 point 1", second(PersistenceFisher(ctx, bad, 1, nil))},
		{"PF cross", "row diagram 0 point 0", second(PersistenceFisherCross(ctx, nan, good, 1, nil))},
		{"PF bandwidth", "bandwidth", second(PersistenceFisher(ctx, good, -1, nil))},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, c.err, c.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ds := randomDiagrams(rand.New(rand.NewPCG(1, 1)), 40, 5)
	for name, err := range map[string]error{
		"SW":   second(SlicedWasserstein(ctx, ds, 10, nil)),
		"PWGK": second(PWGKLinearCross(ctx, ds, ds, PWGKParams{Rho: 1, C: 1, P: 1}, nil)),
		"PF":   second(PersistenceFisher(ctx, ds, 1, nil)),
	} {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v, want context.Canceled", name, err)
		}
	}
}

// TestEmptyLists: no diagrams give empty matrices, and a cross matrix
// with no columns has one empty row per row diagram.
func TestEmptyLists(t *testing.T) {
	ctx := context.Background()
	one := [][]persistence.Point{{{Birth: 0, Death: 1}}}
	pw := PWGKParams{Rho: 1, C: 1, P: 1}
	for name, f := range map[string]func(rows, cols [][]persistence.Point) ([][]float64, error){
		"SW": func(r, c [][]persistence.Point) ([][]float64, error) {
			return SlicedWassersteinCross(ctx, r, c, 5, nil)
		},
		"PWGK": func(r, c [][]persistence.Point) ([][]float64, error) { return PWGKLinearCross(ctx, r, c, pw, nil) },
		"PF": func(r, c [][]persistence.Point) ([][]float64, error) {
			return PersistenceFisherCross(ctx, r, c, 1, nil)
		},
	} {
		m, err := f(nil, one)
		if err != nil || len(m) != 0 {
			t.Errorf("%s: no rows: %v, %v", name, m, err)
		}
		m, err = f(one, nil)
		if err != nil || len(m) != 1 || len(m[0]) != 0 {
			t.Errorf("%s: no columns: %v, %v", name, m, err)
		}
	}
	if m, err := SlicedWasserstein(ctx, nil, 5, nil); err != nil || len(m) != 0 {
		t.Errorf("SW of no diagrams: %v, %v", m, err)
	}
}
