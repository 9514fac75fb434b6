package filtration

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"wkpi-web/core/graph"
)

// heatEigen is the oracle: exp(-tL) x through a dense eigendecomposition
// of the normalised Laplacian, V diag(exp(-t lambda)) V^T x.
func heatEigen(t *testing.T, g *graph.Graph, time float64, x []float64) []float64 {
	t.Helper()
	var eig mat.EigenSym
	if !eig.Factorize(normalisedLaplacian(g), true) {
		t.Fatal("eigendecomposition failed")
	}
	var v mat.Dense
	eig.VectorsTo(&v)
	vals := eig.Values(nil)
	d := make([]float64, len(vals))
	for i, l := range vals {
		d[i] = math.Exp(-time * l)
	}
	var vt, out mat.VecDense
	vt.MulVec(v.T(), mat.NewVecDense(g.N, x))
	for i := range d {
		vt.SetVec(i, vt.AtVec(i)*d[i])
	}
	out.MulVec(&v, &vt)
	return out.RawVector().Data
}

// On K2 plus an isolated vertex the heat of vertex 0's label is closed
// form: L has eigenvalues 0 and 2 with eigenvectors (1, ±1)/√2, so
// exp(-tL) e_0 = ((1+e^-2t)/2, (1-e^-2t)/2), and the isolated vertex
// (zero row of L) keeps its own heat.
func TestLabelHeatClosedForm(t *testing.T) {
	g := mustGraph(t, 3, []graph.Edge{{U: 0, V: 1}})
	for _, time := range []float64{0.1, 1, 10} {
		h, err := LabelHeat(g, []int{0, 1, 0}, 2, time)
		if err != nil {
			t.Fatal(err)
		}
		e := math.Exp(-2 * time)
		want := [][]float64{{(1 + e) / 2, (1 - e) / 2, 1}, {(1 - e) / 2, (1 + e) / 2, 0}}
		for k := range want {
			for v := range want[k] {
				if math.Abs(h[k][v]-want[k][v]) > 1e-13 {
					t.Errorf("t=%v group %d vertex %d: %v, want %v", time, k, v, h[k][v], want[k][v])
				}
			}
		}
	}
}

// Path, star and random graphs against the eigendecomposition.
func TestLabelHeatMatchesEigen(t *testing.T) {
	e := func(u, v int) graph.Edge { return graph.Edge{U: u, V: v} }
	path := mustGraph(t, 6, []graph.Edge{e(0, 1), e(1, 2), e(2, 3), e(3, 4), e(4, 5)})
	star := mustGraph(t, 6, []graph.Edge{e(0, 1), e(0, 2), e(0, 3), e(0, 4), e(0, 5)})
	graphs := []*graph.Graph{path, star, randomGraph(t, 25, 0.12, 7), randomGraph(t, 40, 0.08, 8)}
	for gi, g := range graphs {
		group := make([]int, g.N)
		for v := range group {
			group[v] = (v * 7) % 3
		}
		for _, time := range []float64{0.5, 1, 10} {
			h, err := LabelHeat(g, group, 3, time)
			if err != nil {
				t.Fatal(err)
			}
			for k := range 3 {
				x := make([]float64, g.N)
				for v, gv := range group {
					if gv == k {
						x[v] = 1
					}
				}
				want := heatEigen(t, g, time, x)
				for v := range want {
					if math.Abs(h[k][v]-want[v]) > 1e-12 {
						t.Fatalf("graph %d t=%v group %d vertex %d: %v, want %v", gi, time, k, v, h[k][v], want[v])
					}
				}
			}
		}
	}
}

func TestLabelHeatErrors(t *testing.T) {
	g := mustGraph(t, 2, []graph.Edge{{U: 0, V: 1}})
	for _, c := range []struct {
		group  []int
		groups int
		time   float64
	}{
		{[]int{0}, 1, 1},
		{[]int{0, 1}, 1, 1},
		{[]int{0, -1}, 1, 1},
		{[]int{0, 0}, 1, 0},
		{[]int{0, 0}, 1, math.Inf(1)},
		{[]int{0, 0}, 1, math.NaN()},
	} {
		if _, err := LabelHeat(g, c.group, c.groups, c.time); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}
