package graphfile_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
	"wkpi-web/core/smiles"
)

// fuzzNames chooses the parser; "f" has no extension, so the content is
// sniffed.
func fuzzNames() []string {
	return []string{"f.txt", "f.graphml", "f.sdf", "f.json", "f", "f.smi", "f.csv", "f.tsv"}
}

// FuzzParse checks that Parse never panics and that every graph it
// returns satisfies graph.New's invariants. Seeds live in
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		names := fuzzNames()
		gs, err := graphfile.Parse(names[int(kind)%len(names)], data)
		if err != nil {
			return
		}
		if len(gs) == 0 {
			t.Fatal("no graphs and no error")
		}
		for _, g := range gs {
			checkGraph(t, g)
		}
	})
}

// checkGraph fails unless g satisfies graph.New's invariants.
func checkGraph(t *testing.T, g *graph.Graph) {
	t.Helper()
	if g == nil {
		t.Fatal("nil graph")
	}
	for k, e := range g.Edges {
		if e.U < 0 || e.U >= e.V || e.V >= g.N {
			t.Fatalf("edge %v out of range for %d nodes", e, g.N)
		}
		if k > 0 {
			p := g.Edges[k-1]
			if p.U > e.U || (p.U == e.U && p.V >= e.V) {
				t.Fatalf("edges not sorted and distinct: %v", g.Edges)
			}
		}
	}
	if g.NodeLabels != nil && len(g.NodeLabels) != g.N {
		t.Fatalf("%d node labels for %d nodes", len(g.NodeLabels), g.N)
	}
	if g.EdgeLabels != nil && len(g.EdgeLabels) != len(g.Edges) {
		t.Fatalf("%d edge labels for %d edges", len(g.EdgeLabels), len(g.Edges))
	}
	if g.NodeValues != nil && len(g.NodeValues) != g.N {
		t.Fatalf("%d node values for %d nodes", len(g.NodeValues), g.N)
	}
}

// checkRecords fails unless every record has a graph or an error (not
// both), a place, a name and increasing numbers.
func checkRecords(t *testing.T, f *graphfile.File) {
	t.Helper()
	if len(f.Records) == 0 {
		t.Fatal("no records and no error")
	}
	for i, r := range f.Records {
		if (r.Err == nil) == (r.Graph == nil) || r.Where == "" || r.Name == "" {
			t.Fatalf("record %d: graph %v, error %v, where %q, name %q", i, r.Graph, r.Err, r.Where, r.Name)
		}
		if i > 0 && r.Index <= f.Records[i-1].Index {
			t.Fatalf("record %d: index %d after %d", i, r.Index, f.Records[i-1].Index)
		}
		if r.Graph != nil {
			checkGraph(t, r.Graph)
		}
	}
}

// FuzzReadTable checks that ReadTable never panics, that every row is a
// graph or an error, and that each graph is smiles.Parse of the row's
// SMILES field as ReadRows splits it, with the other fields as Props.
// Seeds live in testdata/fuzz/FuzzReadTable.
func FuzzReadTable(f *testing.F) {
	f.Fuzz(func(t *testing.T, tsv bool, column string, data []byte) {
		name := "f.csv"
		if tsv {
			name = "f.tsv"
		}
		file, err := graphfile.ReadTable(name, data, graphfile.Options{SMILESColumn: column})
		if err != nil {
			return
		}
		checkRecords(t, file)
		rows, err := graphfile.ReadRows(name, data, column)
		if err != nil {
			t.Fatalf("ReadTable reads what ReadRows refuses: %v", err)
		}
		if len(rows.Rows) != len(file.Records) {
			t.Fatalf("%d rows, %d records", len(rows.Rows), len(file.Records))
		}
		col := slices.Index(rows.Columns, file.SMILESColumn)
		for i, r := range file.Records {
			row := rows.Rows[i]
			if r.Index != row.Index || r.Where != row.Where() {
				t.Fatalf("record %d at %d %q, row at %d %q", i, r.Index, r.Where, row.Index, row.Where())
			}
			if r.Err != nil {
				continue
			}
			want, err := smiles.Parse(row.Fields[col])
			if err != nil || !reflect.DeepEqual(r.Graph, want) {
				t.Fatalf("row %d: graph %+v, smiles.Parse(%q) %+v, %v", i+1, r.Graph, row.Fields[col], want, err)
			}
			if len(r.Props) != len(rows.Columns)-1 {
				t.Fatalf("row %d: %d props for %d columns", i+1, len(r.Props), len(rows.Columns))
			}
		}
	})
}

// FuzzSMILESLines checks that a .smi file never panics the reader, and
// that every record is line Index of the file: its graph smiles.Parse of
// the line's first token and its name the rest of the line, or, the same
// for every record of a file, its graph the second token's and its name
// the others. Seeds live in testdata/fuzz/FuzzSMILESLines.
func FuzzSMILESLines(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := graphfile.ReadFile("f.smi", data, graphfile.Options{})
		if err != nil {
			return
		}
		checkRecords(t, file)
		text := strings.ReplaceAll(strings.TrimPrefix(string(data), "\xef\xbb\xbf"), "\r\n", "\n")
		lines := strings.Split(strings.ReplaceAll(text, "\r", "\n"), "\n")
		col := -1
		for _, r := range file.Records {
			if r.Index < 1 || r.Index > len(lines) {
				t.Fatalf("record at line %d of %d", r.Index, len(lines))
			}
			fields := strings.Fields(lines[r.Index-1])
			if len(fields) == 0 {
				t.Fatalf("record at blank line %d", r.Index)
			}
			if r.Err != nil {
				continue
			}
			c := 0
			if len(fields) > 1 && fields[1] == r.Molecule && fields[0] != r.Molecule {
				c = 1
			}
			if col >= 0 && c != col {
				t.Fatalf("line %d: the SMILES in column %d, before in column %d", r.Index, c, col)
			}
			col = c
			want, err := smiles.Parse(fields[c])
			if err != nil || !reflect.DeepEqual(r.Graph, want) {
				t.Fatalf("line %d: graph %+v, smiles.Parse(%q) %+v, %v", r.Index, r.Graph, fields[c], want, err)
			}
			rest := slices.Delete(slices.Clone(fields), c, c+1)
			if name := strings.Join(rest, " "); name != "" && strings.Join(strings.Fields(r.Name), " ") != name {
				t.Fatalf("line %d: name %q, want %q", r.Index, r.Name, name)
			}
		}
	})
}
