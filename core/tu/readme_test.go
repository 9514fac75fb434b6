package tu_test

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// The tables of the shared datasets' READMEs, as they print them (checked
// by hand against data/*/README.txt), read from the folder and from a
// zip of it: MUTAG's nodes 0..6, PTC_MR's 0..17, and the same four bond
// types numbered differently; NCI1 and PROTEINS give none.
func TestReadLabelNames(t *testing.T) {
	bonds := []string{"aromatic", "single", "double", "triple"}
	for _, c := range []struct {
		dataset      string
		nodes, edges map[string]string
	}{
		{"MUTAG", map[string]string{"0": "C", "1": "N", "2": "O", "3": "F", "4": "I", "5": "Cl", "6": "Br"},
			map[string]string{"0": bonds[0], "1": bonds[1], "2": bonds[2], "3": bonds[3]}},
		{"PTC_MR", map[string]string{"0": "In", "1": "P", "2": "O", "3": "N", "4": "Na", "5": "C", "6": "Cl", "7": "S", "8": "Br",
			"9": "F", "10": "K", "11": "Cu", "12": "Zn", "13": "I", "14": "Ba", "15": "Sn", "16": "Pb", "17": "Ca"},
			map[string]string{"0": bonds[3], "1": bonds[2], "2": bonds[1], "3": bonds[0]}},
		{"NCI1", nil, nil},
		{"PROTEINS", nil, nil},
	} {
		dir := testenv.Dataset(t, c.dataset)
		zip := filepath.Join(t.TempDir(), c.dataset+".zip")
		if err := os.WriteFile(zip, testenv.Zip(t, testenv.Folder(t, dir, c.dataset+"/")), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, from := range []string{dir, zip} {
			nodes, edges, err := tu.ReadLabelNames(from)
			if err != nil {
				t.Fatalf("%s: %v", from, err)
			}
			if !maps.Equal(nodes, c.nodes) || !maps.Equal(edges, c.edges) {
				t.Errorf("%s: nodes %v, edges %v; want %v, %v", from, nodes, edges, c.nodes, c.edges)
			}
		}
	}
	// No README.txt: no tables; a conflicting one: an error naming the
	// dataset and the line.
	dir := t.TempDir()
	if nodes, edges, err := tu.ReadLabelNames(dir); nodes != nil || edges != nil || err != nil {
		t.Errorf("no README: %v %v %v", nodes, edges, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "README.txt"), []byte("Edge labels:\n  0 single\n  0 double\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := tu.ReadLabelNames(dir); err == nil || err.Error() != dir+`: README.txt line 3: edge label 0 is both "single" and "double"` {
		t.Errorf("a conflict: %v", err)
	}
}

// The node table is not read as the edge table, nor the other way.
func TestLabelNamesApart(t *testing.T) {
	readme := "Node labels:\n\n  0  C\n  1  N\n\nEdge labels:\n\n  0  aromatic\n"
	nodes, _ := tu.NodeLabelNames([]byte(readme))
	edges, err := tu.EdgeLabelNames([]byte(readme))
	if err != nil || nodes["0"] != "C" || edges["0"] != "aromatic" || len(edges) != 1 {
		t.Errorf("nodes %v, edges %v, %v", nodes, edges, err)
	}
}

func TestNodeLabelNamesTolerant(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       map[string]string
		bad        bool
	}{
		{"none", "README for dataset X\n\nEdge labels:\n\n  0  single\n", nil, false},
		{"tabs and CRLF", "Node labels:\r\n\r\n\t0\tC\r\n\t1\tN\r\n\r\nEdge labels:\r\n  0 aromatic\r\n", map[string]string{"0": "C", "1": "N"}, false},
		{"heading without table", "Node labels: see the paper\nThe end.\nNode labels:\n  2 O\n", map[string]string{"2": "O"}, false},
		{"ends at prose", "Node labels:\n  0 C\nsome text\n  1 N\n", map[string]string{"0": "C"}, false},
		{"two-word name", "Node labels:\n  0  C aromatic\n", map[string]string{"0": "C aromatic"}, false},
		{"conflict", "Node labels:\n  0 C\n  0 N\n", nil, true},
	} {
		got, err := tu.NodeLabelNames([]byte(c.text))
		if (err != nil) != c.bad {
			t.Errorf("%s: error %v, want error %v", c.name, err, c.bad)
			continue
		}
		if c.bad {
			if !strings.Contains(err.Error(), "line 3") {
				t.Errorf("%s: error %q does not name line 3", c.name, err)
			}
			continue
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%s: %s -> %q, want %q", c.name, k, got[k], v)
			}
		}
	}
}

// FuzzNodeLabelNames: any README either fails with an error or gives a
// table whose codes are integers and names non-empty. Seeds live in
// testdata/fuzz/FuzzNodeLabelNames.
func FuzzNodeLabelNames(f *testing.F) {
	f.Fuzz(func(t *testing.T, readme []byte) {
		table, err := tu.NodeLabelNames(readme)
		if err != nil {
			return
		}
		for code, name := range table {
			if strings.TrimSpace(code) == "" || strings.TrimSpace(name) == "" {
				t.Fatalf("entry %q -> %q", code, name)
			}
		}
	})
}
