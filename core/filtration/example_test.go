package filtration_test

import (
	"fmt"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
)

// The Ollivier-Ricci curvature of a 5-cycle is 1/4 on every edge; a
// 6-cycle is flat.
func ExampleCompute() {
	for _, n := range []int{5, 6} {
		var edges []graph.Edge
		for u := range n {
			edges = append(edges, graph.Edge{U: u, V: (u + 1) % n})
		}
		g, err := graph.New(n, edges, nil, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		f, err := filtration.Compute(g, filtration.Options{Kind: filtration.KindRicci})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("C%d: %.2f\n", n, f.Vertex)
	}
	// Output:
	// C5: [0.25 0.25 0.25 0.25 0.25]
	// C6: [0.00 0.00 0.00 0.00 0.00 0.00]
}
