package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
)

// ErrNotConverged is returned, wrapped and together with a usable model,
// when a binary problem hits Options.MaxIter before the stopping
// tolerance, as LIBSVM warns and still returns its model.
var ErrNotConverged = errors.New("svm: maximum number of iterations reached")

// Options control training. Apart from C, the zero value selects
// LIBSVM's (and scikit-learn's SVC) defaults.
type Options struct {
	// C bounds every dual variable (penalty of a margin violation); > 0.
	C float64
	// Tol is the stopping tolerance on the maximal KKT violation,
	// LIBSVM's eps; 0 means 1e-3, LIBSVM's and scikit-learn's default.
	Tol float64
	// MaxIter bounds SMO iterations per binary problem; 0 means LIBSVM's
	// max(10^7, 100 n).
	MaxIter int
	// NoShrinking turns off LIBSVM's shrinking heuristic. Shrinking only
	// speeds training up, and with it on (the default, as in LIBSVM and
	// scikit-learn) the solver takes exactly LIBSVM's steps; without,
	// it reaches the same optimum within Tol by another path.
	NoShrinking bool
	// Checked says that the caller has checked the kernel matrix
	// (CheckGram), so that training on many subsets of one matrix checks
	// it once; only the samples' rows are checked then.
	Checked bool
}

// Model is a trained one-vs-one classifier. It is plain data: training
// sample indices and coefficients, so it can be stored as JSON.
type Model struct {
	// Classes is the number of class labels, 0..Classes-1.
	Classes int `json:"classes"`
	// N is the training set size, the length Decision expects.
	N int `json:"n"`
	// Pairs holds one binary classifier per pair A < B of classes present
	// in the training labels, in LIBSVM's order (A major, B minor).
	Pairs []Binary `json:"pairs"`
}

// Binary is the classifier of class A (+1) against class B (-1):
// f(x) = sum_i Coef[i] K(x, SV[i]) - Rho, positive for A.
type Binary struct {
	A int `json:"a"`
	B int `json:"b"`
	// SV are indices into the training set, ascending.
	SV []int `json:"sv"`
	// Coef[i] is alpha_i times the ±1 label of SV[i].
	Coef []float64 `json:"coef"`
	Rho  float64   `json:"rho"`
	// Iterations is the number of SMO steps the solver took.
	Iterations int `json:"iterations"`
	// ReachedC says whether C ever bounded the solver: a dual variable
	// reached C (or two of one label summed over it) during training.
	// When it did not, training with any larger C takes the same steps
	// and gives this classifier (Model.FreeOfC). Not stored.
	ReachedC bool `json:"-"`
}

// Element is the type of a kernel matrix's entries: float64, or float32
// for a matrix kept at that precision. Entries are read as float64, so a
// float32 matrix trains exactly as its float64 copy would.
type Element interface{ ~float32 | ~float64 }

// Train fits a C-SVC to the n×n Gram matrix K of the training samples
// and their labels y in 0..k-1. Classes without samples are allowed
// (they get no pair and never win a vote), but at least two must occur.
func Train(ctx context.Context, K [][]float64, y []int, o Options) (*Model, error) {
	return TrainOn(ctx, K, nil, y, o)
}

// TrainOn is Train on some samples of a larger kernel matrix: the rows
// and columns sub of the square matrix K (all of K when sub is nil) are
// the training Gram matrix, with y[i] the label of sample sub[i]. The
// model is Train's on that sub-matrix, step for step, its support
// vectors positions in sub; the sub-matrix is not copied, so the inner
// folds of a cross-validation can all train on one matrix.
func TrainOn[T Element](ctx context.Context, K [][]T, sub []int, y []int, o Options) (*Model, error) {
	if err := checkOptions(&o); err != nil {
		return nil, err
	}
	posOf, err := checkRows(K, sub)
	if err == nil && !o.Checked {
		err = checkGram(K, sub)
	}
	if err != nil {
		return nil, err
	}
	n := len(K)
	if sub != nil {
		n = len(sub)
	}
	if len(y) != n {
		return nil, fmt.Errorf("svm: %d labels for a %d×%d Gram matrix", len(y), n, n)
	}
	classes := 0
	for i, c := range y {
		if c < 0 {
			return nil, fmt.Errorf("svm: label %d of sample %d is negative", c, i)
		}
		classes = max(classes, c+1)
	}
	// members[c] are the rows of K of class c's samples.
	members := make([][]int, classes)
	for i, c := range y {
		row := i
		if sub != nil {
			row = sub[i]
		}
		members[c] = append(members[c], row)
	}
	present := 0
	for _, m := range members {
		if len(m) > 0 {
			present++
		}
	}
	if present < 2 {
		return nil, fmt.Errorf("svm: training labels hold %d class(es), need at least 2", present)
	}

	m := &Model{Classes: classes, N: n}
	var notConverged error
	for a := range classes {
		for b := a + 1; b < classes; b++ {
			if len(members[a]) == 0 || len(members[b]) == 0 {
				continue
			}
			bin, err := trainPair(ctx, K, posOf, members[a], members[b], o)
			if err != nil && !errors.Is(err, ErrNotConverged) {
				return nil, fmt.Errorf("svm: classes %d vs %d: %w", a, b, err)
			}
			if err != nil && notConverged == nil {
				notConverged = fmt.Errorf("svm: classes %d vs %d: %w", a, b, err)
			}
			bin.A, bin.B = a, b
			m.Pairs = append(m.Pairs, bin)
		}
	}
	return m, notConverged
}

func checkOptions(o *Options) error {
	if !(o.C > 0) || math.IsInf(o.C, 0) {
		return fmt.Errorf("svm: C = %g, want a finite C > 0", o.C)
	}
	if o.Tol == 0 {
		o.Tol = 1e-3
	}
	if !(o.Tol > 0) || math.IsInf(o.Tol, 0) {
		return fmt.Errorf("svm: Tol = %g, want a finite Tol > 0", o.Tol)
	}
	if o.MaxIter < 0 {
		return fmt.Errorf("svm: MaxIter = %d, want >= 0", o.MaxIter)
	}
	return nil
}

// symTol is the relative asymmetry tolerated in K, enough for Gram
// matrices assembled in floating point from both triangles.
const symTol = 1e-9

// CheckGram checks that the kernel matrix K is square, finite and
// symmetric (what Train checks, and TrainOn without Options.Checked).
func CheckGram[T Element](K [][]T) error {
	if _, err := checkRows(K, nil); err != nil {
		return err
	}
	return checkGram(K, nil)
}

// checkRows checks that K is square and sub distinct rows of it (nil for
// all), and returns the position in sub of each row of K (nil for all),
// -1 for rows not in sub.
func checkRows[T Element](K [][]T, sub []int) ([]int, error) {
	n := len(K)
	if n == 0 {
		return nil, errors.New("svm: empty Gram matrix")
	}
	for i, row := range K {
		if len(row) != n {
			return nil, fmt.Errorf("svm: Gram matrix row %d has %d entries, want %d", i, len(row), n)
		}
	}
	if sub == nil {
		return nil, nil
	}
	posOf := make([]int, n)
	for i := range posOf {
		posOf[i] = -1
	}
	for i, r := range sub {
		if r < 0 || r >= n || posOf[r] >= 0 {
			return nil, fmt.Errorf("svm: sample %d is row %d of a %d×%d matrix, outside it or repeated", i, r, n, n)
		}
		posOf[r] = i
	}
	return posOf, nil
}

// checkGram checks that the rows and columns sub of K (checkRows; all
// when nil) are finite and symmetric. It reads the sub-matrix in tiles,
// so that an entry and its transpose are both in cache.
func checkGram[T Element](K [][]T, sub []int) error {
	m, at := len(K), func(i int) int { return i }
	if sub != nil {
		m, at = len(sub), func(i int) int { return sub[i] }
	}
	const tile = 64
	for i0 := 0; i0 < m; i0 += tile {
		for j0 := 0; j0 <= i0; j0 += tile {
			for i := i0; i < min(i0+tile, m); i++ {
				row := K[at(i)]
				for j := j0; j < min(j0+tile, i+1); j++ {
					v, w := float64(row[at(j)]), float64(K[at(j)][at(i)])
					if math.IsNaN(v) || math.IsInf(v, 0) {
						return fmt.Errorf("svm: Gram matrix entry (%d,%d) is %g", i, j, v)
					}
					if math.IsNaN(w) || math.IsInf(w, 0) {
						return fmt.Errorf("svm: Gram matrix entry (%d,%d) is %g", j, i, w)
					}
					if math.Abs(v-w) > symTol*math.Max(math.Abs(v), math.Abs(w)) {
						return fmt.Errorf("svm: Gram matrix not symmetric: K[%d][%d] = %g, K[%d][%d] = %g", i, j, v, j, i, w)
					}
				}
			}
		}
	}
	return nil
}

// trainPair solves the binary problem of samples pos (+1) against neg
// (-1), listed in this order as LIBSVM groups them.
// Both are rows of K; posOf maps them to the model's sample positions
// (nil: the rows themselves).
func trainPair[T Element](ctx context.Context, K [][]T, posOf []int, pos, neg []int, o Options) (Binary, error) {
	idx := append(append(make([]int, 0, len(pos)+len(neg)), pos...), neg...)
	y := make([]float64, len(idx))
	for i := range y {
		y[i] = 1
		if i >= len(pos) {
			y[i] = -1
		}
	}
	maxIter := o.MaxIter
	if maxIter == 0 {
		maxIter = max(10_000_000, 100*len(idx))
	}
	s := newSolver(K, idx, y, o.C, o.Tol, maxIter, !o.NoShrinking)
	iter, err := s.solve(ctx)
	if err != nil && !errors.Is(err, ErrNotConverged) {
		return Binary{}, err
	}
	bin := Binary{Rho: s.rho(), Iterations: iter, ReachedC: s.reachedC}
	// Shrinking permuted s.idx, s.y and s.alpha together; sort back.
	order := make([]int, 0, len(idx))
	for i, a := range s.alpha {
		if a > 0 {
			order = append(order, i)
		}
	}
	position := func(i int) int {
		if posOf == nil {
			return s.idx[i]
		}
		return posOf[s.idx[i]]
	}
	sort.Slice(order, func(p, q int) bool { return position(order[p]) < position(order[q]) })
	for _, i := range order {
		bin.SV = append(bin.SV, position(i))
		bin.Coef = append(bin.Coef, s.alpha[i]*s.y[i])
	}
	return bin, err
}

// Decision returns one value per pair of m.Pairs: the binary decision
// function at a sample whose kernel values against every training sample
// are k (len(k) == m.N; only the entries at support vectors are read).
// A positive value votes for the pair's A. It panics when k is shorter
// than a support vector index, a programming error like a gonum
// dimension mismatch.
func (m *Model) Decision(k []float64) []float64 {
	if len(k) != m.N {
		panic(fmt.Sprintf("svm: Decision got %d kernel values, want %d", len(k), m.N))
	}
	out := make([]float64, len(m.Pairs))
	for p, b := range m.Pairs {
		var f float64
		for i, sv := range b.SV {
			f += b.Coef[i] * k[sv]
		}
		out[p] = f - b.Rho
	}
	return out
}

// Predict returns the class with most one-vs-one votes; ties go to the
// lowest class index, as in LIBSVM and scikit-learn.
func (m *Model) Predict(k []float64) int {
	votes := make([]int, m.Classes)
	for p, f := range m.Decision(k) {
		if f > 0 {
			votes[m.Pairs[p].A]++
		} else {
			votes[m.Pairs[p].B]++
		}
	}
	best := 0
	for c, v := range votes {
		if v > votes[best] {
			best = c
		}
	}
	return best
}

// FreeOfC says whether no binary classifier of m reached its C in
// training (Binary.ReachedC): then training on the same Gram matrix and
// labels with any larger C gives m again, step for step.
func (m *Model) FreeOfC() bool {
	for _, b := range m.Pairs {
		if b.ReachedC {
			return false
		}
	}
	return true
}

// SupportVectors returns the sorted union of the support vectors of all
// pairs: the only training samples a caller must keep to predict.
func (m *Model) SupportVectors() []int {
	seen := make(map[int]bool)
	var out []int
	for _, b := range m.Pairs {
		for _, sv := range b.SV {
			if !seen[sv] {
				seen[sv] = true
				out = append(out, sv)
			}
		}
	}
	sort.Ints(out)
	return out
}
