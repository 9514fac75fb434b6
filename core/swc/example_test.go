package swc_test

import (
	"fmt"

	"wkpi-web/core/swc"
)

func ExampleParse() {
	// A soma, an axon sample 5 away and a dendrite sample 2 away.
	g, err := swc.Parse("toy.swc", []byte(`# id type x y z radius parent
1 1 0 0 0 5 -1
2 2 3 4 0 1 1
3 3 0 0 2 1 1
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.N, g.Edges, g.NodeValues)
	// Output: 3 [{0 1} {0 2}] [0 5 -2]
}
