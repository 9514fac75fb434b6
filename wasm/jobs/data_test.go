package jobs

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"wkpi-web/core/dataset"
	"wkpi-web/core/swc"
	"wkpi-web/core/testenv"
	"wkpi-web/wasm/protocol"
)

// first200 is RDKit's SD sample (testenv.RDKitData): 200 NCI molecules
// with many numeric properties, as an upload.
func first200(t *testing.T) protocol.File {
	return protocol.File{Name: "first_200.props.sdf", Data: testenv.RDKitData(t, "Data/NCI/first_200.props.sdf")}
}

// mols is a SMILES table with a name column, a text class and a
// numeric measurement; row 3's SMILES is bad, row 5 has no pIC50.
const mols = `ID,SMILES,activity,pIC50
m1,CCO,inactive,4.5
m2,c1ccccc1[N+](=O)[O-],active,7.25
m3,C1CC,active,6
m4,CC(=O)O,inactive,5
m5,c1ccncc1,active,
m6,CCN,inactive,5.5
m7,OCCO,active,8
`

func withOptions(f protocol.File, o protocol.DataOptions) protocol.File {
	f.Options = &o
	return f
}

func ptr(x float64) *float64 { return &x }

// load runs a Load of files on a fresh worker.
func load(files ...protocol.File) protocol.Response {
	var w Worker
	return w.Run(context.Background(), protocol.Request{ID: 1, Kind: protocol.Load, Dataset: "k", Files: files}, nil, nil)
}

// oracle is the summary of what dataset.Parse reads from f.
func oracle(t *testing.T, f protocol.File) *protocol.Summary {
	t.Helper()
	ds, _, err := dataset.Parse(f.Name, f.Data, coreOptions(f.Options))
	if err != nil {
		t.Fatal(err)
	}
	return Summarise(ds)
}

// TestLoadMoleculeFile: a Load of a molecule file with options gives the
// summary of the dataset dataset.Parse reads, with the graphs' names and
// the source (the target and SMILES columns read, the threshold, the
// records left out).
func TestLoadMoleculeFile(t *testing.T) {
	csv := protocol.File{Name: "mols.csv", Data: []byte(mols)}
	sdf := first200(t)
	for _, tc := range []struct {
		name string
		f    protocol.File
		want protocol.DataSource
	}{
		{"SD file cut at the median", withOptions(sdf, protocol.DataOptions{Target: "AMW", Threshold: ptr(213.22644)}),
			protocol.DataSource{File: sdf.Name, Format: "sdf", Records: 200, Options: protocol.DataOptions{Target: "AMW", Threshold: ptr(213.22644)}}},
		{"SD file by an integer property", withOptions(sdf, protocol.DataOptions{Target: "NUM_RINGS"}),
			protocol.DataSource{File: sdf.Name, Format: "sdf", Records: 200, Options: protocol.DataOptions{Target: "NUM_RINGS"}}},
		{"table, good rows, default target", withOptions(csv, protocol.DataOptions{SkipBad: true}),
			protocol.DataSource{File: "mols.csv", Format: "csv", Records: 7, Options: protocol.DataOptions{SMILES: "SMILES", Target: "activity", SkipBad: true},
				Skipped: &protocol.BadRecords{File: "mols.csv", Unit: "rows", Total: 7, Count: 1, First: []protocol.BadRecord{{Index: 3, Where: "row 3 (line 4)", Name: "m3",
					Problem: `row 3 (line 4): SMILES "C1CC": character 2: ring bond 1 is never closed`}}}}},
		{"table, threshold, good rows", withOptions(csv, protocol.DataOptions{SMILES: "SMILES", Target: "pIC50", Threshold: ptr(6), SkipBad: true}),
			protocol.DataSource{File: "mols.csv", Format: "csv", Records: 7, Options: protocol.DataOptions{SMILES: "SMILES", Target: "pIC50", Threshold: ptr(6), SkipBad: true},
				Skipped: &protocol.BadRecords{File: "mols.csv", Unit: "rows", Total: 7, Count: 2, First: []protocol.BadRecord{
					{Index: 3, Where: "row 3 (line 4)", Name: "m3", Problem: `row 3 (line 4): SMILES "C1CC": character 2: ring bond 1 is never closed`},
					{Index: 5, Where: "row 5 (line 6)", Name: "m5", Problem: `row 5 (line 6): empty target "pIC50"`}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := load(tc.f)
			if r.Event != protocol.Done {
				t.Fatalf("load: %s", r.Error)
			}
			want := oracle(t, tc.f)
			want.Source = &tc.want
			want.Molecules = true // SMILES and SD records are molecules
			if got, w := sumText(*r.Summary), sumText(*want); got != w {
				t.Errorf("summary\n got %s\nwant %s", got, w)
			}
			if len(r.Summary.Names) != r.Summary.Graphs || len(r.Summary.Classes) < 2 {
				t.Errorf("%d names for %d graphs, classes %v", len(r.Summary.Names), r.Summary.Graphs, r.Summary.Classes)
			}
		})
	}
	// By hand: the classes and names of the table's good rows.
	r := load(withOptions(csv, protocol.DataOptions{Target: "pIC50", Threshold: ptr(6), SkipBad: true}))
	if want := []protocol.Class{{Label: "pIC50 < 6", Count: 3}, {Label: "pIC50 >= 6", Count: 2}}; !reflect.DeepEqual(r.Summary.Classes, want) {
		t.Errorf("classes %v, want %v", r.Summary.Classes, want)
	}
	if want := []string{"m1", "m2", "m4", "m6", "m7"}; !reflect.DeepEqual(r.Summary.Names, want) {
		t.Errorf("names %q, want %q", r.Summary.Names, want)
	}
}

// TestLoadRefusals: what is not a dataset fails with a message, bad
// records with the list of them; the worker keeps the dataset it held.
func TestLoadRefusals(t *testing.T) {
	csv := protocol.File{Name: "mols.csv", Data: []byte(mols)}
	var many strings.Builder
	many.WriteString("smiles,y\n")
	for i := range 25 {
		if i%2 == 0 {
			fmt.Fprintf(&many, "C1C%d,a\n", i) // ring bond never closed
		} else {
			fmt.Fprintf(&many, "CC,%c\n", 'a'+i%2)
		}
	}
	for _, tc := range []struct {
		name       string
		f          protocol.File
		want       string
		bad, total int // bad records listed, if any
	}{
		{"a bad SMILES", csv, "1 of 7 rows cannot be read: row 3 (line 4)", 1, 7},
		{"a bad SMILES and an empty target", withOptions(csv, protocol.DataOptions{Target: "pIC50", Threshold: ptr(6)}), "2 of 7 rows cannot be read", 2, 7},
		{"a text target under a threshold", withOptions(csv, protocol.DataOptions{Target: "activity", Threshold: ptr(6), SkipBad: true}),
			"none of the 7 rows can be read", 7, 7},
		{"real numbers without a threshold", withOptions(csv, protocol.DataOptions{Target: "pIC50", SkipBad: true}), "give a threshold", 0, 0},
		{"a missing column", withOptions(csv, protocol.DataOptions{Target: "logP"}), `"logP"`, 0, 0},
		{"a single class", withOptions(csv, protocol.DataOptions{Target: "pIC50", Threshold: ptr(1), SkipBad: true}), "the threshold leaves one class", 0, 0},
		{"a missing SMILES column", withOptions(csv, protocol.DataOptions{SMILES: "smi"}), "smi", 0, 0},
		{"many bad rows", protocol.File{Name: "many.csv", Data: []byte(many.String())}, "13 of 25 rows cannot be read", 13, 25},
		{"options for a TU dataset", withOptions(files(t, "testdata")[0], protocol.DataOptions{Target: "x"}), "takes no options", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w Worker
			ctx := context.Background()
			if r := w.Run(ctx, protocol.Request{Kind: protocol.Load, Dataset: "star", Files: files(t, "testdata")}, nil, nil); r.Event != protocol.Done {
				t.Fatal(r.Error)
			}
			fs := []protocol.File{tc.f}
			if tc.name == "options for a TU dataset" {
				fs = append(fs, files(t, "testdata")[1:]...)
			}
			r := w.Run(ctx, protocol.Request{Kind: protocol.Load, Dataset: "new", Files: fs}, nil, nil)
			if r.Event != protocol.Failed || !strings.Contains(r.Error, tc.want) {
				t.Fatalf("response %q (%s), want a failure containing %q", r.Event, r.Error, tc.want)
			}
			err, _ := r.Err().(*protocol.JobError)
			if err == nil || err.Error() != r.Error {
				t.Fatalf("Err() = %v", r.Err())
			}
			switch {
			case tc.bad == 0 && r.Bad != nil:
				t.Errorf("bad records %+v listed for %q", r.Bad, r.Error)
			case tc.bad > 0 && (r.Bad == nil || r.Bad.Count != tc.bad || r.Bad.Total != tc.total || len(r.Bad.First) != min(tc.bad, protocol.ShownBad) || err.Bad != r.Bad):
				t.Errorf("bad records %+v, want %d of %d", r.Bad, tc.bad, tc.total)
			}
			if r := w.Run(ctx, protocol.Request{Kind: protocol.Draw, Dataset: "star", Graph: 1}, nil, nil); r.Event != protocol.Done {
				t.Errorf("the dataset held before is gone: %s", r.Error)
			}
		})
	}
	// The list names each record with its problem, without the file.
	r := load(csv)
	if want := (&protocol.BadRecords{File: "mols.csv", Unit: "rows", Total: 7, Count: 1, First: []protocol.BadRecord{{Index: 3, Where: "row 3 (line 4)", Name: "m3",
		Problem: `row 3 (line 4): SMILES "C1CC": character 2: ring bond 1 is never closed`}}}); !reflect.DeepEqual(r.Bad, want) {
		t.Errorf("bad records %+v, want %+v", r.Bad, want)
	}
	if r := load(csv, protocol.File{Name: "b.sdf", Data: []byte("x")}); r.Event != protocol.Failed || !strings.Contains(r.Error, "mols.csv, b.sdf: load one") {
		t.Errorf("two molecule files: %q", r.Error)
	}
}

// TestInspectData: the inspection is dataset.Inspect's, and each numeric
// column's values count, on each side of its median, the classes a Load
// with that threshold gives (dataset.Parse leaves out the records
// without a value).
func TestInspectData(t *testing.T) {
	csv := protocol.File{Name: "mols.csv", Data: []byte(mols)}
	noSMILES := protocol.File{Name: "plain.csv", Data: []byte("id,structure,y\na,CCO,1\nb,CCN,2\n")}
	graphml := protocol.File{Name: "g.graphml", Data: []byte(`<graphml><key id="d0" for="graph" attr.name="class"/>
<graph id="one"><data key="d0">a</data><node id="x"/><node id="y"/><edge source="x" target="y"/></graph>
<graph id="two"><data key="d0">b</data><node id="x"/></graph></graphml>`)}
	sdf := first200(t)
	for _, f := range []protocol.File{csv, noSMILES, withOptions(noSMILES, protocol.DataOptions{SMILES: "structure"}), graphml, sdf} {
		t.Run(f.Name, func(t *testing.T) {
			var w Worker
			r := w.Run(context.Background(), protocol.Request{ID: 3, Kind: protocol.InspectData, Inputs: []protocol.File{f}}, nil, nil)
			if r.Event != protocol.Done || r.ID != 3 {
				t.Fatalf("inspect: %s", r.Error)
			}
			o := coreOptions(f.Options)
			in, err := dataset.Inspect(f.Name, f.Data, o)
			if err != nil {
				t.Fatal(err)
			}
			got := r.Inspection
			if got.File != f.Name || got.Format != in.Format || got.Records != in.Records || got.SMILES != in.SMILES || got.Name != in.Name || got.Target != in.Target {
				t.Errorf("inspection %+v, want %+v", got, in)
			}
			if len(got.Columns) != len(in.Columns) {
				t.Fatalf("%d columns, want %d", len(got.Columns), len(in.Columns))
			}
			numeric := 0
			for i, c := range in.Columns {
				if g := got.Columns[i]; g.Name != c.Name || g.Values != c.Values || g.Distinct != c.Distinct || g.Numeric != c.Numeric ||
					g.Median != c.Median || !reflect.DeepEqual(g.Examples, c.Examples) {
					t.Errorf("column %d: %+v, want %+v", i, g, c)
				}
				values, ok := r.Arrays[protocol.ColumnValues+c.Name]
				if !c.Numeric || in.Format == "csv" && in.SMILES == "" {
					if ok {
						t.Errorf("values for column %q", c.Name)
					}
					continue
				}
				numeric++
				lo, hi, none := 0, 0, 0
				for _, v := range values {
					switch {
					case math.IsNaN(v):
						none++
					case v < c.Median:
						lo++
					default:
						hi++
					}
				}
				ds, _, err := dataset.Parse(f.Name, f.Data, dataset.Options{SMILES: o.SMILES, Target: c.Name, Threshold: &c.Median, SkipBad: true})
				if err != nil {
					if lo > 0 && hi > 0 {
						t.Errorf("column %q: %d and %d on the sides of %v, but Parse says %v", c.Name, lo, hi, c.Median, err)
					}
					continue
				}
				s := Summarise(ds)
				if len(s.Classes) != 2 || s.Classes[0].Count != lo || s.Classes[1].Count != hi || c.Values < lo+hi || len(values) != lo+hi+none {
					t.Errorf("column %q: %d below %v and %d above, %d without; Parse: %+v (%d values)", c.Name, lo, c.Median, hi, none, s.Classes, c.Values)
				}
			}
			t.Logf("%s: %d columns, %d numeric with values", f.Name, len(in.Columns), numeric)
		})
	}
	// By hand: the table's columns, the bad row, the values of pIC50.
	var w Worker
	r := w.Run(context.Background(), protocol.Request{Kind: protocol.InspectData, Inputs: []protocol.File{csv}}, nil, nil)
	in := r.Inspection
	if in.SMILES != "SMILES" || in.Name != "ID" || in.Target != "activity" || len(in.Columns) != 3 || in.Column("pIC50") == nil || !in.Column("pIC50").Numeric ||
		in.Bad == nil || in.Bad.Count != 1 || in.Bad.First[0].Index != 3 {
		t.Errorf("inspection %+v", in)
	}
	if v := r.Arrays[protocol.ColumnValues+"pIC50"]; len(v) != 6 || v[0] != 4.5 || v[1] != 7.25 || !math.IsNaN(v[3]) || v[5] != 8 {
		t.Errorf("pIC50 values %v", v)
	}
	for _, tc := range []struct {
		req  protocol.Request
		want string
	}{
		{protocol.Request{Kind: protocol.InspectData}, "inspect one file at a time, not 0"},
		{protocol.Request{Kind: protocol.InspectData, Inputs: []protocol.File{{Name: "a.mol", Data: []byte("x")}}}, "a.mol: not a molecule table"},
		{protocol.Request{Kind: protocol.InspectData, Inputs: []protocol.File{withOptions(csv, protocol.DataOptions{Target: "nope"})}}, `"nope"`},
		{protocol.Request{Kind: protocol.InspectData, Inputs: []protocol.File{{Name: "e.csv", Data: []byte("")}}}, "empty"},
	} {
		if r := w.Run(context.Background(), tc.req, nil, nil); r.Event != protocol.Failed || !strings.Contains(r.Error, tc.want) {
			t.Errorf("%+v: %q, want an error containing %q", tc.req.Inputs, r.Error, tc.want)
		}
	}
}

// TestLoadSWCZip: a zip of the neurons sample (labels.csv and the SWC
// files it names) loads as swc.ReadSample reads the folder; its errors
// and its refusal of options come back (core/dataset tests the zips'
// forms).
func TestLoadSWCZip(t *testing.T) {
	dir := testenv.Dataset(t, "neurons-sample")
	ds, err := swc.ReadSample(dir)
	if err != nil {
		t.Fatal(err)
	}
	f := protocol.File{Name: "neurons.zip", Data: testenv.Zip(t, testenv.Folder(t, dir, "neurons-sample/"))}
	r := load(f)
	if r.Event != protocol.Done {
		t.Fatal(r.Error)
	}
	want := Summarise(ds)
	// The SWC node types are integer codes that no table names: atom
	// types to the pipeline (features.AtomCodes), the commonest first
	// (the files' second column counted by hand: 2 axon, 3 basal
	// dendrite, 4 apical dendrite, 1 soma).
	want.AtomTypes = []string{"2", "3", "4", "1"}
	if got, want := sumText(*r.Summary), sumText(*want); got != want {
		t.Errorf("summary\n got %s\nwant %s", got, want)
	}
	for _, tc := range []struct {
		f    protocol.File
		want string
	}{
		{protocol.File{Name: "n.zip", Data: testenv.Zip(t, map[string][]byte{"n/labels.csv": []byte("file,label\nmissing.swc,a\n")})},
			"n.zip: n/labels.csv line 2: open n/missing.swc: file does not exist"},
		{withOptions(f, protocol.DataOptions{Target: "y"}),
			"neurons.zip: a zip of SWC neurons takes no options (a target given): its classes are in its label file"},
	} {
		if r := load(tc.f); r.Event != protocol.Failed || r.Error != tc.want {
			t.Errorf("%s: %q, want %q", tc.f.Name, r.Error, tc.want)
		}
	}
}

// TestLoadedDatasetServesJobs: a molecule dataset loaded with its options
// is what the worker's other jobs read, and a worker that gets the same
// files later (as the pool sends them to a second worker) reads the same
// classes.
func TestLoadedDatasetServesJobs(t *testing.T) {
	f := withOptions(protocol.File{Name: "mols.csv", Data: []byte(mols)}, protocol.DataOptions{Target: "pIC50", Threshold: ptr(6), SkipBad: true})
	key := protocol.DatasetKey([]protocol.File{f})
	var a, b Worker
	ctx := context.Background()
	if r := a.Run(ctx, protocol.Request{Kind: protocol.Load, Dataset: key, Files: []protocol.File{f}}, nil, nil); r.Event != protocol.Done {
		t.Fatal(r.Error)
	}
	for i, want := range []string{"pIC50 < 6", "pIC50 >= 6", "pIC50 < 6", "pIC50 < 6", "pIC50 >= 6"} {
		w := &a
		req := protocol.Request{Kind: protocol.Draw, Dataset: key, Graph: i}
		if i%2 == 1 {
			w, req.Files = &b, []protocol.File{f}
		}
		r := w.Run(ctx, req, nil, nil)
		if r.Event != protocol.Done || r.Drawing.Class != want {
			t.Errorf("graph %d: %+v %q, want class %q", i, r.Drawing, r.Error, want)
		}
	}
	if !strings.Contains(key, `"threshold":6`) {
		t.Errorf("key %q does not name the threshold", key)
	}
}

// TestTrainedModelNamesItsClasses: a model trained on a molecule table
// cut at a threshold has the classes "pIC50 < 6" and "pIC50 >= 6", and
// the page learns that they come from pIC50; with a text column, its
// values are the classes and the column is named.
func TestTrainedModelNamesItsClasses(t *testing.T) {
	for _, tc := range []struct {
		o       protocol.DataOptions
		classes []string
	}{
		{protocol.DataOptions{Target: "pIC50", Threshold: ptr(6), SkipBad: true}, []string{"pIC50 < 6", "pIC50 >= 6"}},
		{protocol.DataOptions{Target: "activity", SkipBad: true}, []string{"active", "inactive"}},
	} {
		var w Worker
		tr := Defaults()
		tr.M, tr.Iterations = 2, 5
		f := withOptions(protocol.File{Name: "mols.csv", Data: []byte(mols)}, tc.o)
		r := w.Run(context.Background(), protocol.Request{Kind: protocol.Train, Dataset: "m", Files: []protocol.File{f}, Training: &tr}, nil, nil)
		if r.Event != protocol.Done {
			t.Fatalf("%+v: %s", tc.o, r.Error)
		}
		if !reflect.DeepEqual(r.Info.Classes, tc.classes) || r.Info.Target != tc.o.Target {
			t.Errorf("%+v: classes %q from %q, want %q from %q", tc.o, r.Info.Classes, r.Info.Target, tc.classes, tc.o.Target)
		}
	}
}
