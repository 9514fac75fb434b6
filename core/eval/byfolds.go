package eval

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"wkpi-web/core/crossval"
)

// ByTrainingFolds runs a protocol whose features depend on each outer
// fold's training graphs, such as the node-label vocabulary
// (features.FitVocabulary): prepare(train) gives the features of a
// fold's training set, and should return the same *WKPI for equal
// features; folds that share one run together through run (with
// plan.Only set to them), and the parts are merged. With plan.Only set
// only those folds run, and the part is returned unmerged, as run would.
func ByTrainingFolds(ctx context.Context, labels []int, classes int, plan Plan, prepare func(train []int) (*WKPI, error), run func(w *WKPI, plan Plan) (Report, error)) (Report, error) {
	start := time.Now()
	folds, err := plan.split(labels)
	if err != nil {
		return Report{}, err
	}
	train, _ := crossval.Split(indices(len(labels)), folds, plan.Folds)
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
			out.Final = cmp.Or(out.Final, p.Final)
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
