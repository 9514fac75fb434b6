package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

	"wkpi-web/core/kernel"
)

// nystromCut is the smallest eigenvalue of the landmarks' kernel matrix
// W, relative to its largest, that its pseudo-inverse keeps: below it an
// eigenvalue is rounding noise, whose inverse would blow the noise up.
const nystromCut = 1e-12

// nystromSet is kernelSet's Nyström approximation with k landmarks (the
// option Config.Nystrom): k training samples L drawn at random, with a
// generator seeded by seed and the training set's size, so that a fold
// draws the same landmarks in every shard. Per weight vector, with C the
// kernel values of the training and test samples against L and W those
// of L against L, the Gram matrix is C_train W^+ C_train^T and the cross
// matrix C_test W^+ C_train^T, through Phi = C U diag(lambda^-1/2) over
// the eigenpairs (lambda, U) of W that nystromCut keeps. It computes
// (n_train + n_test) k kernel values where the exact matrices need
// n_train (n_train/2 + n_test), and n_train^2 k multiply-adds.
func (w *WKPI) nystromSet(ctx context.Context, p pairs, ws [][]float64, k int, seed int64, train, test []int) (*kernelSet, error) {
	if k < 1 {
		return nil, fmt.Errorf("eval: Nyström with %d landmarks", k)
	}
	k = min(k, len(train))
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(len(train))))
	pick := rng.Perm(len(train))[:k]
	sort.Ints(pick)
	land := make([]int, k)
	for i, q := range pick {
		land[i] = train[q]
	}
	rows := append(append([]int(nil), train...), test...)
	cs, err := p.crosses(ctx, ws, rows, land)
	if err != nil {
		return nil, err
	}
	nt, ne := len(train), len(test)
	ks := &kernelSet{train: train, test: test, gram: make([][][]float64, len(ws)), cross: make([][][]float64, len(ws))}
	for i := range ws {
		c := mat.NewDense(len(rows), k, nil)
		for r, row := range cs[i] {
			c.SetRow(r, row)
		}
		wl := mat.NewSymDense(k, nil)
		for a := range k {
			for b := a; b < k; b++ {
				wl.SetSym(a, b, cs[i][pick[a]][b])
			}
		}
		var eig mat.EigenSym
		if !eig.Factorize(wl, true) {
			return nil, errors.New("eval: Nyström: the eigendecomposition of the landmarks' kernel matrix failed")
		}
		vals := eig.Values(nil)
		var u mat.Dense
		eig.VectorsTo(&u)
		top := vals[len(vals)-1] // ascending
		for j, l := range vals {
			s := 0.0
			if l > nystromCut*top {
				s = 1 / math.Sqrt(l)
			}
			for r := range k {
				u.Set(r, j, u.At(r, j)*s)
			}
		}
		var phi mat.Dense
		phi.Mul(c, &u)
		pt := phi.Slice(0, nt, 0, k)
		g := mat.NewSymDense(nt, nil)
		g.SymOuterK(1, pt)
		// The upper triangle, filled, is the data of the full rows.
		raw := g.RawSymmetric()
		gram := make([][]float64, nt)
		for a := range gram {
			gram[a] = raw.Data[a*raw.Stride : a*raw.Stride+nt]
		}
		kernel.Symmetrize(gram)
		ks.gram[i] = gram
		if ne > 0 {
			var x mat.Dense
			x.Mul(phi.Slice(nt, nt+ne, 0, k), pt.T())
			ks.cross[i] = make([][]float64, ne)
			for t := range ne {
				ks.cross[i][t] = x.RawRowView(t)
			}
		}
	}
	return ks, nil
}
