package graph_test

import (
	"fmt"

	"wkpi-web/core/graph"
)

func ExampleNew() {
	// A triangle with a pendant vertex, edges given in any order and repeated.
	g, err := graph.New(4, []graph.Edge{{U: 1, V: 0}, {U: 2, V: 1}, {U: 0, V: 2}, {U: 3, V: 2}, {U: 0, V: 1}}, nil, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Edges, g.Neighbors()[2])
	// Output: [{0 1} {0 2} {1 2} {2 3}] [0 1 3]
}
