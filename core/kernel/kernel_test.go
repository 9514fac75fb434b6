package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"wkpi-web/core/pimage"
	"wkpi-web/core/testenv"
)

// blobImages returns n images on a rows x cols grid over [0,1]^2, each a sum
// of a few Gaussian blobs truncated to exact zero beyond 2.5 standard
// deviations, as persistence images are far from their diagram points.
func blobImages(rng *rand.Rand, n, rows, cols int) (images [][]float64, centres [][2]float64) {
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			centres = append(centres, [2]float64{(float64(c) + 0.5) / float64(cols), (float64(r) + 0.5) / float64(rows)})
		}
	}
	const sd = 0.06
	for i := 0; i < n; i++ {
		img := make([]float64, len(centres))
		for b := 0; b < 1+rng.IntN(4); b++ {
			bx, by, h := rng.Float64(), rng.Float64(), 0.5+rng.Float64()
			for s, z := range centres {
				d2 := (z[0]-bx)*(z[0]-bx) + (z[1]-by)*(z[1]-by)
				if d2 < (2.5*sd)*(2.5*sd) {
					img[s] += h * math.Exp(-d2/(2*sd*sd))
				}
			}
		}
		images = append(images, img)
	}
	return images, centres
}

// plainKernel is the oracle: the kernel formula written out over all pixels.
func plainKernel(v Variant, w, a, b []float64, sigma float64) float64 {
	var acc float64
	for s := range a {
		d := a[s] - b[s]
		if v == Alt {
			acc += w[s] * d * d
		} else {
			acc += w[s] * math.Exp(-d*d/(2*sigma*sigma))
		}
	}
	if v == Alt {
		return math.Exp(-acc / (2 * sigma * sigma))
	}
	return acc
}

func close(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func TestMixture(t *testing.T) {
	m := Mixture{X: []float64{0, 1}, Y: []float64{0, 2}, Sigma: []float64{1, 2}, W: []float64{1, 3}}
	// Hand-worked: at (1,0), component 0: exp(-1/1); component 1: exp(-(0+4)/4).
	want := math.Exp(-1) + 3*math.Exp(-1)
	if got := m.At(1, 0); !close(got, want, 1e-15) {
		t.Errorf("At(1,0) = %v, want %v", got, want)
	}
	var back Mixture
	if data, err := json.Marshal(m); err != nil || json.Unmarshal(data, &back) != nil || back.At(1, 0) != m.At(1, 0) {
		t.Errorf("JSON round trip: %+v", back)
	}
	pw := m.PixelWeights([][2]float64{{1, 0}, {0, 0}})
	if !close(pw[0], want, 1e-15) || !close(pw[1], 1+3*math.Exp(-5.0/4), 1e-15) {
		t.Errorf("PixelWeights = %v", pw)
	}
	for _, tc := range []struct {
		name string
		m    Mixture
		ok   bool
	}{
		{"valid", m, true},
		{"empty", Mixture{}, false},
		{"lengths", Mixture{X: []float64{0}, Y: []float64{0, 1}, Sigma: []float64{1}, W: []float64{1}}, false},
		{"zero sigma", Mixture{X: []float64{0}, Y: []float64{0}, Sigma: []float64{0}, W: []float64{1}}, false},
		{"negative weight", Mixture{X: []float64{0}, Y: []float64{0}, Sigma: []float64{1}, W: []float64{-1}}, false},
		{"nan", Mixture{X: []float64{math.NaN()}, Y: []float64{0}, Sigma: []float64{1}, W: []float64{1}}, false},
		{"zero weight", Mixture{X: []float64{0}, Y: []float64{0}, Sigma: []float64{1}, W: []float64{0}}, true},
	} {
		if err := tc.m.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: Validate() = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

func TestGramMatchesPlainLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	images, centres := blobImages(rng, 25, 12, 10)
	images = append(images, make([]float64, len(centres)))        // all-zero image
	images = append(images, append([]float64(nil), images[3]...)) // duplicate
	dense := make([]float64, len(centres))
	for s := range dense {
		dense[s] = rng.Float64()
	}
	images = append(images, dense)
	m := Mixture{X: []float64{0.2, 0.7}, Y: []float64{0.3, 0.8}, Sigma: []float64{0.3, 0.5}, W: []float64{1, 2}}
	w := m.PixelWeights(centres)
	for _, tc := range []struct {
		name  string
		v     Variant
		sigma float64
	}{{"wkpi", WKPI, 0.1}, {"wkpi wide", WKPI, 2}, {"alt", Alt, 0.5}} {
		k := Kernel{Weights: w, Sigma: tc.sigma, Variant: tc.v}
		g, err := k.Gram(context.Background(), pimage.SparseAll(images), nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range images {
			for j := range images {
				want := plainKernel(tc.v, w, images[i], images[j], tc.sigma)
				if !close(g[i][j], want, 1e-12) {
					t.Fatalf("%s: G[%d][%d] = %v, plain loop %v", tc.name, i, j, g[i][j], want)
				}
			}
		}
		// Rows split over 3 workers give the same matrix, and a family
		// computes a second weight vector's matrix alongside in the same
		// pass: it must equal the plain loop with those weights.
		w2 := make([]float64, len(w))
		for s := range w2 {
			w2[s] = w[len(w)-1-s] + 0.1
		}
		fam := Family{Weights: [][]float64{w, w2}, Sigma: tc.sigma, Variant: tc.v}
		b := BalancedSplit(len(images), 3)
		stacked := make([][][]float64, 2)
		for p := 0; p < 3; p++ {
			rows, err := fam.GramRows(context.Background(), pimage.SparseAll(images), b[p], b[p+1], nil)
			if err != nil {
				t.Fatal(err)
			}
			for f := range stacked {
				stacked[f] = append(stacked[f], rows[f]...)
			}
		}
		for f := range stacked {
			Symmetrize(stacked[f])
		}
		famCross, err := fam.Cross(context.Background(), pimage.SparseAll(images[:4]), pimage.SparseAll(images[2:]), nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range g {
			for j := range g {
				if stacked[0][i][j] != g[i][j] {
					t.Fatalf("%s: split Gram differs at %d,%d", tc.name, i, j)
				}
				if want := plainKernel(tc.v, w2, images[i], images[j], tc.sigma); !close(stacked[1][i][j], want, 1e-12) {
					t.Fatalf("%s: second kernel of the family G[%d][%d] = %v, plain loop %v", tc.name, i, j, stacked[1][i][j], want)
				}
				if i < 4 && j >= 2 {
					if want := plainKernel(tc.v, w2, images[i], images[j], tc.sigma); !close(famCross[1][i][j-2], want, 1e-12) {
						t.Fatalf("%s: family cross [%d][%d] = %v, plain loop %v", tc.name, i, j-2, famCross[1][i][j-2], want)
					}
				}
			}
		}
		// Cross on a subset equals the plain loop too.
		c, err := k.Cross(context.Background(), pimage.SparseAll(images[:4]), pimage.SparseAll(images[2:]), nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range c {
			for j := range c[i] {
				want := plainKernel(tc.v, w, images[i], images[2+j], tc.sigma)
				if !close(c[i][j], want, 1e-12) {
					t.Fatalf("%s: Cross[%d][%d] = %v, plain loop %v", tc.name, i, j, c[i][j], want)
				}
			}
		}
		// Columns prepared once give Cross's values, bit for bit, row by
		// row, and each column's divergence from the zero image.
		cols, err := k.Columns(images[2:])
		if err != nil {
			t.Fatal(err)
		}
		for i := range c {
			got, err := cols.Row(images[i])
			if err != nil {
				t.Fatal(err)
			}
			for j, x := range got {
				if math.Float64bits(x) != math.Float64bits(c[i][j]) {
					t.Fatalf("%s: Row %d column %d = %v, Cross %v", tc.name, i, j, x, c[i][j])
				}
			}
		}
		// RowParts: the same divergences as Row, and each column's
		// change from its divergence from zero split by pixel as the
		// plain loop splits it.
		zero := make([]float64, len(w))
		f := k.pixelFunc()
		for i := range c {
			rp, err := cols.RowParts(images[i])
			if err != nil {
				t.Fatal(err)
			}
			for j, div := range rp.Div {
				if got, want := k.fromDivergence(div, sum(w)), c[i][j]; math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%s: RowParts %d column %d gives %v, Row %v", tc.name, i, j, got, want)
				}
			}
			if !close(rp.Tot, k.Divergence(zero, images[i]), 1e-12) {
				t.Fatalf("%s: image %d: Tot %v, plain loop %v", tc.name, i, rp.Tot, k.Divergence(zero, images[i]))
			}
			for j, col := range images[2:] {
				// Less: the column's divergence from zero and the image's,
				// less their divergence from each other.
				if want := cols.FromZero(j) + rp.Tot - rp.Div[j]; rp.Div[j] > 0 && !close(rp.Less[j], want, 1e-12) {
					t.Fatalf("%s: image %d column %d: Less %v, want %v", tc.name, i, j, rp.Less[j], want)
				}
				x := rp.Start[0]
				for e, s := range rp.Pix {
					part := rp.Own[e]
					for ; x < rp.Start[e+1]; x++ {
						if rp.Col[x] == int32(j) {
							part -= rp.Shared[x]
						}
					}
					want := w[s] * (f(images[i][s]-col[s]) - f(col[s]))
					if !close(part, want, 1e-12) {
						t.Fatalf("%s: image %d column %d pixel %d: part %v, plain %v", tc.name, i, j, s, part, want)
					}
				}
				if len(rp.Pix) != countNonZero(images[i]) {
					t.Fatalf("%s: image %d: %d pixels in RowParts, %d non-zero", tc.name, i, len(rp.Pix), countNonZero(images[i]))
				}
			}
		}
		for j := range images[2:] {
			if got, want := cols.FromZero(j), k.Divergence(zero, images[2+j]); !close(got, want, 1e-12) {
				t.Fatalf("%s: column %d from zero %v, plain loop %v", tc.name, j, got, want)
			}
		}
		// D^2 = k(a,a) + k(b,b) - 2k(a,b).
		for _, p := range [][2]int{{0, 1}, {2, 25}, {4, 27}} {
			a, bb := images[p[0]], images[p[1]]
			want := plainKernel(tc.v, w, a, a, tc.sigma) + plainKernel(tc.v, w, bb, bb, tc.sigma) - 2*plainKernel(tc.v, w, a, bb, tc.sigma)
			if got := k.Distance2(a, bb); !close(got, want, 1e-10) {
				t.Errorf("%s: Distance2%v = %v, want %v", tc.name, p, got, want)
			}
		}
	}
}

func TestBalancedSplit(t *testing.T) {
	for _, tc := range []struct{ n, parts int }{{10, 3}, {188, 4}, {1, 2}, {0, 3}, {5, 1}} {
		b := BalancedSplit(tc.n, tc.parts)
		if len(b) != tc.parts+1 || b[0] != 0 || b[tc.parts] != tc.n {
			t.Fatalf("BalancedSplit(%d,%d) = %v", tc.n, tc.parts, b)
		}
		pairs := make([]int, tc.parts)
		for p := 0; p < tc.parts; p++ {
			if b[p] > b[p+1] {
				t.Fatalf("BalancedSplit(%d,%d) = %v not monotone", tc.n, tc.parts, b)
			}
			for i := b[p]; i < b[p+1]; i++ {
				pairs[p] += tc.n - 1 - i
			}
		}
		// Each part is within one row of the ideal share.
		for _, c := range pairs {
			if ideal := tc.n * (tc.n - 1) / 2 / tc.parts; math.Abs(float64(c-ideal)) > float64(tc.n) {
				t.Errorf("BalancedSplit(%d,%d) = %v: part sizes %v", tc.n, tc.parts, b, pairs)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	img := [][]float64{{1, 0}, {0, 1}}
	for _, tc := range []struct {
		name string
		k    Kernel
		imgs [][]float64
	}{
		{"sigma", Kernel{Weights: []float64{1, 1}, Sigma: 0}, img},
		{"weights", Kernel{Weights: []float64{1}, Sigma: 1}, img},
		{"ragged", Kernel{Weights: []float64{1, 1}, Sigma: 1}, [][]float64{{1, 0}, {1}}},
		{"variant", Kernel{Weights: []float64{1, 1}, Sigma: 1, Variant: 7}, img},
	} {
		if _, err := tc.k.Gram(context.Background(), pimage.SparseAll(tc.imgs), nil); err == nil {
			t.Errorf("%s: Gram accepted bad input", tc.name)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	k := Kernel{Weights: []float64{1, 1}, Sigma: 1}
	if _, err := k.Gram(ctx, pimage.SparseAll(img), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Gram on cancelled context: %v", err)
	}
}

// TestAuthorsConvention checks the sigma mapping of the package doc against
// a NumPy transcription of the authors' Gram formula,
// sum_s w_s exp(-(I_s - J_s)^2 / sigma'^2) with sigma' = sqrt(2) sigma.
func TestAuthorsConvention(t *testing.T) {
	py := testenv.Python(t, "numpy")
	rng := rand.New(rand.NewPCG(3, 4))
	images, centres := blobImages(rng, 8, 6, 5)
	w := make([]float64, len(centres))
	for s := range w {
		w[s] = rng.Float64()
	}
	const sigma = 0.3
	in := map[string]any{"images": images, "w": w, "sigmaTheirs": math.Sqrt2 * sigma}
	script := `
import json, sys, numpy as np
d = json.load(sys.stdin)
P = np.array(d["images"]); w = np.array(d["w"]); s = d["sigmaTheirs"]
G = np.zeros((len(P), len(P)))
for i in range(P.shape[1]):
    col = np.tile(P[:, i], (len(P), 1))
    G += w[i] * np.exp(-(col.T - col) ** 2 / s ** 2)
json.dump(G.tolist(), sys.stdout)
`
	var want [][]float64
	testenv.RunJSON(t, py, []string{"-c", script}, in, &want)
	g, err := Kernel{Weights: w, Sigma: sigma}.Gram(context.Background(), pimage.SparseAll(images), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range g {
		for j := range g {
			if !close(g[i][j], want[i][j], 1e-12) {
				t.Fatalf("G[%d][%d] = %v, authors' formula %v", i, j, g[i][j], want[i][j])
			}
		}
	}
}

func BenchmarkGram(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	// 188 graphs (MUTAG), two channels of 40 x 40 = 3200 pixels.
	images, centres := blobImages(rng, 188, 80, 40)
	m := Mixture{X: []float64{0.3}, Y: []float64{0.3}, Sigma: []float64{0.5}, W: []float64{1}}
	k := Kernel{Weights: m.PixelWeights(centres), Sigma: 0.1}
	for b.Loop() {
		if _, err := k.Gram(context.Background(), pimage.SparseAll(images), nil); err != nil {
			b.Fatal(err)
		}
	}
}

func countNonZero(img []float64) int {
	n := 0
	for _, x := range img {
		if x != 0 {
			n++
		}
	}
	return n
}
