package features_test

import (
	"context"
	"fmt"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
)

func ExampleCompute() {
	square, _ := graph.New(4, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 0}}, nil, nil)
	kite, _ := graph.New(4, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 0}, {U: 2, V: 3}}, nil, nil)
	ds := &graph.Dataset{Graphs: []*graph.Graph{square, kite}, Labels: []int{0, 1}, Classes: []string{"square", "kite"}}

	set, err := features.Compute(context.Background(), ds, features.Default(filtration.KindRicci), nil)
	if err != nil {
		panic(err)
	}
	// The square's curvature is constant (1/2 on every edge of C4), so
	// only the kite has points: Ext0 runs from its pendant edge's
	// curvature to its triangle's.
	fmt.Println(len(set.Images), "image vectors of", set.Images[0].Len, "pixels")
	fmt.Printf("kite: ext0 %.3f, %d cycle\n", set.Diagrams[1].Ext0, len(set.Diagrams[1].Ext1))
	// Output:
	// 2 image vectors of 12800 pixels
	// kite: ext0 [{0.333 0.417}], 1 cycle
}
