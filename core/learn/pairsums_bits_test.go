package learn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/floats"

	"wkpi-web/core/kernel"
	"wkpi-web/core/pimage"
	"wkpi-web/core/progress"
)

// TestPairSumsBits: the pair sums of the bitmap pass (common pixels found
// by ANDing supports, their Ms computed together by kernel.SubTerms)
// have the bits of the earlier sweep over each image's support
// (pairSumsSweep, kept here as the oracle), whole and by row ranges, on
// images of 70 pixels (a partial last bitmap word) with supports of any
// overlap and values that differ anywhere from 1e-9 to 10 (M from
// near 0 to 2).
func TestPairSumsBits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n, N = 37, 70
	images := randomSparse(r, n, N, 9, 1)
	labels, folds := make([]int, n), make([]int, n)
	for i := range images {
		labels[i], folds[i] = r.IntN(3), r.IntN(4)
	}
	images[5] = make([]float64, N) // an empty image
	copy(images[6], images[7])     // two alike
	for _, sigma := range []float64{0.01, 0.3, 5} {
		want, err := pairSumsSweep(context.Background(), images, labels, folds, 4, sigma, 0, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := NewPairSums(context.Background(), pimage.SparseAll(images), labels, folds, 4, sigma, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The parallel pass adds its parts' sums; add the oracle's
		// likewise from the same row ranges.
		b := kernel.BalancedSplit(n, kernel.SumParts(n))
		if len(b) > 2 {
			want = nil
			for p := range len(b) - 1 {
				part, err := pairSumsSweep(context.Background(), images, labels, folds, 4, sigma, b[p], b[p+1], nil)
				if err != nil {
					t.Fatal(err)
				}
				if want == nil {
					want = part
				} else if err := want.Add(part); err != nil {
					t.Fatal(err)
				}
			}
		}
		rows, err := NewPairSumsRows(context.Background(), pimage.SparseAll(images), labels, folds, 4, sigma, 3, 29, nil)
		if err != nil {
			t.Fatal(err)
		}
		wantRows, err := pairSumsSweep(context.Background(), images, labels, folds, 4, sigma, 3, 29, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name      string
			got, want *PairSums
		}{{"all", got, want}, {"rows 3-29", rows, wantRows}} {
			for bp := range c.want.Blocks {
				for s := range c.want.Blocks[bp] {
					if g, w := c.got.Blocks[bp][s], c.want.Blocks[bp][s]; math.Float64bits(g) != math.Float64bits(w) {
						t.Fatalf("sigma %g, %s: block pair %d pixel %d: %v, want %v", sigma, c.name, bp, s, g, w)
					}
				}
			}
		}
	}
}

// pairSumsSweep is NewPairSumsRows as it was before the bitmap pass: for
// every pair, a sweep over the later image's support testing the other
// image's pixel, one M at a time.
func pairSumsSweep(ctx context.Context, images [][]float64, labels, folds []int, nFolds int, sigma float64, i0, i1 int, prog progress.Func) (*PairSums, error) {
	n := len(images)
	if n == 0 {
		return nil, fmt.Errorf("learn: no images")
	}
	if len(labels) != n {
		return nil, fmt.Errorf("learn: %d labels for %d images", len(labels), n)
	}
	if !(sigma > 0) || math.IsInf(sigma, 0) {
		return nil, fmt.Errorf("learn: sigma %g must be positive and finite", sigma)
	}
	if i0 < 0 || i1 > n || i0 > i1 {
		return nil, fmt.Errorf("learn: row range [%d, %d) outside [0, %d)", i0, i1, n)
	}
	N := len(images[0])
	for i, img := range images {
		if len(img) != N {
			return nil, fmt.Errorf("learn: image %d has %d pixels, want %d", i, len(img), N)
		}
	}
	p, folds, err := newPairSums(labels, folds, nFolds, N)
	if err != nil {
		return nil, err
	}
	k := p.Classes

	c := 1 / (2 * sigma * sigma)
	m := func(d float64) float64 { return kernel.WKPITerm(d * d * c) }
	// Non-zero pixels and their M against an exact zero, per image: pixels
	// where both images are 0 have M = 0 and are skipped.
	// Their values too: reading them from the dense image would fetch
	// most of its cache lines for every pair, the pass's bottleneck on
	// thousands of images.
	idx := make([][]int32, n)
	val := make([][]float64, n)
	m0 := make([][]float64, n)
	for i, img := range images {
		nnz := 0
		for _, v := range img {
			if v != 0 {
				nnz++
			}
		}
		// Exact sizes: append's spare capacity would cost every
		// worker a third more memory on thousands of images.
		idx[i], val[i], m0[i] = make([]int32, 0, nnz), make([]float64, 0, nnz), make([]float64, 0, nnz)
		for s, v := range img {
			if v != 0 {
				idx[i] = append(idx[i], int32(s))
				val[i] = append(val[i], v)
				m0[i] = append(m0[i], m(v))
			}
		}
	}
	// A pair (i, j) adds M_ij(s) = m0_i(s) + m0_j(s) - (m0_i(s) + m0_j(s) -
	// M(I_i(s) - I_j(s))), the last term only where both are non-zero. So
	// row i adds, to each block pair (i's block, beta), the count of later
	// images in beta times m0_i and the sum of their m0 (kept per block as
	// rows go from last to first), then sweeps each later image's support
	// for the common pixels: one pass over one support per pair, an exp only
	// where both differ from zero.
	block := func(j int) int { return folds[j]*k + labels[j] }
	later := make([][]float64, p.blocks()) // sum of m0_j over j > i, per block
	count := make([]int, p.blocks())
	addLater := func(j int) {
		b := block(j)
		if later[b] == nil {
			later[b] = make([]float64, N)
		}
		for q, s := range idx[j] {
			later[b][s] += m0[j][q]
		}
		count[b]++
	}
	for j := i1; j < n; j++ {
		addLater(j)
	}
	rowM0 := make([]float64, N) // m0_i spread over all pixels
	for i := i1 - 1; i >= i0; i-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		a := images[i]
		bi := block(i)
		for q, s := range idx[i] {
			rowM0[s] = m0[i][q]
		}
		for b, cnt := range count {
			if cnt == 0 {
				continue
			}
			sum := p.Blocks[p.blockPair(bi, b)]
			floats.Add(sum, later[b])
			for q, s := range idx[i] {
				sum[s] += float64(cnt) * m0[i][q]
			}
		}
		for j := i + 1; j < n; j++ {
			sum := p.Blocks[p.blockPair(bi, block(j))]
			vj, mj := val[j], m0[j]
			for q, s := range idx[j] {
				if av := a[s]; av != 0 {
					sum[s] -= rowM0[s] + mj[q] - m(av-vj[q])
				}
			}
		}
		for _, s := range idx[i] {
			rowM0[s] = 0
		}
		addLater(i)
		prog.Report("pair sums", i1-i, i1-i0)
	}
	return p, nil
}

// TestSumsVisitorBits: pair sums accumulated from a kernel pass
// (kernel.SplitsVisit with a SumsVisitor) have the bits of NewPairSums's,
// with and without kernels to compute in the same pass, and the pass's
// kernels are those of a pass without the visitor, bit for bit.
func TestSumsVisitorBits(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	const n, N = 41, 130
	images := randomSparse(r, n, N, 3, 0)
	labels, folds := make([]int, n), make([]int, n)
	for i := range images {
		labels[i], folds[i] = r.IntN(2), i%5
	}
	weights := func() []float64 {
		w := make([]float64, N)
		for s := range w {
			w[s] = r.Float64()
		}
		return w
	}
	var splits []kernel.Split
	for f := range 3 {
		var train, test []int
		for i := range n {
			if folds[i] == f {
				test = append(test, i)
			} else {
				train = append(train, i)
			}
		}
		splits = append(splits, kernel.Split{Weights: [][]float64{weights()}, Train: train, Test: test})
	}
	const sigma = 0.2
	want, err := NewPairSums(context.Background(), pimage.SparseAll(images), labels, folds, 5, sigma, nil)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := kernel.Splits(context.Background(), pimage.SparseAll(images), sigma, kernel.WKPI, splits, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range [][]kernel.Split{nil, splits} {
		v, err := NewSumsVisitor(n, N, labels, folds, 5)
		if err != nil {
			t.Fatal(err)
		}
		out, err := kernel.SplitsVisit(context.Background(), pimage.SparseAll(images), sigma, kernel.WKPI, sp, nil, v, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := v.Sums()
		if err != nil {
			t.Fatal(err)
		}
		for bp := range want.Blocks {
			for s := range want.Blocks[bp] {
				if g, w := got.Blocks[bp][s], want.Blocks[bp][s]; math.Float64bits(g) != math.Float64bits(w) {
					t.Fatalf("%d splits: block pair %d pixel %d: %v, want %v", len(sp), bp, s, g, w)
				}
			}
		}
		for q := range out {
			for k := range out[q].Gram {
				for e, x := range out[q].Gram[k].Data {
					if math.Float32bits(x) != math.Float32bits(plain[q].Gram[k].Data[e]) {
						t.Fatalf("split %d: Gram entry %d differs with the visitor", q, e)
					}
				}
				for i, row := range out[q].Cross[k] {
					for j, x := range row {
						if math.Float64bits(x) != math.Float64bits(plain[q].Cross[k][i][j]) {
							t.Fatalf("split %d: cross entry (%d, %d) differs with the visitor", q, i, j)
						}
					}
				}
			}
		}
	}
	if _, err := NewSumsVisitor(n, N, labels[:3], folds, 5); err == nil {
		t.Error("3 labels for 41 images: no error")
	}
}

// TestPairSumsAnyCPUs: the pair sums, and so every learned weight
// function, have the same bits for any number of CPUs, by NewPairSums and
// by a pass's visitor (kernel.SumParts): a Web Worker's one thread, a
// Slurm task's one CPU and a many-core machine learn alike.
func TestPairSumsAnyCPUs(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const n, N = 90, 60 // enough rows for several parts
	images := pimage.SparseAll(randomSparse(r, n, N, 6, 0))
	labels, folds := make([]int, n), make([]int, n)
	for i := range images {
		labels[i], folds[i] = r.IntN(2), i%4
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var want *PairSums
	for _, cpus := range []int{1, 2, 3, 8} {
		runtime.GOMAXPROCS(cpus)
		direct, err := NewPairSums(context.Background(), images, labels, folds, 4, 0.2, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := NewSumsVisitor(n, N, labels, folds, 4)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := kernel.SplitsVisit(context.Background(), images, 0.2, kernel.WKPI, nil, nil, v, nil); err != nil {
			t.Fatal(err)
		}
		visited, err := v.Sums()
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = direct
		}
		for name, got := range map[string]*PairSums{"NewPairSums": direct, "the visitor": visited} {
			for bp := range want.Blocks {
				for s := range want.Blocks[bp] {
					if g, w := got.Blocks[bp][s], want.Blocks[bp][s]; math.Float64bits(g) != math.Float64bits(w) {
						t.Fatalf("%d CPUs, %s: block pair %d pixel %d: %v, want %v (1 CPU)", cpus, name, bp, s, g, w)
					}
				}
			}
		}
	}
}

// randomSparse are n random images of N pixels, each with its own share
// of non-zero pixels (0 to 1), whose values are |normal| times 10^e with
// e uniform in (top-decades, top].
func randomSparse(r *rand.Rand, n, N int, decades, top float64) [][]float64 {
	images := make([][]float64, n)
	for i := range images {
		images[i] = make([]float64, N)
		density := r.Float64()
		for s := range images[i] {
			if r.Float64() < density {
				images[i][s] = math.Abs(r.NormFloat64()) * math.Pow(10, -r.Float64()*decades+top)
			}
		}
	}
	return images
}
