package compare

import (
	"context"
	"errors"
	"hash/fnv"
	"math"

	"wkpi-web/core/crossval"
	"wkpi-web/core/svm"
)

// fitted is a kernel fixed on one training set: its Gram matrix and, for
// test samples, their rows against the training set.
type fitted interface {
	gram() [][]float64
	cross(ctx context.Context, test []int) ([][]float64, error)
}

// source makes the kernel of a training set (indices into the dataset):
// whatever a method chooses from data it chooses here, from train alone.
type source func(ctx context.Context, train []int) (fitted, error)

// svmLearner is a C-SVC on a source's precomputed kernel, an
// crossval.Learner for crossval.Nested and crossval.CrossValidate.
type svmLearner struct {
	labels  []int
	classes int
	c       float64
	src     source
}

func (l svmLearner) Fit(ctx context.Context, train []int) (crossval.Predictor, error) {
	k, err := l.src(ctx, train)
	if err != nil {
		return nil, err
	}
	y := make([]int, len(train))
	for i, s := range train {
		y[i] = l.labels[s]
	}
	m, err := svm.Train(ctx, k.gram(), y, svm.Options{C: l.c})
	if err != nil && !errors.Is(err, svm.ErrNotConverged) {
		return nil, err
	}
	return svmPredictor{k: k, m: m, classes: l.classes}, nil
}

// svmPredictor is a crossval.Scorer: its scores are svm.Model.Scores,
// as WKPI's in core/eval.
type svmPredictor struct {
	k       fitted
	m       *svm.Model
	classes int
}

func (p svmPredictor) Predict(ctx context.Context, test []int) ([]int, error) {
	pred, _, err := p.Scores(ctx, test)
	return pred, err
}

func (p svmPredictor) Scores(ctx context.Context, test []int) ([]int, [][]float64, error) {
	rows, err := p.k.cross(ctx, test)
	if err != nil {
		return nil, nil, err
	}
	pred, scores := make([]int, len(test)), make([][]float64, len(test))
	for i, r := range rows {
		pred[i], scores[i] = p.m.Predict(r), p.m.Scores(r, p.classes)
	}
	return pred, scores, nil
}

// block is a kernel k(i, j) defined on all samples, fixed on a training
// set: the Gram matrix and the test rows are blocks of it.
type block struct {
	k     func(i, j int) float64
	train []int
}

func (b block) gram() [][]float64 {
	out, _ := b.cross(context.Background(), b.train) // cannot fail
	return out
}

func (b block) cross(_ context.Context, test []int) ([][]float64, error) {
	out := make([][]float64, len(test))
	for i, t := range test {
		out[i] = make([]float64, len(b.train))
		for j, s := range b.train {
			out[i][j] = b.k(t, s)
		}
	}
	return out, nil
}

// fixedKernel is a source for a kernel matrix that chooses nothing from
// data.
func fixedKernel(k [][]float64) source {
	return func(_ context.Context, train []int) (fitted, error) {
		return block{func(i, j int) float64 { return k[i][j] }, train}, nil
	}
}

// rbf is the source of the kernel exp(-d_ij / (scale * median)) of a
// distance-like matrix d on all samples (a distance, or a squared one),
// where median is the median of d over pairs of training samples (the
// median heuristic, taken from the training set alone), so that one
// grid of scales serves every dataset and descriptor.
func rbf(d [][]float64, scale float64, medians *medianCache) source {
	return func(_ context.Context, train []int) (fitted, error) {
		return expOf(func(i, j int) float64 { return d[i][j] }, 1/(scale*medians.get(d, train)), train), nil
	}
}

// expOf is the kernel exp(-t dist(i, j)) fixed on train.
func expOf(dist func(i, j int) float64, t float64, train []int) block {
	return block{func(i, j int) float64 { return math.Exp(-t * dist(i, j)) }, train}
}

// medianCache keeps the median of each (matrix, training set) pair: the
// grid's cells share them.
type medianCache struct {
	m map[medianKey]float64
}

type medianKey struct {
	d     *[]float64
	train uint64
}

func (c *medianCache) get(d [][]float64, train []int) float64 {
	if c.m == nil {
		c.m = map[medianKey]float64{}
	}
	key := medianKey{&d[0], trainKey(train)}
	if v, ok := c.m[key]; ok {
		return v
	}
	v := crossval.Median(func(i, j int) float64 { return d[i][j] }, train)
	c.m[key] = v
	return v
}

// trainKey identifies a training set (FNV-1a of its indices).
func trainKey(train []int) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for _, s := range train {
		for k := range b {
			b[k] = byte(uint64(s) >> (8 * k))
		}
		h.Write(b[:])
	}
	return h.Sum64()
}
