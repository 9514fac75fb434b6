package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wkpi-web/core/eval"
	"wkpi-web/core/model"
	"wkpi-web/core/testenv"
)

// prediction is one line of `wkpi predict -json`.
type prediction struct {
	File     string    `json:"file"`
	Graph    int       `json:"graph"`
	Name     string    `json:"name"`
	Class    string    `json:"class"`
	Decision []float64 `json:"decision"`
}

func predictJSON(t *testing.T, args ...string) []prediction {
	t.Helper()
	return predictStdinJSON(t, "", args...)
}

// predictStdinJSON is predictJSON with stdin as standard input.
func predictStdinJSON(t *testing.T, stdin string, args ...string) []prediction {
	t.Helper()
	code, stdout, stderr := wkpiStdin(t, stdin, append([]string{"predict", "-json"}, args...)...)
	if code != 0 {
		t.Fatalf("predict %v: exit %d: %s", args, code, stderr)
	}
	var out []prediction
	for line := range strings.SplitSeq(strings.TrimSpace(stdout), "\n") {
		var p prediction
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// TestPredictMolecules: a structure-only model trained on MUTAG's SMILES
// table (the 179 molecules whose chemistry RDKit accepts) classifies them
// as a TU folder, the SMILES table, the SD file and a .smi file alike, molecule by molecule, naming each (with node labels it
// refuses the TU folder's codes); a .smi file is
// never read as an edge list, and content that reads cleanly in no
// format is an error naming the formats tried.
func TestPredictMolecules(t *testing.T) {
	dir := t.TempDir()
	csv, sdf, tuDir, kept := mutagMolecules(t, dir)
	model := filepath.Join(dir, "model.json")
	// Structure only (no further descriptors, no node labels): the TU
	// folder's codes are then read alike.
	flags := []string{"-extra", "none", "-auto=false", "-svm-choice=false", "-iter", "20", "-progress", "off"}
	code, _, stderr := wkpi(t, append([]string{"train", "-data", csv, "-out", model, "-labels=false"}, flags...)...)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	// With node labels (the bonding types of element symbols) the TU
	// folder's codes are refused, not read as atoms of no known element.
	labelled := filepath.Join(dir, "labelled.json")
	if code, _, stderr := wkpi(t, append([]string{"train", "-data", csv, "-out", labelled}, flags...)...); code != 0 {
		t.Fatalf("train with node labels: exit %d: %s", code, stderr)
	}
	if code, _, stderr := wkpi(t, "predict", "-model", labelled, tuDir); code != 1 || !strings.Contains(stderr, `graph 0: `) || !strings.Contains(stderr, `node 0 is labelled "0"`) {
		t.Errorf("node labels, TU codes: exit %d, %q; want 1 and an error naming graph 0's node 0 and its code", code, stderr)
	}
	// The table as SMILES lines, named, as a .smi file and without extension.
	data, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	var smi strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		f := strings.Split(line, ",")
		fmt.Fprintf(&smi, "%s\t%s\n", f[1], f[0])
	}
	smiPath, plain := filepath.Join(dir, "mutag.smi"), filepath.Join(dir, "mutag-smiles")
	for _, p := range []string{smiPath, plain} {
		if err := os.WriteFile(p, []byte(smi.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := predictJSON(t, "-model", model, tuDir)
	if len(want) != len(kept) || want[0].Name != "" {
		t.Fatalf("TU folder: %d predictions, first %+v", len(want), want[0])
	}
	for _, file := range []string{csv, sdf, smiPath, plain} {
		got := predictJSON(t, "-model", model, file)
		if len(got) != len(want) {
			t.Fatalf("%s: %d predictions", file, len(got))
		}
		for i, p := range got {
			if p.Class != want[i].Class || p.Name != fmt.Sprintf("mutag_%d", kept[i]+1) || p.Graph != i {
				t.Fatalf("%s molecule %d: %+v, TU folder %+v", filepath.Base(file), i, p, want[i])
			}
		}
	}
	// The text table names each molecule.
	code, stdout, _ := wkpi(t, "predict", "-model", model, smiPath)
	lines := strings.Split(stdout, "\n")
	if code != 0 || !strings.HasPrefix(lines[0], "file") || !strings.Contains(lines[0], "name") || !strings.Contains(lines[1], "mutag_1 ") {
		t.Errorf("table: exit %d:\n%s", code, strings.Join(lines[:2], "\n"))
	}
	// A SMILES table whose SMILES column has another name.
	named := filepath.Join(dir, "named.csv")
	os.WriteFile(named, []byte("mol,title\nc1ccccc1[N+](=O)[O-],nitrobenzene\n"), 0o644)
	if got := predictJSON(t, "-model", model, "-smiles-column", "mol", named); len(got) != 1 || got[0].Name != "nitrobenzene" {
		t.Errorf("-smiles-column mol: %+v", got)
	}
	// A CSV edge list is still an edge list.
	edges := filepath.Join(dir, "triangle.csv")
	os.WriteFile(edges, []byte("a,b\nb,c\nc,a\nc,d\n"), 0o644)
	if got := predictJSON(t, "-model", model, edges); len(got) != 1 {
		t.Errorf("edge list: %+v", got)
	}
	// Bad input: one line naming the file, the place and the problem.
	bad := strings.Replace(smi.String(), "\tmutag_3\n", "(\tmutag_3\n", 1)
	for name, want := range map[string]string{
		"bad.smi": `wkpi predict: bad.smi line 3: SMILES`,
		"bad":     `wkpi predict: bad: not a graph file in any format tried: as SMILES lines (the first token of most lines is a SMILES): line 3: SMILES`,
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(bad), 0o644)
		code, _, stderr := wkpi(t, "predict", "-model", model, path)
		if code != 1 || !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "is never closed") {
			t.Errorf("%s: exit %d, %q", name, code, stderr)
		}
	}
	headerless := filepath.Join(dir, "headerless.csv")
	os.WriteFile(headerless, []byte(strings.ReplaceAll(smi.String(), "\t", ",")), 0o644)
	if code, _, stderr := wkpi(t, "predict", "-model", model, headerless); code != 1 || !strings.Contains(stderr, "headerless.csv: the first column reads as SMILES, but no header row names a SMILES column") {
		t.Errorf("headerless CSV: exit %d, %q", code, stderr)
	}
}

// TestTrainVersion3: wkpi train writes a model file of format version 3
// (the support vectors' diagrams, no images), and wkpi predict with it
// prints exactly what it prints with the same model written as version 2,
// on MUTAG's structure-only default and on a ChEMBL series' SMILES table
// with the molecules preset.
func TestTrainVersion3(t *testing.T) {
	dir := t.TempDir()
	chembl := filepath.Join(dir, "chembl.csv")
	if err := os.WriteFile(chembl, []byte(testenv.ChEMBLTable(t, 120)), 0o644); err != nil {
		t.Fatal(err)
	}
	quick := []string{"-auto=false", "-svm-choice=false", "-iter", "5", "-progress", "off"}
	for _, tc := range []struct {
		name string
		args []string
		mode string
	}{
		{"MUTAG", []string{"-data", testenv.Dataset(t, "MUTAG"), "-preset", "default"}, "structure only"},
		{"chembl", []string{"-data", chembl, "-target", "act", "-threshold", "6.44"}, "molecules"},
	} {
		v3 := filepath.Join(dir, tc.name+"-v3.json")
		code, _, stderr := wkpi(t, append(append([]string{"train", "-out", v3}, tc.args...), quick...)...)
		if code != 0 || !strings.Contains(stderr, tc.mode) {
			t.Fatalf("%s: train: exit %d: %s", tc.name, code, stderr)
		}
		v2 := filepath.Join(dir, tc.name+"-v2.json")
		writeVersion2(t, v3, v2)
		var out [2]string
		for k, file := range []string{v3, v2} {
			code, stdout, stderr := wkpi(t, "predict", "-json", "-model", file, tc.args[1])
			if code != 0 {
				t.Fatalf("%s: predict with %s: exit %d: %s", tc.name, file, code, stderr)
			}
			out[k] = stdout
		}
		if out[0] != out[1] || strings.Count(out[0], "\n") < 100 {
			t.Errorf("%s: predictions with version 3:\n%.500s\nwith version 2:\n%.500s", tc.name, out[0], out[1])
		}
	}
}

// writeVersion2 checks that the model file v3 is of format version 3 and
// writes the same model as version 2 (its support images) to v2.
func writeVersion2(t *testing.T, v3, v2 string) {
	t.Helper()
	data, err := os.ReadFile(v3)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"version":3`) || !strings.Contains(string(data), `"diagrams":[[[[`) || strings.Contains(string(data), `"support"`) {
		t.Fatalf("%s: not a file of version 3 with diagrams: %.300s", v3, data)
	}
	m, err := model.Load(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	m.Diagrams = nil
	var buf strings.Builder
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"version":2`) {
		t.Fatalf("without diagrams the model is written as %.100s", buf.String())
	}
	if err := os.WriteFile(v2, []byte(buf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// update rewrites the golden files of the protocol tests with what the
// code gives now: run it only when a change of figures is meant.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/protocols")

// protocolCases are a run of every protocol, in structure-only and
// node-label mode, on core/eval/testdata/MUTAG38 (every fifth graph of
// MUTAG) with small settings.
var protocolCases = []struct {
	name string
	args []string
}{
	{"fixed", []string{"-auto=false"}},
	{"auto", nil},
	{"auto-repeats", []string{"-repeats", "2"}},
	{"nested", []string{"-grid", "m=2,3;sigma=0.01,0.1;C=1,100", "-inner", "2"}},
	{"cost", []string{"-grid", "m=2,3;sigma=0.01,0.1;C=1,100", "-select", "cost"}},
	{"labels-fixed", []string{"-labels", "-auto=false"}},
	{"labels-nested", []string{"-labels", "-grid", "m=2,3;sigma=0.01;C=1,100", "-inner", "2"}},
	{"labels-cost", []string{"-labels", "-grid", "m=2,3;sigma=0.01;C=1,100", "-select", "cost"}},
}

// TestEvalProtocolsUnchanged: every protocol gives, number for number,
// what it gave when the golden files were written (before the protocols
// went through eval.Run): the printed table and summary, the JSON line,
// every out-of-fold prediction and score, and, for a run saved as one
// part (-out), the part's run identity and reports.
func TestEvalProtocolsUnchanged(t *testing.T) {
	data := filepath.Join("..", "..", "core", "eval", "testdata", "MUTAG38")
	for _, tc := range protocolCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			preds := filepath.Join(dir, "p.csv")
			args := append([]string{"eval", "-data", data, "-folds", "3", "-extra", "none", "-rows", "10", "-m", "3", "-iter", "30", "-progress", "off", "-predictions", preds}, tc.args...)
			code, stdout, stderr := wkpi(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			csv, err := os.ReadFile(preds)
			if err != nil {
				t.Fatal(err)
			}
			got := secondsField.ReplaceAllString(stdout, "") + "--- predictions\n" + string(csv)
			part := filepath.Join(dir, "part.json")
			if code, _, stderr := wkpi(t, append(args[:len(args)-len(tc.args)-2], append(tc.args, "-out", part)...)...); code != 0 {
				t.Fatalf("-out: exit %d: %s", code, stderr)
			}
			p, err := readPart(part)
			if err != nil {
				t.Fatal(err)
			}
			p.Run.Program = ""
			for i := range p.Reports {
				p.Reports[i].Report = noSeconds([]eval.Report{p.Reports[i].Report})[0]
			}
			data, err := json.MarshalIndent(p, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			got += "--- part\n" + string(data) + "\n"
			testenv.Golden(t, filepath.Join("testdata", "protocols", tc.name+".golden"), []byte(got), *update)
		})
	}
}

// TestEvalModelKeepsEvaluation: wkpi eval -model trains the model of its
// settings on every graph and keeps the cross-validation's accuracy in
// it, the very figures of the JSON line, so that a page that imports the
// file shows them; it does not combine with -shard.
func TestEvalModelKeepsEvaluation(t *testing.T) {
	data := filepath.Join("..", "..", "core", "eval", "testdata", "MUTAG38")
	path := filepath.Join(t.TempDir(), "m.json")
	code, stdout, stderr := wkpi(t, "eval", "-data", data, "-folds", "3", "-extra", "none", "-rows", "10", "-m", "3", "-iter", "30", "-auto=false", "-progress", "off", "-model", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var line struct {
		Mean float64 `json:"accuracy_mean"`
		Std  float64 `json:"accuracy_std"`
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &line); err != nil {
		t.Fatal(err)
	}
	m := mustLoadModel(t, path).Model()
	if want := (model.Evaluation{Folds: 3, Accuracy: line.Mean, Std: line.Std}); m.Evaluation == nil || *m.Evaluation != want {
		t.Errorf("evaluation %+v, want %+v", m.Evaluation, want)
	}
	if !strings.Contains(stderr, "wkpi eval: MUTAG38") || !strings.Contains(stderr, "-> "+path) {
		t.Errorf("stderr does not say what was trained: %q", stderr)
	}
	// The model is the one wkpi train makes with the same settings.
	trained := filepath.Join(t.TempDir(), "t.json")
	if code, _, stderr := wkpi(t, "train", "-data", data, "-extra", "none", "-rows", "10", "-m", "3", "-iter", "30", "-auto=false", "-progress", "off", "-out", trained); code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	if other := mustLoadModel(t, trained).Model(); other.C != m.C || len(other.Support) != len(m.Support) || other.Evaluation != nil {
		t.Errorf("wkpi train gave C %g, %d support vectors, evaluation %+v; eval -model C %g, %d", other.C, len(other.Support), other.Evaluation, m.C, len(m.Support))
	}
	if code, _, stderr := wkpi(t, "eval", "-data", data, "-shard", "1/2", "-out", filepath.Join(t.TempDir(), "p"), "-model", path); code == 0 || !strings.Contains(stderr, "-model does not combine with -shard") {
		t.Errorf("-model with -shard: exit %d, %q", code, stderr)
	}
}
