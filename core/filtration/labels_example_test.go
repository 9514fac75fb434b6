package filtration_test

import (
	"fmt"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
)

// Heat of a label on the path a - b - c with label "O" on a only, at time
// 1. By hand: L has eigenvalues 0, 1, 2 with eigenvectors (1, √2, 1)/2,
// (1, 0, -1)/√2, (1, -√2, 1)/2, so exp(-L) e_a = (1/4 + e^-1/2 + e^-2/4,
// √2/4 (1 - e^-2), 1/4 - e^-1/2 + e^-2/4).
func ExampleLabelHeat() {
	path, _ := graph.New(3, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, nil, []string{"O", "C", "C"})
	group := []int{0, 1, 1} // group 0: O, group 1: the rest
	heat, err := filtration.LabelHeat(path, group, 2, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("O: %.3f\n", heat[0])
	// Output:
	// O: [0.468 0.306 0.100]
}
