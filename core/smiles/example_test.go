package smiles_test

import (
	"errors"
	"fmt"

	"wkpi-web/core/smiles"
)

func ExampleParse() {
	// Acetic acid: nodes in the order of the atoms, hydrogens dropped.
	g, err := smiles.Parse("CC(=O)[OH]")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.N, g.NodeLabels)
	fmt.Println(g.Edges, g.EdgeLabels)

	_, err = smiles.Parse("C1CC(=O")
	var se *smiles.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Pos, se.Msg)
	}
	// Output:
	// 4 [C C O O]
	// [{0 1} {1 2} {1 3}] [1 2 1]
	// 5 '(' is never closed
}
