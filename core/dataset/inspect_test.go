package dataset_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"wkpi-web/core/dataset"
)

func TestInspect(t *testing.T) {
	// No column is named smiles: the columns are listed all the same.
	in, err := dataset.Inspect("m.csv", []byte("mol,name,y,pIC50\nCCO,a,1,5.5\nC1CC,b,0,7\nCC,c,,6\n"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := &dataset.Inspection{Format: "csv", Records: 3, Name: "name", Columns: []dataset.Column{
		{Name: "mol", Values: 3, Distinct: 3, Examples: []string{"CCO", "C1CC", "CC"}},
		{Name: "name", Values: 3, Distinct: 3, Examples: []string{"a", "b", "c"}},
		{Name: "y", Values: 2, Distinct: 2, Numeric: true, Median: 0.5, Examples: []string{"1", "0"}},
		{Name: "pIC50", Values: 3, Distinct: 3, Numeric: true, Median: 6, Examples: []string{"5.5", "7", "6"}},
	}}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("got  %+v\nwant %+v", in, want)
	}
	// The SMILES column picked: the bad SMILES is counted.
	in, err = dataset.Inspect("m.csv", []byte("mol,name,y,pIC50\nCCO,a,1,5.5\nC1CC,b,0,7\nCC,c,,6\n"), dataset.Options{SMILES: "mol"})
	if err != nil {
		t.Fatal(err)
	}
	if in.SMILES != "mol" || in.Target != "y" || len(in.Columns) != 3 || len(in.Bad) != 1 || in.Bad[0].Where != "row 2 (line 3)" || in.Bad[0].Name != "b" {
		t.Errorf("with a SMILES column: %+v", in)
	}
	// SD properties in order of appearance.
	in, err = dataset.Inspect("m.sdf", []byte(sdf([]string{"a", "AMW", "12.5", "IC50", "3"}, []string{"b", "IC50", "4", "Note", "x"})), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range in.Columns {
		names = append(names, c.Name)
	}
	if in.Format != "sdf" || in.Records != 2 || !reflect.DeepEqual(names, []string{"AMW", "IC50", "Note"}) || in.Target != "" || in.Columns[1].Median != 3.5 {
		t.Errorf("SD file: %+v", in)
	}
	if _, err := dataset.Inspect("m.sdf", []byte(sdf([]string{"a", "AMW", "1"})), dataset.Options{Target: "IC50"}); err == nil || err.Error() != `m.sdf: no property "IC50"; the file has "AMW"` {
		t.Errorf("a missing target: %v", err)
	}
	if _, err := dataset.Inspect("m.csv", nil, dataset.Options{}); err == nil || err.Error() != "m.csv: empty file" {
		t.Errorf("empty: %v", err)
	}
}

// TestNotADataFile: a PNG named like a dataset is refused whole, by
// Inspect (what the page shows) and by Parse (what wkpi reads), saying
// that it is not the file its name promises; it is not one bad record.
func TestNotADataFile(t *testing.T) {
	png, err := os.ReadFile("../graphfile/testdata/icon.png")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, want string }{
		{"x.sdf", "x.sdf: this is not an SD file: it is a PNG image; an SD file is text"},
		{"x.csv", "x.csv: this is not a CSV table: it is a PNG image; a SMILES table is text"},
		{"x.tsv", "x.tsv: this is not a TSV table: it is a PNG image"},
		{"x.graphml", "x.graphml: this is not a GraphML file: it is a PNG image"},
		{"x.smi", "x.smi: this is not a SMILES file: it is a PNG image"},
	} {
		in, err := dataset.Inspect(tc.name, png, dataset.Options{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Inspect %s: %+v, %v\nwant %s…", tc.name, in, err, tc.want)
		}
		if _, _, err := dataset.Parse(tc.name, png, dataset.Options{SkipBad: true}); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Parse %s: %v\nwant %s…", tc.name, err, tc.want)
		}
	}
}
