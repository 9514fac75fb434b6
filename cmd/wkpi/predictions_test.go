package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"wkpi-web/core/crossval"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// fastEval are settings that make `wkpi eval` on MUTAG take a second or
// two: one descriptor, unit images, the WKPI kernel with C 100, 5
// learning iterations.
var fastEval = []string{"-folds", "5", "-iter", "5", "-extra", "none", "-auto=false", "-svm-choice=false", "-progress", "off"}

// evalLine is the JSON line of `wkpi eval`, the keys the metrics add.
type evalLine struct {
	Folds        []float64  `json:"folds"`
	BaseFolds    []float64  `json:"baseline_accuracy_folds"`
	AUCMean      *float64   `json:"roc_auc_mean"`
	AUCStd       *float64   `json:"roc_auc_std"`
	AUCFolds     []*float64 `json:"roc_auc_folds"`
	AUCUndefined int        `json:"roc_auc_undefined"`
	BalMean      float64    `json:"balanced_accuracy_mean"`
	BalStd       float64    `json:"balanced_accuracy_std"`
	BalFolds     []float64  `json:"balanced_accuracy_folds"`
	F1Mean       float64    `json:"f1_macro_mean"`
	F1Std        float64    `json:"f1_macro_std"`
	F1Folds      []float64  `json:"f1_macro_folds"`
	BaseAUCMean  *float64   `json:"baseline_roc_auc_mean"`
	BaseAUCStd   *float64   `json:"baseline_roc_auc_std"`
	BaseAUCFolds []*float64 `json:"baseline_roc_auc_folds"`
	BaseBalMean  float64    `json:"baseline_balanced_accuracy_mean"`
	BaseBalStd   float64    `json:"baseline_balanced_accuracy_std"`
	BaseBalFolds []float64  `json:"baseline_balanced_accuracy_folds"`
	BaseF1Mean   float64    `json:"baseline_f1_macro_mean"`
	BaseF1Std    float64    `json:"baseline_f1_macro_std"`
	BaseF1Folds  []float64  `json:"baseline_f1_macro_folds"`
	AUCPairedT   *float64   `json:"roc_auc_paired_t_p"`
	AUCWilcoxon  *float64   `json:"roc_auc_wilcoxon_p"`
	Corrected    *float64   `json:"corrected_t_p"`
	AUCCorrected *float64   `json:"roc_auc_corrected_t_p"`
}

func lastJSON(t *testing.T, stdout string, v any) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), v); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
}

// sklearnFolds reads a predictions CSV and computes, per fold (and
// repeat), scikit-learn's accuracy, ROC-AUC of the score column with
// the positive class given, balanced accuracy and macro F1, for the
// learned (score, predicted) and the unlearned (baseline_) columns.
const sklearnFolds = `
import csv, json, sys
import numpy as np
from sklearn.metrics import accuracy_score, roc_auc_score, balanced_accuracy_score, f1_score
args = json.load(sys.stdin)
rows = list(csv.DictReader(open(args["path"])))
keys = sorted({(int(r.get("repeat", 0)), int(r["fold"])) for r in rows})
out = []
for rep, fold in keys:
    sub = [r for r in rows if int(r.get("repeat", 0)) == rep and int(r["fold"]) == fold]
    y = [r["true"] for r in sub]
    pos = np.array([t == args["positive"] for t in y])
    res = {"repeat": rep, "fold": fold, "n": len(sub)}
    for side, p, s in (("learned", "predicted", "score"), ("baseline", "baseline_predicted", "baseline_score")):
        pred = [r[p] for r in sub]
        score = np.array([float(r[s]) for r in sub])
        res[side] = {
            "accuracy": accuracy_score(y, pred),
            "auc": roc_auc_score(pos, score) if 0 < pos.sum() < len(pos) else None,
            "balanced": balanced_accuracy_score(y, pred),
            "f1": f1_score(y, pred, average="macro"),
        }
    out.append(res)
json.dump(out, sys.stdout)
`

type sklearnSide struct {
	Accuracy float64  `json:"accuracy"`
	AUC      *float64 `json:"auc"`
	Balanced float64  `json:"balanced"`
	F1       float64  `json:"f1"`
}

type sklearnFold struct {
	Repeat   int         `json:"repeat"`
	Fold     int         `json:"fold"`
	N        int         `json:"n"`
	Learned  sklearnSide `json:"learned"`
	Baseline sklearnSide `json:"baseline"`
}

// TestPredictionsMatchSklearn runs a real `wkpi eval -predictions` on
// MUTAG and recomputes every fold's metrics with scikit-learn from the
// CSV alone; they must equal the JSON line's per-fold values, and their
// means and population spreads its means and spreads, to 1e-9. With two
// repeats the CSV has a repeat column and one block per repeat.
func TestPredictionsMatchSklearn(t *testing.T) {
	py := testenv.Python(t, "numpy", "sklearn")
	dir := testenv.Dataset(t, "MUTAG")
	ds, err := tu.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, repeats := range []int{1, 2} {
		path := filepath.Join(t.TempDir(), "p.csv")
		args := append([]string{"eval", "-data", dir, "-predictions", path, "-repeats", strconv.Itoa(repeats)}, fastEval...)
		code, stdout, stderr := wkpi(t, args...)
		if code != 0 {
			t.Fatalf("eval: exit %d: %s", code, stderr)
		}
		var line evalLine
		lastJSON(t, stdout, &line)
		checkCSVShape(t, path, ds.Labels, ds.Classes, repeats)

		var folds []sklearnFold
		testenv.RunJSON(t, py, []string{"-c", sklearnFolds}, map[string]any{"path": path, "positive": ds.Classes[1]}, &folds)
		if len(folds) != 5*repeats || len(line.AUCFolds) != len(folds) || len(line.BaseF1Folds) != len(folds) {
			t.Fatalf("repeats %d: sklearn saw %d folds, the JSON has %d", repeats, len(folds), len(line.AUCFolds))
		}
		near := func(what string, got, want float64) {
			t.Helper()
			if math.Abs(got-want) > 1e-9 {
				t.Errorf("repeats %d: %s = %.15g, sklearn %.15g", repeats, what, got, want)
			}
		}
		var aucDiffs []float64 // learned - unlearned, scikit-learn's
		for i, f := range folds {
			if f.Learned.AUC == nil || line.AUCFolds[i] == nil || line.BaseAUCFolds[i] == nil {
				t.Fatalf("fold %d: ROC-AUC undefined on MUTAG", i)
			}
			aucDiffs = append(aucDiffs, *f.Learned.AUC-*f.Baseline.AUC)
			near("accuracy", line.Folds[i], f.Learned.Accuracy)
			near("roc_auc", *line.AUCFolds[i], *f.Learned.AUC)
			near("balanced_accuracy", line.BalFolds[i], f.Learned.Balanced)
			near("f1_macro", line.F1Folds[i], f.Learned.F1)
			near("baseline accuracy", line.BaseFolds[i], f.Baseline.Accuracy)
			near("baseline_roc_auc", *line.BaseAUCFolds[i], *f.Baseline.AUC)
			near("baseline_balanced_accuracy", line.BaseBalFolds[i], f.Baseline.Balanced)
			near("baseline_f1_macro", line.BaseF1Folds[i], f.Baseline.F1)
		}
		// The paired tests of the folds' ROC-AUCs, on scikit-learn's.
		if line.AUCPairedT == nil || line.AUCWilcoxon == nil {
			t.Fatalf("repeats %d: no paired test of ROC-AUC", repeats)
		}
		near("roc_auc_paired_t_p", *line.AUCPairedT, crossval.PairedT(aucDiffs))
		near("roc_auc_wilcoxon_p", *line.AUCWilcoxon, crossval.Wilcoxon(aucDiffs))
		// With repeats, whose folds share graphs, the corrected test too.
		if (line.Corrected != nil || line.AUCCorrected != nil) != (repeats > 1) {
			t.Fatalf("repeats %d: corrected tests %v, %v", repeats, line.Corrected, line.AUCCorrected)
		}
		if repeats > 1 {
			var accDiffs []float64
			for _, f := range folds {
				accDiffs = append(accDiffs, f.Learned.Accuracy-f.Baseline.Accuracy)
			}
			near("corrected_t_p", *line.Corrected, crossval.CorrectedRepeatedT(accDiffs, 5))
			near("roc_auc_corrected_t_p", *line.AUCCorrected, crossval.CorrectedRepeatedT(aucDiffs, 5))
		}
		// Means as accuracy_mean: over one repeat's folds, or the mean
		// of the repeats' means with their spread.
		summary := func(of func(sklearnFold) float64) (mean, std float64) {
			var means []float64
			for r := range repeats {
				var xs []float64
				for _, f := range folds[5*r : 5*r+5] {
					xs = append(xs, of(f))
				}
				m, s := meanStd(xs)
				means, std = append(means, m), s
			}
			mean, s := meanStd(means)
			if repeats > 1 {
				std = s
			}
			return mean, std
		}
		for _, c := range []struct {
			name            string
			gotMean, gotStd float64
			of              func(sklearnFold) float64
		}{
			{"roc_auc", *line.AUCMean, *line.AUCStd, func(f sklearnFold) float64 { return *f.Learned.AUC }},
			{"balanced_accuracy", line.BalMean, line.BalStd, func(f sklearnFold) float64 { return f.Learned.Balanced }},
			{"f1_macro", line.F1Mean, line.F1Std, func(f sklearnFold) float64 { return f.Learned.F1 }},
			{"baseline_roc_auc", *line.BaseAUCMean, *line.BaseAUCStd, func(f sklearnFold) float64 { return *f.Baseline.AUC }},
			{"baseline_balanced_accuracy", line.BaseBalMean, line.BaseBalStd, func(f sklearnFold) float64 { return f.Baseline.Balanced }},
			{"baseline_f1_macro", line.BaseF1Mean, line.BaseF1Std, func(f sklearnFold) float64 { return f.Baseline.F1 }},
		} {
			mean, std := summary(c.of)
			near(c.name+"_mean", c.gotMean, mean)
			near(c.name+"_std", c.gotStd, std)
		}
		if line.AUCUndefined != 0 {
			t.Errorf("roc_auc_undefined = %d on MUTAG", line.AUCUndefined)
		}
	}
}

func meanStd(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)))
}

// checkCSVShape: the header, one row per graph and repeat in index
// order, the true class of each, folds 0..4.
func checkCSVShape(t *testing.T, path string, labels []int, classes []string, repeats int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := "index,name,fold,true,predicted,score,baseline_predicted,baseline_score"
	if repeats > 1 {
		want = "repeat," + want
	}
	if got := strings.Join(rows[0], ","); got != want {
		t.Fatalf("header %q, want %q", got, want)
	}
	if len(rows) != 1+repeats*len(labels) {
		t.Fatalf("%d rows, want %d", len(rows)-1, repeats*len(labels))
	}
	off := 0
	if repeats > 1 {
		off = 1
	}
	for k, row := range rows[1:] {
		r, i := k/len(labels), k%len(labels)
		if (repeats > 1 && row[0] != strconv.Itoa(r)) || row[off] != strconv.Itoa(i) || row[off+1] != "graph "+strconv.Itoa(i) || row[off+3] != classes[labels[i]] {
			t.Fatalf("row %d: %v, want repeat %d graph %d of class %s", k+1, row, r, i, classes[labels[i]])
		}
		if fold := row[off+2]; len(fold) != 1 || fold[0] < '0' || fold[0] > '4' {
			t.Fatalf("row %d: fold %q", k+1, fold)
		}
	}
}

// TestMergePredictions: `wkpi merge -predictions` of a run cut into
// shards writes the file `wkpi eval -predictions` writes in one process;
// a shard alone refuses -predictions.
func TestMergePredictions(t *testing.T) {
	dir := t.TempDir()
	args := append([]string{"-data", testenv.Dataset(t, "MUTAG")}, fastEval...)
	whole := filepath.Join(dir, "whole.csv")
	if code, _, stderr := wkpi(t, append(append([]string{"eval"}, args...), "-predictions", whole)...); code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	paths := shardRun(t, dir, 2, args...)
	merged := filepath.Join(dir, "merged.csv")
	if code, _, stderr := wkpi(t, append([]string{"merge", "-predictions", merged}, paths...)...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	a, errA := os.ReadFile(whole)
	b, errB := os.ReadFile(merged)
	if errA != nil || errB != nil || string(a) != string(b) || len(a) < 1000 {
		t.Errorf("merged predictions (%v)\n%.300s\ndiffer from the one-process run's (%v)\n%.300s", errB, b, errA, a)
	}
	code, _, stderr := wkpi(t, append(append([]string{"eval"}, args...), "-predictions", merged, "-shard", "0/2", "-out", filepath.Join(dir, "p.json"))...)
	if code != 1 || !strings.Contains(stderr, "-predictions does not combine with -shard") {
		t.Errorf("-predictions with -shard: exit %d, %q", code, stderr)
	}
	// wkpi slurm checks its eval flags before it submits shards.
	if err := checkEvalArgs(context.Background(), append(args, "-predictions", merged)); err == nil || !strings.Contains(err.Error(), "wkpi merge -predictions") {
		t.Errorf("slurm's check of -predictions: %v", err)
	}
}
