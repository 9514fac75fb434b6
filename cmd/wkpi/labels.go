package main

import (
	"context"
	"fmt"

	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/progress"
	"wkpi-web/core/tu"
)

// labelSettings returns the feature settings with the node-label mode of
// -labels, its vocabulary fitted on the graphs listed in train (all when
// nil) and the code table of the dataset's README.txt when it has one.
func (f *featureFlags) labelSettings(ds *graph.Dataset, train []int) (features.Settings, error) {
	s := f.settings()
	if !f.labels {
		return s, nil
	}
	// SWC samples and zips without a README have no table: codes stay codes.
	names, err := tu.ReadNodeLabelNames(f.data)
	if err != nil {
		return s, err
	}
	s, err = s.WithLabels(ds.Graphs, train, f.labelGroups, f.labelTime, names)
	if err != nil {
		return s, fmt.Errorf("-labels: %s: %w", ds.Name, err)
	}
	return s, nil
}

// prepareFor computes the features of settings s.
func prepareFor(ctx context.Context, s features.Settings, ds *graph.Dataset, prog progress.Func) (*eval.WKPI, error) {
	set, err := features.Compute(ctx, ds, s, prog)
	if err != nil {
		return nil, err
	}
	return eval.NewWKPI(set, ds.Labels, len(ds.Classes))
}

// labelFolds runs one protocol in node-label mode: each outer fold's
// vocabulary is fitted on its training graphs, and folds with the same
// vocabulary share their features (eval.ByTrainingFolds).
func labelFolds(ctx context.Context, ff *featureFlags, ds *graph.Dataset, plan eval.Plan, prog progress.Func, run func(*eval.WKPI, eval.Plan) (eval.Report, error)) (eval.Report, error) {
	byVocab := map[string]*eval.WKPI{}
	return eval.ByTrainingFolds(ctx, ds.Labels, len(ds.Classes), plan, func(train []int) (*eval.WKPI, error) {
		s, err := ff.labelSettings(ds, train)
		if err != nil {
			return nil, err
		}
		key := fmt.Sprint(s.Labels.Vocabulary)
		if w := byVocab[key]; w != nil {
			return w, nil
		}
		w, err := prepareFor(ctx, s, ds, prog)
		byVocab[key] = w
		return w, err
	}, run)
}

// mode names -labels for the eval summary line.
func (f *featureFlags) mode() string {
	if !f.labels {
		return features.Settings{}.Mode()
	}
	return fmt.Sprintf("%s: %d most frequent + other, t = %g", features.Settings{Labels: &features.Labels{}}.Mode(), f.labelGroups, f.labelTime)
}
