package kernel

import (
	"context"
	"math/rand/v2"
	"testing"

	"wkpi-web/core/pimage"
	"wkpi-web/core/progress"
)

// TestSplitsMatchFamily: one Splits pass over three splits of the same
// images (folds of a CV, each with two weight vectors; one split leaves
// images out) gives every cross entry the plain loop over all pixels
// gives (to 1e-12) and the very bits of the per-split Family.Cross, and
// every Gram entry the float32 rounding of Family.Gram's, which a CV
// computed before; a second pass into the same memory, with other
// weights, too.
func TestSplitsMatchFamily(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	images, centres := blobImages(rng, 30, 10, 8)
	images = append(images, make([]float64, len(centres))) // all-zero image
	weights := func() [][]float64 {
		var ws [][]float64
		for range 2 {
			w := make([]float64, len(centres))
			for s := range w {
				w[s] = rng.Float64()
			}
			ws = append(ws, w)
		}
		return ws
	}
	fold := make([]int, len(images))
	for i := range fold {
		fold[i] = rng.IntN(3)
	}
	var out []SplitKernels
	for _, tc := range []struct {
		v     Variant
		sigma float64
	}{{WKPI, 0.05}, {WKPI, 1}, {Alt, 0.3}} {
		var splits []Split
		for f := range 3 {
			s := Split{Weights: weights()}
			for i := range images {
				switch {
				case f == 2 && i%5 == 0: // in neither set
				case fold[i] == f:
					s.Test = append(s.Test, i)
				default:
					s.Train = append(s.Train, i)
				}
			}
			splits = append(splits, s)
		}
		var err error
		out, err = Splits(context.Background(), pimage.SparseAll(images), tc.sigma, tc.v, splits, out, nil)
		if err != nil {
			t.Fatal(err)
		}
		for q, s := range splits {
			pick := func(idx []int) (im [][]float64) {
				for _, i := range idx {
					im = append(im, images[i])
				}
				return im
			}
			fam := Family{Weights: s.Weights, Sigma: tc.sigma, Variant: tc.v}
			g, err := fam.Gram(context.Background(), pimage.SparseAll(pick(s.Train)), nil)
			if err != nil {
				t.Fatal(err)
			}
			c, err := fam.Cross(context.Background(), pimage.SparseAll(pick(s.Test)), pimage.SparseAll(pick(s.Train)), nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, w := range s.Weights {
				full := Full(out[q].Gram[k], nil)
				for a, i := range s.Train {
					for b, j := range s.Train {
						want := plainKernel(tc.v, w, images[i], images[j], tc.sigma)
						// Gram entries are kept as float32: the float32 of
						// Family's, within float32 rounding of the plain loop.
						if !close(full[a][b], want, 1e-7) || full[a][b] != float64(float32(g[k][a][b])) {
							t.Fatalf("%v sigma %g split %d kernel %d: G[%d][%d] = %v, plain loop %v, Family %v", tc.v, tc.sigma, q, k, a, b, full[a][b], want, g[k][a][b])
						}
					}
					for e, j := range s.Test {
						want := plainKernel(tc.v, w, images[j], images[i], tc.sigma)
						got := out[q].Cross[k][e][a]
						if !close(got, want, 1e-12) || got != c[k][e][a] {
							t.Fatalf("%v sigma %g split %d kernel %d: cross[%d][%d] = %v, plain loop %v, Family %v", tc.v, tc.sigma, q, k, e, a, got, want, c[k][e][a])
						}
					}
				}
			}
		}
	}
}

func TestSplitsErrors(t *testing.T) {
	images := [][]float64{{1, 0}, {0, 1}, {1, 1}}
	w := [][]float64{{1, 1}}
	for name, s := range map[string]Split{
		"unordered":   {Weights: w, Train: []int{1, 0}},
		"repeated":    {Weights: w, Train: []int{0, 0}},
		"outside":     {Weights: w, Train: []int{0, 3}},
		"overlap":     {Weights: w, Train: []int{0, 1}, Test: []int{1}},
		"weights":     {Weights: [][]float64{{1}}, Train: []int{0, 1}},
		"no weights":  {Train: []int{0, 1}},
		"test twice":  {Weights: w, Train: []int{0}, Test: []int{2, 2}},
		"test beyond": {Weights: w, Train: []int{0}, Test: []int{-1}},
	} {
		if _, err := Splits(context.Background(), pimage.SparseAll(images), 0.1, WKPI, []Split{s}, nil, nil); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestPassesCountPairs: a pass over the pairs of n images (SplitsVisit,
// the pair table's two, Family.Gram) reports pairs done, so that the
// count grows with the work whatever the rows' order; it never goes
// back and ends at its total, n(n-1)/2 a pass.
func TestPassesCountPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	images, centres := blobImages(rng, 23, 10, 8)
	n := len(images)
	w := make([]float64, len(centres))
	for s := range w {
		w[s] = 1
	}
	for _, tc := range []struct {
		stage string
		total int
		run   func(progress.Func) error
	}{
		{"gram", n * (n - 1) / 2, func(p progress.Func) error {
			_, err := SplitsVisit(context.Background(), pimage.SparseAll(images), 0.1, WKPI, []Split{{Weights: [][]float64{w}, Train: []int{0, 1, 2}, Test: []int{3}}}, nil, nil, p)
			return err
		}},
		{"pairs", n * (n - 1), func(p progress.Func) error {
			_, err := NewTable(context.Background(), pimage.SparseAll(images), 0.1, WKPI, 1<<30, p)
			return err
		}},
		{"gram", n * (n - 1) / 2, func(p progress.Func) error {
			_, err := Family{Weights: [][]float64{w}, Sigma: 0.1}.Gram(context.Background(), pimage.SparseAll(images), p)
			return err
		}},
	} {
		last, reports := 0, 0
		err := tc.run(func(stage string, done, total int) {
			reports++
			if stage != tc.stage || total != tc.total || done < last {
				t.Errorf("%s: report %s %d/%d after %d", tc.stage, stage, done, total, last)
			}
			last = done
		})
		if err != nil {
			t.Fatal(err)
		}
		if last != tc.total || reports < n {
			t.Errorf("%s: %d reports ending at %d, want at least %d ending at %d", tc.stage, reports, last, n, tc.total)
		}
	}
}
