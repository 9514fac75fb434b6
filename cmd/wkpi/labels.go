package main

import (
	"context"
	"fmt"

	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/progress"
)

// featuresOf returns the feature settings of u for training sets of ds
// (nil: all graphs; eval.Setup.FeaturesOf): in node-label mode with their
// vocabulary, named by the code table of the dataset's README.txt when it
// has one.
func (c *settingsFlags) featuresOf(u eval.Setup, ds *graph.Dataset) (func(train []int) features.Settings, error) {
	var names map[string]string
	if u.Spec.Labels {
		// SWC samples and zips without a README have no table: codes stay codes.
		var err error
		if names, _, err = c.labelNames(); err != nil {
			return nil, err
		}
	}
	of, err := u.FeaturesOf(ds.Graphs, names)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ds.Name, err)
	}
	return of, nil
}

// prepareFor computes the features of settings s.
func prepareFor(ctx context.Context, s features.Settings, ds *graph.Dataset, prog progress.Func) (*eval.WKPI, error) {
	set, err := features.Compute(ctx, ds, s, prog)
	if err != nil {
		return nil, err
	}
	return eval.NewWKPI(set, ds.Labels, len(ds.Classes))
}

// featureCache is the features of u for a training set (nil: all
// graphs) as eval.Source.Features wants them: computed once per
// node-label vocabulary (once in all in structure-only mode), so that
// folds and repeats with the same vocabulary share them.
func (c *settingsFlags) featureCache(ctx context.Context, u eval.Setup, ds *graph.Dataset, prog progress.Func) func(train []int) (*eval.WKPI, error) {
	byVocab := map[string]*eval.WKPI{}
	var of func(train []int) features.Settings
	return func(train []int) (*eval.WKPI, error) {
		if of == nil {
			var err error
			if of, err = c.featuresOf(u, ds); err != nil {
				return nil, err
			}
		}
		s := of(train)
		var key string
		if s.Labels != nil {
			key = fmt.Sprint(s.Labels.Vocabulary)
		}
		if w := byVocab[key]; w != nil {
			return w, nil
		}
		w, err := prepareFor(ctx, s, ds, prog)
		byVocab[key] = w
		return w, err
	}
}

// keepSizeAware returns an eval.Auto.SizeAware that builds the
// size-aware candidate of a feature set once and keeps that of the last
// feature set asked for.
func keepSizeAware() func(*eval.WKPI, eval.Config) (eval.Candidate, error) {
	var of, sized *eval.WKPI
	return func(w *eval.WKPI, cfg eval.Config) (eval.Candidate, error) {
		if of != w {
			c, err := eval.SizeAware(w, cfg)
			if err != nil {
				return c, err
			}
			of, sized = w, c.W
		}
		return eval.Candidate{W: sized, Config: eval.SizeAwareConfig(cfg)}, nil
	}
}
