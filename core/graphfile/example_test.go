package graphfile_test

import (
	"fmt"

	"wkpi-web/core/graphfile"
)

func ExampleParse() {
	graphs, err := graphfile.Parse("toy.json", []byte(`{"nodes": ["C", "O", "N"], "edges": [[0, 1], [1, 2]]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	g := graphs[0]
	fmt.Println(g.N, g.Edges, g.NodeLabels)
	// Output: 3 [{0 1} {1 2}] [C O N]
}
