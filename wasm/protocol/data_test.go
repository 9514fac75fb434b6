package protocol

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestIsDataFile(t *testing.T) {
	for name, want := range map[string]bool{"mols.csv": true, "A.TSV": true, "x.sdf": true, "x.sd": true, "g.graphml": true, "g.xml": true,
		"MUTAG_A.txt": false, "MUTAG.zip": false, "a.mol": false, "csv": false, "dir.csv/x.txt": false} {
		if IsDataFile(name) != want {
			t.Errorf("IsDataFile(%q) = %v", name, !want)
		}
	}
	for _, ext := range append([]string{".txt", ".zip"}, DataExtensions()...) {
		if !strings.Contains(","+UploadAccept+",", ","+ext+",") {
			t.Errorf("the upload does not accept %s: %q", ext, UploadAccept)
		}
	}
}

// TestDatasetKey: the key names the files and, for a molecule file, its
// options: the same file with another target or threshold is another
// dataset, for the pool and for the workers that hold one.
func TestDatasetKey(t *testing.T) {
	x, y := 6.0, 6.5
	f := File{Name: "m.csv", Data: []byte("smiles,y\nC,1\n")}
	tu := []File{{Name: "A_A.txt", Data: []byte("1, 2\n")}, {Name: "A_graph_labels.txt", Data: []byte("1\n")}}
	if got := DatasetKey(tu); got != "upload:A_A.txt:5,A_graph_labels.txt:2" {
		t.Errorf("TU key %q", got)
	}
	keys := map[string]bool{}
	for _, o := range []*DataOptions{nil, {}, {Target: "y"}, {Target: "y", Threshold: &x}, {Target: "y", Threshold: &y}, {Target: "y", Threshold: &y, SkipBad: true}, {SMILES: "smiles"}} {
		g := f
		g.Options = o
		keys[DatasetKey([]File{g})] = true
	}
	if len(keys) != 7 {
		t.Errorf("%d keys for 7 choices: %v", len(keys), keys)
	}
}

// TestOptionsTravel: a file's options cross postMessage with it; a
// Failed response's bad records reach the page through Err.
func TestOptionsTravel(t *testing.T) {
	x := 213.22644
	req := Request{ID: 2, Kind: Load, Dataset: "k", Files: []File{{Name: "m.sdf", Data: []byte("mol"), Options: &DataOptions{Target: "AMW", Threshold: &x, SkipBad: true}}},
		Inputs: []File{{Name: "n.csv", Data: []byte("smiles"), Options: &DataOptions{SMILES: "s"}}}}
	got, err := DecodeRequest(mustRequest(t, req))
	if err != nil || !reflect.DeepEqual(got, req) {
		t.Fatalf("request %+v (%v), want %+v", got, err, req)
	}
	bad := &BadRecords{File: "m.csv", Unit: "rows", Total: 7, Count: 1, First: []BadRecord{{Index: 3, Where: "row 3 (line 4)", Name: "m3", Problem: "row 3 (line 4): bad"}}}
	resp, err := DecodeResponse(mustEnvelope(t, Response{ID: 2, Event: Failed, Error: "m.csv: 1 of 7 rows cannot be read", Bad: bad}))
	if err != nil {
		t.Fatal(err)
	}
	var je *JobError
	if e := resp.Err(); !errors.As(e, &je) || e.Error() != "m.csv: 1 of 7 rows cannot be read" || !reflect.DeepEqual(je.Bad, bad) {
		t.Errorf("Err() = %v (%+v)", e, je)
	}
	if (Response{Event: Done}).Err() != nil {
		t.Error("a Done response has an error")
	}
	in := Response{ID: 3, Event: Done, Inspection: &DataInspection{File: "m.csv", Format: FormatCSV, Records: 7, Columns: []DataColumn{{Name: "y", Numeric: true, Median: 1, Examples: []string{"1"}}}, SMILES: "smiles", Bad: bad},
		Arrays: map[string][]float64{ColumnValues + "y": {1, 2}}}
	if back, err := DecodeResponse(mustEnvelope(t, in)); err != nil || !reflect.DeepEqual(back, in) {
		t.Errorf("inspection %+v (%v)", back, err)
	}
	if c := in.Inspection.Column("y"); c == nil || c.Median != 1 || in.Inspection.Column("z") != nil {
		t.Errorf("Column: %+v", c)
	}
}

func TestFormatWords(t *testing.T) {
	for _, c := range [][3]string{{FormatCSV, "a CSV table", "rows"}, {FormatTSV, "a TSV table", "rows"}, {FormatSD, "an SD file", "records"},
		{FormatGraphML, "a GraphML file", "graphs"}, {FormatTU, "a TU dataset", "graphs"}, {FormatSWC, "SWC neurons", "graphs"}} {
		if FormatName(c[0]) != c[1] || Unit(c[0]) != c[2] {
			t.Errorf("%s: %q, %q", c[0], FormatName(c[0]), Unit(c[0]))
		}
	}
	if !IsTable(FormatTSV) || IsTable(FormatSD) {
		t.Error("IsTable")
	}
}

// TestCountAgrees: counts agree with their noun: "1 record", not "1
// records", and a file of one bad record says so.
func TestCountAgrees(t *testing.T) {
	for _, tc := range []struct {
		n          int
		unit, want string
	}{
		{0, "rows", "0 rows"}, {1, "records", "1 record"}, {1, "graphs", "1 graph"}, {2, "records", "2 records"},
	} {
		if got := Count(tc.n, tc.unit); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.unit, got, tc.want)
		}
	}
	for _, tc := range []struct {
		b    BadRecords
		want string
	}{
		{BadRecords{Unit: "records", Total: 1, Count: 1}, "the only record"},
		{BadRecords{Unit: "rows", Total: 7, Count: 1}, "1 of the 7 rows"},
		{BadRecords{Unit: "rows", Total: 7, Count: 7}, "7 of the 7 rows"},
	} {
		if got := tc.b.Which(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.b, got, tc.want)
		}
	}
}
