package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wkpi-web/core/spec"
	"wkpi-web/core/testenv"
)

// TestLabelMode: -labels runs eval with node labels and says so; a model
// trained with it carries MUTAG's code table, so a molfile's elements
// are read as MUTAG's codes; without the README the same model refuses
// the molfile with an error that says why; a dataset without node labels
// and a negative number of groups are refused.
func TestLabelMode(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	code, stdout, stderr := wkpi(t, "eval", "-data", dir, "-labels", "-label-groups", "3", "-label-time", "1", "-folds", "3", "-progress", "off")
	if code != 0 {
		t.Fatalf("eval -labels: exit %d: %s", code, stderr)
	}
	// MUTAG is read as molecules (its README names the atoms), whose
	// preset has the label groups' heat.
	if !strings.Contains(stdout, "(fixed protocol), molecules and node labels: 3 most frequent bonding types + other, t = 1: accuracy") {
		t.Errorf("the summary does not say the mode:\n%s", stdout)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var rec struct {
		Mode  string    `json:"mode"`
		Folds []float64 `json:"folds"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &rec); err != nil || rec.Mode == "" || len(rec.Folds) != 3 {
		t.Errorf("JSON line %q: %v", lines[len(lines)-1], err)
	}
	code, stdout, _ = wkpi(t, "eval", "-data", dir, "-folds", "3", "-progress", "off", "-preset", "default")
	if code != 0 || !strings.Contains(stdout, "(auto protocol), structure only: accuracy") {
		t.Errorf("eval -preset default: exit %d, summary does not say structure only:\n%s", code, stdout)
	}
	// Without a preset, MUTAG (its README names the atoms) is read as
	// molecules, with the preset's label groups; -labels=false leaves them
	// out.
	code, stdout, _ = wkpi(t, "eval", "-data", dir, "-folds", "3", "-progress", "off")
	if code != 0 || !strings.Contains(stdout, fmt.Sprintf("(fixed protocol), molecules and node labels: %d most frequent bonding types + other, t = 3: accuracy", spec.MoleculesLabelGroups)) {
		t.Errorf("eval without flags: exit %d, summary does not say the molecules preset's mode:\n%s", code, stdout)
	}
	// Bonding types read MUTAG's codes through its README with no
	// chemistry-aware descriptor too.
	code, stdout, stderr = wkpi(t, "eval", "-data", dir, "-folds", "3", "-progress", "off", "-extra", "none")
	if code != 0 || !strings.Contains(stdout, fmt.Sprintf("%d most frequent bonding types + other", spec.MoleculesLabelGroups)) {
		t.Errorf("eval -extra none: exit %d, %s\n%s", code, stderr, stdout)
	}
	code, stdout, _ = wkpi(t, "eval", "-data", dir, "-folds", "3", "-progress", "off", "-labels=false")
	if code != 0 || !strings.Contains(stdout, "(fixed protocol), molecules: accuracy") {
		t.Errorf("eval -labels=false: exit %d, summary does not say molecules:\n%s", code, stdout)
	}

	mol := filepath.Join("..", "..", "core", "features", "testdata", "nitrobenzene.mol")
	model := filepath.Join(t.TempDir(), "m.json")
	if code, _, stderr := wkpi(t, "train", "-data", dir, "-labels", "-out", model, "-progress", "off"); code != 0 || !strings.Contains(stderr, "node labels") {
		t.Fatalf("train -labels: exit %d: %s", code, stderr)
	}
	code, stdout, stderr = wkpi(t, "predict", "-model", model, mol)
	if code != 0 || !strings.Contains(stdout, "nitrobenzene.mol") {
		t.Errorf("predict with the code table: exit %d: %s %s", code, stdout, stderr)
	}

	// The same dataset without its README: codes only.
	bare := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == "README.txt" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bare, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, stderr := wkpi(t, "train", "-data", bare, "-labels", "-out", model, "-progress", "off"); code != 0 {
		t.Fatalf("train -labels without README: exit %d: %s", code, stderr)
	}
	code, _, stderr = wkpi(t, "predict", "-model", model, mol)
	if code == 0 || !strings.Contains(stderr, "nitrobenzene.mol") || !strings.Contains(stderr, "no code table") {
		t.Errorf("predict without the code table: exit %d, stderr %q", code, stderr)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-data", filepath.Join("..", "..", "core", "tu", "testdata", "IMDBTINY"), "-labels", "-out", model}, "no node labels"},
		{[]string{"eval", "-data", dir, "-labels", "-label-groups", "-1"}, "groups"},
	} {
		code, _, stderr := wkpi(t, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, stderr)
		}
	}
}
