package main

import (
	"context"
	"fmt"

	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/progress"
)

// featuresFor returns the feature settings of u for the graphs listed in
// train (all when nil): in node-label mode with their vocabulary, named
// by the code table of the dataset's README.txt when it has one.
func (c *settingsFlags) featuresFor(u eval.Setup, ds *graph.Dataset, train []int) (features.Settings, error) {
	var names map[string]string
	if u.Spec.Labels {
		// SWC samples and zips without a README have no table: codes stay codes.
		var err error
		if names, _, err = c.labelNames(); err != nil {
			return u.Features, err
		}
	}
	s, err := u.FeaturesFor(ds.Graphs, train, names)
	if err != nil {
		return s, fmt.Errorf("%s: %w", ds.Name, err)
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
func labelFolds(ctx context.Context, c *settingsFlags, u eval.Setup, ds *graph.Dataset, plan eval.Plan, prog progress.Func, run func(*eval.WKPI, eval.Plan) (eval.Report, error)) (eval.Report, error) {
	byVocab := map[string]*eval.WKPI{}
	return eval.ByTrainingFolds(ctx, ds.Labels, len(ds.Classes), plan, func(train []int) (*eval.WKPI, error) {
		s, err := c.featuresFor(u, ds, train)
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
