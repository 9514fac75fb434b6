package graph

import (
	"sort"
	"strconv"
)

// Dataset is a list of graphs with one class label each.
type Dataset struct {
	Name    string
	Graphs  []*Graph
	Labels  []int    // class index per graph, into Classes
	Classes []string // the labels' original text, in sorted order
	// Names is nil, or the name of each graph (a molecule's name or id,
	// else where the file has it, such as "row 3").
	Names []string
	// Molecules is nil, or each graph as its file gives it, a SMILES or
	// a molfile whose atom i is the graph's node i ("" for a graph given
	// otherwise), for drawing it as chemists do.
	Molecules []string
}

// ClassIndex maps raw label texts to class indices 0..k-1. Classes are
// sorted numerically when every label is a number (so "-1" < "1" and
// "2" < "10"), and as text otherwise.
func ClassIndex(raw []string) (labels []int, classes []string) {
	seen := map[string]bool{}
	for _, r := range raw {
		if !seen[r] {
			seen[r] = true
			classes = append(classes, r)
		}
	}
	numeric := true
	values := map[string]float64{}
	for _, c := range classes {
		v, err := strconv.ParseFloat(c, 64)
		if err != nil {
			numeric = false
			break
		}
		values[c] = v
	}
	sort.Slice(classes, func(i, j int) bool {
		if numeric && values[classes[i]] != values[classes[j]] {
			return values[classes[i]] < values[classes[j]]
		}
		return classes[i] < classes[j]
	})
	index := make(map[string]int, len(classes))
	for i, c := range classes {
		index[c] = i
	}
	labels = make([]int, len(raw))
	for i, r := range raw {
		labels[i] = index[r]
	}
	return labels, classes
}
