package eval

import (
	"context"
	"math"
	"testing"

	"wkpi-web/core/kernel"
)

// TestNystromClosedForm: with every training graph a landmark, C W^+ C^T
// is the exact Gram matrix (K K^+ K = K for a positive semi-definite K)
// and C_test W^+ C^T the exact cross matrix, up to rounding; with fewer
// landmarks the rows of the landmarks are still exact (W W^+ C^T = C^T),
// and the rest is an approximation that differs.
func TestNystromClosedForm(t *testing.T) {
	_, w := toyWKPI(t)
	w.MaxTableBytes = 0 // direct kernels: the oracle below is kernel.Family
	cfg := toyConfig()
	init, err := w.Initial(indices(len(w.Labels)), cfg.Learn)
	if err != nil {
		t.Fatal(err)
	}
	var train, test []int
	for i := range w.Labels {
		if i%4 == 1 {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	p, err := w.pairsFor(context.Background(), cfg.Sigma, cfg.Variant, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws := w.weights(cfg, []kernel.Mixture{init}, nil)
	exact, err := w.kernelSet(context.Background(), p, cfg, []kernel.Mixture{init}, nil, train, test)
	if err != nil {
		t.Fatal(err)
	}
	scale := 0.0
	for i := range train {
		scale = max(scale, exact.gram[0][i][i])
	}
	approx, err := w.nystromSet(context.Background(), p, ws, len(train), 1, train, test)
	if err != nil {
		t.Fatal(err)
	}
	for i := range train {
		for j := range train {
			if d := math.Abs(approx.gram[0][i][j] - exact.gram[0][i][j]); d > 1e-9*scale {
				t.Fatalf("k = n: G[%d][%d] = %v, exact %v", i, j, approx.gram[0][i][j], exact.gram[0][i][j])
			}
		}
		for e := range test {
			if d := math.Abs(approx.cross[0][e][i] - exact.cross[0][e][i]); d > 1e-9*scale {
				t.Fatalf("k = n: cross[%d][%d] = %v, exact %v", e, i, approx.cross[0][e][i], exact.cross[0][e][i])
			}
		}
	}
	// Five landmarks, the same draw as nystromSet's.
	few, err := w.nystromSet(context.Background(), p, ws, 5, 1, train, test)
	if err != nil {
		t.Fatal(err)
	}
	again, err := w.nystromSet(context.Background(), p, ws, 5, 1, train, test)
	if err != nil {
		t.Fatal(err)
	}
	var landmarks, off int
	for i := range train {
		exactRow := true
		for j := range train {
			if math.Abs(few.gram[0][i][j]-exact.gram[0][i][j]) > 1e-9*scale {
				exactRow = false
			}
			if few.gram[0][i][j] != again.gram[0][i][j] {
				t.Fatalf("two draws with one seed differ at G[%d][%d]", i, j)
			}
		}
		if exactRow {
			landmarks++
		} else {
			off++
		}
	}
	if landmarks < 5 || off == 0 {
		t.Errorf("5 landmarks: %d exact rows (want at least 5), %d approximate rows (want some)", landmarks, off)
	}
}
