package model_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"testing"

	"wkpi-web/core/eval"
	"wkpi-web/core/explain"
	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/model"
	"wkpi-web/core/spec"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// trainMUTAG trains a model of settings s on MUTAG with a few learning
// iterations; the molecules preset has nine descriptors, two channels,
// 40x40 pixels.
func trainMUTAG(t *testing.T, s spec.Spec) (*model.Model, *graph.Dataset) {
	t.Helper()
	dir := testenv.Dataset(t, "MUTAG")
	ds, err := tu.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	nodes, edges, err := tu.ReadLabelNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Iterations = 5
	u, err := eval.FromSpec(s)
	if err != nil {
		t.Fatal(err)
	}
	u = u.WithCodes(nodes, edges)
	ctx := context.Background()
	set, err := features.Compute(ctx, ds, u.Features, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := eval.NewWKPI(set, ds.Labels, len(ds.Classes))
	if err != nil {
		t.Fatal(err)
	}
	m, err := w.Train(ctx, "MUTAG", ds.Classes, u.Config, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m, ds
}

// asVersion1 rewrites a version-2 file as version 1 wrote it: the same
// fields, the support images as dense arrays of numbers.
func asVersion1(t *testing.T, v2 []byte, support [][]float64) []byte {
	t.Helper()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(v2, &fields); err != nil {
		t.Fatal(err)
	}
	dense, err := json.Marshal(support)
	if err != nil {
		t.Fatal(err)
	}
	fields["version"], fields["support"] = json.RawMessage("1"), dense
	v1, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	return v1
}

// TestFileMUTAG: a model saved in version 2, and the same model written
// as version 1, load with the very support images, predictions and
// explanations of the model in memory, and version 2 is at most half of
// version 1's size.
func TestFileMUTAG(t *testing.T) {
	m, ds := trainMUTAG(t, spec.Molecules())
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	v2 := bytes.Clone(buf.Bytes())
	v1 := asVersion1(t, v2, m.Support)
	if len(v2) > len(v1)/2 {
		t.Errorf("version 2 is %d bytes, version 1 %d: want half at most", len(v2), len(v1))
	}
	t.Logf("%d support images: version 1 %d bytes, version 2 %d", len(m.Support), len(v1), len(v2))

	ctx := context.Background()
	want, err := m.Predict(ctx, ds.Graphs)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := explain.New(prepared(t, m), explain.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for name, file := range map[string][]byte{"version 1": v1, "version 2": v2} {
		got, err := model.Load(bytes.NewReader(file))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.Version != model.Version {
			t.Errorf("%s: loaded as version %d, want %d", name, got.Version, model.Version)
		}
		for i, img := range got.Support {
			for s, v := range img {
				if math.Float64bits(v) != math.Float64bits(m.Support[i][s]) {
					t.Fatalf("%s: support image %d pixel %d is %v, want %v", name, i, s, v, m.Support[i][s])
				}
			}
		}
		preds, err := got.Predict(ctx, ds.Graphs)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range preds {
			if p.Class != want[i].Class || !bitEqual(p.Decision, want[i].Decision) {
				t.Fatalf("%s: graph %d: class %d decision %v, want %d %v", name, i, p.Class, p.Decision, want[i].Class, want[i].Decision)
			}
		}
		gotEx, err := explain.New(prepared(t, got), explain.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(ds.Graphs); i += 17 {
			a, errA := ex.Explain(ds.Graphs[i])
			b, errB := gotEx.Explain(ds.Graphs[i])
			if errA != nil || errB != nil {
				t.Fatalf("graph %d: %v, %v", i, errA, errB)
			}
			ja, _ := json.Marshal(a) // JSON numbers are exact: shortest round-trip form
			jb, _ := json.Marshal(b)
			if !bytes.Equal(ja, jb) {
				t.Errorf("%s: graph %d: explanation differs:\n%s\n%s", name, i, jb, ja)
			}
		}
	}
}

func bitEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
