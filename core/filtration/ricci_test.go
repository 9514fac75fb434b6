package filtration

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"wkpi-web/core/graph"
	"wkpi-web/core/testenv"
)

// Closed forms at alpha = 1/2 (Ollivier; Jost & Liu for trees).
func TestRicciClosedForms(t *testing.T) {
	for _, n := range []int{2, 3, 4, 5, 7} {
		checkAll(t, fmt.Sprintf("K%d", n), complete(t, n), float64(n)/float64(2*(n-1)))
	}
	for n, want := range map[int]float64{3: 0.75, 4: 0.5, 5: 0.25, 6: 0, 7: 0, 10: 0} {
		checkAll(t, fmt.Sprintf("C%d", n), cycle(t, n), want)
	}
	// A random tree: node i hangs from a random earlier node.
	r := rand.New(rand.NewPCG(3, 4))
	var es []graph.Edge
	for i := 1; i < 40; i++ {
		es = append(es, graph.Edge{U: r.IntN(i), V: i})
	}
	tree := mustGraph(t, 40, es)
	deg := Degree(tree)
	for i, k := range RicciCurvature(tree, 0.5) {
		e := tree.Edges[i]
		if want := 1/deg[e.U] + 1/deg[e.V] - 1; math.Abs(k-want) > 1e-12 {
			t.Errorf("tree edge %v (degrees %v, %v): kappa %v, want %v", e, deg[e.U], deg[e.V], k, want)
		}
	}
}

func checkAll(t *testing.T, name string, g *graph.Graph, want float64) {
	t.Helper()
	for i, k := range RicciCurvature(g, 0.5) {
		if math.Abs(k-want) > 1e-12 {
			t.Errorf("%s edge %v: kappa %v, want %v", name, g.Edges[i], k, want)
		}
	}
}

// Idleness 1 keeps all mass in place, so W1 = d(u,v) = 1 and kappa = 0.
func TestRicciAlphaBounds(t *testing.T) {
	g := randomGraph(t, 12, 0.3, 1)
	for _, k := range RicciCurvature(g, 1) {
		if math.Abs(k) > 1e-12 {
			t.Fatalf("alpha 1: kappa %v, want 0", k)
		}
	}
	for _, alpha := range []float64{-0.1, 1.5, math.NaN()} {
		for _, k := range RicciCurvature(g, alpha) {
			if !math.IsNaN(k) {
				t.Fatalf("alpha %v: kappa %v, want NaN", alpha, k)
			}
		}
	}
}

// The local distance rule must agree with BFS in the whole graph.
func TestSupportDistancesMatchBFS(t *testing.T) {
	graphs := []*graph.Graph{cycle(t, 5), cycle(t, 6)}
	for seed := range uint64(15) {
		graphs = append(graphs, randomGraph(t, 8+int(seed)*2, 0.08+0.03*float64(seed), seed))
	}
	graphs = append(graphs, readTU(t, "MUTAG")[:20]...)
	for gi, g := range graphs {
		dist := bfsDistances(g)
		adj := g.Neighbors()
		d := supportDistances{mark: make([]int, g.N)}
		for _, e := range g.Edges {
			su := append([]int{e.U}, adj[e.U]...)
			sv := append([]int{e.V}, adj[e.V]...)
			cost := d.costs(adj, e.U, e.V)
			for i, x := range su {
				for j, y := range sv {
					if got := cost[i*len(sv)+j]; got != dist[x][y] {
						t.Fatalf("graph %d edge %v: d(%d,%d) = %d, BFS says %d", gi, e, x, y, got, dist[x][y])
					}
				}
			}
		}
	}
}

// The min-cost-flow solver against gonum's simplex on random problems,
// including zero masses (alpha = 0 gives one).
func TestTransportMatchesSimplex(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var w transport
	for trial := range 300 {
		k, l := 1+r.IntN(7), 1+r.IntN(7)
		a, b := randomMass(r, k), randomMass(r, l)
		cost := make([]int, k*l)
		for i := range cost {
			cost[i] = r.IntN(6)
		}
		got := w.w1(a, b, cost)
		want := simplexW1(t, a, b, cost)
		if math.Abs(got-want) > 1e-9 {
			t.Fatalf("trial %d: a=%v b=%v cost=%v: w1 %v, simplex %v", trial, a, b, cost, got, want)
		}
	}
}

func randomMass(r *rand.Rand, n int) []float64 {
	m := make([]float64, n)
	sum := 0.0
	for i := range m {
		if r.IntN(5) > 0 || i == 0 {
			m[i] = r.Float64()
		}
		sum += m[i]
	}
	for i := range m {
		m[i] /= sum
	}
	return m
}

// simplexW1 solves the transport LP in standard form: variables f_ij >= 0,
// row sums a_i, column sums b_j with the last one dropped (it is implied,
// and the simplex needs full row rank). Zero-mass points are left out
// first: they force their variables to zero, and gonum's phase 1 can
// report such degenerate problems infeasible.
func simplexW1(t *testing.T, a, b []float64, cost []int) float64 {
	var rows, cols []int
	for i, m := range a {
		if m > 0 {
			rows = append(rows, i)
		}
	}
	for j, m := range b {
		if m > 0 {
			cols = append(cols, j)
		}
	}
	k, l := len(rows), len(cols)
	c := make([]float64, k*l)
	A := mat.NewDense(k+l-1, k*l, nil)
	rhs := make([]float64, k+l-1)
	for i, ri := range rows {
		for j, cj := range cols {
			c[i*l+j] = float64(cost[ri*len(b)+cj])
			A.Set(i, i*l+j, 1)
			if j < l-1 {
				A.Set(k+j, i*l+j, 1)
				rhs[k+j] = b[cj]
			}
		}
		rhs[i] = a[ri]
	}
	opt, _, err := lp.Simplex(c, A, rhs, 1e-12, nil)
	if err != nil {
		t.Fatalf("simplex on a=%v b=%v cost=%v: %v", a, b, cost, err)
	}
	return opt
}

// Ricci curvature against POT's exact ot.emd2, with the cost matrix from
// whole-graph BFS, on random graphs and MUTAG molecules.
func TestRicciMatchesPOT(t *testing.T) {
	py := testenv.Python(t, "numpy", "ot")
	graphs := []*graph.Graph{cycle(t, 5)}
	for seed := range uint64(12) {
		graphs = append(graphs, randomGraph(t, 10+int(seed)*3, 0.1+0.04*float64(seed), seed+100))
	}
	mutag := readTU(t, "MUTAG")
	for _, i := range []int{0, 37, 74, 111, 148, 187} {
		graphs = append(graphs, mutag[i])
	}
	type problem struct {
		A []float64   `json:"a"`
		B []float64   `json:"b"`
		M [][]float64 `json:"M"`
	}
	type check struct {
		graph int
		edge  graph.Edge
		alpha float64
		kappa float64
	}
	var problems []problem
	var checks []check
	r := rand.New(rand.NewPCG(5, 6))
	alphas := []float64{0, 0.1, 0.5, 0.5, 0.75}
	for gi, g := range graphs {
		alpha := alphas[gi%len(alphas)]
		kappa := RicciCurvature(g, alpha)
		dist := bfsDistances(g)
		adj := g.Neighbors()
		for _, ei := range r.Perm(len(g.Edges))[:min(12, len(g.Edges))] {
			e := g.Edges[ei]
			su := append([]int{e.U}, adj[e.U]...)
			sv := append([]int{e.V}, adj[e.V]...)
			p := problem{A: oracleMeasure(len(su), alpha), B: oracleMeasure(len(sv), alpha)}
			for _, x := range su {
				row := make([]float64, len(sv))
				for j, y := range sv {
					row[j] = float64(dist[x][y])
				}
				p.M = append(p.M, row)
			}
			problems = append(problems, p)
			checks = append(checks, check{gi, e, alpha, kappa[ei]})
		}
	}
	if len(problems) < 150 {
		t.Fatalf("only %d edges sampled", len(problems))
	}
	var w1 []float64
	runOracle(t, py, "emd2.py", problems, &w1)
	if len(w1) != len(checks) {
		t.Fatalf("oracle returned %d values for %d problems", len(w1), len(checks))
	}
	for i, c := range checks {
		if want := 1 - w1[i]; math.Abs(c.kappa-want) > 1e-9 {
			t.Errorf("graph %d edge %v alpha %v: kappa %v, POT gives %v", c.graph, c.edge, c.alpha, c.kappa, want)
		}
	}
}

// oracleMeasure is m_u on [u, neighbours...] for a support of size n.
func oracleMeasure(n int, alpha float64) []float64 {
	m := []float64{alpha}
	for range n - 1 {
		m = append(m, (1-alpha)/float64(n-1))
	}
	return m
}
