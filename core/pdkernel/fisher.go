package pdkernel

import (
	"context"
	"fmt"
	"math"

	"wkpi-web/core/persistence"
	"wkpi-web/core/progress"
)

// smoothed is a diagram prepared for the Persistence Fisher distance: its
// distinct points P with multiplicities c, their diagonal projections,
// given by m = (b+d)/2, and the within-diagram Gaussian sums, which every
// pair reuses: pp[z] = sum_{u in P} c_u k(P_z, P_u),
// pd[z] = sum_{u in P} c_u k(P_z, Delta_u), dp[z] = sum_u c_u k(Delta_z, P_u),
// dd[z] = sum_u c_u k(Delta_z, Delta_u).
// With a table (see gaussTable), ib, id and im index each point's birth,
// death and m in it.
type smoothed struct {
	pts            []persistence.Point
	c, m           []float64
	pp, pd, dp, dd []float64
	ib, id, im     []int32
}

// fisher evaluates k(x, y) = exp(-c |x-y|^2), c = 1/(2 bandwidth^2)
// between points and diagonal points, by its table when it has one. GUDHI's
// Gaussian carries the factor 1/(bandwidth sqrt(2 pi)), which the
// normalisation of rho removes.
type fisher struct {
	c float64
	t gaussTable
}

func newFisher(bandwidth float64, maxValues int, lists ...[][]persistence.Point) fisher {
	c := 1 / (2 * bandwidth * bandwidth)
	return fisher{c: c, t: newGaussTable(c, maxValues, true, lists...)}
}

func (f fisher) pp(p, q persistence.Point) float64 {
	dx, dy := p.Birth-q.Birth, p.Death-q.Death
	return math.Exp(-f.c * (dx*dx + dy*dy))
}

func (f fisher) pd(p persistence.Point, m float64) float64 {
	dx, dy := p.Birth-m, p.Death-m
	return math.Exp(-f.c * (dx*dx + dy*dy))
}

func (f fisher) dd(m, n float64) float64 {
	d := m - n
	return math.Exp(-f.c * 2 * d * d)
}

func (f fisher) prepare(d []persistence.Point) smoothed {
	pts, c := distinct(d)
	n := len(pts)
	s := smoothed{pts: pts, c: c, m: make([]float64, n),
		pp: make([]float64, n), pd: make([]float64, n), dp: make([]float64, n), dd: make([]float64, n)}
	for k, p := range pts {
		s.m[k] = (p.Birth + p.Death) / 2
	}
	s.ib = f.t.indices(func(k int) float64 { return pts[k].Birth }, n)
	s.id = f.t.indices(func(k int) float64 { return pts[k].Death }, n)
	s.im = f.t.indices(func(k int) float64 { return s.m[k] }, n)
	for z, p := range pts {
		for u, q := range pts {
			s.pp[z] += c[u] * f.pp(p, q)
			s.pd[z] += c[u] * f.pd(p, s.m[u])
			s.dp[z] += c[u] * f.pd(q, s.m[z])
			s.dd[z] += c[u] * f.dd(s.m[z], s.m[u])
		}
	}
	return s
}

// fisherScratch holds the row and column sums of the four cross blocks of
// one pair, X1 = k(P1, Delta2), X2 = k(Delta1, Delta2), X3 = k(P1, P2),
// X4 = k(Delta1, P2), each term times the multiplicity of the point it
// sums over.
type fisherScratch struct {
	r1, r2, r3, r4, c1, c2, c3, c4 []float64
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// distance returns d_FIM(a, b) on Theta = P_a, Delta_a, P_b, Delta_b with
// rho_a smoothing P_a and Delta_b, rho_b smoothing P_b and Delta_a (see
// the package documentation). Two empty diagrams are at distance 0.
func (f fisher) distance(a, b *smoothed, s *fisherScratch) float64 {
	n, m := len(a.pts), len(b.pts)
	if n+m == 0 {
		return 0
	}
	s.r1, s.r2, s.r3, s.r4 = grow(s.r1, n), grow(s.r2, n), grow(s.r3, n), grow(s.r4, n)
	s.c1, s.c2, s.c3, s.c4 = grow(s.c1, m), grow(s.c2, m), grow(s.c3, m), grow(s.c4, m)
	T, nv := f.t.e, f.t.n
	for z, p := range a.pts {
		mz, cz := a.m[z], a.c[z]
		var bz, dz, iz int
		if T != nil {
			bz, dz, iz = int(a.ib[z])*nv, int(a.id[z])*nv, int(a.im[z])*nv
		}
		var r1, r2, r3, r4 float64
		for u, q := range b.pts {
			mu, cu := b.m[u], b.c[u]
			var x1, x2, x3, x4 float64
			if T != nil {
				// e is symmetric: e(b_u - m_z) = T[iz + b_u].
				bu, du, iu := int(b.ib[u]), int(b.id[u]), int(b.im[u])
				t := T[iz+iu]
				x1, x2 = T[bz+iu]*T[dz+iu], t*t
				x3, x4 = T[bz+bu]*T[dz+du], T[iz+bu]*T[iz+du]
			} else {
				x1, x2, x3, x4 = f.pd(p, mu), f.dd(mz, mu), f.pp(p, q), f.pd(q, mz)
			}
			r1 += cu * x1
			r2 += cu * x2
			r3 += cu * x3
			r4 += cu * x4
			s.c1[u] += cz * x1
			s.c2[u] += cz * x2
			s.c3[u] += cz * x3
			s.c4[u] += cz * x4
		}
		s.r1[z], s.r2[z], s.r3[z], s.r4[z] = r1, r2, r3, r4
	}
	var sa, sb, bc float64
	add := func(c, ra, rb float64) {
		sa += c * ra
		sb += c * rb
		bc += c * math.Sqrt(ra*rb)
	}
	for z, c := range a.c {
		add(c, a.pp[z]+s.r1[z], s.r3[z]+a.pd[z]) // z in P_a
		add(c, a.dp[z]+s.r2[z], s.r4[z]+a.dd[z]) // z in Delta_a
	}
	for u, c := range b.c {
		add(c, s.c3[u]+b.pd[u], b.pp[u]+s.c4[u]) // z in P_b
		add(c, s.c1[u]+b.dd[u], b.dp[u]+s.c2[u]) // z in Delta_b
	}
	return math.Acos(min(1, bc/math.Sqrt(sa*sb)))
}

func checkBandwidth(h float64) error {
	if !(h > 0) || math.IsInf(h, 0) {
		return fmt.Errorf("pdkernel: Persistence Fisher bandwidth %g must be positive and finite", h)
	}
	return nil
}

func (f fisher) prepareAll(diagrams [][]persistence.Point) []smoothed {
	out := make([]smoothed, len(diagrams))
	for i, d := range diagrams {
		out[i] = f.prepare(d)
	}
	return out
}

// PersistenceFisher returns the symmetric matrix of Fisher information
// metric distances d_FIM (Le & Yamada 2018) between all pairs of diagrams,
// each smoothed by a Gaussian of standard deviation bandwidth, by the
// exact sums (GUDHI's PersistenceFisherDistance without kernel_approx).
// The PF kernel is Exp(d, t).
func PersistenceFisher(ctx context.Context, diagrams [][]persistence.Point, bandwidth float64, prog progress.Func) ([][]float64, error) {
	return persistenceFisher(ctx, diagrams, nil, bandwidth, maxTableValues, prog)
}

// PersistenceFisherCross returns the len(rows) x len(cols) matrix
// d_FIM(rows[i], cols[j]).
func PersistenceFisherCross(ctx context.Context, rows, cols [][]persistence.Point, bandwidth float64, prog progress.Func) ([][]float64, error) {
	if cols == nil {
		cols = [][]persistence.Point{} // not the all-pairs form
	}
	return persistenceFisher(ctx, rows, cols, bandwidth, maxTableValues, prog)
}

// persistenceFisher is the all-pairs matrix of rows when cols is nil,
// else the cross matrix, with a gaussTable of at most maxValues values
// (0: exponentials only, as the tests use).
func persistenceFisher(ctx context.Context, rows, cols [][]persistence.Point, bandwidth float64, maxValues int, prog progress.Func) ([][]float64, error) {
	if err := checkBandwidth(bandwidth); err != nil {
		return nil, err
	}
	if cols == nil {
		if err := checkDiagrams("", rows); err != nil {
			return nil, err
		}
		f := newFisher(bandwidth, maxValues, rows)
		sm := f.prepareAll(rows)
		return symmetric(ctx, len(sm), true, "persistence fisher", prog, func() pairFunc {
			var s fisherScratch
			return func(i, j int) float64 { return f.distance(&sm[i], &sm[j], &s) }
		})
	}
	if err := checkDiagrams("row ", rows); err != nil {
		return nil, err
	}
	if err := checkDiagrams("column ", cols); err != nil {
		return nil, err
	}
	f := newFisher(bandwidth, maxValues, rows, cols)
	sr, sc := f.prepareAll(rows), f.prepareAll(cols)
	return cross(ctx, len(sr), len(sc), "persistence fisher", prog, func() pairFunc {
		var s fisherScratch
		return func(i, j int) float64 { return f.distance(&sr[i], &sc[j], &s) }
	})
}
