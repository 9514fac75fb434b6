package graphfile_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
)

// mustSMILES is smiles.Parse, the oracle of the readers' graphs.
func mustSMILES(t *testing.T, s string) *graph.Graph {
	t.Helper()
	g, err := smiles.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestSMILESLines(t *testing.T) {
	data := "# a comment\nSMILES Name\nCCO\tethanol\n\n  c1ccccc1   benzene ring  \nC=O\n[Na+].[Cl-] salt\n"
	f, err := graphfile.ReadFile("m.smi", []byte(data), graphfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ smiles, name, where string }{
		{"CCO", "ethanol", "line 3"},
		{"c1ccccc1", "benzene ring", "line 5"},
		{"C=O", "line 6", "line 6"},
		{"[Na+].[Cl-]", "salt", "line 7"},
	}
	if f.Format != graphfile.FormatSMILES || len(f.Records) != len(want) {
		t.Fatalf("format %s, %d records", f.Format, len(f.Records))
	}
	for i, w := range want {
		r := f.Records[i]
		if r.Err != nil || r.Name != w.name || r.Where != w.where || !reflect.DeepEqual(r.Graph, mustSMILES(t, w.smiles)) {
			t.Errorf("record %d: %+v, want %v", i, r, w)
		}
	}
	// A bad SMILES names the file, the line and the character.
	f, err = graphfile.ReadFile("m.smi", []byte("CCO a\nC1CC(C b\nCC c\n"), graphfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e := f.Records[1].Err; e == nil || e.Error() != `m.smi line 2: SMILES "C1CC(C": character 5: '(' is never closed` {
		t.Errorf("bad line: %v", e)
	}
	if f.Records[0].Err != nil || f.Records[2].Err != nil || f.Records[2].Name != "c" {
		t.Errorf("good lines around a bad one: %+v", f.Records)
	}
	if _, err := graphfile.Parse("m.smi", []byte("\n# nothing\n")); err == nil || err.Error() != "m.smi: empty file (no SMILES)" {
		t.Errorf("empty: %v", err)
	}
}

// TestSMILESNameFirst reads .smi files whose lines are a name, then a
// SMILES: the column is the file's, a bad line keeps its own error.
func TestSMILESNameFirst(t *testing.T) {
	data := "ID\tSMILES\nZINC1\tCCO  ethanol, a note\nZINC2 C1CC(\nZINC3\nCHEMBL4 c1ccccc1\nCHEMBL5 C#N\n"
	f, err := graphfile.ReadFile("m.smi", []byte(data), graphfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Records) != 5 {
		t.Fatalf("%d records: %+v", len(f.Records), f.Records)
	}
	if r := f.Records[0]; r.Err != nil || r.Name != "ZINC1 ethanol, a note" || r.Where != "line 2" || !reflect.DeepEqual(r.Graph, mustSMILES(t, "CCO")) {
		t.Errorf("line 2: %+v", r)
	}
	if e := f.Records[1].Err; e == nil || e.Error() != `m.smi line 3: SMILES "C1CC(": character 5: '(' is never closed` {
		t.Errorf("line 3: %v", e)
	}
	if e := f.Records[2].Err; e == nil || e.Error() != "m.smi line 4: a name and no SMILES after it (most lines of the file are a name, then a SMILES)" {
		t.Errorf("line 4: %v", e)
	}
	if r := f.Records[3]; r.Err != nil || r.Name != "CHEMBL4" || !reflect.DeepEqual(r.Graph, mustSMILES(t, "c1ccccc1")) {
		t.Errorf("line 5: %+v", r)
	}
	// SMILES first stays SMILES first, names that parse as SMILES and all.
	f, err = graphfile.ReadFile("m.smi", []byte("CCO C\nc1ccccc1 CN\n"), graphfile.Options{})
	if err != nil || f.Records[1].Name != "CN" || !reflect.DeepEqual(f.Records[1].Graph, mustSMILES(t, "c1ccccc1")) {
		t.Errorf("SMILES first: %+v, %v", f, err)
	}
}

// TestCDK2 reads RDKit's cdk2.smi, 47 lines "ZINC id\tSMILES": every
// graph equals smiles.Parse of the line's second field, named by its
// first, however the file is named.
func TestCDK2(t *testing.T) {
	data := testenv.RDKitData(t, "Contrib/Fastcluster/cdk2.smi")
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for _, name := range []string{"cdk2.smi", "cdk2.txt", "cdk2"} {
		f, err := graphfile.ReadFile(name, data, graphfile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Records) != len(lines) {
			t.Fatalf("%s: %d records for %d lines", name, len(f.Records), len(lines))
		}
		for i, line := range lines {
			id, s, _ := strings.Cut(line, "\t")
			if r := f.Records[i]; r.Err != nil || r.Name != id || !reflect.DeepEqual(r.Graph, mustSMILES(t, s)) {
				t.Fatalf("%s line %d: %+v", name, i+1, r)
			}
		}
	}
}

func TestTables(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		o          graphfile.Options
		smiles     []string
		names      []string
		props      [][]graphfile.Property
	}{
		{"m.csv", "ID,SMILES,active\r\nm1,CCO,1\r\n\r\nm2,\"C(=O)O\",0\r\n", graphfile.Options{},
			[]string{"CCO", "C(=O)O"}, []string{"m1", "m2"},
			[][]graphfile.Property{{{Key: "ID", Value: "m1"}, {Key: "active", Value: "1"}}, {{Key: "ID", Value: "m2"}, {Key: "active", Value: "0"}}}},
		// Tab separated, a quoted field with a comma, no name column.
		{"m.tsv", "smiles\tnote\nCC\t\"a, b\"\n", graphfile.Options{},
			[]string{"CC"}, []string{"row 1"}, [][]graphfile.Property{{{Key: "note", Value: "a, b"}}}},
		// Semicolons, found by the SMILES column; a named SMILES column.
		{"m.csv", "mol;name;y\nC#N;hcn;1\n", graphfile.Options{SMILESColumn: "mol"},
			[]string{"C#N"}, []string{"hcn"}, [][]graphfile.Property{{{Key: "name", Value: "hcn"}, {Key: "y", Value: "1"}}}},
		// An unknown extension with a SMILES header is a table.
		{"upload", "Smiles,label\nCO,x\n", graphfile.Options{},
			[]string{"CO"}, []string{"row 1"}, [][]graphfile.Property{{{Key: "label", Value: "x"}}}},
	} {
		f, err := graphfile.ReadFile(tc.name, []byte(tc.data), tc.o)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if len(f.Records) != len(tc.smiles) {
			t.Errorf("%s: %d records", tc.name, len(f.Records))
			continue
		}
		for i, r := range f.Records {
			if r.Err != nil || r.Name != tc.names[i] || !reflect.DeepEqual(r.Props, tc.props[i]) || !reflect.DeepEqual(r.Graph, mustSMILES(t, tc.smiles[i])) {
				t.Errorf("%s row %d: %+v", tc.name, i+1, r)
			}
		}
	}
	// Rows are numbered after the header, with their line: row 2 is on
	// line 4 here, after a blank line.
	f, err := graphfile.ReadTable("m.csv", []byte("smiles,y\nCC,1\n\nC1CC,0\nCC,2,3\n,1\n"), graphfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"",
		`m.csv row 2 (line 4): SMILES "C1CC": character 2: ring bond 1 is never closed`,
		"m.csv row 3 (line 5): 3 fields, but the header has 2",
		`m.csv row 4 (line 6): empty SMILES in column "smiles"`,
	} {
		r := f.Records[i]
		if got := errText(r.Err); got != want || (r.Err == nil) != (r.Graph != nil) {
			t.Errorf("row %d: %q, want %q", i+1, got, want)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestTableErrors(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		o          graphfile.Options
		want       string
	}{
		{"m.csv", "", graphfile.Options{}, "m.csv: empty file"},
		{"m.csv", "smiles,y\n", graphfile.Options{}, "m.csv: no data rows after the header"},
		{"m.tsv", "mol\ty\nCC\t1\n", graphfile.Options{}, `m.tsv line 1: no column is named "smiles"; the columns are "mol", "y"`},
		{"m.csv", "smiles,y\nCC,1\n", graphfile.Options{SMILESColumn: "mol"}, `m.csv line 1: no column is named "mol"; the columns are "smiles", "y"`},
		{"m.tsv", "CCO\t1.5\nCC\t2\n", graphfile.Options{}, `m.tsv line 1: no column is named "smiles"; the columns are "CCO", "1.5" (the first row looks like data: is the header row missing?)`},
		{"m.csv", "smiles,SMILES\nC,C\n", graphfile.Options{}, `m.csv line 1: columns 1 and 2 are both named like "smiles": name the SMILES column`},
		{"m.csv", "smiles,y,y\nC,1,1\n", graphfile.Options{}, `m.csv line 1: the header names columns 2 and 3 both "y"`},
		{"m.csv", "smiles,y\nC,\"1\n", graphfile.Options{}, `m.csv line 2, column 6: extraneous or missing " in quoted-field`},
		{"m.csv", "smiles,y\nC,1\"\n", graphfile.Options{}, `m.csv line 2, column 4: bare " in non-quoted-field`},
	} {
		_, err := graphfile.ReadTable(tc.name, []byte(tc.data), tc.o)
		if errText(err) != tc.want {
			t.Errorf("%q: error %v\n want %s", tc.data, err, tc.want)
		}
	}
}

// TestNCI5K reads RDKit's 4,999 NCI SMILES as a .smi file: every graph
// equals smiles.Parse of its line, named by the line's id, but for the
// six whose chemistry RDKit refuses (smiles.ParseMolecule, checked
// against RDKit), which carry its error with the line.
func TestNCI5K(t *testing.T) {
	data := testenv.RDKitData(t, "Data/NCI/first_5K.smi")
	f, err := graphfile.ReadFile("first_5K.smi", data, graphfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(f.Records) != len(lines) {
		t.Fatalf("%d records for %d lines", len(f.Records), len(lines))
	}
	refused := 0
	for i, line := range lines {
		s, id, _ := strings.Cut(line, "\t")
		r := f.Records[i]
		if _, err := smiles.ParseMolecule(s); err != nil {
			refused++
			if want := fmt.Sprintf("first_5K.smi line %d: SMILES %q: %v", i+1, s, err); len(s) <= 60 && (r.Err == nil || r.Err.Error() != want) {
				t.Errorf("line %d: %v, want %s", i+1, r.Err, want)
			}
			if r.Err == nil || !strings.HasPrefix(r.Err.Error(), fmt.Sprintf("first_5K.smi line %d: ", i+1)) || r.Graph != nil {
				t.Errorf("line %d: %+v, want the chemistry error %v", i+1, r, err)
			}
			continue
		}
		if r.Err != nil || r.Name != id || !reflect.DeepEqual(r.Graph, mustSMILES(t, s)) {
			t.Fatalf("line %d: %+v", i+1, r)
		}
	}
	if refused != 6 {
		t.Errorf("%d lines refused for their chemistry, RDKit refuses 6", refused)
	}
	// Renamed .txt or without extension it is SMILES too, never an edge
	// list between SMILES strings and names.
	for _, name := range []string{"first_5K.txt", "first_5K"} {
		g, err := graphfile.ReadFile(name, data, graphfile.Options{})
		if err != nil || g.Format != graphfile.FormatSMILES || len(g.Records) != len(lines) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
