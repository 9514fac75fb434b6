package dataset_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"wkpi-web/core/dataset"
	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

func mustSMILES(t *testing.T, s string) *graph.Graph {
	t.Helper()
	g, err := smiles.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func ptr(x float64) *float64 { return &x }

// sdf writes a tiny SD file: one record per title, a C-O molecule with
// the data items given (name -> value; "" leaves the item out).
func sdf(records ...[]string) string {
	var b strings.Builder
	for _, r := range records {
		b.WriteString(r[0] + "\n\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n" +
			"    0.0000    0.0000    0.0000 C   0  0\n    0.0000    0.0000    0.0000 O   0  0\n  1  2  1  0\nM  END\n")
		for i := 1; i+1 < len(r); i += 2 {
			fmt.Fprintf(&b, ">  <%s>\n%s\n\n", r[i], r[i+1])
		}
		b.WriteString("$$$$\n")
	}
	return b.String()
}

func TestTable(t *testing.T) {
	csv := "ID,SMILES,activity,note\nm1,CCO,active,x\nm2,c1ccccc1,inactive,y\n,C=O,active,z\n"
	ds, rep, err := dataset.Parse("mols.csv", []byte(csv), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := &graph.Dataset{Name: "mols",
		Graphs:  []*graph.Graph{mustSMILES(t, "CCO"), mustSMILES(t, "c1ccccc1"), mustSMILES(t, "C=O")},
		Labels:  []int{0, 1, 0},
		Classes: []string{"active", "inactive"},
		Names:   []string{"m1", "m2", "row 3"},
		// Each molecule as the table writes it, for drawing.
		Molecules: []string{"CCO", "c1ccccc1", "C=O"},
	}
	if !reflect.DeepEqual(ds, want) {
		t.Errorf("got %+v\nwant %+v", ds, want)
	}
	if !reflect.DeepEqual(*rep, dataset.Report{Format: "csv", SMILES: "SMILES", Target: "activity", Records: 3}) {
		t.Errorf("report %+v", rep)
	}
	// Another target, and numbers as classes in numeric order.
	ds, _, err = dataset.Parse("mols.tsv", []byte("smiles\ty\nC\t10\nCC\t-1\nCCC\t2\n"), dataset.Options{})
	if err != nil || !reflect.DeepEqual(ds.Classes, []string{"-1", "2", "10"}) || !reflect.DeepEqual(ds.Labels, []int{2, 0, 1}) {
		t.Errorf("numeric classes %+v %v", ds, err)
	}
	ds, _, err = dataset.Parse("mols.csv", []byte(csv), dataset.Options{Target: "NOTE"})
	if err != nil || !reflect.DeepEqual(ds.Classes, []string{"x", "y", "z"}) {
		t.Errorf("-target note: %+v %v", ds, err)
	}
}

func TestThreshold(t *testing.T) {
	csv := "smiles,pIC50\nC,4.5\nCC,7\nCCC,6.2\nCCCC, 5\n"
	ds, rep, err := dataset.Parse("m.csv", []byte(csv), dataset.Options{Threshold: ptr(6)})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ds.Classes, []string{"pIC50 < 6", "pIC50 >= 6"}) || !reflect.DeepEqual(ds.Labels, []int{0, 1, 1, 0}) {
		t.Errorf("classes %v labels %v", ds.Classes, ds.Labels)
	}
	if !rep.Numeric || rep.Median != 5.6 {
		t.Errorf("report %+v, want the median 5.6", rep)
	}
	if got := dataset.CutClasses("pAct", 0.25); !reflect.DeepEqual(got, []string{"pAct < 0.25", "pAct >= 0.25"}) {
		t.Errorf("CutClasses %v", got)
	}
	if m := dataset.Median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median %v", m)
	}
	// An even count: the mean of the middle two in its shortest decimal
	// form ((6.43 + 6.45) / 2 is 6.4399999999999995 in float64), which
	// splits the values as the mean does.
	for _, c := range []struct {
		values []float64
		want   float64
	}{
		{[]float64{6.45, 6.43}, 6.44},
		{[]float64{0.1, 0.2}, 0.15},
		{[]float64{1, 2, 9, 0}, 1.5},
		{[]float64{5, 5}, 5},
		{[]float64{1e-300, 3e-300}, 2e-300},
		{[]float64{1, math.Nextafter(1, 2)}, (1 + math.Nextafter(1, 2)) / 2},
	} {
		if m := dataset.Median(c.values); m != c.want {
			t.Errorf("median of %v: %v, want %v", c.values, m, c.want)
		}
	}
}

// TestSDValueLines: an error about an SD record's target names the line
// of its value, not the record's first line (each molfile of sdf takes
// 8 lines, each data item 3: header, value, blank).
func TestSDValueLines(t *testing.T) {
	data := sdf([]string{"a", "MW", "180", "pAct", "n/a"}, []string{"b", "pAct", "6.5"}, []string{"c", "pAct", ""})
	_, _, err := dataset.Parse("m.sdf", []byte(data), dataset.Options{Target: "pAct", Threshold: ptr(6)})
	var bad *dataset.BadRecordsError
	if !errors.As(err, &bad) || len(bad.Bad) != 2 ||
		bad.Bad[0].Problem != `m.sdf record 1 (line 13): target "pAct" is "n/a", not a number, which a threshold needs` ||
		bad.Bad[1].Problem != `m.sdf record 3 (line 37): empty target "pAct"` || bad.Bad[0].Where != "record 1 (line 1)" {
		t.Errorf("threshold: %v", err)
	}
	data = sdf([]string{"a", "pAct", "6"}, []string{"b", "pAct", "6.5"})
	_, _, err = dataset.Parse("m.sdf", []byte(data), dataset.Options{Target: "pAct"})
	if err == nil || !strings.Contains(err.Error(), `("6.5" in record 2 (line 22))`) {
		t.Errorf("real numbers: %v", err)
	}
}

func TestSDFAndGraphML(t *testing.T) {
	data := sdf([]string{"aspirin", "ACTIVITY", "1", "ID", "A1"}, []string{"", "ACTIVITY", "0", "ID", "B2"}, []string{"", "activity_2", "5", "ACTIVITY", "1"})
	ds, rep, err := dataset.Parse("mols.sdf", []byte(data), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ds.Names, []string{"aspirin", "B2", "record 3"}) || !reflect.DeepEqual(ds.Labels, []int{1, 0, 1}) ||
		!reflect.DeepEqual(ds.Classes, []string{"0", "1"}) || rep.Target != "ACTIVITY" || rep.Format != "sdf" {
		t.Errorf("got %+v %+v", ds, rep)
	}
	gml := `<graphml><key id="c" for="graph" attr.name="Class"/>
	<graph id="a"><data key="c">yes</data><node id="1"/><node id="2"/><edge source="1" target="2"/></graph>
	<graph id="b"><data key="c">no</data><node id="1"/></graph></graphml>`
	for _, target := range []string{"", "c", "Class"} {
		ds, rep, err = dataset.Parse("g.graphml", []byte(gml), dataset.Options{Target: target})
		if err != nil || !reflect.DeepEqual(ds.Names, []string{"a", "b"}) || !reflect.DeepEqual(ds.Classes, []string{"no", "yes"}) ||
			!reflect.DeepEqual(ds.Labels, []int{1, 0}) || rep.Target != "Class" {
			t.Errorf("-target %q: %+v %+v %v", target, ds, rep, err)
		}
	}
}

func TestSkipBad(t *testing.T) {
	csv := "smiles,y\nCCO,1\nC1CC,0\nCC,\nCC(=O,1\nC,0\nN,2,3\n"
	_, _, err := dataset.Parse("m.csv", []byte(csv), dataset.Options{})
	var bad *dataset.BadRecordsError
	if !errors.As(err, &bad) || bad.Total != 6 || len(bad.Bad) != 4 {
		t.Fatalf("error %v", err)
	}
	want := `m.csv: 4 of 6 rows cannot be read: row 2 (line 3): SMILES "C1CC": character 2: ring bond 1 is never closed; ` +
		`row 3 (line 4): empty target "y"; row 4 (line 5): SMILES "CC(=O": character 3: '(' is never closed; and 1 more`
	if err.Error() != want {
		t.Errorf("error\n %s\nwant\n %s", err, want)
	}
	ds, rep, err := dataset.Parse("m.csv", []byte(csv), dataset.Options{SkipBad: true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ds.Names, []string{"row 1", "row 5"}) || !reflect.DeepEqual(ds.Graphs, []*graph.Graph{mustSMILES(t, "CCO"), mustSMILES(t, "C")}) {
		t.Errorf("good rows %+v", ds)
	}
	var where []string
	for _, s := range rep.Skipped {
		where = append(where, s.Where)
	}
	if rep.Records != 6 || !reflect.DeepEqual(where, []string{"row 2 (line 3)", "row 3 (line 4)", "row 4 (line 5)", "row 6 (line 7)"}) ||
		rep.Skipped[3].Problem != "m.csv row 6 (line 7): 3 fields, but the header has 2" || rep.Skipped[0].Name != "row 2" {
		t.Errorf("report %+v", rep)
	}
}

// TestBadInput: every refusal names the file, the row or record where
// there is one, and the problem.
func TestBadInput(t *testing.T) {
	many := "smiles,y\n"
	for i := range 101 {
		many += fmt.Sprintf("C,%d\n", i)
	}
	for _, tc := range []struct {
		name, data string
		o          dataset.Options
		want       string
	}{
		{"m.csv", "", dataset.Options{}, "m.csv: empty file"},
		{"m.csv", "smiles,y\n", dataset.Options{}, "m.csv: no data rows after the header"},
		{"m.csv", "mol,y\nC,1\n", dataset.Options{}, `m.csv line 1: no column is named "smiles"; the columns are "mol", "y"`},
		{"m.csv", "C,1\nCC,2\n", dataset.Options{}, `m.csv line 1: no column is named "smiles"; the columns are "C", "1" (the first row looks like data: is the header row missing?)`},
		{"m.csv", "smiles,y\nC,1\n", dataset.Options{SMILES: "mol"}, `m.csv line 1: no column is named "mol"; the columns are "smiles", "y"`},
		{"m.csv", "smiles,y\nC,1\nCC,1\n", dataset.Options{Target: "z"}, `m.csv: no column "z"; the file has "y"`},
		{"m.csv", "smiles,y\nC,1\nCC,1\n", dataset.Options{Target: "smiles"}, `m.csv: the target "smiles" is the SMILES column`},
		{"m.csv", "smiles,name\nC,a\n", dataset.Options{}, `m.csv: no column holds classes: the columns are "smiles", "name"; add a class column`},
		{"m.csv", "smiles,y\nC1CC,1\nC,1\n", dataset.Options{}, `m.csv: 1 of 2 rows cannot be read: row 1 (line 2): SMILES "C1CC": character 2: ring bond 1 is never closed`},
		{"m.csv", "smiles,y\nC1CC,1\nC(,1\n", dataset.Options{SkipBad: true}, `m.csv: none of the 2 rows can be read: row 1 (line 2): SMILES "C1CC": character 2: ring bond 1 is never closed; row 2 (line 3): SMILES "C(": character 2: '(' is never closed`},
		{"m.csv", "smiles,y\nC,\nCC,1\n", dataset.Options{}, `m.csv: 1 of 2 rows cannot be read: row 1 (line 2): empty target "y"`},
		{"m.csv", "smiles,y\nC,1\nCC,1\n", dataset.Options{}, `m.csv: all 2 values of "y" are "1": a classifier needs two classes`},
		{"m.csv", "smiles,y\nC,1\nCC,n/a\n", dataset.Options{Threshold: ptr(0.5)}, `m.csv: 1 of 2 rows cannot be read: row 2 (line 3): target "y" is "n/a", not a number, which a threshold needs`},
		{"m.csv", "smiles,y\nC,1\nCC,3\n", dataset.Options{Threshold: ptr(0.5)}, `m.csv: every value of "y" is >= 0.5 (the values run from 1 to 3, median 2): the threshold leaves one class`},
		{"m.csv", "smiles,y\nC,1\nCC,3\n", dataset.Options{Threshold: ptr(math.NaN())}, "m.csv: the threshold NaN is not a finite number"},
		{"m.csv", "smiles,y\nC,1\nCC,2.5\n", dataset.Options{}, `m.csv: the target "y" holds real numbers ("2.5" in row 2 (line 3)): give a threshold to cut it into two classes (its median is 1.75)`},
		{"m.csv", "smiles,y\nC,1\nCC,1.0\nCCC,0\n", dataset.Options{}, `m.csv: the target "y" writes one number two ways, "1" in row 1 (line 2) and "1.0" in row 2 (line 3): write it alike`},
		{"m.csv", many, dataset.Options{}, `m.csv: the target "y" has 101 different values, more than 100 classes: give a threshold to cut it into two (its median is 50)`},
		{"m.csv", "smiles,y\nC,1\"\n", dataset.Options{}, `m.csv line 2, column 4: bare " in non-quoted-field`},
		{"m.sdf", sdf([]string{"a", "ACTIVITY", "1"}, []string{"b", "OTHER", "1"}), dataset.Options{}, `m.sdf: 1 of 2 records cannot be read: record 2 (line 13): no property <ACTIVITY>`},
		{"m.sdf", sdf([]string{"a", "AMW", "1"}), dataset.Options{Target: "ACT"}, `m.sdf: no property "ACT"; the file has "AMW"`},
		{"m.sdf", sdf([]string{"a", "AMW", "1", "CLOGP", "2"}), dataset.Options{}, `m.sdf: no property is named activity, class, label, target or y: name the one holding the class; the file has "AMW", "CLOGP"`},
		{"m.sdf", sdf([]string{"a"}), dataset.Options{}, `m.sdf: the records have no data items (> <NAME>) to take classes from`},
		{"m.sdf", sdf([]string{"a", "y", "1"}), dataset.Options{SMILES: "smiles"}, `m.sdf: a SMILES column is given, but the file is an SD file, not a table`},
		{"m.sdf", "\n\n", dataset.Options{}, "m.sdf: empty file (no molecules)"},
		{"g.graphml", `<graphml><graph><node id="a"/></graph></graphml>`, dataset.Options{}, "g.graphml: no graph-level <data>: give each <graph> a <data key=...> holding its class"},
		{"g.graphml", `<graphml><key id="y" for="graph"/><graph><data key="y">1</data><node id="a"/></graph><graph><node id="a"/></graph></graphml>`, dataset.Options{},
			`g.graphml: 1 of 2 graphs cannot be read: graph 2 (line 1): no <data> for the key "y"`},
		{"m.smi", "CCO ethanol\n", dataset.Options{}, "m.smi: a SMILES file holds no classes: a dataset is a CSV or TSV table of SMILES with a class column, an SD file with a class property, a GraphML file with a class per graph, a TU folder or zip, or a folder or zip of SWC neurons"},
		{"g.edges", "a b\n", dataset.Options{}, "g.edges: an edge list holds no classes: a dataset is a CSV or TSV table of SMILES with a class column, an SD file with a class property, a GraphML file with a class per graph, a TU folder or zip, or a folder or zip of SWC neurons"},
	} {
		_, _, err := dataset.Parse(tc.name, []byte(tc.data), tc.o)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s %.40q: error\n %v\nwant\n %s", tc.name, tc.data, err, tc.want)
		}
	}
}

// TestReadFolders: TU folders and SWC samples come through the same
// entry point, as core/tu and core/swc read them, and refuse options.
func TestReadFolders(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	ds, rep, err := dataset.Read(dir, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := tu.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ds, want) || rep.Format != dataset.FormatTU || rep.Records != 188 {
		t.Errorf("MUTAG through Read differs from tu.ReadDir (report %+v)", rep)
	}
	_, _, err = dataset.Read(dir, dataset.Options{Threshold: ptr(1), SkipBad: true})
	if err == nil || err.Error() != dir+": a TU folder takes no options (a threshold, skipping bad records given): its classes are in its label file" {
		t.Errorf("options on a TU folder: %v", err)
	}
	neurons := testenv.Dataset(t, "neurons-sample")
	if ds, rep, err := dataset.Read(neurons, dataset.Options{}); err != nil || rep.Format != dataset.FormatSWC || len(ds.Graphs) == 0 {
		t.Errorf("neurons: %v %+v", err, rep)
	}
	// A file is read by its base name.
	path := filepath.Join(t.TempDir(), "mols.csv")
	if err := os.WriteFile(path, []byte("smiles,y\nC1CC,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := dataset.Read(path, dataset.Options{}); err == nil || !strings.HasPrefix(err.Error(), "mols.csv: its only row cannot be read: row 1 (line 2)") {
		t.Errorf("file: %v", err)
	}
}
