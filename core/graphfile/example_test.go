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

func ExampleReadFile() {
	csv := "name,smiles,activity\nethanol,CCO,1\nbroken,C1CC,0\n"
	f, err := graphfile.ReadFile("mols.csv", []byte(csv), graphfile.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range f.Records {
		if r.Err != nil {
			fmt.Println(r.Err)
			continue
		}
		activity, _ := r.Prop("activity")
		fmt.Println(r.Name, r.Graph.NodeLabels, activity)
	}
	// Output:
	// ethanol [C C O] 1
	// mols.csv row 2 (line 3): SMILES "C1CC": character 2: ring bond 1 is never closed
}
