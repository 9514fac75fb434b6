package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

func wkpi(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return wkpiStdin(t, "", args...)
}

// wkpiStdin runs wkpi with stdin as its standard input.
func wkpiStdin(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestDiagramsJSONLines: one object per graph, in dataset order, whose
// Ext0 has one point per connected component (the extended persistence
// of a graph pairs each component's minimum with its maximum) unless the
// descriptor is constant on it.
func TestDiagramsJSONLines(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	code, stdout, stderr := wkpi(t, "diagrams", "-data", dir, "-filtration", "degree")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ds, err := tu.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<24)
	i := 0
	for ; sc.Scan(); i++ {
		var rec struct {
			Graph int          `json:"graph"`
			Label string       `json:"label"`
			Ext0  [][2]float64 `json:"ext0"`
			Ext1  [][2]float64 `json:"ext1"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		g := ds.Graphs[i]
		if rec.Graph != i || rec.Label != ds.Classes[ds.Labels[i]] {
			t.Fatalf("line %d: graph %d label %q, want %d %q", i+1, rec.Graph, rec.Label, i, ds.Classes[ds.Labels[i]])
		}
		if _, c := g.Components(); len(rec.Ext0) != c {
			t.Errorf("graph %d: %d Ext0 points, %d components", i, len(rec.Ext0), c)
		}
		if cycles := len(g.Edges) - g.N + 1; len(rec.Ext1) > cycles {
			t.Errorf("graph %d: %d Ext1 points, only %d independent cycles", i, len(rec.Ext1), cycles)
		}
	}
	if i != len(ds.Graphs) {
		t.Errorf("%d lines for %d graphs", i, len(ds.Graphs))
	}
}

// TestBadInputOneLine: bad input exits 1 with one line on stderr naming
// the file, the line and the problem.
func TestBadInputOneLine(t *testing.T) {
	src := testenv.Dataset(t, "MUTAG")
	dir := t.TempDir()
	for _, name := range []string{"MUTAG_A.txt", "MUTAG_graph_indicator.txt", "MUTAG_graph_labels.txt"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "MUTAG_A.txt" {
			lines := strings.SplitAfter(string(data), "\n")
			lines[11] = "2, x7\n"
			data = []byte(strings.Join(lines, ""))
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, cmd := range []string{"diagrams", "images", "eval"} {
		code, _, stderr := wkpi(t, cmd, "-data", dir)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1", cmd, code)
		}
		if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "MUTAG_A.txt line 12") || !strings.Contains(stderr, "x7") {
			t.Errorf("%s: stderr %q, want one line naming MUTAG_A.txt line 12 and the token", cmd, stderr)
		}
	}
	if code, _, _ := wkpi(t, "nonsense"); code != 2 {
		t.Errorf("unknown command: exit %d, want 2", code)
	}
}

// TestNotADataFile: a PNG named x.sdf (or .csv, .graphml) is refused in
// one line saying it is not the file its name promises.
func TestNotADataFile(t *testing.T) {
	png, err := os.ReadFile("../../core/graphfile/testdata/icon.png")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, want := range map[string]string{
		"x.sdf":     "wkpi eval: x.sdf: this is not an SD file: it is a PNG image; an SD file is text: ",
		"x.csv":     "wkpi eval: x.csv: this is not a CSV table: it is a PNG image; a SMILES table is text: ",
		"x.graphml": "wkpi eval: x.graphml: this is not a GraphML file: it is a PNG image; a GraphML file is XML text: ",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := wkpi(t, "eval", "-data", path)
		if code != 1 || !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q, want one line starting %q", name, code, stderr, want)
		}
	}
}

// TestImagesGrid: every vector has channels x descriptors x rows x cols
// pixels: 2 x 3 with the default descriptor set (Ricci, HKS, degree),
// 2 x 1 with -extra none.
func TestImagesGrid(t *testing.T) {
	for _, tc := range []struct {
		extra  string
		blocks int
	}{{"", 6}, {"none", 2}, {"hks", 4}} {
		args := []string{"images", "-data", testenv.Dataset(t, "MUTAG"), "-rows", "20", "-preset", "default"}
		if tc.extra != "" {
			args = append(args, "-extra", tc.extra)
		}
		imagesGrid(t, args, tc.blocks)
	}
}

func imagesGrid(t *testing.T, args []string, blocks int) {
	t.Helper()
	code, stdout, stderr := wkpi(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rec struct {
		Grid struct {
			Rows, Cols int
		} `json:"grid"`
		Images [][]float64 `json:"images"`
		Labels []string    `json:"labels"`
	}
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Grid.Rows != 20 || len(rec.Images) != 188 || len(rec.Labels) != 188 {
		t.Fatalf("grid %+v, %d images, %d labels", rec.Grid, len(rec.Images), len(rec.Labels))
	}
	for i, img := range rec.Images {
		if len(img) != blocks*rec.Grid.Rows*rec.Grid.Cols {
			t.Fatalf("%v: image %d: %d pixels, want %d", args, i, len(img), blocks*rec.Grid.Rows*rec.Grid.Cols)
		}
	}
}

// TestEvalTrainPredict: eval prints its JSON line; a trained model
// classifies its own training graphs (in TU form and as one MOL file) and
// agrees with itself across formats.
func TestEvalTrainPredict(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	code, stdout, stderr := wkpi(t, "eval", "-data", dir, "-folds", "3")
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var res struct {
		Dataset  string    `json:"dataset"`
		Mean     float64   `json:"accuracy_mean"`
		Baseline float64   `json:"baseline_mean"`
		Folds    []float64 `json:"folds"`
		Seconds  float64   `json:"seconds"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
	if res.Dataset != "MUTAG" || len(res.Folds) != 3 || res.Baseline < 0.75 {
		t.Errorf("eval result %+v", res)
	}
	// The per-fold table numbers repeats and folds from 1, as people count.
	var numbers [][2]string
	for _, l := range lines[1:4] {
		f := strings.Fields(l)
		numbers = append(numbers, [2]string{f[0], f[1]})
	}
	if !strings.HasPrefix(strings.TrimSpace(lines[0]), "repeat") || !reflect.DeepEqual(numbers, [][2]string{{"1", "1"}, {"1", "2"}, {"1", "3"}}) {
		t.Errorf("per-fold table numbered %v, want repeat 1, folds 1 to 3:\n%s", numbers, stdout)
	}

	modelPath := filepath.Join(t.TempDir(), "model.json")
	if code, _, stderr := wkpi(t, "train", "-data", dir, "-out", modelPath); code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	code, stdout, stderr = wkpi(t, "predict", "-json", "-model", modelPath, dir)
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, stderr)
	}
	ds, err := tu.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var correct int
	var first string
	for i, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var p struct {
			Class string `json:"class"`
		}
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		if p.Class == ds.Classes[ds.Labels[i]] {
			correct++
		}
		if i == 0 {
			first = p.Class
		}
	}
	if acc := float64(correct) / float64(len(ds.Graphs)); acc < 0.8 {
		t.Errorf("training accuracy %.3f, want >= 0.8", acc)
	}
	// The same first graph written as a JSON graph file gets the same class.
	jsonPath := filepath.Join(t.TempDir(), "g0.json")
	if err := os.WriteFile(jsonPath, graphJSON(ds.Graphs[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = wkpi(t, "predict", "-json", "-model", modelPath, jsonPath)
	if code != 0 || !strings.Contains(stdout, `"class":"`+first+`"`) {
		t.Errorf("predict JSON graph: exit %d, %q (%s), want class %s", code, stdout, stderr, first)
	}
	corrupt := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(corrupt, []byte(`{"format":"wkpi-model","version":1}`), 0o644)
	if code, _, stderr := wkpi(t, "predict", "-model", corrupt, jsonPath); code != 1 || !strings.Contains(stderr, "bad.json") {
		t.Errorf("corrupt model: exit %d, %q", code, stderr)
	}
}

// graphJSON writes g as a JSON graph file, with its node and edge labels
// when it has them (a molecule's atoms and bonds, or a TU dataset's codes).
func graphJSON(g *graph.Graph) []byte {
	edges := make([][2]int, len(g.Edges))
	for i, e := range g.Edges {
		edges[i] = [2]int{e.U, e.V}
	}
	obj := map[string]any{"nodes": g.N, "edges": edges}
	if g.NodeLabels != nil {
		obj["nodes"] = g.NodeLabels
	}
	if g.EdgeLabels != nil {
		obj["edge_labels"] = g.EdgeLabels
	}
	data, _ := json.Marshal(obj)
	return data
}
