package filtration

import (
	"math/rand/v2"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

func mustGraph(tb testing.TB, n int, edges []graph.Edge) *graph.Graph {
	tb.Helper()
	g, err := graph.New(n, edges, nil, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func complete(tb testing.TB, n int) *graph.Graph {
	var es []graph.Edge
	for u := range n {
		for v := u + 1; v < n; v++ {
			es = append(es, graph.Edge{U: u, V: v})
		}
	}
	return mustGraph(tb, n, es)
}

func cycle(tb testing.TB, n int) *graph.Graph {
	var es []graph.Edge
	for u := range n {
		es = append(es, graph.Edge{U: u, V: (u + 1) % n})
	}
	return mustGraph(tb, n, es)
}

// randomGraph is an Erdős–Rényi G(n, p) graph, seeded for reproducibility.
func randomGraph(tb testing.TB, n int, p float64, seed uint64) *graph.Graph {
	r := rand.New(rand.NewPCG(seed, 7))
	var es []graph.Edge
	for u := range n {
		for v := u + 1; v < n; v++ {
			if r.Float64() < p {
				es = append(es, graph.Edge{U: u, V: v})
			}
		}
	}
	return mustGraph(tb, n, es)
}

// bfsDistances is the brute-force all-pairs shortest-path oracle for the
// local distance rule of supportDistances; -1 marks unreachable pairs.
func bfsDistances(g *graph.Graph) [][]int {
	adj := g.Neighbors()
	dist := make([][]int, g.N)
	for s := range g.N {
		d := make([]int, g.N)
		for i := range d {
			d[i] = -1
		}
		d[s] = 0
		queue := []int{s}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, v := range adj[u] {
				if d[v] < 0 {
					d[v] = d[u] + 1
					queue = append(queue, v)
				}
			}
		}
		dist[s] = d
	}
	return dist
}

// readTU loads a TU dataset's graphs.
func readTU(tb testing.TB, name string) []*graph.Graph {
	tb.Helper()
	ds, err := tu.ReadDir(testenv.Dataset(tb, name))
	if err != nil {
		tb.Fatal(err)
	}
	return ds.Graphs
}
