package jobs

import (
	"context"
	"fmt"
	"math/rand/v2"

	"wkpi-web/core/graph"
)

// Warm runs the Train tab's work (a cross-validation and a final training
// with the defaults) on small synthetic graphs, a step at a time, calling
// idle before each step (it returns when the worker has no job) and
// stopping once ctx ends.
//
// Why: V8 runs a wasm function on its baseline compiler until the function
// has been busy for a while, and a call already running (such as a loop
// over all pairs of images) keeps the slow code to its end. A user's first
// MUTAG cross-validation measured 2.3-3.4 s against 1.6 s once the code
// was hot (docs/benchmarks.md). Warming the same code paths on tiny
// data while the page sits idle makes the first run as fast as later ones,
// and V8 shares the optimised code with every worker of the page. The
// worker's real state (its dataset and features) is left untouched.
func Warm(ctx context.Context, idle func()) error {
	ds, err := warmDataset()
	if err != nil {
		return err
	}
	var w Worker
	t := Defaults()
	t.Folds, t.Iterations = 3, 20
	steps := []func() error{
		func() error { _, err := w.crossValidate(ctx, ds, &t, nil, nil); return err },
		func() error { _, err := w.train(ctx, ds, &t, nil); return err },
	}
	for _, step := range steps {
		idle()
		if ctx.Err() != nil {
			return nil
		}
		if err := step(); err != nil && ctx.Err() == nil {
			return err
		}
	}
	return nil
}

// warmDataset is 24 small ring-with-chords graphs in two classes (few
// chords or many), seeded so that every warm-up does the same work.
func warmDataset() (*graph.Dataset, error) {
	rng := rand.New(rand.NewPCG(1, 2))
	ds := &graph.Dataset{Name: "warm-up", Classes: []string{"0", "1"}}
	for i := range 24 {
		class := i % 2
		n := 10 + rng.IntN(10)
		var edges []graph.Edge
		for v := range n {
			edges = append(edges, graph.Edge{U: v, V: (v + 1) % n})
		}
		for range 1 + 3*class + rng.IntN(3) {
			u, v := rng.IntN(n), rng.IntN(n)
			if u != v && (u+1)%n != v && (v+1)%n != u {
				edges = append(edges, graph.Edge{U: u, V: v})
			}
		}
		g, err := graph.New(n, edges, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("warm-up graph %d: %w", i, err)
		}
		ds.Graphs, ds.Labels = append(ds.Graphs, g), append(ds.Labels, class)
	}
	return ds, nil
}
