package graphstats_test

import (
	"fmt"

	"wkpi-web/core/graph"
	"wkpi-web/core/graphstats"
)

func ExampleOf() {
	// A square with one diagonal: two triangles, two independent cycles.
	g, _ := graph.New(4, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 0, V: 3}, {U: 0, V: 2}}, nil, nil)
	stats := graphstats.Of(g)
	for k, name := range graphstats.Names() {
		if name == "edges" || name == "cycle rank" || name == "triangles" {
			fmt.Println(name, stats[k])
		}
	}
	// Output:
	// edges 5
	// cycle rank 2
	// triangles 2
}
