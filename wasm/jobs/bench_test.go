package jobs

import (
	"context"
	"os"
	"strconv"
	"testing"

	"wkpi-web/core/spec"
	"wkpi-web/core/testenv"
	"wkpi-web/wasm/protocol"
)

// BenchmarkLayoutPROTEINS draws the largest PROTEINS graph (620 nodes), the
// slowest drawing a demo-sized dataset asks for.
func BenchmarkLayoutPROTEINS(b *testing.B) {
	ds, err := Parse(files(b, "../../data/PROTEINS"))
	if err != nil {
		b.Fatal(err)
	}
	big := ds.Graphs[0]
	for _, g := range ds.Graphs {
		if g.N > big.N {
			big = g
		}
	}
	b.ResetTimer()
	for b.Loop() {
		Layout(big, "")
	}
}

// BenchmarkExploreMUTAG runs the Explore job (Ricci, diagrams, image) on
// every MUTAG graph, on a worker that already holds the dataset's features
// (the first Explore of a descriptor computes them, as BenchmarkTrainMUTAG
// measures).
func BenchmarkExploreMUTAG(b *testing.B) {
	var w Worker
	fs := files(b, "../../data/MUTAG")
	if r := w.Run(context.Background(), protocol.Request{Kind: protocol.Explore, Dataset: "m", Files: fs,
		Descriptor: protocol.Descriptor{Kind: "ricci"}}, nil, nil); r.Event != protocol.Done {
		b.Fatal(r.Error)
	}
	b.ResetTimer()
	for b.Loop() {
		for i := 0; i < 188; i++ {
			r := w.Run(context.Background(), protocol.Request{Kind: protocol.Explore, Dataset: "m", Graph: i,
				Descriptor: protocol.Descriptor{Kind: "ricci"}}, nil, nil)
			if r.Event != protocol.Done {
				b.Fatal(r.Error)
			}
		}
	}
}

// BenchmarkTrainMUTAG runs the Train job with the defaults on a fresh
// worker: parse, features, learning and SVM on all of MUTAG. The browser
// figure to compare with is in docs/benchmarks.md.
func BenchmarkTrainMUTAG(b *testing.B) {
	fs := files(b, "../../data/MUTAG")
	tr := Defaults()
	for b.Loop() {
		var w Worker
		r := w.Run(context.Background(), protocol.Request{Kind: protocol.Train, Dataset: "m", Files: fs, Training: &tr}, nil, nil)
		if r.Event != protocol.Done {
			b.Fatal(r.Error)
		}
	}
}

// BenchmarkCrossValidateMUTAG runs a 10-fold CV with the defaults in one
// job on a worker that holds the features, as the browser benchmark does.
func BenchmarkCrossValidateMUTAG(b *testing.B) {
	var w Worker
	tr := Defaults()
	req := protocol.Request{Kind: protocol.CrossValidate, Dataset: "m", Files: files(b, "../../data/MUTAG"), Training: &tr}
	if r := w.Run(context.Background(), req, nil, nil); r.Event != protocol.Done {
		b.Fatal(r.Error)
	}
	req.Files = nil
	b.ResetTimer()
	for b.Loop() {
		if r := w.Run(context.Background(), req, nil, nil); r.Event != protocol.Done {
			b.Fatal(r.Error)
		}
	}
}

// BenchmarkCrossValidateTable runs the page's job with the final model
// (the last CV job of the Train tab) with the defaults on n molecules of
// RDKit's ChEMBL series (testenv.ChEMBLTable; WKPI_BENCH_MOLECULES, 300
// when unset), cut at 6.44: the direct path of passes over the pairs, which
// the 1,017-molecule table takes in the browser. Run it under Node with
// --cpu-prof for a profile (docs/benchmarks.md).
func BenchmarkCrossValidateTable(b *testing.B) {
	n := 300
	if s := os.Getenv("WKPI_BENCH_MOLECULES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			b.Fatal(err)
		}
	}
	cut := 6.44
	file := protocol.File{Name: "chembl.csv", Data: []byte(testenv.ChEMBLTable(b, n)), Options: &protocol.DataOptions{Target: "act", Threshold: &cut}}
	tr := Defaults()
	tr.Spec = spec.Molecules()
	tr.Final = true
	for b.Loop() {
		var w Worker
		r := w.Run(context.Background(), protocol.Request{Kind: protocol.CrossValidate, Dataset: "c", Files: []protocol.File{file}, Training: &tr}, nil, nil)
		if r.Event != protocol.Done {
			b.Fatal(r.Error)
		}
	}
}
