package graphfile_test

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/graphfile"
)

// TestRegistry: every format has a name, extensions, media types where
// the edge knows one, a display name, a unit, a shape and a reader; no
// name or extension is claimed twice; and Lookup and ByExtension find
// every entry.
func TestRegistry(t *testing.T) {
	names, exts := map[graphfile.Format]bool{}, map[string]graphfile.Format{}
	for _, e := range graphfile.Formats() {
		if e.Name == "" || len(e.Extensions) == 0 || e.Display == "" || e.Unit == "" || e.Shape == "" || e.Parse == nil {
			t.Errorf("%q: incomplete entry %+v", e.Name, e)
		}
		if names[e.Name] {
			t.Errorf("%q registered twice", e.Name)
		}
		names[e.Name] = true
		if got, ok := graphfile.Lookup(e.Name); !ok || got.Name != e.Name {
			t.Errorf("Lookup(%q) = %q, %v", e.Name, got.Name, ok)
		}
		if e.Name.Display() != e.Display || e.Name.Unit() != e.Unit {
			t.Errorf("%q: Display %q, Unit %q", e.Name, e.Name.Display(), e.Name.Unit())
		}
		for _, x := range e.Extensions {
			if x != strings.ToLower(x) || !strings.HasPrefix(x, ".") {
				t.Errorf("%q: extension %q is not lower case with its dot", e.Name, x)
			}
			if other, dup := exts[x]; dup {
				t.Errorf("%s is claimed by %q and %q", x, other, e.Name)
			}
			exts[x] = e.Name
			if got, ok := graphfile.ByExtension(strings.ToUpper(x)); !ok || got.Name != e.Name {
				t.Errorf("ByExtension(%q) = %q, %v", strings.ToUpper(x), got.Name, ok)
			}
		}
	}
	if _, ok := graphfile.ByExtension(".txt"); ok {
		t.Error(".txt is claimed: the content decides between an edge list and SMILES lines")
	}
	if graphfile.Format("tu").Display() != "tu" || graphfile.Format("tu").Unit() != "records" {
		t.Error("a format the registry lacks")
	}
}

// TestExtensionsRead: each extension read before the registry (the lists
// as written by hand in core/graphfile, wasm/protocol, app/classify.go and
// cmd/edge) is read in the same format from a file of that format, and
// the registry claims no other extension.
func TestExtensionsRead(t *testing.T) {
	file := func(name string) string {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cases := []struct {
		ext, content string
		want         graphfile.Format
	}{
		{".edges", "0 1\n1 2\n", graphfile.FormatEdgeList},
		{".edgelist", "0 1\n1 2\n", graphfile.FormatEdgeList},
		{".el", "0 1\n1 2\n", graphfile.FormatEdgeList},
		{".txt", "0 1\n1 2\n", graphfile.FormatEdgeList},
		{".txt", "CCO ethanol\nc1ccccc1 benzene\n", graphfile.FormatSMILES},
		{".graphml", file("triangle.graphml"), graphfile.FormatGraphML},
		{".xml", file("triangle.graphml"), graphfile.FormatGraphML},
		{".mol", file("benzene.mol"), graphfile.FormatMol},
		{".sdf", file("two.sdf"), graphfile.FormatMolfile},
		{".sd", file("two.sdf"), graphfile.FormatMolfile},
		{".json", `{"nodes": 2, "edges": [[0, 1]]}`, graphfile.FormatJSON},
		{".smi", "CCO ethanol\n", graphfile.FormatSMILES},
		{".smiles", "CCO ethanol\n", graphfile.FormatSMILES},
		{".csv", "smiles,y\nCCO,1\n", graphfile.FormatCSV},
		{".csv", "0,1\n1,2\n", graphfile.FormatEdgeList},
		{".tsv", "smiles\ty\nCCO\t1\n", graphfile.FormatTSV},
		{"", file("triangle.graphml"), graphfile.FormatGraphML},
		{"", `[{"nodes": 2, "edges": [[0, 1]]}]`, graphfile.FormatJSON},
		{"", file("two.sdf"), graphfile.FormatMolfile},
		{"", "smiles;y\nCCO;1\n", graphfile.FormatCSV},
		{"", "smiles\ty\nCCO\t1\n", graphfile.FormatTSV},
	}
	claimed := map[string]bool{}
	for _, c := range cases {
		f, err := graphfile.ReadFile("f"+c.ext, []byte(c.content), graphfile.Options{})
		if err == nil {
			err = f.FirstError()
		}
		if err != nil || f.Format != c.want {
			t.Errorf("f%s: %v (%v), want %q", c.ext, f, err, c.want)
		}
		if c.ext != "" && c.ext != ".txt" {
			claimed[c.ext] = true
		}
	}
	for _, e := range graphfile.Formats() {
		for _, x := range e.Extensions {
			if !claimed[x] {
				t.Errorf("%s (%q) was not read before", x, e.Name)
			}
			delete(claimed, x)
		}
	}
	if len(claimed) > 0 {
		t.Errorf("no format claims %v", slices.Sorted(maps.Keys(claimed)))
	}
}
