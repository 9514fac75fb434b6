package pdkernel

import (
	"context"
	"fmt"
	"math"

	"wkpi-web/core/persistence"
	"wkpi-web/core/progress"
)

// PWGKParams set the linear persistence weighted Gaussian kernel
//
//	K(D, E) = sum_{p in D} sum_{q in E} w(p) w(q) exp(-|p-q|^2 / (2 Rho^2)).
type PWGKParams struct {
	Rho float64 // bandwidth of the Gaussian on the plane, > 0
	// C and P give Kusano et al.'s weight w_arc(p) = arctan(C pers(p)^P),
	// pers(p) = |death - birth|, used when Weight is nil (C > 0, P >= 0).
	C, P float64
	// Weight, when not nil, replaces w_arc: w(p) = Weight(birth, death).
	// It must return finite values.
	Weight func(birth, death float64) float64
}

func (p PWGKParams) validate() error {
	if !(p.Rho > 0) || math.IsInf(p.Rho, 0) {
		return fmt.Errorf("pdkernel: PWGK rho %g must be positive and finite", p.Rho)
	}
	if p.Weight == nil && (!(p.C > 0) || math.IsInf(p.C, 0) || !(p.P >= 0) || math.IsInf(p.P, 0)) {
		return fmt.Errorf("pdkernel: PWGK weight arctan(C pers^P) needs C > 0 and P >= 0 finite, got C %g, P %g", p.C, p.P)
	}
	return nil
}

func (p PWGKParams) weight(birth, death float64) float64 {
	if p.Weight != nil {
		return p.Weight(birth, death)
	}
	return math.Atan(p.C * math.Pow(math.Abs(death-birth), p.P))
}

// weighted is a diagram's distinct points with the weight of each times
// its multiplicity and, with a gaussTable, the table index of each
// point's birth and death.
type weighted struct {
	pts    []persistence.Point
	w      []float64
	ib, id []int32
}

// prepare returns each diagram's distinct points with their weights (what
// names the list in errors).
func (p PWGKParams) prepare(what string, diagrams [][]persistence.Point, t gaussTable) ([]weighted, error) {
	out := make([]weighted, len(diagrams))
	for i, d := range diagrams {
		pts, count := distinct(d)
		out[i] = weighted{pts: pts, w: count,
			ib: t.indices(func(k int) float64 { return pts[k].Birth }, len(pts)),
			id: t.indices(func(k int) float64 { return pts[k].Death }, len(pts))}
		for k, pt := range pts {
			w := p.weight(pt.Birth, pt.Death)
			if math.IsNaN(w) || math.IsInf(w, 0) {
				return nil, fmt.Errorf("pdkernel: PWGK weight %g of %sdiagram %d point (%g, %g) is not finite",
					w, what, i, pt.Birth, pt.Death)
			}
			out[i].w[k] *= w
		}
	}
	return out, nil
}

// pwgk returns K(a, b) by the exact double sum, c = 1/(2 rho^2), by the
// table t when there is one.
func pwgk(a, b *weighted, c float64, t gaussTable) float64 {
	var s float64
	for k, p := range a.pts {
		var row float64
		if t.e != nil {
			eb, ed := t.e[int(a.ib[k])*t.n:], t.e[int(a.id[k])*t.n:]
			for l := range b.pts {
				row += b.w[l] * eb[b.ib[l]] * ed[b.id[l]]
			}
		} else {
			for l, q := range b.pts {
				dx, dy := p.Birth-q.Birth, p.Death-q.Death
				row += b.w[l] * math.Exp(-c*(dx*dx+dy*dy))
			}
		}
		s += a.w[k] * row
	}
	return s
}

// PWGKLinear returns the symmetric Gram matrix of the linear PWGK
// (Kusano et al. 2016) over all pairs of diagrams, by the exact sums.
// GUDHI's PersistenceWeightedGaussianKernel(bandwidth=Rho) is this times
// 1/(sqrt(2 pi) Rho).
func PWGKLinear(ctx context.Context, diagrams [][]persistence.Point, p PWGKParams, prog progress.Func) ([][]float64, error) {
	return pwgkMatrix(ctx, diagrams, nil, p, maxTableValues, prog)
}

// PWGKLinearCross returns the len(rows) x len(cols) matrix K(rows[i], cols[j]).
func PWGKLinearCross(ctx context.Context, rows, cols [][]persistence.Point, p PWGKParams, prog progress.Func) ([][]float64, error) {
	if cols == nil {
		cols = [][]persistence.Point{} // not the all-pairs form
	}
	return pwgkMatrix(ctx, rows, cols, p, maxTableValues, prog)
}

// pwgkMatrix is the Gram matrix of rows when cols is nil, else the cross
// matrix, with a gaussTable of at most maxValues values (0: exponentials
// only, as the tests use).
func pwgkMatrix(ctx context.Context, rows, cols [][]persistence.Point, p PWGKParams, maxValues int, prog progress.Func) ([][]float64, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	c := 1 / (2 * p.Rho * p.Rho)
	if cols == nil {
		if err := checkDiagrams("", rows); err != nil {
			return nil, err
		}
		t := newGaussTable(c, maxValues, false, rows)
		wd, err := p.prepare("", rows, t)
		if err != nil {
			return nil, err
		}
		return symmetric(ctx, len(wd), false, "pwgk", prog, func() pairFunc {
			return func(i, j int) float64 { return pwgk(&wd[i], &wd[j], c, t) }
		})
	}
	if err := checkDiagrams("row ", rows); err != nil {
		return nil, err
	}
	if err := checkDiagrams("column ", cols); err != nil {
		return nil, err
	}
	t := newGaussTable(c, maxValues, false, rows, cols)
	wr, err := p.prepare("row ", rows, t)
	if err != nil {
		return nil, err
	}
	wc, err := p.prepare("column ", cols, t)
	if err != nil {
		return nil, err
	}
	return cross(ctx, len(wr), len(wc), "pwgk", prog, func() pairFunc {
		return func(i, j int) float64 { return pwgk(&wr[i], &wc[j], c, t) }
	})
}

// PWGKSelf returns K(D, D) for each diagram, equal to the diagonal of
// PWGKLinear: with PWGKLinearCross and SquaredDistancesCross it gives the
// RKHS distances of test diagrams to training diagrams.
func PWGKSelf(ctx context.Context, diagrams [][]persistence.Point, p PWGKParams) ([]float64, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	if err := checkDiagrams("", diagrams); err != nil {
		return nil, err
	}
	c := 1 / (2 * p.Rho * p.Rho)
	t := newGaussTable(c, maxTableValues, false, diagrams)
	wd, err := p.prepare("", diagrams, t)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(wd))
	for i := range wd {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = pwgk(&wd[i], &wd[i], c, t)
	}
	return out, nil
}
