package pdkernel

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"wkpi-web/core/persistence"
	"wkpi-web/core/testenv"
)

// oracleDiagrams returns seeded random diagrams of 1 to 12 points (some
// with birth > death, as Rel1 and Ext1 points) and hand-made ones: a
// repeated point, a point on the diagonal, integer coordinates. GUDHI
// cannot take empty diagrams (sklearn refuses empty arrays); those are
// checked by hand in pdkernel_test.go.
func oracleDiagrams() [][]persistence.Point {
	rng := rand.New(rand.NewPCG(7, 11))
	var ds [][]persistence.Point
	for range 9 {
		d := make([]persistence.Point, 1+rng.IntN(12))
		for k := range d {
			b := rng.Float64() * 2
			pers := rng.ExpFloat64() * 0.4
			if rng.IntN(3) == 0 {
				pers = -pers
			}
			d[k] = persistence.Point{Birth: b, Death: b + pers}
		}
		ds = append(ds, d)
	}
	return append(ds,
		[]persistence.Point{{Birth: 0, Death: 1}, {Birth: 0, Death: 1}, {Birth: 0.5, Death: 0.5}},
		[]persistence.Point{{Birth: 1, Death: 3}},
		[]persistence.Point{{Birth: 2, Death: 1}, {Birth: 0, Death: 2}, {Birth: 1, Death: 1.5}},
	)
}

type gudhiParams struct {
	Directions  int     `json:"directions"`
	SWBandwidth float64 `json:"swBandwidth"`
	Rho         float64 `json:"rho"`
	C           float64 `json:"c"`
	P           float64 `json:"p"`
	Bandwidth   float64 `json:"bandwidth"`
}

type gudhiMatrices struct {
	SW       [][]float64 `json:"sw"`
	SWKernel [][]float64 `json:"swKernel"`
	PWGK     [][]float64 `json:"pwgk"`
	PF       [][]float64 `json:"pf"`
}

func gudhiOracle(t *testing.T, py string, rows, cols [][]persistence.Point, p gudhiParams) gudhiMatrices {
	t.Helper()
	enc := func(ds [][]persistence.Point) [][][2]float64 {
		out := make([][][2]float64, len(ds))
		for i, d := range ds {
			out[i] = [][2]float64{}
			for _, pt := range d {
				out[i] = append(out[i], [2]float64{pt.Birth, pt.Death})
			}
		}
		return out
	}
	in := struct {
		gudhiParams
		Rows [][][2]float64 `json:"rows"`
		Cols [][][2]float64 `json:"cols"`
	}{gudhiParams: p, Rows: enc(rows)}
	if cols != nil {
		in.Cols = enc(cols)
	}
	var out gudhiMatrices
	testenv.RunJSON(t, py, []string{"testdata/gudhi_kernels.py"}, in, &out)
	return out
}

func compareMatrix(t *testing.T, name string, got, want [][]float64, scale, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, GUDHI %d", name, len(got), len(want))
	}
	worst := 0.0
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("%s row %d: %d columns, GUDHI %d", name, i, len(got[i]), len(want[i]))
		}
		for j := range want[i] {
			d := math.Abs(got[i][j]*scale - want[i][j])
			worst = max(worst, d)
			if !(d <= tol) {
				t.Errorf("%s[%d][%d] = %.12g, GUDHI %.12g", name, i, j, got[i][j]*scale, want[i][j])
			}
		}
	}
	t.Logf("%s: largest difference from GUDHI %.3g", name, worst)
}

// TestGUDHI checks every matrix against gudhi.representations 3.7.1 on the
// same diagrams, all pairs and cross, at two parameter settings; PWGK and
// PF both by their value table and by exponentials.
func TestGUDHI(t *testing.T) {
	py := testenv.Python(t, "gudhi.representations", "sklearn")
	ds := oracleDiagrams()
	if newFisher(1, maxTableValues, ds).t.e == nil {
		t.Fatal("the oracle diagrams do not take the table path")
	}
	compareGUDHI(t, py, ds)
}

func compareGUDHI(t *testing.T, py string, ds [][]persistence.Point) {
	ctx := context.Background()
	rows, cols := ds[:4], ds[4:]
	for _, p := range []gudhiParams{
		{Directions: 10, SWBandwidth: 2, Rho: 0.3, C: 1, P: 1, Bandwidth: 0.5},
		{Directions: 7, SWBandwidth: 0.5, Rho: 1.5, C: 2.5, P: 5, Bandwidth: 0.05},
	} {
		pw := PWGKParams{Rho: p.Rho, C: p.C, P: p.P}
		// GUDHI's PWGK Gaussian carries 1/(sqrt(2 pi) rho).
		pwScale := 1 / (math.Sqrt(2*math.Pi) * p.Rho)
		for _, c := range []struct {
			name       string
			rows, cols [][]persistence.Point
		}{{"all pairs", ds, nil}, {"cross", rows, cols}} {
			want := gudhiOracle(t, py, c.rows, c.cols, p)
			var sw, pwgk, pf [][]float64
			var err error
			if c.cols == nil {
				sw, err = SlicedWasserstein(ctx, ds, p.Directions, nil)
				if err == nil {
					pwgk, err = PWGKLinear(ctx, ds, pw, nil)
				}
				if err == nil {
					pf, err = PersistenceFisher(ctx, ds, p.Bandwidth, nil)
				}
			} else {
				sw, err = SlicedWassersteinCross(ctx, c.rows, c.cols, p.Directions, nil)
				if err == nil {
					pwgk, err = PWGKLinearCross(ctx, c.rows, c.cols, pw, nil)
				}
				if err == nil {
					pf, err = PersistenceFisherCross(ctx, c.rows, c.cols, p.Bandwidth, nil)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			compareMatrix(t, c.name+" SW", sw, want.SW, 1, 1e-9)
			compareMatrix(t, c.name+" SW kernel", Exp(sw, 1/p.SWBandwidth), want.SWKernel, 1, 1e-9)
			compareMatrix(t, c.name+" PWGK", pwgk, want.PWGK, pwScale, 1e-9)
			pwExp, err := pwgkMatrix(ctx, c.rows, c.cols, pw, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			compareMatrix(t, c.name+" PWGK by exponentials", pwExp, want.PWGK, pwScale, 1e-9)
			compareMatrix(t, c.name+" PF", pf, want.PF, 1, 1e-9)
			pfExp, err := persistenceFisher(ctx, c.rows, c.cols, p.Bandwidth, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			compareMatrix(t, c.name+" PF by exponentials", pfExp, want.PF, 1, 1e-9)
		}
	}
}
