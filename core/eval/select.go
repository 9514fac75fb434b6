package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"wkpi-web/core/progress"
)

// SelectFeatures chooses between candidate feature sets of one dataset
// (cands[c] with its Config cfgs[c]; same graphs and labels) per outer
// fold: each candidate is scored by stratified inner CV with inner folds
// on the outer training set alone (split with seed+f+1, as Nested), the
// best mean inner accuracy wins (ties: the first candidate), and it is
// refitted on the whole outer training set and tested on the outer fold.
// Fold.Candidate says which candidate each fold used.
func SelectFeatures(ctx context.Context, cands []*WKPI, cfgs []Config, plan Plan, inner int, prog progress.Func) (Report, error) {
	if len(cands) == 0 || len(cands) != len(cfgs) {
		return Report{}, fmt.Errorf("eval: %d candidate feature sets for %d configs", len(cands), len(cfgs))
	}
	for c, w := range cands[1:] {
		if len(w.Labels) != len(cands[0].Labels) {
			return Report{}, errors.New("eval: candidate feature sets of different datasets")
		}
		for i, l := range w.Labels {
			if l != cands[0].Labels[i] {
				return Report{}, fmt.Errorf("eval: candidate %d labels sample %d differently", c+1, i)
			}
		}
	}
	start := time.Now()
	w0 := cands[0]
	folds, err := StratifiedKFold(w0.Labels, plan.Folds, plan.Seed)
	if err != nil {
		return Report{}, err
	}
	train, _ := foldSplit(indices(len(w0.Labels)), folds, plan.Folds)
	var parts []Report
	for f := range plan.Folds {
		if !plan.runs(f) {
			continue
		}
		best, bestAcc := 0, math.Inf(-1)
		for c, w := range cands {
			cell := Grid{Ms: []int{cfgs[c].Learn.M}, Sigmas: []float64{cfgs[c].Sigma}, Cs: []float64{cfgs[c].C}}
			_, acc, err := w.innerSearch(ctx, cfgs[c], cell, train[f], inner, plan.Seed+int64(f)+1, nil)
			if err != nil {
				return Report{}, fmt.Errorf("eval: fold %d, candidate %d: %w", f, c, err)
			}
			if acc > bestAcc {
				best, bestAcc = c, acc
			}
		}
		one := Plan{Folds: plan.Folds, Seed: plan.Seed, Only: []int{f}}
		rep, err := cands[best].CrossValidate(ctx, cfgs[best], one, nil)
		if err != nil {
			return Report{}, err
		}
		rep.Folds[0].Candidate, rep.Folds[0].InnerAccuracy = best, bestAcc
		if plan.OnFold != nil {
			plan.OnFold(rep.Folds[0])
		}
		parts = append(parts, rep)
		prog.Report("folds", len(parts), plan.Folds)
	}
	if len(plan.Only) > 0 {
		out := Report{Protocol: "select"}
		for _, p := range parts {
			out.Folds = append(out.Folds, p.Folds...)
		}
		out.Seconds = time.Since(start).Seconds()
		return out, nil
	}
	rep, err := Merge(w0.Labels, w0.Classes, parts...)
	rep.Protocol, rep.Seconds = "select", time.Since(start).Seconds()
	return rep, err
}

// ByTrainingFolds runs a protocol whose features depend on each outer
// fold's training graphs, such as the node-label vocabulary
// (features.FitVocabulary): prepare(train) gives the features of a
// fold's training set, and should return the same *WKPI for equal
// features; folds that share one run together through run (with
// plan.Only set to them), and the parts are merged. With plan.Only set
// only those folds run, and the part is returned unmerged, as run would.
func ByTrainingFolds(ctx context.Context, labels []int, classes int, plan Plan, prepare func(train []int) (*WKPI, error), run func(w *WKPI, plan Plan) (Report, error)) (Report, error) {
	start := time.Now()
	folds, err := StratifiedKFold(labels, plan.Folds, plan.Seed)
	if err != nil {
		return Report{}, err
	}
	train, _ := foldSplit(indices(len(labels)), folds, plan.Folds)
	var order []*WKPI
	groups := map[*WKPI][]int{}
	for f := range plan.Folds {
		if !plan.runs(f) {
			continue
		}
		w, err := prepare(train[f])
		if err != nil {
			return Report{}, fmt.Errorf("eval: fold %d: %w", f, err)
		}
		if _, ok := groups[w]; !ok {
			order = append(order, w)
		}
		groups[w] = append(groups[w], f)
	}
	var parts []Report
	for _, w := range order {
		one := plan
		one.Only = groups[w]
		rep, err := run(w, one)
		if err != nil {
			return Report{}, err
		}
		parts = append(parts, rep)
	}
	if len(parts) == 0 {
		return Report{}, errors.New("eval: no fold to run")
	}
	if len(plan.Only) > 0 {
		out := Report{Protocol: parts[0].Protocol}
		for _, p := range parts {
			out.Folds = append(out.Folds, p.Folds...)
		}
		sort.Slice(out.Folds, func(i, j int) bool { return out.Folds[i].Index < out.Folds[j].Index })
		out.Seconds = time.Since(start).Seconds()
		return out, nil
	}
	rep, err := Merge(labels, classes, parts...)
	rep.Seconds = time.Since(start).Seconds()
	rep.Learned.Seconds, rep.Baseline.Seconds = rep.Seconds, rep.Seconds
	return rep, err
}
