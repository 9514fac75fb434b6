package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"wkpi-web/core/explain"
	"wkpi-web/core/graph"
	"wkpi-web/core/model"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

var defaultMUTAG struct {
	once  sync.Once
	model *model.Prepared
	ds    *graph.Dataset
	err   string
}

// mutagDefault trains the default `wkpi train` model on MUTAG once per
// test binary.
func mutagDefault(tb testing.TB) (*model.Prepared, *graph.Dataset) {
	tb.Helper()
	dir := testenv.Dataset(tb, "MUTAG")
	defaultMUTAG.once.Do(func() {
		tmp, err := os.MkdirTemp("", "wkpi-explain")
		if err != nil {
			defaultMUTAG.err = err.Error()
			return
		}
		file := filepath.Join(tmp, "model.json")
		var out, errOut strings.Builder
		if code := run(context.Background(), []string{"train", "-data", dir, "-out", file}, nil, &out, &errOut); code != 0 {
			defaultMUTAG.err = errOut.String()
			return
		}
		if defaultMUTAG.model, err = loadModel(file); err != nil {
			defaultMUTAG.err = err.Error()
			return
		}
		if defaultMUTAG.ds, err = tu.Read(dir); err != nil {
			defaultMUTAG.err = err.Error()
		}
	})
	if defaultMUTAG.err != "" {
		tb.Fatal(defaultMUTAG.err)
	}
	return defaultMUTAG.model, defaultMUTAG.ds
}

// BenchmarkPredictMUTAG and BenchmarkExplainMUTAG time one prediction and
// one explanation of a MUTAG graph with the default model (issue 21:
// an explanation within 2x of a prediction; docs/benchmarks.md). A
// prediction is timed with the model prepared once (model.Prepared, as
// the CLI, the worker and the edge use it) and prepared at every call
// (Model.Predict, as every prediction was before issue 28).
func BenchmarkPredictMUTAG(b *testing.B) {
	p, ds := mutagDefault(b)
	ctx := context.Background()
	for _, bc := range []struct {
		name    string
		predict func(context.Context, []*graph.Graph) ([]model.Prediction, error)
	}{
		{"prepared once", p.Predict},
		{"prepared at every call", p.Model().Predict},
	} {
		b.Run(bc.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				if _, err := bc.predict(ctx, ds.Graphs[i:i+1]); err != nil {
					b.Fatal(err)
				}
				i = (i + 1) % len(ds.Graphs)
			}
		})
	}
}

func BenchmarkExplainMUTAG(b *testing.B) {
	p, ds := mutagDefault(b)
	e, err := explain.New(p, explain.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		if _, err := e.Explain(ds.Graphs[i]); err != nil {
			b.Fatal(err)
		}
		i = (i + 1) % len(ds.Graphs)
	}
}
