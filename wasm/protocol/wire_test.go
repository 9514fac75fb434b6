package protocol

import (
	"encoding/json"
	"math"
	"testing"

	"wkpi-web/core/testenv"
)

// wireValues sets every field of the result types the page reads from
// the pipeline: persistence diagrams, an explanation, a cross-validation
// report and a file's inspection.
func wireValues() any {
	p := func(v float64) *float64 { return &v }
	res := Result{Accuracy: 0.75, Std: 0.25, PerFold: []float64{1, 0.5}, Confusion: [][]int{{2, 0}, {1, 1}}, Predictions: []int{0, 0, 1, 1}, Seconds: 3,
		ROCAUC:           MetricSummary{Mean: p(0.5), Std: p(0), PerFold: []*float64{p(0.5), nil}, Undefined: 1},
		BalancedAccuracy: MetricSummary{Mean: p(0.75), Std: p(0.25), PerFold: []*float64{p(1), p(0.5)}},
		F1Macro:          MetricSummary{Mean: p(0.5), Std: p(0.5), PerFold: []*float64{p(1), p(0)}}}
	x := 6.5
	return struct {
		Diagrams   Diagrams
		Explained  Explained
		Report     Report
		Inspection DataInspection
		Options    []DataOptions
		Source     DataSource
	}{
		Diagrams: Diagrams{Ord0: []Point{{Birth: 0, Death: 1}, {Birth: -1, Death: math.Inf(1)}}, Rel1: []Point{{Birth: 3, Death: 0.5}},
			Ext0: []Point{{Birth: 1e-7, Death: 1.5e21}}, Ext1: []Point{{Birth: 2.25, Death: math.Inf(-1)}}},
		Explained: Explained{Explanation: Explanation{Graph: "g", Class: "1", Decision: 0.5, Reference: -0.25, Attribution: "simplices",
			Nodes: []NodeScore{{ID: 0, Score: 0.5}}, Edges: []EdgeScore{{U: 0, V: 1, Score: -0.125}},
			Points:  []PointScore{{Descriptor: "degree", Diagram: "ext0", Index: 2, Birth: 1, Death: 3, Score: 0.25, Vertices: []int{0, 1}, Edges: [][2]int{{0, 1}}}},
			Blocks:  []BlockScore{{Descriptor: "degree", Channel: "ord0", Pixels: []float64{0, 0.5}}},
			Against: []PairScore{{Class: "2", Decision: 1, Reference: 0.5}},
			Groups:  []GroupScore{{Name: "nitro", Atoms: []int{1, 2, 3}, Score: 0.75, Share: 0.5}}},
			Prediction: Graph{File: "m.smi", Index: 1, Name: "m1", Nodes: 3}, Molecule: "CCO", Labels: []string{"C", "C", "O"},
			Grid: Grid{MinX: 0, MinY: 0, Pixel: 0.1, Rows: 2, Cols: 1}, Millis: 12},
		Report: Report{Protocol: "auto", Learned: res, Baseline: res, Seconds: 3, Folds: []Fold{{
			Index: 1, Config: FoldConfig{Sigma: 0.1, C: 10, Gauss: 1, Learn: FoldLearn{M: 4}},
			Trace:    Trace{Cost: []float64{2, 1.5}, Iterations: 1, Converged: true},
			Accuracy: 0.75, Baseline: 0.5, InnerAccuracy: 0.7, Cost: 0.25, ChannelScales: []float64{1, 2}, Candidate: 1,
			Test: []int{0, 3}, Predicted: []int{0, 1}, BaselinePredicted: []int{1, 1},
			BalancedAccuracy: 0.7, F1Macro: 0.6, ROCAUC: p(0.8), BaselineBalancedAccuracy: 0.5, BaselineF1Macro: 0.4,
			Scores: [][]float64{{-1, 1}, {1, -1}}, BaselineScores: [][]float64{{-2, 2}, {2, -2}}}}},
		Inspection: DataInspection{File: "a.csv", Format: FormatCSV, Records: 200, SMILES: "smiles", Name: "id", Target: "pIC50",
			Columns: []DataColumn{{Name: "AMW", Values: 200, Distinct: 183, Numeric: true, Median: 213.2, Examples: []string{"122.1"}}},
			Bad: &BadRecords{File: "a.csv", Unit: "rows", Total: 200, Count: 1,
				First: []BadRecord{{Index: 3, Where: "row 3 (line 4)", Name: "m3", Problem: `row 3 (line 4): SMILES "C1CC": unclosed ring`}}}},
		Options: []DataOptions{{SMILES: "smi", Target: "pIC50", Threshold: &x, SkipBad: true}, {}},
		Source:  DataSource{File: "a.sdf", Format: FormatSD, Records: 7, Options: DataOptions{Target: "class"}},
	}
}

// TestWireGolden: the JSON the page and the workers exchange is the one
// written before the result types moved to core/wire, byte for byte
// (go test -update rewrites it, and formats.go).
func TestWireGolden(t *testing.T) {
	got, err := json.MarshalIndent(wireValues(), "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	testenv.Golden(t, "testdata/wire.golden.json", got, *update)
}
