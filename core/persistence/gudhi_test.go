package persistence

import (
	"math"
	"math/rand/v2"
	"testing"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/testenv"
)

type gudhiCase struct {
	g *graph.Graph
	f []float64
}

// gudhiExtended runs testdata/gudhi_extended.py on all cases in one process.
func gudhiExtended(t *testing.T, cases []gudhiCase) [][2][]Point {
	t.Helper()
	py := testenv.Python(t, "gudhi")
	type in struct {
		N     int       `json:"n"`
		Edges [][2]int  `json:"edges"`
		F     []float64 `json:"f"`
	}
	var ins []in
	for _, c := range cases {
		x := in{N: c.g.N, F: c.f, Edges: [][2]int{}}
		for _, e := range c.g.Edges {
			x.Edges = append(x.Edges, [2]int{e.U, e.V})
		}
		ins = append(ins, x)
	}
	var outs []struct{ Dim0, Dim1 [][2]float64 }
	testenv.RunJSON(t, py, []string{"testdata/gudhi_extended.py"}, ins, &outs)
	res := make([][2][]Point, len(outs))
	for i, o := range outs {
		for d, pts := range [2][][2]float64{o.Dim0, o.Dim1} {
			for _, p := range pts {
				res[i][d] = append(res[i][d], Point{Birth: p[0], Death: p[1]})
			}
		}
	}
	return res
}

// nonZero drops points whose persistence is below GUDHI's rounding: its
// extended filtration maps values into [-2, -1] and [1, 2] and back.
func nonZero(ps []Point) []Point {
	var out []Point
	for _, p := range ps {
		if math.Abs(p.Birth-p.Death) > 1e-9 {
			out = append(out, p)
		}
	}
	return out
}

// compareGudhi checks Extended against GUDHI by homological dimension
// (dim 0 = Ord0 and Ext0, dim 1 = Rel1 and Ext1) after dropping
// zero-persistence points, because GUDHI 3.7.1 may file a tied dimension-0
// point under Ext- and returns nothing at all for a constant function.
func compareGudhi(t *testing.T, name string, cases []gudhiCase) {
	want := gudhiExtended(t, cases)
	if len(want) != len(cases) {
		t.Fatalf("%s: %d GUDHI answers for %d graphs", name, len(want), len(cases))
	}
	for i, c := range cases {
		d := Extended(c.g, c.f).DropZero()
		got := [2][]Point{append(d.Ord0, d.Ext0...), append(d.Rel1, d.Ext1...)}
		for dim := range got {
			if w := nonZero(want[i][dim]); !sameMultiset(got[dim], w, 1e-9) {
				t.Errorf("%s graph %d (%d nodes, edges %v, f %v), dim %d:\ngot   %v\ngudhi %v",
					name, i, c.g.N, c.g.Edges, c.f, dim, sorted(got[dim]), sorted(w))
			}
		}
	}
}

func TestExtendedGudhiRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var cases []gudhiCase
	for trial := range 200 {
		g, f := randomGraph(t, r, 12, 0.15+0.4*r.Float64(), []int{2, 4, 1000}[trial%3])
		if trial%3 == 2 {
			for i := range f {
				f[i] = r.NormFloat64()
			}
		}
		cases = append(cases, gudhiCase{g, f})
	}
	compareGudhi(t, "random", cases)
}

func TestExtendedGudhiMUTAG(t *testing.T) {
	var cases []gudhiCase
	for _, g := range mutag(t) {
		cases = append(cases, gudhiCase{g, filtration.Degree(g)})
	}
	compareGudhi(t, "MUTAG", cases)
}
