package wl_test

import (
	"context"
	"fmt"

	"wkpi-web/core/graph"
	"wkpi-web/core/wl"
)

func ExampleGram() {
	path, _ := graph.New(3, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, nil, nil)
	triangle, _ := graph.New(3, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 0, V: 2}}, nil, nil)
	vecs, _ := wl.Features([]*graph.Graph{path, triangle}, wl.Options{Iterations: 1})
	gram, _ := wl.Gram(context.Background(), vecs, nil)
	fmt.Println(gram)
	// Output: [[14 12] [12 18]]
}
