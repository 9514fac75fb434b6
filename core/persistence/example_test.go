package persistence_test

import (
	"fmt"

	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
)

// A square with a diagonal, filtered by the node values 0, 1, 2, 3.
func ExampleExtended() {
	g, err := graph.New(4, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 0}, {U: 0, V: 2}}, nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	d := persistence.Extended(g, []float64{0, 1, 2, 3}).DropZero()
	fmt.Println("Ext0", d.Ext0)
	fmt.Println("Ext1", d.Ext1)
	fmt.Println("Ord0", len(d.Ord0), "Rel1", len(d.Rel1))
	// Output:
	// Ext0 [{0 3}]
	// Ext1 [{2 0} {3 0}]
	// Ord0 0 Rel1 0
}
