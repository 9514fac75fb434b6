package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wkpi-web/core/testenv"
)

// TestEvalScaffoldSplit: `wkpi eval -split scaffold` groups MUTAG by
// scaffold (its README names the codes) and reports a cross-validation.
func TestEvalScaffoldSplit(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	code, stdout, stderr := wkpi(t, "eval", "-data", dir, "-split", "scaffold", "-folds", "5",
		"-extra", "none", "-auto=false", "-svm-choice=false", "-iter", "20", "-progress", "off")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(stdout, "scaffold split: 188 graphs in 46 Bemis-Murcko scaffolds (the largest holds ") {
		t.Errorf("no scaffold summary first:\n%s", stdout)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var res struct {
		Mean  float64   `json:"accuracy_mean"`
		Folds []float64 `json:"folds"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
	if len(res.Folds) != 5 || !(res.Mean > 0.5) {
		t.Errorf("result %+v", res)
	}
}

// TestEvalScaffoldSplitNeedsElements: a dataset whose node labels are
// codes no README names (NCI1) is refused before any features are
// computed, with the reason.
func TestEvalScaffoldSplitNeedsElements(t *testing.T) {
	dir := testenv.Dataset(t, "NCI1")
	code, _, stderr := wkpi(t, "eval", "-data", dir, "-split", "scaffold", "-progress", "off")
	if code == 0 || !strings.Contains(stderr, "NCI1: split scaffold needs molecules with element symbols as node labels: graph 0, node 0 is labelled") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// TestEvalScaffoldSplitOfATable: molecules of a SMILES table carry their
// elements and bonds, so they need no code table: three scaffolds
// (benzene, cyclohexane, and none for the acyclic ones), worked by hand.
func TestEvalScaffoldSplitOfATable(t *testing.T) {
	var b strings.Builder
	b.WriteString("smiles,active\n")
	for i, s := range []string{"c1ccccc1C", "c1ccccc1O", "c1ccccc1CC", "c1ccccc1N", "C1CCCCC1C", "C1CCCCC1O", "C1CCCCC1N", "C1CCCCC1CC", "CCO", "CCCC", "CCN", "CCCl"} {
		fmt.Fprintf(&b, "%s,%d\n", s, i%2)
	}
	path := filepath.Join(t.TempDir(), "mols.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := wkpi(t, "eval", "-data", path, "-split", "scaffold", "-folds", "3", "-extra", "none", "-auto=false", "-svm-choice=false", "-iter", "5")
	if code != 0 || !strings.Contains(stdout, "12 graphs in 3 Bemis-Murcko scaffolds (the largest holds 4)") {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
}
