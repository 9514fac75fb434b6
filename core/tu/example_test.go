package tu_test

import (
	"fmt"

	"wkpi-web/core/tu"
)

func ExampleReadFiles() {
	// Two graphs: a path on nodes 1-2-3 and a single edge 4-5. TU files
	// list every undirected edge in both directions.
	ds, err := tu.ReadFiles(map[string][]byte{
		"TOY_A.txt":               []byte("1, 2\n2, 1\n2, 3\n3, 2\n4, 5\n5, 4\n"),
		"TOY_graph_indicator.txt": []byte("1\n1\n1\n2\n2\n"),
		"TOY_graph_labels.txt":    []byte("-1\n1\n"),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, g := range ds.Graphs {
		fmt.Printf("graph %d: %d nodes, edges %v, class %s\n", i+1, g.N, g.Edges, ds.Classes[ds.Labels[i]])
	}
	// Output:
	// graph 1: 3 nodes, edges [{0 1} {1 2}], class -1
	// graph 2: 2 nodes, edges [{0 1}], class 1
}
