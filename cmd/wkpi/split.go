package main

import (
	"fmt"
	"io"
	"slices"

	"wkpi-web/core/eval"
	"wkpi-web/core/graph"
	"wkpi-web/core/spec"
)

// groups gives each graph of ds its group for u's fold split
// (eval.Setup.Groups), reading the node and edge code tables of a TU
// dataset's README.txt; nil for split random. It tells stdout how the graphs group.
func (c *settingsFlags) groups(u eval.Setup, ds *graph.Dataset, stdout io.Writer) ([]int, error) {
	if u.Spec.Split != spec.SplitScaffold {
		return nil, nil
	}
	nodes, edges, err := c.labelNames()
	if err != nil {
		return nil, err
	}
	groups, err := u.Groups(ds.Graphs, nodes, edges)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ds.Name, err)
	}
	size := make([]int, slices.Max(groups)+1)
	for _, g := range groups {
		size[g]++
	}
	fmt.Fprintf(stdout, "scaffold split: %d graphs in %d Bemis-Murcko scaffolds (the largest holds %d), each scaffold whole in one fold\n", len(groups), len(size), slices.Max(size))
	return groups, nil
}
