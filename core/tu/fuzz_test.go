package tu_test

import (
	"testing"

	"wkpi-web/core/tu"
)

// FuzzReadFiles feeds arbitrary file contents; the reader must either fail
// cleanly or return a dataset whose graphs satisfy graph.New's invariants.
// Seeds live in testdata/fuzz/FuzzReadFiles.
func FuzzReadFiles(f *testing.F) {
	f.Fuzz(func(t *testing.T, a, indicator, graphLabels, nodeLabels, edgeLabels []byte) {
		files := map[string][]byte{
			"F_A.txt":               a,
			"F_graph_indicator.txt": indicator,
			"F_graph_labels.txt":    graphLabels,
		}
		if len(nodeLabels) > 0 {
			files["F_node_labels.txt"] = nodeLabels
		}
		if len(edgeLabels) > 0 {
			files["F_edge_labels.txt"] = edgeLabels
		}
		ds, err := tu.ReadFiles(files)
		if err != nil {
			return
		}
		checkInvariants(t, ds)
	})
}
