package kernel

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"wkpi-web/core/pimage"
)

// TestTableMatchesKernel: the table's Gram and cross matrices of any
// subset, for one to three weight vectors at once, equal the direct
// computation (Kernel.Gram / Kernel.Cross on the subset's images) for
// both variants, within float32 storage error, and each matrix is the
// same whichever vectors share its pass.
func TestTableMatchesKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	images, _ := blobImages(rng, 30, 8, 9)
	images[4] = make([]float64, len(images[0])) // an empty image
	copy(images[7], images[6])                  // a duplicate
	ws := make([][]float64, 3)
	for k := range ws {
		ws[k] = make([]float64, len(images[0]))
		for s := range ws[k] {
			ws[k][s] = rng.Float64()
		}
	}
	sub := []int{9, 2, 4, 7, 6, 20, 29}
	others := []int{0, 6, 13}
	pick := func(idx []int) [][]float64 {
		out := make([][]float64, len(idx))
		for i, s := range idx {
			out[i] = images[s]
		}
		return out
	}
	for _, v := range []Variant{WKPI, Alt} {
		for _, sigma := range []float64{0.05, 0.5} {
			tab, err := NewTable(context.Background(), pimage.SparseAll(images), sigma, v, 1<<30, nil)
			if err != nil {
				t.Fatal(err)
			}
			grams, err := tab.Grams(context.Background(), ws, sub)
			if err != nil {
				t.Fatal(err)
			}
			crosses, err := tab.Crosses(context.Background(), ws, others, sub)
			if err != nil {
				t.Fatal(err)
			}
			for k, w := range ws {
				kern := Kernel{Weights: w, Sigma: sigma, Variant: v}
				want, _ := kern.Gram(context.Background(), pimage.SparseAll(pick(sub)), nil)
				compare(t, "gram", grams[k], want)
				wantX, _ := kern.Cross(context.Background(), pimage.SparseAll(pick(others)), pimage.SparseAll(pick(sub)), nil)
				compare(t, "cross", crosses[k], wantX)
				// Alone in its pass: the same bits.
				alone, err := tab.Grams(context.Background(), ws[k:k+1], sub)
				if err != nil {
					t.Fatal(err)
				}
				aloneX, err := tab.Crosses(context.Background(), ws[k:k+1], others, sub)
				if err != nil {
					t.Fatal(err)
				}
				same(t, "gram", alone[0], grams[k])
				same(t, "cross", aloneX[0], crosses[k])
			}
		}
	}
}

func same(t *testing.T, what string, got, want [][]float64) {
	t.Helper()
	for i := range want {
		for j := range want[i] {
			if math.Float64bits(got[i][j]) != math.Float64bits(want[i][j]) {
				t.Fatalf("%s[%d][%d] = %v alone in its pass, %v beside other weights", what, i, j, got[i][j], want[i][j])
			}
		}
	}
}

// TestTableEntries: every pair's entries, found from the union of the
// two support bitmaps, are those of a scan of every pixel with
// pixelFunc, bit for bit: the same pixels in the same order with the
// same float32 terms (images of 100 pixels, a partial last word, with
// equal non-zero pixels and empty images).
func TestTableEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	images := make([][]float64, 12)
	for i := range images {
		images[i] = make([]float64, 100)
		if i == 3 {
			continue // empty
		}
		for s := range images[i] {
			if rng.IntN(4) == 0 {
				images[i][s] = float64(rng.IntN(3)) / 2 // often equal, sometimes zero
			}
		}
	}
	for _, v := range []Variant{WKPI, Alt} {
		tab, err := NewTable(context.Background(), pimage.SparseAll(images), 0.3, v, 1<<30, nil)
		if err != nil {
			t.Fatal(err)
		}
		f := Kernel{Sigma: 0.3, Variant: v}.pixelFunc()
		for i := range images {
			for j := i + 1; j < len(images); j++ {
				var pix []uint16
				var val []float32
				for s := range images[i] {
					if d := images[i][s] - images[j][s]; d != 0 {
						pix, val = append(pix, uint16(s)), append(val, float32(f(d)))
					}
				}
				q := tab.pair(i, j)
				gotPix, gotVal := tab.pix[tab.off[q]:tab.off[q+1]], tab.val[tab.off[q]:tab.off[q+1]]
				if len(gotPix) != len(pix) {
					t.Fatalf("variant %d, pair (%d, %d): %d entries, a scan finds %d", v, i, j, len(gotPix), len(pix))
				}
				for e := range pix {
					if gotPix[e] != pix[e] || math.Float32bits(gotVal[e]) != math.Float32bits(val[e]) {
						t.Fatalf("variant %d, pair (%d, %d), entry %d: pixel %d term %v, a scan gives %d %v", v, i, j, e, gotPix[e], gotVal[e], pix[e], val[e])
					}
				}
			}
		}
	}
}

func compare(t *testing.T, what string, got, want [][]float64) {
	t.Helper()
	for i := range want {
		for j := range want[i] {
			if d := math.Abs(got[i][j] - want[i][j]); d > 1e-6*math.Max(1, math.Abs(want[i][j])) {
				t.Fatalf("%s[%d][%d] = %.12g, direct %.12g", what, i, j, got[i][j], want[i][j])
			}
		}
	}
}

func TestTableErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	images, _ := blobImages(rng, 5, 4, 4)
	if _, err := NewTable(context.Background(), pimage.SparseAll(images), 0.1, WKPI, 10, nil); !errors.Is(err, ErrTableTooLarge) {
		t.Errorf("tiny budget: %v, want ErrTableTooLarge", err)
	}
	if _, err := NewTable(context.Background(), nil, 0.1, WKPI, 1<<20, nil); err == nil {
		t.Error("no images: no error")
	}
	tab, err := NewTable(context.Background(), pimage.SparseAll(images), 0.1, WKPI, 1<<20, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tab.Grams(context.Background(), [][]float64{make([]float64, 3)}, []int{0, 1}); err == nil {
		t.Error("wrong weight count: no error")
	}
	if _, err := tab.Crosses(context.Background(), [][]float64{make([]float64, 16)}, []int{5}, []int{0}); err == nil {
		t.Error("index out of range: no error")
	}
}
