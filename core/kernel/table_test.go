package kernel

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestTableMatchesKernel: the table's Gram and cross matrices of any
// subset equal the direct computation (Kernel.Gram / Kernel.Cross on the
// subset's images) for both variants, within float32 storage error.
func TestTableMatchesKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	images, _ := blobImages(rng, 30, 8, 9)
	images[4] = make([]float64, len(images[0])) // an empty image
	copy(images[7], images[6])                  // a duplicate
	w := make([]float64, len(images[0]))
	for s := range w {
		w[s] = rng.Float64()
	}
	sub := []int{9, 2, 4, 7, 6, 20, 29}
	others := []int{0, 6, 13}
	for _, v := range []Variant{WKPI, Alt} {
		for _, sigma := range []float64{0.05, 0.5} {
			tab, err := NewTable(context.Background(), images, sigma, v, 1<<30, nil)
			if err != nil {
				t.Fatal(err)
			}
			k := Kernel{Weights: w, Sigma: sigma, Variant: v}
			pick := func(idx []int) [][]float64 {
				out := make([][]float64, len(idx))
				for i, s := range idx {
					out[i] = images[s]
				}
				return out
			}
			want, _ := k.Gram(context.Background(), pick(sub), nil)
			got, err := tab.Gram(context.Background(), w, sub)
			if err != nil {
				t.Fatal(err)
			}
			compare(t, "gram", got, want)
			wantX, _ := k.Cross(context.Background(), pick(others), pick(sub), nil)
			gotX, err := tab.Cross(context.Background(), w, others, sub)
			if err != nil {
				t.Fatal(err)
			}
			compare(t, "cross", gotX, wantX)
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
	if _, err := NewTable(context.Background(), images, 0.1, WKPI, 10, nil); !errors.Is(err, ErrTableTooLarge) {
		t.Errorf("tiny budget: %v, want ErrTableTooLarge", err)
	}
	if _, err := NewTable(context.Background(), nil, 0.1, WKPI, 1<<20, nil); err == nil {
		t.Error("no images: no error")
	}
	tab, err := NewTable(context.Background(), images, 0.1, WKPI, 1<<20, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tab.Gram(context.Background(), make([]float64, 3), []int{0, 1}); err == nil {
		t.Error("wrong weight count: no error")
	}
	if _, err := tab.Cross(context.Background(), make([]float64, 16), []int{5}, []int{0}); err == nil {
		t.Error("index out of range: no error")
	}
}
