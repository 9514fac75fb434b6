package filtration

import (
	"math"
	"slices"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/testenv"
)

func TestDegree(t *testing.T) {
	e := func(u, v int) graph.Edge { return graph.Edge{U: u, V: v} }
	// A star on 0 with leaves 1..3, an edge 4-5, and isolated 6.
	g := mustGraph(t, 7, []graph.Edge{e(0, 1), e(0, 2), e(3, 0), e(4, 5)})
	if got, want := Degree(g), []float64{3, 1, 1, 1, 1, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("Degree = %v, want %v", got, want)
	}
}

// The two HKS algorithms, tested separately; HeatKernelSignature picks one.
var hksMethods = []struct {
	name string
	hks  func(*graph.Graph, float64) []float64
}{{"eigen", hksEigen}, {"chebyshev", hksChebyshev}}

// K2's normalised Laplacian has eigenvalues 0 and 2 with eigenvectors
// (1, ±1)/√2, so HKS = (1 + exp(-2t))/2 at both ends; an isolated vertex
// has HKS 1 (the networkx convention).
func TestHKSClosedForm(t *testing.T) {
	g := mustGraph(t, 3, []graph.Edge{{U: 0, V: 1}})
	for _, m := range hksMethods {
		for _, time := range []float64{0, 0.1, 1, 10, 1000} {
			want := []float64{(1 + math.Exp(-2*time)) / 2, (1 + math.Exp(-2*time)) / 2, 1}
			got := m.hks(g, time)
			for v := range want {
				if math.Abs(got[v]-want[v]) > 1e-13 {
					t.Errorf("%s t=%v vertex %d: HKS %v, want %v", m.name, time, v, got[v], want[v])
				}
			}
		}
		if got := m.hks(mustGraph(t, 0, nil), 1); len(got) != 0 {
			t.Errorf("%s on the empty graph: %v", m.name, got)
		}
	}
	if got := HeatKernelSignature(g, math.NaN()); !math.IsNaN(got[0]) {
		t.Errorf("t=NaN: HKS %v, want NaN", got)
	}
}

// The Chebyshev expansion against the eigendecomposition over a wide range
// of times, on graphs with isolated vertices, and at the default time on
// PROTEINS' largest graph (one eigendecomposition of it takes seconds).
func TestHKSChebyshevMatchesEigen(t *testing.T) {
	graphs := []*graph.Graph{cycle(t, 9)}
	for seed := range uint64(4) {
		graphs = append(graphs, randomGraph(t, 15+10*int(seed), 0.1, seed+300))
	}
	proteins := readTU(t, "PROTEINS")
	big := slices.MaxFunc(proteins, func(a, b *graph.Graph) int { return a.N - b.N })
	graphs = append(graphs, big)
	worst := 0.0
	for gi, g := range graphs {
		times := []float64{0.01, 0.5, 3, 10, 40, 300}
		if g == big {
			times = []float64{DefaultHKSTime}
		}
		for _, time := range times {
			want, got := hksEigen(g, time), hksChebyshev(g, time)
			for v := range want {
				worst = max(worst, math.Abs(got[v]-want[v]))
				if math.Abs(got[v]-want[v]) > 1e-12 {
					t.Fatalf("graph %d (n=%d) t=%v vertex %d: chebyshev %v, eigen %v", gi, g.N, time, v, got[v], want[v])
				}
			}
		}
	}
	t.Logf("largest difference %.2g", worst)
}

// HKS against scipy's matrix exponential (not an eigendecomposition) on
// random graphs, some with isolated vertices, and MUTAG molecules.
func TestHKSMatchesPython(t *testing.T) {
	py := testenv.Python(t, "numpy", "scipy")
	type input struct {
		N     int      `json:"n"`
		Edges [][2]int `json:"edges"`
		T     float64  `json:"t"`
	}
	graphs := []*graph.Graph{cycle(t, 6), complete(t, 5)}
	for seed := range uint64(6) {
		graphs = append(graphs, randomGraph(t, 8+4*int(seed), 0.15, seed+200))
	}
	mutag := readTU(t, "MUTAG")
	graphs = append(graphs, mutag[3], mutag[90])
	times := []float64{0.1, 1, 10}
	var in []input
	for i, g := range graphs {
		p := input{N: g.N, T: times[i%len(times)]}
		for _, e := range g.Edges {
			p.Edges = append(p.Edges, [2]int{e.U, e.V})
		}
		in = append(in, p)
	}
	var want [][]float64
	runOracle(t, py, "hks.py", in, &want)
	isolated := 0
	for i, g := range graphs {
		for _, d := range Degree(g) {
			if d == 0 {
				isolated++
			}
		}
		for _, m := range hksMethods {
			got := m.hks(g, in[i].T)
			for v := range got {
				if math.Abs(got[v]-want[i][v]) > 1e-9 {
					t.Errorf("%s graph %d t=%v vertex %d: HKS %v, scipy %v", m.name, i, in[i].T, v, got[v], want[i][v])
				}
			}
		}
	}
	if isolated == 0 {
		t.Error("no isolated vertex exercised")
	}
}
