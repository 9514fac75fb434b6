package eval

import (
	"errors"
	"fmt"

	"wkpi-web/core/crossval"
	"wkpi-web/core/graph"
	"wkpi-web/core/scaffold"
	"wkpi-web/core/spec"
)

// split gives each graph of labels its outer fold: stratified, or, when
// Grouped, with each group of Groups whole in one fold.
func (p Plan) split(labels []int) ([]int, error) {
	if !p.Grouped {
		return crossval.StratifiedKFold(labels, p.Folds, p.Seed)
	}
	if len(p.Groups) != len(labels) {
		return nil, fmt.Errorf("eval: a grouped split needs each graph's group: %d groups for %d graphs (Setup.Groups)", len(p.Groups), len(labels))
	}
	folds, err := crossval.GroupKFold(labels, p.Groups, p.Folds, p.Seed)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	return folds, nil
}

// Groups gives each graph its group for the fold split Spec.Split: nil
// for random, which needs none; for scaffold, the number of its
// molecule's Bemis-Murcko scaffold (core/scaffold), numbered in order of
// first appearance. Node and edge labels that are codes are read through
// nodeNames and edgeNames, a TU dataset's README tables
// (tu.NodeLabelNames, tu.EdgeLabelNames: MUTAG's node 0 is C, its edge 0
// aromatic); nil tables, or codes they lack, keep the labels as they are.
// A graph that is not then a molecule is an error: "split scaffold needs
// molecules with element symbols as node labels: graph 0, ...".
func (u Setup) Groups(graphs []*graph.Graph, nodeNames, edgeNames map[string]string) ([]int, error) {
	if u.Spec.Split != spec.SplitScaffold {
		return nil, nil
	}
	named := make([]*graph.Graph, len(graphs))
	for i, g := range graphs {
		h := *g
		h.NodeLabels, h.EdgeLabels = scaffold.Rename(g.NodeLabels, nodeNames), scaffold.Rename(g.EdgeLabels, edgeNames)
		named[i] = &h
	}
	groups, _, err := scaffold.Groups(named)
	if errors.Is(err, scaffold.ErrNoElements) && nodeNames == nil {
		return nil, fmt.Errorf("split %w (no table names the node label codes: a TU dataset's README.txt can)", err)
	}
	if err != nil {
		return nil, fmt.Errorf("split %w", err)
	}
	return groups, nil
}
