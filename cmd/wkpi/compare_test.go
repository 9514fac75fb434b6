package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/crossval"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// TestCompareJSON: `wkpi compare` with cheap methods prints the table and
// a last line of JSON of the shape, in the order asked; majority's
// folds are the majority-class rates of the test folds, counted here from
// the stratified folds of the same seed; the others are paired with WKPI
// only when WKPI runs (here it does not).
func TestCompareJSON(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	code, stdout, stderr := wkpi(t, "compare", "-data", dir, "-methods", "majority,PI-linear,WL", "-folds", "5", "-seed", "3", "-progress", "off")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	for _, name := range []string{"majority", "PI-linear", "WL"} {
		if !strings.Contains(stdout, name) {
			t.Errorf("table lacks %s:\n%s", name, stdout)
		}
	}
	var raw struct {
		Dataset string                       `json:"dataset"`
		Methods []map[string]json.RawMessage `json:"methods"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &raw); err != nil {
		t.Fatalf("last line is not JSON: %v\n%s", err, lines[len(lines)-1])
	}
	if raw.Dataset != "MUTAG" || len(raw.Methods) != 3 {
		t.Fatalf("dataset %q with %d methods, want MUTAG with 3", raw.Dataset, len(raw.Methods))
	}
	type method struct {
		Name  string    `json:"name"`
		Mean  float64   `json:"accuracy_mean"`
		Std   float64   `json:"accuracy_std"`
		Folds []float64 `json:"folds"`
		Secs  *float64  `json:"seconds"`
		AUC   float64   `json:"roc_auc_mean"`
		AUCs  []float64 `json:"roc_auc_folds"`
	}
	ms := make([]method, 3)
	for i, m := range raw.Methods {
		for _, key := range []string{"name", "accuracy_mean", "accuracy_std", "folds", "seconds", "roc_auc_mean", "roc_auc_std", "roc_auc_folds"} {
			if _, ok := m[key]; !ok {
				t.Errorf("method %d lacks %q", i, key)
			}
		}
		if _, ok := m["paired"]; ok {
			t.Errorf("method %d is paired with WKPI, which did not run", i)
		}
		b, _ := json.Marshal(m)
		if err := json.Unmarshal(b, &ms[i]); err != nil {
			t.Fatal(err)
		}
		if ms[i].Secs == nil || len(ms[i].Folds) != 5 {
			t.Errorf("%s: %d folds, seconds %v", ms[i].Name, len(ms[i].Folds), ms[i].Secs)
		}
		if mean, std := crossval.MeanStd(ms[i].Folds); math.Abs(mean-ms[i].Mean) > 1e-12 || math.Abs(std-ms[i].Std) > 1e-12 {
			t.Errorf("%s: mean %g std %g, folds give %g and %g", ms[i].Name, ms[i].Mean, ms[i].Std, mean, std)
		}
	}
	// Majority scores every graph alike: ROC-AUC 1/2; the SVMs' scores
	// rank MUTAG's classes well.
	if ms[0].AUC != 0.5 || len(ms[0].AUCs) != 5 || ms[1].AUC < 0.7 || ms[2].AUC < 0.7 || !strings.Contains(stdout, "ROC-AUC") {
		t.Errorf("ROC-AUC: majority %g %v, PI-linear %g, WL %g", ms[0].AUC, ms[0].AUCs, ms[1].AUC, ms[2].AUC)
	}
	if ms[0].Name != "majority" || ms[1].Name != "PI-linear" || ms[2].Name != "WL" {
		t.Errorf("methods %s, %s, %s; want the order asked", ms[0].Name, ms[1].Name, ms[2].Name)
	}
	ds, err := tu.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	folds, _ := crossval.StratifiedKFold(ds.Labels, 5, 3)
	for f := range 5 {
		count := map[int]int{}
		n := 0
		for i, g := range folds {
			if g == f {
				count[ds.Labels[i]]++
				n++
			}
		}
		best := 0
		for _, c := range count {
			best = max(best, c)
		}
		if want := float64(best) / float64(n); math.Abs(ms[0].Folds[f]-want) > 1e-15 {
			t.Errorf("majority fold %d: %g, majority rate of the test fold %g", f, ms[0].Folds[f], want)
		}
	}
}

// TestCompareRepeats: -repeats 2 writes, to the -out file, the table
// with the corrected t-test's columns and JSON whose folds are both
// repeats' (those of -seed 3 and then -seed 4, for a method whose folds
// depend on the split alone), each paired method with corrected_t_p.
func TestCompareRepeats(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	out := filepath.Join(t.TempDir(), "compare.txt")
	code, stdout, stderr := wkpi(t, "compare", "-data", dir, "-methods", "WKPI,majority", "-preset", "default", "-folds", "3", "-seed", "3", "-repeats", "2", "-progress", "off", "-out", out)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q: %s", code, stdout, stderr)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	if !strings.Contains(lines[0], "repeated 2 times (seeds 3-4)") || !strings.Contains(lines[1], "corrected t p") || strings.Contains(lines[1], "Wilcoxon") {
		t.Errorf("table:\n%s", text)
	}
	var res struct {
		Folds   int `json:"folds"`
		Methods []struct {
			Name   string    `json:"name"`
			Folds  []float64 `json:"folds"`
			Paired *struct {
				CorrectedTP *float64 `json:"corrected_t_p"`
			} `json:"paired"`
		} `json:"methods"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
		t.Fatal(err)
	}
	var want []float64
	for _, seed := range []string{"3", "4"} {
		_, one, _ := wkpi(t, "compare", "-data", dir, "-methods", "majority", "-folds", "3", "-seed", seed, "-progress", "off")
		var r struct {
			Methods []struct {
				Folds []float64 `json:"folds"`
			} `json:"methods"`
		}
		oneLines := strings.Split(strings.TrimSpace(one), "\n")
		if err := json.Unmarshal([]byte(oneLines[len(oneLines)-1]), &r); err != nil {
			t.Fatal(err)
		}
		want = append(want, r.Methods[0].Folds...)
	}
	m := res.Methods[1]
	if res.Folds != 3 || m.Name != "majority" || !slices.Equal(m.Folds, want) || m.Paired == nil || m.Paired.CorrectedTP == nil || len(res.Methods[0].Folds) != 6 {
		t.Errorf("folds %d, %s folds %v (want %v), paired %+v; WKPI %d folds", res.Folds, m.Name, m.Folds, want, m.Paired, len(res.Methods[0].Folds))
	}
}

// TestCompareBadMethod: an unknown method ends with exit 1 and one line
// naming it.
func TestCompareBadMethod(t *testing.T) {
	code, _, stderr := wkpi(t, "compare", "-data", testenv.Dataset(t, "MUTAG"), "-methods", "WKPI,GIN")
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, `"GIN"`) {
		t.Errorf("exit %d, stderr %q; want 1 and one line naming GIN", code, stderr)
	}
}

// TestCompareLabelsAsEval: with node labels (the molecules preset on
// MUTAG has them), compare's WKPI and WKPI-init take each fold's label
// vocabulary from its training graphs, as `wkpi eval` does: the same
// fold accuracies, learned and unlearned, to the last digit.
func TestCompareLabelsAsEval(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	flags := []string{"-data", dir, "-folds", "3", "-m", "3", "-progress", "off"}
	code, stdout, stderr := wkpi(t, append([]string{"compare", "-methods", "WKPI,WKPI-init"}, flags...)...)
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var res struct {
		Methods []struct {
			Name  string    `json:"name"`
			Folds []float64 `json:"folds"`
		} `json:"methods"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil || len(res.Methods) != 2 {
		t.Fatalf("compare's last line: %v\n%s", err, stdout)
	}
	code, stdout, stderr = wkpi(t, append([]string{"eval"}, flags...)...)
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	lines = strings.Split(strings.TrimSpace(stdout), "\n")
	var rep struct {
		Mode     string    `json:"mode"`
		Learned  []float64 `json:"folds"`
		Baseline []float64 `json:"baseline_accuracy_folds"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &rep); err != nil {
		t.Fatalf("eval's last line: %v\n%s", err, stdout)
	}
	if !strings.Contains(rep.Mode, "node labels") {
		t.Fatalf("eval's mode %q: want the molecules preset's node labels", rep.Mode)
	}
	for i, want := range [][]float64{rep.Learned, rep.Baseline} {
		if got := res.Methods[i].Folds; !slices.Equal(got, want) {
			t.Errorf("%s: folds %v, wkpi eval %v", res.Methods[i].Name, got, want)
		}
	}
}
