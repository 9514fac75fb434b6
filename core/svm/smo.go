package svm

import (
	"context"
	"math"
)

// The solver is hand-written because gonum has no quadratic programming
// solver; it follows LIBSVM's Solver class step by step (working-set
// selection, the two-variable update with clipping, shrinking with
// gradient reconstruction, and calculate_rho) so that results agree with
// LIBSVM and scikit-learn to within the stopping tolerance.
//
// It minimises 1/2 a'Qa - e'a subject to y'a = 0 and 0 <= a_i <= C,
// where Q_ij = y_i y_j K_ij.

// tau replaces a non-positive curvature in the working-set selection
// and the update (LIBSVM's TAU), so indefinite kernels still progress.
const tau = 1e-12

// ctxEvery is how many SMO iterations pass between context checks.
const ctxEvery = 1024

type solver[T Element] struct {
	k         [][]T     // full Gram matrix (rows and columns idx of it)
	idx       []int     // position -> row of k; permuted by shrinking
	y         []float64 // ±1
	alpha     []float64
	diag      []float64 // K_ii by position, permuted by shrinking (LIBSVM's QD)
	g         []float64 // gradient Qa - e
	gBar      []float64 // sum over a_j = C of C Q_ij, to rebuild g after shrinking
	c, eps    float64
	maxIter   int
	shrinking bool
	active    int // positions [0, active) are not shrunk
	unshrunk  bool
	// reachedC records whether a step depended on c: a variable reached
	// it, or a pair's sum over it skipped a clip at 0 that a larger c
	// would make. Until one does, the solver takes exactly the steps it
	// would take with any larger c.
	reachedC bool
}

func newSolver[T Element](k [][]T, idx []int, y []float64, c, eps float64, maxIter int, shrinking bool) *solver[T] {
	l := len(idx)
	s := &solver[T]{
		k: k, idx: idx, y: y, c: c, eps: eps, maxIter: maxIter, shrinking: shrinking,
		alpha: make([]float64, l), g: make([]float64, l), gBar: make([]float64, l), active: l,
	}
	s.diag = make([]float64, l)
	for i := range s.g {
		s.g[i] = -1 // a = 0, so g = -e
		s.diag[i] = float64(k[idx[i]][idx[i]])
	}
	return s
}

func (s *solver[T]) upper(i int) bool { return s.alpha[i] >= s.c }
func (s *solver[T]) lower(i int) bool { return s.alpha[i] <= 0 }
func (s *solver[T]) qd(i int) float64 { return s.diag[i] }

// addQ adds f Q_it to v[t] for every position t in [from, to).
func (s *solver[T]) addQ(v []float64, i int, f float64, from, to int) {
	row := s.k[s.idx[i]]
	f *= s.y[i]
	for t := from; t < to; t++ {
		v[t] += f * s.y[t] * float64(row[s.idx[t]])
	}
}

func (s *solver[T]) solve(ctx context.Context) (int, error) {
	l := len(s.idx)
	counter := min(l, 1000) + 1
	iter := 0
	for iter < s.maxIter {
		if iter%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return iter, err
			}
		}
		if counter--; counter == 0 {
			counter = min(l, 1000)
			if s.shrinking {
				s.shrink()
			}
		}
		i, j, ok := s.selectWorkingSet()
		if !ok {
			// Optimal on the active set: check again on the whole set.
			s.reconstructGradient()
			s.active = l
			if i, j, ok = s.selectWorkingSet(); !ok {
				return iter, nil
			}
			counter = 1 // shrink again at the next iteration
		}
		iter++
		s.update(i, j)
	}
	s.reconstructGradient()
	s.active = l
	return iter, ErrNotConverged
}

// selectWorkingSet is WSS 2 of Fan, Chen and Lin: i maximises the KKT
// violation, j the second-order decrease of the objective with i.
func (s *solver[T]) selectWorkingSet() (int, int, bool) {
	// The active positions' slices, and c, in locals: the loops then
	// run without reloading them (the same operations, in order).
	n, c := s.active, s.c
	y, g, alpha, diag, idx := s.y[:n], s.g[:n], s.alpha[:n], s.diag[:n], s.idx[:n]
	gmax, gmax2 := math.Inf(-1), math.Inf(-1)
	gmaxIdx, gminIdx := -1, -1
	objDiffMin := math.Inf(1)
	for t, yt := range y {
		if yt > 0 {
			if !(alpha[t] >= c) && -g[t] >= gmax {
				gmax, gmaxIdx = -g[t], t
			}
		} else if !(alpha[t] <= 0) && g[t] >= gmax {
			gmax, gmaxIdx = g[t], t
		}
	}
	i := gmaxIdx
	var rowI []T
	var qdI float64
	if i != -1 {
		rowI, qdI = s.k[idx[i]], diag[i]
	}
	for j, yj := range y {
		var gradDiff float64
		if yj > 0 {
			if alpha[j] <= 0 {
				continue
			}
			gradDiff = gmax + g[j]
			gmax2 = max(gmax2, g[j])
		} else {
			if alpha[j] >= c {
				continue
			}
			gradDiff = gmax - g[j]
			gmax2 = max(gmax2, -g[j])
		}
		if gradDiff <= 0 || i == -1 {
			continue
		}
		// The curvature K_ii + K_jj - 2 K_ij is the same for either sign.
		quad := qdI + diag[j] - 2*float64(rowI[idx[j]])
		if quad <= 0 {
			quad = tau
		}
		if d := -gradDiff * gradDiff / quad; d <= objDiffMin {
			gminIdx, objDiffMin = j, d
		}
	}
	if gmax+gmax2 < s.eps || gminIdx == -1 {
		return 0, 0, false
	}
	return i, gminIdx, true
}

// update solves the two-variable subproblem in (i, j) analytically,
// clips it to the box, and updates the gradients.
func (s *solver[T]) update(i, j int) {
	c := s.c
	a := s.alpha
	oldI, oldJ := a[i], a[j]
	qij := s.y[i] * s.y[j] * float64(s.k[s.idx[i]][s.idx[j]])
	if s.y[i] != s.y[j] {
		quad := s.qd(i) + s.qd(j) + 2*qij
		if quad <= 0 {
			quad = tau
		}
		delta := (-s.g[i] - s.g[j]) / quad
		diff := a[i] - a[j]
		a[i] += delta
		a[j] += delta
		if diff > 0 {
			if a[j] < 0 {
				a[j], a[i] = 0, diff
			}
		} else if a[i] < 0 {
			a[i], a[j] = 0, -diff
		}
		if diff > 0 {
			if a[i] > c {
				a[i], a[j] = c, c-diff
			}
		} else if a[j] > c {
			a[j], a[i] = c, c+diff
		}
	} else {
		quad := s.qd(i) + s.qd(j) - 2*qij
		if quad <= 0 {
			quad = tau
		}
		delta := (s.g[i] - s.g[j]) / quad
		sum := a[i] + a[j]
		a[i] -= delta
		a[j] += delta
		// With sum over c the lower clips are not tested; a larger c
		// would test them, so one that would clip is a step that
		// depends on c (reachedC).
		if sum > c {
			if a[i] > c {
				a[i], a[j] = c, sum-c
			} else if a[j] < 0 {
				s.reachedC = true
			}
		} else if a[j] < 0 {
			a[j], a[i] = 0, sum
		}
		if sum > c {
			if a[j] > c {
				a[j], a[i] = c, sum-c
			} else if a[i] < 0 {
				s.reachedC = true
			}
		} else if a[i] < 0 {
			a[i], a[j] = 0, sum
		}
	}
	if a[i] >= c || a[j] >= c {
		s.reachedC = true // and every clip at c above left one at c
	}
	// One pass over both rows, summed in LIBSVM's order.
	rowI, rowJ := s.k[s.idx[i]], s.k[s.idx[j]]
	dI, dJ := s.y[i]*(a[i]-oldI), s.y[j]*(a[j]-oldJ)
	n := s.active
	y, g, idx := s.y[:n], s.g[:n], s.idx[:n]
	for t, yt := range y {
		r := idx[t]
		g[t] += yt*float64(rowI[r])*dI + yt*float64(rowJ[r])*dJ
	}

	// gBar tracks bounded variables over all positions, shrunk or not.
	l := len(s.idx)
	for _, p := range [...]struct {
		t   int
		old float64
	}{{i, oldI}, {j, oldJ}} {
		wasUpper, isUpper := p.old >= c, a[p.t] >= c
		if wasUpper != isUpper {
			f := c
			if wasUpper {
				f = -c
			}
			s.addQ(s.gBar, p.t, f, 0, l)
		}
	}
}

// shrink moves variables that are bounded and unlikely to move out of
// the active set [0, active), as LIBSVM's do_shrinking.
func (s *solver[T]) shrink() {
	gmax1, gmax2 := math.Inf(-1), math.Inf(-1)
	for t := 0; t < s.active; t++ {
		if s.y[t] > 0 {
			if !s.upper(t) {
				gmax1 = math.Max(gmax1, -s.g[t])
			}
			if !s.lower(t) {
				gmax2 = math.Max(gmax2, s.g[t])
			}
		} else {
			if !s.upper(t) {
				gmax2 = math.Max(gmax2, -s.g[t])
			}
			if !s.lower(t) {
				gmax1 = math.Max(gmax1, s.g[t])
			}
		}
	}
	if !s.unshrunk && gmax1+gmax2 <= 10*s.eps {
		// Close to optimal: restore everything once, then shrink afresh.
		s.unshrunk = true
		s.reconstructGradient()
		s.active = len(s.idx)
	}
	for t := 0; t < s.active; t++ {
		if !s.shrinkable(t, gmax1, gmax2) {
			continue
		}
		s.active--
		for s.active > t {
			if !s.shrinkable(s.active, gmax1, gmax2) {
				s.swap(t, s.active)
				break
			}
			s.active--
		}
	}
}

func (s *solver[T]) shrinkable(t int, gmax1, gmax2 float64) bool {
	switch {
	case s.upper(t):
		if s.y[t] > 0 {
			return -s.g[t] > gmax1
		}
		return -s.g[t] > gmax2
	case s.lower(t):
		if s.y[t] > 0 {
			return s.g[t] > gmax2
		}
		return s.g[t] > gmax1
	}
	return false
}

func (s *solver[T]) swap(a, b int) {
	s.idx[a], s.idx[b] = s.idx[b], s.idx[a]
	s.y[a], s.y[b] = s.y[b], s.y[a]
	s.alpha[a], s.alpha[b] = s.alpha[b], s.alpha[a]
	s.g[a], s.g[b] = s.g[b], s.g[a]
	s.diag[a], s.diag[b] = s.diag[b], s.diag[a]
	s.gBar[a], s.gBar[b] = s.gBar[b], s.gBar[a]
}

// reconstructGradient recomputes g on the shrunk positions from gBar
// and the free variables of the active set.
func (s *solver[T]) reconstructGradient() {
	l := len(s.idx)
	if s.active == l {
		return
	}
	for t := s.active; t < l; t++ {
		s.g[t] = s.gBar[t] - 1
	}
	for j := 0; j < s.active; j++ {
		if !s.upper(j) && !s.lower(j) {
			s.addQ(s.g, j, s.alpha[j], s.active, l)
		}
	}
}

// rho is LIBSVM's bias: the mean of y_i g_i over free variables, or the
// midpoint of the feasible interval when none is free.
func (s *solver[T]) rho() float64 {
	ub, lb := math.Inf(1), math.Inf(-1)
	sumFree, nFree := 0.0, 0
	for t := range s.idx {
		yg := s.y[t] * s.g[t]
		switch {
		case s.upper(t):
			if s.y[t] < 0 {
				ub = math.Min(ub, yg)
			} else {
				lb = math.Max(lb, yg)
			}
		case s.lower(t):
			if s.y[t] > 0 {
				ub = math.Min(ub, yg)
			} else {
				lb = math.Max(lb, yg)
			}
		default:
			nFree++
			sumFree += yg
		}
	}
	if nFree > 0 {
		return sumFree / float64(nFree)
	}
	return (ub + lb) / 2
}
