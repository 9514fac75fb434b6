package scaffold_test

import (
	"fmt"

	"wkpi-web/core/graph"
	"wkpi-web/core/scaffold"
	"wkpi-web/core/smiles"
)

func ExampleOf() {
	// 4-methylacetophenone: the methyl and the acetyl group are side
	// chains; the scaffold is the benzene ring.
	g, _ := smiles.Parse("CC(=O)c1ccc(C)cc1")
	s, _ := scaffold.Of(g)
	fmt.Println(s.NodeLabels, s.EdgeLabels)

	// Benzophenone: the C=O links two rings and keeps its O.
	g, _ = smiles.Parse("c1ccccc1C(=O)c1ccccc1")
	s, _ = scaffold.Of(g)
	fmt.Println(s.N, s.NodeLabels[6], s.NodeLabels[7])
	// Output:
	// [C C C C C C] [4 4 4 4 4 4]
	// 14 C O
}

func ExampleKey() {
	// Toluene in Kekulé form and phenol in aromatic form share benzene's
	// key; an acyclic molecule's key is empty.
	var keys []string
	for _, s := range []string{"CC1=CC=CC=C1", "Oc1ccccc1", "CCO"} {
		g, _ := smiles.Parse(s)
		k, _ := scaffold.Key(g)
		keys = append(keys, k)
	}
	fmt.Println(keys[0] == keys[1], keys[0])
	fmt.Printf("%q\n", keys[2])
	// Output:
	// true C,C,C,C,C,C|0-1:4,0-2:4,1-3:4,2-4:4,3-5:4,4-5:4
	// ""
}

func ExampleGroups() {
	var graphs []*graph.Graph
	for _, s := range []string{"Cc1ccccc1", "CCCC", "c1ccncc1C", "Clc1ccccc1", "NCCO"} {
		g, _ := smiles.Parse(s)
		graphs = append(graphs, g)
	}
	groups, keys, err := scaffold.Groups(graphs)
	fmt.Println(groups, len(keys), err)
	// Output: [0 1 2 0 1] 3 <nil>
}

func ExampleCanonical() {
	a, _ := smiles.Parse("OCC")
	b, _ := smiles.Parse("CCO")
	fa, _ := scaffold.Canonical(a)
	fb, _ := scaffold.Canonical(b)
	fmt.Println(fa, fa == fb)
	// Output: C,C,O|0-1:1,1-2:1 true
}
