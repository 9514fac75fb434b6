package tu_test

import (
	"strings"
	"testing"

	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// The tables of the shared datasets' READMEs, as they print them (checked
// by hand against data/*/README.txt): MUTAG 0..6, PTC_MR 0..17; NCI1 and
// PROTEINS give none.
func TestReadNodeLabelNames(t *testing.T) {
	for _, c := range []struct {
		dataset string
		want    map[string]string
	}{
		{"MUTAG", map[string]string{"0": "C", "1": "N", "2": "O", "3": "F", "4": "I", "5": "Cl", "6": "Br"}},
		{"PTC_MR", map[string]string{"0": "In", "1": "P", "2": "O", "3": "N", "4": "Na", "5": "C", "6": "Cl", "7": "S", "8": "Br",
			"9": "F", "10": "K", "11": "Cu", "12": "Zn", "13": "I", "14": "Ba", "15": "Sn", "16": "Pb", "17": "Ca"}},
		{"NCI1", nil},
		{"PROTEINS", nil},
	} {
		got, err := tu.ReadNodeLabelNames(testenv.Dataset(t, c.dataset))
		if err != nil {
			t.Fatalf("%s: %v", c.dataset, err)
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: %d names %v, want %d", c.dataset, len(got), got, len(c.want))
		}
		for code, name := range c.want {
			if got[code] != name {
				t.Errorf("%s: code %s is %q, want %q", c.dataset, code, got[code], name)
			}
		}
	}
}

// The edge tables of the READMEs: the same four bond types, numbered
// differently in MUTAG and PTC_MR.
func TestReadEdgeLabelNames(t *testing.T) {
	for _, c := range []struct {
		dataset string
		want    map[string]string
	}{
		{"MUTAG", map[string]string{"0": "aromatic", "1": "single", "2": "double", "3": "triple"}},
		{"PTC_MR", map[string]string{"0": "triple", "1": "double", "2": "single", "3": "aromatic"}},
		{"NCI1", nil},
	} {
		got, err := tu.ReadEdgeLabelNames(testenv.Dataset(t, c.dataset))
		if err != nil {
			t.Fatalf("%s: %v", c.dataset, err)
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: %d names %v, want %d", c.dataset, len(got), got, len(c.want))
		}
		for code, name := range c.want {
			if got[code] != name {
				t.Errorf("%s: code %s is %q, want %q", c.dataset, code, got[code], name)
			}
		}
	}
	// The node table is not read as the edge table, nor the other way.
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
