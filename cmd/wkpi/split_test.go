package main

import (
	"encoding/json"
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
