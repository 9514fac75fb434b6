package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/spec"
	"wkpi-web/core/testenv"
)

// TestSettingsRefused feeds the shared table of bad settings
// (core/spec/testdata/invalid.json, also run through the workers'
// protocol and the edge) to `wkpi eval` as flags: each ends with exit
// status 1 and the same message, before any data is read.
func TestSettingsRefused(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "core/spec/testdata/invalid.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct{ Field, Value, Message string }
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		code, _, stderr := wkpi(t, "eval", "-data", "no-such-folder", "-"+row.Field, row.Value)
		if want := "wkpi eval: " + row.Message + "\n"; code != 1 || stderr != want {
			t.Errorf("-%s %s: exit %d, stderr %q, want %q", row.Field, row.Value, code, stderr, want)
		}
	}
}

// TestEveryCommandTakesTheSameSettings: eval, train, compare and the
// check slurm runs on its eval flags register each setting the same
// way; -nystrom reaches slurm's check (it was once missing there).
func TestEveryCommandTakesTheSameSettings(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	code, stdout, stderr := wkpi(t, "slurm", "-dir", t.TempDir(), "-shards", "2", "-submit=false", "--", "-data", dir, "-nystrom", "20")
	if code != 0 || !strings.Contains(stdout, "shards.sbatch") {
		t.Fatalf("slurm with -nystrom: exit %d: %s%s", code, stdout, stderr)
	}
	code, _, stderr = wkpi(t, "slurm", "-dir", t.TempDir(), "-submit=false", "--", "-data", dir, "-nystrom", "-20")
	if code != 1 || !strings.Contains(stderr, `nystrom: "-20": want a whole number >= 0`) {
		t.Fatalf("slurm with a bad -nystrom: exit %d: %s", code, stderr)
	}
	for _, cmd := range []string{"eval", "train", "compare"} {
		code, _, stderr := wkpi(t, cmd, "-data", dir, "-sigma", "-1", "-out", filepath.Join(t.TempDir(), "x"))
		if code != 1 || stderr != "wkpi "+cmd+`: sigma: "-1": want a number > 0`+"\n" {
			t.Errorf("%s -sigma -1: exit %d, %q", cmd, code, stderr)
		}
	}
}

// TestPresetFlag: -preset sets every setting of the preset wherever it
// stands, and flags given beside it win.
func TestPresetFlag(t *testing.T) {
	for _, args := range [][]string{{"-preset", "paper", "-m", "4"}, {"-m", "4", "-preset=paper"}} {
		c, _ := evalFlags(nil)
		if err := c.parse(args); err != nil {
			t.Fatal(err)
		}
		want := spec.Paper()
		want.M = 4
		if c.spec != want {
			t.Errorf("%v: %+v, want %+v", args, c.spec, want)
		}
	}
	c, _ := evalFlags(nil)
	if err := c.parse([]string{"-preset", "fast"}); err == nil || !strings.Contains(err.Error(), `"fast"`) {
		t.Errorf("unknown preset: %v", err)
	}
}

// TestGivenFlagsFixChoices: -C or -gauss switch the SVM choice off, and
// asking for a choice explicitly while fixing what it chooses fails.
func TestGivenFlagsFixChoices(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		choose    bool
		auto      bool
		errorText string
	}{
		{nil, true, true, ""},
		{[]string{"-C", "10"}, false, true, ""},
		{[]string{"-gauss", "1"}, false, true, ""},
		{[]string{"-svm-choice", "-C", "10"}, false, false, "-svm-choice does not combine with -C or -gauss"},
		{[]string{"-raw"}, true, false, ""},
		{[]string{"-auto", "-raw", "-grid", "paper"}, false, false, "-auto does not combine with -grid, -raw"},
		{[]string{"-select", "cost"}, false, false, ""},
	} {
		c, _ := evalFlags(nil)
		if err := c.parse(tc.args); err != nil {
			t.Fatal(err)
		}
		u, err := c.setup()
		switch {
		case tc.errorText != "":
			if err == nil || !strings.Contains(err.Error(), tc.errorText) {
				t.Errorf("%v: %v, want %q", tc.args, err, tc.errorText)
			}
		case err != nil:
			t.Errorf("%v: %v", tc.args, err)
		case u.Spec.ChoosesSVM() != tc.choose || u.Spec.Automatic() != tc.auto:
			t.Errorf("%v: chooses SVM %v, automatic %v", tc.args, u.Spec.ChoosesSVM(), u.Spec.Automatic())
		}
	}
}

// TestHelpInGroups: eval's help lists its flags under the spec's group
// headings, with examples; help topics and version answer.
func TestHelpInGroups(t *testing.T) {
	code, _, stderr := wkpi(t, "eval", "-h")
	if code != 0 {
		t.Fatalf("eval -h: exit %d", code)
	}
	last := -1
	for _, heading := range []string{"Data:", "Descriptors:", "Images:", "Kernel and learning:", "SVM:", "Protocol:", "Output:", "Scale:", "Examples:"} {
		i := strings.Index(stderr, "\n"+heading+"\n")
		if i <= last {
			t.Errorf("heading %q missing or out of order", heading)
		}
		last = i
	}
	for _, f := range spec.Fields() {
		if !strings.Contains(stderr, "\n  -"+f.Name+" ") && !strings.Contains(stderr, "\n  -"+f.Name+"\n") {
			t.Errorf("eval -h lacks -%s", f.Name)
		}
	}
	for _, topic := range []string{"svm", "presets", "settings", "train"} {
		if code, stdout, stderr := wkpi(t, "help", topic); code != 0 || stdout == "" {
			t.Errorf("help %s: exit %d: %s", topic, code, stderr)
		}
	}
	if code, _, _ := wkpi(t, "help", "nothing"); code != 1 {
		t.Error("help on an unknown topic must fail")
	}
	if code, stdout, _ := wkpi(t, "version"); code != 0 || !strings.HasPrefix(stdout, "wkpi ") {
		t.Errorf("version: exit %d, %q", code, stdout)
	}
}

// TestSVMChoiceFlags: by default every fold chooses the SVM's kernel and
// C (the table says which); -C or -gauss fix them in every fold;
// -svm-choice with them, or a negative -gauss, is an error.
func TestSVMChoiceFlags(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	code, stdout, stderr := wkpi(t, "eval", "-data", dir, "-folds", "3", "-auto=false")
	if code != 0 || !strings.Contains(stdout, "SVM kernel and C chosen in every fold") {
		t.Fatalf("default eval: exit %d, %q, %s", code, stdout, stderr)
	}
	code, stdout, stderr = wkpi(t, "eval", "-data", dir, "-folds", "3", "-auto=false", "-gauss", "1", "-C", "7")
	if code != 0 || strings.Contains(stdout, "chosen in every fold") {
		t.Fatalf("fixed -gauss 1 -C 7: exit %d, %q, %s", code, stdout, stderr)
	}
	var rows int
	for _, line := range strings.Split(stdout, "\n") {
		f := strings.Fields(line)
		if len(f) == 14 && f[0] == "1" { // repeat 1; 13 columns, "svm kernel" of two words
			rows++
			if f[4] != "7" || f[5]+" "+f[6] != "gauss 1" {
				t.Errorf("fixed fold row %q: want C 7 and gauss 1", line)
			}
		}
	}
	if rows != 3 {
		t.Errorf("%d fold rows with the fixed kernel, want 3:\n%s", rows, stdout)
	}
	for _, args := range [][]string{{"-svm-choice", "-C", "10"}, {"-gauss", "-1"}} {
		code, _, stderr := wkpi(t, append([]string{"eval", "-data", dir}, args...)...)
		if code == 0 || !strings.Contains(stderr, strings.TrimPrefix(args[0], "-")) {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// TestAlpha: -alpha 0, which once ran as the default 0.5 (filtration
// reads a zero idleness as its default), is refused by every command
// that takes it; the boundary 1 reaches the curvature: a walk that always
// stays put moves no mass, so every edge's curvature is 1 - |2 alpha - 1|
// = 0, the descriptor is constant and every diagram is empty, where the
// default gives points.
func TestAlpha(t *testing.T) {
	data := filepath.Join("..", "..", "core", "eval", "testdata", "MUTAG38")
	for _, cmd := range []string{"diagrams", "images", "eval", "train", "compare"} {
		code, _, stderr := wkpi(t, cmd, "-data", data, "-filtration", "ricci", "-alpha", "0", "-out", filepath.Join(t.TempDir(), "x"))
		if want := "wkpi " + cmd + `: alpha: "0": want a number > 0 and <= 1` + "\n"; code != 1 || stderr != want {
			t.Errorf("%s -alpha 0: exit %d, stderr %q, want %q", cmd, code, stderr, want)
		}
	}
	points := func(alpha string) int {
		t.Helper()
		code, stdout, stderr := wkpi(t, "diagrams", "-data", data, "-filtration", "ricci", "-alpha", alpha)
		if code != 0 {
			t.Fatalf("-alpha %s: exit %d: %s", alpha, code, stderr)
		}
		n := 0
		for line := range strings.Lines(stdout) {
			var d map[string]any
			if err := json.Unmarshal([]byte(line), &d); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"ord0", "rel1", "ext0", "ext1"} {
				n += len(d[k].([]any))
			}
		}
		return n
	}
	if n := points("1"); n != 0 {
		t.Errorf("-alpha 1: %d diagram points, want none (constant curvature)", n)
	}
	if n := points("0.5"); n == 0 {
		t.Error("-alpha 0.5: no diagram points")
	}
}

// TestPresetForData: without -preset, molecules get the molecules preset
// and other graphs the default; -preset molecules on atoms typed by codes
// no table names (NCI1's kind) takes the codes as atom types, most
// frequent first; -preset default stays structure only.
func TestPresetForData(t *testing.T) {
	dir := t.TempDir()
	// Two graphs typed by codes, no README: label 3 on 5 atoms, 1 on 3,
	// 2 on 1.
	coded := &graph.Dataset{Name: "CODED", Classes: []string{"0", "1"}, Labels: []int{0, 1}}
	for _, labels := range [][]string{{"3", "3", "1", "1", "2"}, {"3", "3", "3", "1"}} {
		var edges []graph.Edge
		for v := 1; v < len(labels); v++ {
			edges = append(edges, graph.Edge{U: v - 1, V: v})
		}
		g, err := graph.New(len(labels), edges, nil, labels)
		if err != nil {
			t.Fatal(err)
		}
		coded.Graphs = append(coded.Graphs, g)
	}
	codedDir := writeTU(t, dir, "CODED", coded)
	if err := os.WriteFile(filepath.Join(codedDir, "CODED_node_labels.txt"), []byte("3\n3\n1\n1\n2\n3\n3\n3\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	smiles := filepath.Join(dir, "mols.csv")
	if err := os.WriteFile(smiles, []byte("smiles,y\nc1ccccc1O,1\nCCN,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		data   string
		preset []string
		want   spec.Spec
		mode   string
	}{
		{codedDir, nil, spec.Defaults(), features.ModeStructure},
		{codedDir, []string{"-preset", "molecules"}, spec.AtomTypes([]string{"3", "1", "2"}), features.ModeAtomTypesLabels + ": 6 most frequent + other, t = 1"},
		{codedDir, []string{"-preset", "default"}, spec.Defaults(), features.ModeStructure},
		{smiles, nil, spec.Molecules(), features.ModeMoleculesLabels + fmt.Sprintf(": %d most frequent bonding types + other, t = 3", spec.MoleculesLabelGroups)},
		{smiles, []string{"-preset=molecules"}, spec.Molecules(), features.ModeMoleculesLabels + fmt.Sprintf(": %d most frequent bonding types + other, t = 3", spec.MoleculesLabelGroups)},
		{smiles, []string{"-preset", "default"}, spec.Defaults(), features.ModeStructure},
	} {
		f, _ := evalFlags(nil)
		u, _, err := parseDataset(f, append([]string{"-data", c.data}, c.preset...))
		if err != nil {
			t.Fatalf("%s %v: %v", filepath.Base(c.data), c.preset, err)
		}
		if f.spec != c.want || u.Mode() != c.mode {
			t.Errorf("%s %v: extra %q, mode %q; want extra %q, mode %q", filepath.Base(c.data), c.preset, f.spec.Extra, u.Mode(), c.want.Extra, c.mode)
		}
	}
	if got := spec.AtomTypes([]string{"3", "1", "2"}).Extra; got != "hks,degree,degree:#3,degree:~#1,degree:~#2" {
		t.Errorf("atom-type descriptors %q", got)
	}
}
