package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"wkpi-web/core/testenv"
)

// TestGudhiSklearnScript runs scripts/gudhi_sklearn.py, the GUDHI +
// scikit-learn pipeline that docs/benchmarks.md times wkpi eval against,
// on MUTAG with the folds of `wkpi eval -predictions`: it must use those
// folds (the same sizes, fold by fold) and score like a classifier of
// MUTAG (above 75 %). Skipped when /usr/bin/python3 lacks gudhi or
// sklearn, failed under CI=true (testenv.Python).
func TestGudhiSklearnScript(t *testing.T) {
	py := testenv.Python(t, "gudhi", "sklearn", "numpy")
	dir := testenv.Dataset(t, "MUTAG")
	folds := filepath.Join(t.TempDir(), "folds.csv")
	if code, _, stderr := wkpi(t, "eval", "-data", dir, "-extra", "none", "-auto=false", "-svm-choice=false", "-predictions", folds); code != 0 {
		t.Fatalf("wkpi eval: exit %d: %s", code, stderr)
	}
	f, err := os.Open(folds)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int, 10)
	for _, row := range rows[1:] {
		k, err := strconv.Atoi(row[2]) // index,name,fold,...
		if err != nil {
			t.Fatal(err)
		}
		want[k]++
	}
	cmd := exec.Command(py, filepath.Join(testenv.RepoRoot(t), "scripts", "gudhi_sklearn.py"), dir, "--folds", folds)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var res struct {
		Dataset string    `json:"dataset"`
		Mean    float64   `json:"accuracy_mean"`
		Folds   []float64 `json:"folds"`
		Sizes   []int     `json:"fold_sizes"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
	if res.Dataset != "MUTAG" || len(res.Folds) != 10 || res.Mean < 0.75 || res.Mean > 1 {
		t.Errorf("%s: %d folds, accuracy %.3f: want MUTAG, 10 folds, above 0.75", res.Dataset, len(res.Folds), res.Mean)
	}
	if len(res.Sizes) != len(want) {
		t.Fatalf("fold sizes %v, wkpi's %v", res.Sizes, want)
	}
	for k := range want {
		if res.Sizes[k] != want[k] {
			t.Errorf("fold sizes %v, wkpi's %v", res.Sizes, want)
			break
		}
	}
}
