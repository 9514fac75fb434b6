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
	model *model.Model
	ds    *graph.Dataset
	err   string
}

// mutagDefault trains the default `wkpi train` model on MUTAG once per
// test binary.
func mutagDefault(tb testing.TB) (*model.Model, *graph.Dataset) {
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
// an explanation within 2x of a prediction; docs/benchmarks.md).
func BenchmarkPredictMUTAG(b *testing.B) {
	m, ds := mutagDefault(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		if _, err := m.Predict(ctx, ds.Graphs[i%len(ds.Graphs):i%len(ds.Graphs)+1]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExplainMUTAG(b *testing.B) {
	m, ds := mutagDefault(b)
	e, err := explain.New(m, explain.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		if _, err := e.Explain(ds.Graphs[i%len(ds.Graphs)]); err != nil {
			b.Fatal(err)
		}
	}
}
