package smiles

import (
	"testing"
	"time"

	"wkpi-web/core/graph"
)

// A ladder of 60 fused four-membered rings whose rungs are double bonds:
// every atom is an aromatic candidate and no single ring is aromatic (4
// electrons), so the fused-ring search goes on to pairs (6 electrons);
// the 60-ring system stays fast.
func TestLargeRingSystem(t *testing.T) {
	const n = 60
	var edges []graph.Edge
	var labels []string
	for i := range n + 1 {
		edges = append(edges, graph.Edge{U: 2 * i, V: 2*i + 1})
		labels = append(labels, BondDouble)
		if i < n {
			edges = append(edges, graph.Edge{U: 2 * i, V: 2*i + 2}, graph.Edge{U: 2*i + 1, V: 2*i + 3})
			labels = append(labels, BondSingle, BondSingle)
		}
	}
	nodes := make([]string, 2*n+2)
	for i := range nodes {
		nodes[i] = "C"
	}
	g, err := graph.New(2*n+2, edges, labels, nodes)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	Sanitize(g)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("sanitising the ladder took %v", d)
	}
	t.Logf("ladder of %d rings sanitised in %v", n, time.Since(start))
}
