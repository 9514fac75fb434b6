package pimage

import (
	"math"
	"math/rand/v2"
	"testing"

	"wkpi-web/core/persistence"
)

type pt = persistence.Point

// quadrature integrates the weighted Gaussian sum over pixel (r, c) by the
// midpoint rule on 200×200 sub-squares, straight from the normal density,
// Richardson-extrapolated with the 100×100 rule: the midpoint error goes
// as h², which alone is ~1e-6 for a pixel of two tau.
func quadrature(g Grid, r, c int, points []pt, o Options) float64 {
	return (4*midpoint(g, r, c, 200, points, o) - midpoint(g, r, c, 100, points, o)) / 3
}

func midpoint(g Grid, r, c, n int, points []pt, o Options) float64 {
	h := g.Pixel / float64(n)
	sum := 0.0
	for i := range n {
		y := g.MinY + float64(r)*g.Pixel + (float64(i)+0.5)*h
		for j := range n {
			x := g.MinX + float64(c)*g.Pixel + (float64(j)+0.5)*h
			for _, p := range points {
				px, py := p.Birth, math.Abs(p.Death-p.Birth)
				d2 := (x-px)*(x-px) + (y-py)*(y-py)
				sum += o.Weight(py) * math.Exp(-d2/(2*o.Tau*o.Tau)) / (2 * math.Pi * o.Tau * o.Tau)
			}
		}
	}
	return sum * h * h
}

func TestImageQuadrature(t *testing.T) {
	points := []pt{{Birth: 0.2, Death: 1.1}, {Birth: 1.3, Death: 0.4}, {Birth: 0.9, Death: 0.9}, {Birth: 0.5, Death: math.Inf(1)}}
	g := Grid{MinX: -0.3, MinY: -0.2, Pixel: 0.35, Rows: 5, Cols: 6}
	for _, o := range []Options{
		{Rows: 5, Tau: 0.3, Weighting: Constant},
		{Rows: 5, Tau: 0.2, Weighting: Linear, MaxPersistence: 1.2},
	} {
		img, err := g.Image(points, o)
		if err != nil {
			t.Fatal(err)
		}
		if len(img) != g.Rows*g.Cols {
			t.Fatalf("%d pixels, want %d", len(img), g.Rows*g.Cols)
		}
		for r := range g.Rows {
			for c := range g.Cols {
				// The infinite point is skipped: the oracle never sees it.
				want := quadrature(g, r, c, points[:3], o)
				if got := img[r*g.Cols+c]; math.Abs(got-want) > 1e-6 {
					t.Errorf("%s pixel (%d, %d) = %.9f, quadrature %.9f", o.Weighting, r, c, got, want)
				}
			}
		}
	}
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

func TestImageMass(t *testing.T) {
	// Transformed points: (1, 2), (2, 0.5), (4, 3), (3, 2.8). A grid
	// reaching 6 tau beyond every point keeps all but ~2e-9 of each
	// Gaussian's mass per axis, so the image sums to the total weight.
	points := []pt{{Birth: 1, Death: 3}, {Birth: 2, Death: 2.5}, {Birth: 4, Death: 1}, {Birth: 3, Death: 0.2}}
	const tau = 0.25
	g := Grid{MinX: 1 - 6*tau, MinY: 0.5 - 6*tau, Pixel: 0.1}
	g.Cols = int(math.Ceil((4 + 6*tau - g.MinX) / g.Pixel))
	g.Rows = int(math.Ceil((3 + 6*tau - g.MinY) / g.Pixel))
	for _, c := range []struct {
		o    Options
		want float64
	}{
		{Options{Rows: 1, Tau: tau, Weighting: Constant}, 4},
		// Persistences 2, 0.5, 3, 2.8 under a ramp reaching 1 at 2.
		{Options{Rows: 1, Tau: tau, Weighting: Linear, MaxPersistence: 2}, 1 + 0.25 + 1 + 1},
	} {
		img, err := g.Image(points, c.o)
		if err != nil {
			t.Fatal(err)
		}
		if s := sum(img); math.Abs(s-c.want) > 1e-8 {
			t.Errorf("%s: mass %.12f, want %v", c.o.Weighting, s, c.want)
		}
	}
	// FitGrid's 3-tau margin keeps at least erf(3/√2)² of each point's mass.
	fit, err := FitGrid([][]pt{points}, 20, tau)
	if err != nil {
		t.Fatal(err)
	}
	img, err := fit.Image(points, Options{Rows: 20, Tau: tau, Weighting: Constant})
	if err != nil {
		t.Fatal(err)
	}
	if s, low := sum(img), 4*math.Pow(math.Erf(3/math.Sqrt2), 2); s < low || s > 4 {
		t.Errorf("FitGrid image mass %.6f, want in [%.6f, 4]", s, low)
	}
}

// TestMassesSharedCoordinates: points that share a birth or a
// persistence (bond ranks, integer descriptors) get, bit for bit, the
// masses each gets alone.
func TestMassesSharedCoordinates(t *testing.T) {
	g := Grid{MinX: -0.3, MinY: -0.2, Pixel: 0.35, Rows: 5, Cols: 6}
	o := Options{Rows: 5, Tau: 0.2, Weighting: Linear, MaxPersistence: 1}
	points := []pt{{Birth: 0.9, Death: 1.2}, {Birth: 0.2, Death: 1.1}, {Birth: 0.2, Death: 0.7}, {Birth: 0.6, Death: 1.1}, {Birth: 0.5, Death: 1.4},
		{Birth: 0.2, Death: 1.1}, {Birth: 1.3, Death: 0.4}, {Birth: 0.6, Death: 1.5}}
	m, err := g.Masses(points, o)
	if err != nil {
		t.Fatal(err)
	}
	for p, i := range m.Index {
		alone, err := g.Masses(points[i:i+1], o)
		if err != nil {
			t.Fatal(err)
		}
		for _, pair := range [][2][]float64{{m.Rows.RawRowView(p), alone.Rows.RawRowView(0)}, {m.Cols.RawRowView(p), alone.Cols.RawRowView(0)}} {
			for k := range pair[0] {
				if math.Float64bits(pair[0][k]) != math.Float64bits(pair[1][k]) {
					t.Fatalf("point %d %v: mass %d is %v among the others, %v alone", i, points[i], k, pair[0][k], pair[1][k])
				}
			}
		}
	}
}

func TestImageLayoutAndWeights(t *testing.T) {
	// A point at a pixel centre with a tiny tau puts all its weight in
	// that pixel, which pins the layout of Image to that of Centers.
	g := Grid{MinX: -1, MinY: 0.5, Pixel: 0.5, Rows: 3, Cols: 4}
	centers := g.Centers()
	o := Options{Rows: 3, Tau: 1e-3, Weighting: Linear, MaxPersistence: 1.5}
	for k, c := range centers {
		b, pers := c[0], c[1]
		// Row centres lie at persistence 0.75, 1.25, 1.75: on the ramp to
		// 1.5 they weigh 1/2, 5/6 and 1.
		want := []float64{0.5, 5.0 / 6, 1}[k/g.Cols]
		// A sublevel point and a mirrored one land alike.
		for _, p := range []pt{{Birth: b, Death: b + pers}, {Birth: b, Death: b - pers}} {
			img, err := g.Image([]pt{p, {Birth: b, Death: math.Inf(-1)}}, o)
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range img {
				if i == k && math.Abs(v-want) > 1e-12 || i != k && v > 1e-12 {
					t.Fatalf("point at centre %d %v: pixel %d = %v (weight %v)", k, c, i, v, want)
				}
			}
		}
	}
	if centers[5] != [2]float64{-0.25, 1.25} { // row 1, column 1, by hand
		t.Errorf("Centers()[5] = %v, want [-0.25 1.25]", centers[5])
	}
	img, err := g.Image(nil, o)
	if err != nil || len(img) != 12 || sum(img) != 0 {
		t.Errorf("empty diagram: %v, %v", img, err)
	}
}

func TestFitGrid(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	random := make([]pt, 30)
	for i := range random {
		b := 10 * r.Float64()
		random[i] = pt{Birth: b, Death: b + 3*r.NormFloat64()}
	}
	for _, c := range []struct {
		name     string
		diagrams [][]pt
		rows     int
		tau      float64
	}{
		{"random", [][]pt{random[:10], random[10:], {{Birth: 1, Death: math.Inf(1)}}}, 40, 0.3},
		{"single point", [][]pt{{{Birth: 2, Death: 5}}}, 10, 0.1},
		{"identical points", [][]pt{{{Birth: 2, Death: 5}, {Birth: 2, Death: 5}}, {{Birth: 2, Death: 5}}}, 7, 1},
		{"zero persistence", [][]pt{{{Birth: 0, Death: 0}, {Birth: 4, Death: 4}}}, 5, 0.01},
		{"one birth", [][]pt{{{Birth: 1, Death: 2}, {Birth: 1, Death: 9}}}, 40, 0.05},
		{"wide", [][]pt{{{Birth: 0, Death: 1}, {Birth: 1000, Death: 1001}}}, 10, 0.5},
	} {
		g, err := FitGrid(c.diagrams, c.rows, c.tau)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if g.Rows != c.rows || g.Validate() != nil {
			t.Errorf("%s: %+v, want %d rows and a valid grid", c.name, g, c.rows)
		}
		if g.Cols > MaxAspect*g.Rows+1 {
			t.Errorf("%s: %d columns for %d rows", c.name, g.Cols, g.Rows)
		}
		pad := PadTaus*c.tau - 1e-9
		for _, d := range c.diagrams {
			for _, p := range d {
				if math.IsInf(p.Death, 0) {
					continue
				}
				x, y := p.Birth, math.Abs(p.Death-p.Birth)
				if x-g.MinX < pad || g.MinX+float64(g.Cols)*g.Pixel-x < pad ||
					y-g.MinY < pad || g.MinY+float64(g.Rows)*g.Pixel-y < pad {
					t.Errorf("%s: point (%v, %v) within %v of the edge of %+v", c.name, x, y, pad, g)
				}
			}
		}
	}
	for _, bad := range []struct {
		name     string
		diagrams [][]pt
		rows     int
		tau      float64
	}{
		{"no points", [][]pt{{}, {{Birth: 0, Death: math.Inf(1)}}}, 10, 1},
		{"no rows", [][]pt{{{Birth: 0, Death: 1}}}, 0, 1},
		{"zero tau", [][]pt{{{Birth: 0, Death: 1}}}, 10, 0},
		{"NaN tau", [][]pt{{{Birth: 0, Death: 1}}}, 10, math.NaN()},
		{"too many pixels", [][]pt{{{Birth: 0, Death: 1}}}, 1 << 20, 1},
	} {
		if g, err := FitGrid(bad.diagrams, bad.rows, bad.tau); err == nil {
			t.Errorf("%s: FitGrid = %+v, want an error", bad.name, g)
		}
	}
}

func TestValidation(t *testing.T) {
	good := Grid{Pixel: 1, Rows: 2, Cols: 2}
	for _, g := range []Grid{
		{Pixel: 0, Rows: 2, Cols: 2},
		{Pixel: math.Inf(1), Rows: 2, Cols: 2},
		{Pixel: 1, Rows: 0, Cols: 2},
		{Pixel: 1, Rows: 2, Cols: -1},
		{MinX: math.NaN(), Pixel: 1, Rows: 2, Cols: 2},
		{Pixel: 1, Rows: MaxPixels, Cols: 2},
	} {
		if _, err := g.Image([]pt{{Birth: 0, Death: 1}}, Options{Rows: 1, Tau: 1, Weighting: Constant}); err == nil {
			t.Errorf("grid %+v accepted", g)
		}
	}
	for _, o := range []Options{
		{Rows: 1, Tau: 0, Weighting: Constant},
		{Rows: 1, Tau: 1, Weighting: "gaussian"},
		{Rows: 1, Tau: 1, Weighting: Linear},
		{Rows: 0, Tau: 1, Weighting: Constant},
	} {
		if _, err := good.Image([]pt{{Birth: 0, Death: 1}}, o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
}

func TestMaxPersistence(t *testing.T) {
	ds := [][]pt{{{Birth: 0, Death: 1}, {Birth: 5, Death: math.Inf(1)}}, {{Birth: 4, Death: 1.5}}, nil}
	if got := MaxPersistence(ds); got != 2.5 {
		t.Errorf("MaxPersistence = %v, want 2.5", got)
	}
	if got := MaxPersistence(nil); got != 0 {
		t.Errorf("MaxPersistence(nil) = %v, want 0", got)
	}
}

func TestImageFarTail(t *testing.T) {
	// Pixels 8 to 9 tau away on either side hold ~1e-16 of the mass,
	// below the rounding of a CDF near 1; they must still match the
	// quadrature to a relative 1e-6.
	points := []pt{{Birth: 0, Death: 1}}
	o := Options{Rows: 1, Tau: 1, Weighting: Constant}
	for _, g := range []Grid{
		{MinX: 8, MinY: 0.5, Pixel: 0.5, Rows: 1, Cols: 2},
		{MinX: -9, MinY: 0.5, Pixel: 0.5, Rows: 1, Cols: 2},
		{MinX: -0.5, MinY: -8, Pixel: 0.5, Rows: 1, Cols: 2},
	} {
		img, err := g.Image(points, o)
		if err != nil {
			t.Fatal(err)
		}
		for c, got := range img {
			want := quadrature(g, 0, c, points, o)
			if !(want > 0) || math.Abs(got-want) > 1e-6*want {
				t.Errorf("grid %+v pixel %d = %g, quadrature %g", g, c, got, want)
			}
		}
	}
}
