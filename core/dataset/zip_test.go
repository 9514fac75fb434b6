package dataset_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"wkpi-web/core/dataset"
	"wkpi-web/core/swc"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// TestSWCZip: a zip of the neurons sample, its labels.csv at the top or
// in one folder, reads through Parse, Read and Inspect as swc.ReadSample
// reads the folder, named after the folder or else the zip; a zip with a
// TU edge file is TU even with a labels.csv.
func TestSWCZip(t *testing.T) {
	dir := testenv.Dataset(t, "neurons-sample")
	want, err := swc.ReadSample(dir)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	for _, tc := range []struct {
		what, prefix, file, name string
	}{
		{"in a folder", "neurons-sample/", "neurons.zip", "neurons-sample"},
		{"at the top", "", "Neurons.ZIP", "Neurons"},
	} {
		t.Run(tc.what, func(t *testing.T) {
			data := testenv.Zip(t, testenv.Folder(t, dir, tc.prefix))
			w := *want
			w.Name = tc.name
			ds, rep, err := dataset.Parse(tc.file, data, dataset.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ds, &w) || rep.Format != dataset.FormatSWC || rep.Records != 30 {
				t.Errorf("Parse: %q, %d graphs, classes %v, report %+v; the folder: %d graphs, classes %v",
					ds.Name, len(ds.Graphs), ds.Classes, rep, len(want.Graphs), want.Classes)
			}
			path := filepath.Join(tmp, tc.file)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if ds, _, err := dataset.Read(path, dataset.Options{}); err != nil {
				t.Errorf("Read: %v", err)
			} else if !reflect.DeepEqual(ds, &w) {
				t.Errorf("Read: %q, %d graphs, unlike the folder's %d", ds.Name, len(ds.Graphs), len(want.Graphs))
			}
			in, err := dataset.Inspect(tc.file, data, dataset.Options{})
			if err != nil || !reflect.DeepEqual(in, &dataset.Inspection{Format: dataset.FormatSWC, Records: 30}) {
				t.Errorf("Inspect: %+v, %v", in, err)
			}
		})
	}

	mutag := testenv.Dataset(t, "MUTAG")
	members := testenv.Folder(t, mutag, "MUTAG/")
	members["labels.csv"] = []byte("file,label\n")
	ds, rep, err := dataset.Parse("mutag.zip", testenv.Zip(t, members), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want, err := tu.ReadDir(mutag); err != nil || !reflect.DeepEqual(ds, want) || rep.Format != dataset.FormatTU {
		t.Errorf("a TU zip with a labels.csv: format %s, %d graphs (%v)", rep.Format, len(ds.Graphs), err)
	}
}

// TestZipErrors: a zip that is neither TU nor SWC, or whose labels.csv
// or neurons are wrong, fails naming the zip and the member.
func TestZipErrors(t *testing.T) {
	four, err := os.ReadFile("../swc/testdata/four.swc")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		what    string
		members map[string]string
		o       dataset.Options
		want    string
	}{
		{"neither TU nor SWC", map[string]string{"n/README.txt": "neurons\n", "n/a.swc": string(four)}, dataset.Options{},
			"n.zip: neither a TU dataset (no DS_A.txt) nor a folder of SWC neurons (no labels.csv at its top or in one folder)"},
		{"labels.csv two folders down", map[string]string{"n/m/labels.csv": "file,label\na.swc,x\n", "n/m/a.swc": string(four)}, dataset.Options{},
			"n.zip: neither a TU dataset (no DS_A.txt) nor a folder of SWC neurons (no labels.csv at its top or in one folder)"},
		{"a missing neuron", map[string]string{"n/labels.csv": "file,label\na.swc,x\nmissing.swc,y\n", "n/a.swc": string(four)}, dataset.Options{},
			"n.zip: n/labels.csv line 3: open n/missing.swc: file does not exist"},
		{"a missing neuron, at the top", map[string]string{"labels.csv": "file,label\nmissing.swc,y\n"}, dataset.Options{},
			"n.zip: labels.csv line 2: open missing.swc: file does not exist"},
		{"a bad neuron", map[string]string{"n/labels.csv": "file,label\nd/bad.swc,x\n", "n/d/bad.swc": "1 1 0 0 0 1\n"}, dataset.Options{},
			"n.zip: d/bad.swc line 1: want 7 fields (id type x y z radius parent), got 6"},
		{"a neuron outside", map[string]string{"n/labels.csv": "file,label\n../a.swc,x\n", "a.swc": string(four)}, dataset.Options{},
			`n.zip: n/labels.csv line 2: "../a.swc" is outside the folder of labels.csv`},
		{"options on neurons", map[string]string{"n/labels.csv": "file,label\na.swc,x\n"}, dataset.Options{Target: "y"},
			"n.zip: a zip of SWC neurons takes no options (a target given): its classes are in its label file"},
		{"options on TU", map[string]string{"T/T_A.txt": "1, 2\n"}, dataset.Options{SkipBad: true},
			"n.zip: a TU zip takes no options (skipping bad records given): its classes are in its label file"},
		{"a bad TU zip", map[string]string{"T/T_A.txt": "1, 2\n"}, dataset.Options{},
			"n.zip: missing required file T_graph_indicator.txt"},
	} {
		members := map[string][]byte{}
		for name, text := range tc.members {
			members[name] = []byte(text)
		}
		data := testenv.Zip(t, members)
		if _, _, err := dataset.Parse("n.zip", data, tc.o); err == nil || err.Error() != tc.want {
			t.Errorf("%s: Parse: %v\nwant %s", tc.what, err, tc.want)
		}
		if tc.o == (dataset.Options{}) {
			if _, err := dataset.Inspect("n.zip", data, tc.o); err == nil || err.Error() != tc.want {
				t.Errorf("%s: Inspect: %v\nwant %s", tc.what, err, tc.want)
			}
		}
	}
	if _, _, err := dataset.Parse("n.zip", []byte("PK"), dataset.Options{}); err == nil || err.Error() != "n.zip: zip: not a valid zip file" {
		t.Errorf("not a zip: %v", err)
	}
}
