package wl

import (
	"context"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"wkpi-web/core/graph"
)

func mustGraph(t *testing.T, n int, edges [][2]int, labels []string) *graph.Graph {
	t.Helper()
	es := make([]graph.Edge, len(edges))
	for i, e := range edges {
		es[i] = graph.Edge{U: e[0], V: e[1]}
	}
	g, err := graph.New(n, es, nil, labels)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestHandWorked: path P3 and triangle K3, h = 1, structure only.
// Iteration 0: every node has label a; both graphs count {a: 3}.
// Iteration 1: in P3 the ends become (a; a) and the middle (a; a a),
// in K3 every node becomes (a; a a). So
// k(P3, P3) = 9 + (2*2 + 1*1) = 14, k(K3, K3) = 9 + 9 = 18,
// k(P3, K3) = 9 + 1*3 = 12. With h = 0 all three are 9.
func TestHandWorked(t *testing.T) {
	p3 := mustGraph(t, 3, [][2]int{{0, 1}, {1, 2}}, nil)
	k3 := mustGraph(t, 3, [][2]int{{0, 1}, {1, 2}, {0, 2}}, nil)
	for _, c := range []struct {
		h    int
		want [][]float64
	}{
		{0, [][]float64{{9, 9}, {9, 9}}},
		{1, [][]float64{{14, 12}, {12, 18}}},
		// h = 2: P3's ends (a;a) -> ((a;a); (a;aa)), middle -> ((a;aa); (a;a)(a;a)),
		// K3 all ((a;aa); (a;aa)(a;aa)): no new shared label, so +4+1 and +9.
		{2, [][]float64{{19, 12}, {12, 27}}},
	} {
		vecs, err := Features([]*graph.Graph{p3, k3}, Options{Iterations: c.h})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Gram(context.Background(), vecs, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range c.want {
			for j := range c.want[i] {
				if got[i][j] != c.want[i][j] {
					t.Errorf("h=%d: K[%d][%d] = %g, want %g", c.h, i, j, got[i][j], c.want[i][j])
				}
			}
		}
	}
}

// bruteKernel relabels with explicit strings (label + sorted neighbour
// labels, nested) and counts multisets per iteration: the textbook
// definition, without any dictionary.
func bruteKernel(a, b *graph.Graph, o Options) float64 {
	strLabels := func(g *graph.Graph) [][]string {
		cur := make([]string, g.N)
		for v := range cur {
			cur[v] = "a" // never empty, so "(a|)" and "(a|a)" differ
			if o.NodeLabels {
				cur[v] += g.NodeLabels[v]
			}
		}
		adj := g.Neighbors()
		all := [][]string{append([]string(nil), cur...)}
		for range o.Iterations {
			next := make([]string, g.N)
			for v := range cur {
				var nb []string
				for _, u := range adj[v] {
					nb = append(nb, cur[u])
				}
				sort.Strings(nb)
				next[v] = "(" + cur[v] + "|" + strings.Join(nb, ",") + ")"
			}
			cur = next
			all = append(all, append([]string(nil), cur...))
		}
		return all
	}
	la, lb := strLabels(a), strLabels(b)
	var k float64
	for i := range la {
		ca := map[string]float64{}
		for _, l := range la[i] {
			ca[l]++
		}
		for _, l := range lb[i] {
			k += ca[l]
		}
	}
	return k
}

func randomGraph(rng *rand.Rand, t *testing.T) *graph.Graph {
	n := 1 + rng.IntN(9)
	var edges [][2]int
	for u := range n {
		for v := u + 1; v < n; v++ {
			if rng.Float64() < 0.35 {
				edges = append(edges, [2]int{u, v})
			}
		}
	}
	labels := make([]string, n)
	for i := range labels {
		labels[i] = string(rune('A' + rng.IntN(3)))
	}
	return mustGraph(t, n, edges, labels)
}

func TestBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var gs []*graph.Graph
	for range 25 {
		gs = append(gs, randomGraph(rng, t))
	}
	for _, o := range []Options{{0, false}, {1, false}, {3, false}, {2, true}, {4, true}} {
		vecs, err := Features(gs, o)
		if err != nil {
			t.Fatal(err)
		}
		gram, err := Gram(context.Background(), vecs, nil)
		if err != nil {
			t.Fatal(err)
		}
		cross, err := Cross(context.Background(), vecs[:7], vecs[7:], nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range gs {
			for j := range gs {
				want := bruteKernel(gs[i], gs[j], o)
				if gram[i][j] != want {
					t.Fatalf("%+v: K[%d][%d] = %g, brute force %g", o, i, j, gram[i][j], want)
				}
				if i < 7 && j >= 7 && cross[i][j-7] != want {
					t.Fatalf("%+v: cross[%d][%d] = %g, brute force %g", o, i, j-7, cross[i][j-7], want)
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	g := mustGraph(t, 2, [][2]int{{0, 1}}, nil)
	if _, err := Features([]*graph.Graph{g}, Options{Iterations: -1}); err == nil {
		t.Error("negative iterations accepted")
	}
	if _, err := Features([]*graph.Graph{g}, Options{Iterations: 1, NodeLabels: true}); err == nil || !strings.Contains(err.Error(), "graph 0") {
		t.Errorf("missing node labels: err = %v, want one naming graph 0", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	vecs, _ := Features([]*graph.Graph{g, g}, Options{Iterations: 1})
	if _, err := Gram(ctx, vecs, nil); err == nil {
		t.Error("cancelled Gram returned no error")
	}
}
