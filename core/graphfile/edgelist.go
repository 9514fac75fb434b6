package graphfile

import (
	"fmt"
	"strings"

	"wkpi-web/core/graph"
)

// parseEdgeList reads one graph given as lines "u v [label]", with nodes
// named by arbitrary tokens numbered in order of first appearance.
func parseEdgeList(name string, data []byte) (*graph.Graph, error) {
	index := map[string]int{}
	node := func(tok string) int {
		i, ok := index[tok]
		if !ok {
			i = len(index)
			index[tok] = i
		}
		return i
	}
	var edges []graph.Edge
	var labels []string
	labelled, unlabelled := 0, 0 // first line with and without an edge label
	for i, text := range splitLines(data) {
		line := i + 1
		if c := strings.IndexAny(text, "#%"); c >= 0 {
			text = text[:c]
		}
		var tok []string
		if strings.Contains(text, ",") {
			tok = strings.Split(text, ",")
			for k := range tok {
				tok[k] = strings.TrimSpace(tok[k])
				if tok[k] == "" {
					return nil, lineError(name, line, "empty field %d", k+1)
				}
			}
		} else {
			tok = strings.Fields(text)
		}
		switch len(tok) {
		case 0:
			continue
		case 1:
			node(tok[0])
			continue
		case 2, 3:
		default:
			return nil, lineError(name, line, "want \"u v\" or \"u v label\", got %d fields", len(tok))
		}
		if tok[0] == tok[1] {
			return nil, lineError(name, line, "self-loop on node %q", tok[0])
		}
		edges = append(edges, graph.Edge{U: node(tok[0]), V: node(tok[1])})
		if len(tok) == 3 {
			labels = append(labels, tok[2])
			if labelled == 0 {
				labelled = line
			}
		} else if unlabelled == 0 {
			unlabelled = line
		}
		if labelled != 0 && unlabelled != 0 {
			return nil, lineError(name, max(labelled, unlabelled), "edges on lines %d and %d disagree on having a label", min(labelled, unlabelled), max(labelled, unlabelled))
		}
	}
	if len(index) == 0 {
		return nil, fmt.Errorf("%s: empty file (no nodes)", name)
	}
	g, err := graph.New(len(index), edges, labels, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return g, nil
}
