package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wkpi-web/core/testenv"
)

// rdkitSample returns the first n molecules of RDKit's NCI sample twice:
// their SMILES (first_5K.smi) and the SD records of the same molecules
// (first_200.props.sdf, RDKit's own writing).
func rdkitSample(t *testing.T, n int) (smiles []string, sdf string) {
	t.Helper()
	smiles = testenv.NCISmiles(t)[:n]
	records := strings.SplitAfter(string(testenv.RDKitData(t, "Data/NCI/first_200.props.sdf")), "$$$$\n")
	return smiles, strings.Join(records[:n], "")
}

// quickModel trains a structure-only model on MUTAG in a fraction of a
// second: one descriptor, a fixed SVM, 20 learning steps.
func quickModel(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "model.json")
	code, _, stderr := wkpi(t, "train", "-data", testenv.Dataset(t, "MUTAG"), "-out", path,
		"-extra", "none", "-auto=false", "-svm-choice=false", "-iter", "20", "-progress", "off")
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	return path
}

// TestPredictInputs: -smiles (once and twice) and "-" with a SMILES-lines
// body and with an SD body classify the same molecules as the SD file
// read from its path, named by their SMILES string, the .smi line's
// name and the SD record; predict and explain alike.
func TestPredictInputs(t *testing.T) {
	dir := t.TempDir()
	model := quickModel(t, dir)
	smi, sdf := rdkitSample(t, 3)
	sdfPath := filepath.Join(dir, "mols.sdf")
	if err := os.WriteFile(sdfPath, []byte(sdf), 0o644); err != nil {
		t.Fatal(err)
	}
	// The oracle: the molecules as an SD file on disk, read by extension.
	want := predictJSON(t, "-model", model, sdfPath)
	if len(want) != 3 || want[0].Decision[0] == want[1].Decision[0] {
		t.Fatalf("the SD file: %+v; want 3 molecules told apart", want)
	}
	var smiBody strings.Builder
	for i, s := range smi {
		fmt.Fprintf(&smiBody, "%s\tnci_%d\n", s, i+1)
	}
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		file  string
		names []string
		of    []int // which of the 3 molecules
	}{
		{"-smiles once", "", []string{"-smiles", smi[1]}, "smiles", smi[1:2], []int{1}},
		{"-smiles twice", "", []string{"-smiles", smi[2], "-smiles", smi[0]}, "smiles", []string{smi[2], smi[0]}, []int{2, 0}},
		{"stdin as SMILES lines", smiBody.String(), []string{"-"}, "stdin", []string{"nci_1", "nci_2", "nci_3"}, []int{0, 1, 2}},
		{"stdin as an SD file", sdf, []string{"-"}, "stdin", []string{want[0].Name, want[1].Name, want[2].Name}, []int{0, 1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := predictStdinJSON(t, tc.stdin, append([]string{"-model", model}, tc.args...)...)
			if len(got) != len(tc.of) {
				t.Fatalf("predict: %d predictions, want %d", len(got), len(tc.of))
			}
			for i, p := range got {
				w := want[tc.of[i]]
				if p.File != tc.file || p.Graph != i || p.Name != tc.names[i] || p.Class != w.Class || math.Abs(p.Decision[0]-w.Decision[0]) > 1e-9 {
					t.Errorf("predict molecule %d: %+v, want file %q, name %q, as the SD file's %+v", i, p, tc.file, tc.names[i], w)
				}
			}
			code, stdout, stderr := wkpiStdin(t, tc.stdin, append([]string{"explain", "-format", "json", "-model", model}, tc.args...)...)
			if code != 0 {
				t.Fatalf("explain: exit %d: %s", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			if len(lines) != len(tc.of) {
				t.Fatalf("explain: %d explanations, want %d", len(lines), len(tc.of))
			}
			for i, line := range lines {
				var ex struct {
					File     string  `json:"file"`
					Index    int     `json:"index"`
					Graph    string  `json:"graph"`
					Class    string  `json:"class"`
					Decision float64 `json:"decision"`
				}
				if err := json.Unmarshal([]byte(line), &ex); err != nil {
					t.Fatal(err)
				}
				// Explanations sign the decision towards the predicted class.
				w := want[tc.of[i]]
				if ex.File != tc.file || ex.Index != i || ex.Graph != tc.names[i] || ex.Class != w.Class || math.Abs(math.Abs(ex.Decision)-math.Abs(w.Decision[0])) > 1e-9 {
					t.Errorf("explain molecule %d: %+v, want file %q, name %q, as the SD file's %+v", i, ex, tc.file, tc.names[i], w)
				}
			}
		})
	}
}

// TestPredictInputErrors: a bad -smiles is named by its place and
// string, a SMILES given as a file gets a hint, standard input reads
// once, and bad standard input is named stdin; predict and explain give
// the same one line.
func TestPredictInputErrors(t *testing.T) {
	dir := t.TempDir()
	model := quickModel(t, dir)
	table := filepath.Join(dir, "named.csv")
	if err := os.WriteFile(table, []byte("mol,title\nc1ccccc1[N+](=O)[O-],nitrobenzene\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"-smiles", "CCO", "-smiles", "C1CC("}, `-smiles 2 "C1CC(": SMILES position 5: '(' is never closed`},
		{"", []string{"-smiles", ""}, `-smiles 1 "": empty SMILES`},
		// -smiles once named a table's column, as -smiles-column does now.
		{"", []string{"-smiles", "mol", table}, `-smiles 1 "mol": SMILES position 1: unknown element "m" (-smiles-column names the SMILES column of a table)`},
		{"", []string{"CCO"}, `CCO: no such file; to classify a SMILES string use -smiles 'CCO'`},
		{"", []string{"c1ccccc1[N+](=O)[O-]", table}, `c1ccccc1[N+](=O)[O-]: no such file; to classify a SMILES string use -smiles 'c1ccccc1[N+](=O)[O-]'`},
		{"CCO\n", []string{"-", "-"}, `"-" (standard input) is given twice`},
		{"", nil, `nothing to classify: give files, - for standard input, or -smiles`},
		{"CCO x\nCCN y\nC1CC( z\n", []string{"-"}, `stdin: not a graph file in any format tried: as SMILES lines (the first token of most lines is a SMILES): line 3: SMILES "C1CC(": character 5: '(' is never closed; not as an edge list, whose nodes would be named by SMILES`},
	} {
		for _, cmd := range []string{"predict", "explain"} {
			code, _, stderr := wkpiStdin(t, tc.stdin, append([]string{cmd, "-model", model}, tc.args...)...)
			if want := "wkpi " + cmd + ": " + tc.want + "\n"; code != 1 || stderr != want {
				t.Errorf("%s %q: exit %d, %q; want %q", cmd, tc.args, code, stderr, want)
			}
		}
	}
	// With the column named by -smiles-column the table reads.
	if got := predictJSON(t, "-model", model, "-smiles-column", "mol", table); len(got) != 1 || got[0].Name != "nitrobenzene" {
		t.Errorf("-smiles-column mol: %+v", got)
	}
}

// TestPredictNamesTheGraph: a graph the model's descriptors cannot take
// (a dummy atom under the bond-order descriptor) is named by its place in
// its input, predict and explain alike.
func TestPredictNamesTheGraph(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "bonds.json")
	if code, _, stderr := wkpi(t, "train", "-data", testenv.Dataset(t, "MUTAG"), "-out", model, "-extra", "bonds", "-labels=false",
		"-auto=false", "-svm-choice=false", "-iter", "20", "-progress", "off"); code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	smi, csv := filepath.Join(dir, "r.smi"), filepath.Join(dir, "r.csv")
	if err := os.WriteFile(smi, []byte("CCO a\n*CC b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(csv, []byte("smiles,name\nCCO,a\nCC[*:1],b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const dummy = "descriptor 1 (bonds): bonds needs a molecule: atom %d is a dummy atom (*, an attachment point or R group), which stands for no element: write the atom or group it stands for"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-smiles", "CCO", "-smiles", "*CC"}, `-smiles 2 "*CC": ` + fmt.Sprintf(dummy, 0)},
		{[]string{smi}, smi + " line 2: " + fmt.Sprintf(dummy, 0)},
		{[]string{csv}, csv + " row 2 (line 3): " + fmt.Sprintf(dummy, 2)},
	} {
		for _, cmd := range []string{"predict", "explain"} {
			code, _, stderr := wkpi(t, append([]string{cmd, "-model", model}, tc.args...)...)
			if want := "wkpi " + cmd + ": " + tc.want + "\n"; code != 1 || stderr != want {
				t.Errorf("%s %q: exit %d, %q; want %q", cmd, tc.args, code, stderr, want)
			}
		}
	}
}

// TestPredictSkipBad: a file with a molecule RDKit refuses (a pyrrole
// without its hydrogen) fails predict and explain naming its line, with
// a hint; -skip-bad classifies the others at their own positions and
// counts what it left out.
func TestPredictSkipBad(t *testing.T) {
	dir := t.TempDir()
	model := quickModel(t, dir)
	smi := filepath.Join(dir, "k.smi")
	if err := os.WriteFile(smi, []byte("CCO a\nc1ccnc1 b\nCCN c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const bad = `k.smi line 2: SMILES "c1ccnc1": the aromatic atoms 0 1 2 3 4 have no Kekulé form (no alternation of single and double bonds fits their valences; a pyrrole-type nitrogen is written [nH])`
	for _, cmd := range []string{"predict", "explain"} {
		code, _, stderr := wkpi(t, cmd, "-model", model, smi)
		if want := "wkpi " + cmd + ": " + bad + " (1 of 3 lines cannot be read; -skip-bad reads the other 2)\n"; code != 1 || stderr != want {
			t.Errorf("%s: exit %d, %q; want %q", cmd, code, stderr, want)
		}
		asJSON := map[string][]string{"predict": {"-json"}, "explain": {"-format", "json"}}[cmd]
		code, stdout, stderr := wkpi(t, append(append([]string{cmd, "-model", model, "-skip-bad"}, asJSON...), smi)...)
		if want := "wkpi " + cmd + ": -skip-bad: left out 1 of 3 lines of k.smi (the first: " + bad + ")\n"; code != 0 || stderr != want {
			t.Errorf("%s -skip-bad: exit %d, %q; want %q", cmd, code, stderr, want)
		}
		// The position in the file: predict's "graph", explain's "index".
		var got []int
		for line := range strings.SplitSeq(strings.TrimSpace(stdout), "\n") {
			var p struct {
				Graph json.RawMessage `json:"graph"`
				Index *int            `json:"index"`
			}
			if err := json.Unmarshal([]byte(line), &p); err != nil {
				t.Fatal(err)
			}
			if p.Index == nil {
				p.Index = new(int)
				if err := json.Unmarshal(p.Graph, p.Index); err != nil {
					t.Fatal(err)
				}
			}
			got = append(got, *p.Index)
		}
		if fmt.Sprint(got) != "[0 2]" {
			t.Errorf("%s -skip-bad: graphs at %v, want [0 2]", cmd, got)
		}
	}
}
