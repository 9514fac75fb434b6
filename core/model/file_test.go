package model_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"wkpi-web/core/eval"
	"wkpi-web/core/explain"
	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
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
	s.Iterations = 5
	ds, nodes, edges := readMUTAG(t)
	return train(t, ds, s, nodes, edges), ds
}

func readMUTAG(t *testing.T) (ds *graph.Dataset, nodes, edges map[string]string) {
	t.Helper()
	dir := testenv.Dataset(t, "MUTAG")
	ds, err := tu.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if nodes, edges, err = tu.ReadLabelNames(dir); err != nil {
		t.Fatal(err)
	}
	return ds, nodes, edges
}

// train trains s on ds as wkpi train does (without the automatic
// choice, which picks one of the unit and size-aware images: each is a
// case of its own), with the dataset's code tables.
func train(t *testing.T, ds *graph.Dataset, s spec.Spec, nodes, edges map[string]string) *model.Model {
	t.Helper()
	u, err := eval.FromSpec(s)
	if err != nil {
		t.Fatal(err)
	}
	u = u.WithCodes(nodes, edges)
	fs, err := u.FeaturesFor(ds.Graphs, nil, nodes)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	set, err := features.Compute(ctx, ds, fs, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := eval.NewWKPI(set, ds.Labels, len(ds.Classes))
	if err != nil {
		t.Fatal(err)
	}
	m, err := w.Train(ctx, ds.Name, ds.Classes, u.Config, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
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

// TestFileMUTAG: a model saved in version 3, the same model without its
// diagrams saved in version 2, and that file rewritten as version 1 load
// with the very support images, predictions and explanations of the
// model in memory; version 2 is at most half of version 1's size and
// version 3 at most 300 KB and a sixth of version 2 (whose images the
// molecules preset's tail cut makes sparse).
func TestFileMUTAG(t *testing.T) {
	m, ds := trainMUTAG(t, spec.Molecules())
	save := func(m *model.Model) []byte {
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	v3 := save(m)
	images := *m
	images.Diagrams = nil
	v2 := save(&images)
	v1 := asVersion1(t, v2, m.Support)
	if len(v2) > len(v1)/2 {
		t.Errorf("version 2 is %d bytes, version 1 %d: want half at most", len(v2), len(v1))
	}
	if len(v3) > 300_000 || len(v3) > len(v2)/6 {
		t.Errorf("version 3 is %d bytes, version 2 %d: want 300 KB and a sixth at most", len(v3), len(v2))
	}
	t.Logf("%d support images: version 1 %d bytes, version 2 %d, version 3 %d", len(m.Support), len(v1), len(v2), len(v3))

	ctx := context.Background()
	want, err := m.Predict(ctx, ds.Graphs)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := explain.New(prepared(t, m), explain.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for name, file := range map[string][]byte{"version 1": v1, "version 2": v2, "version 3": v3} {
		got, err := model.Load(bytes.NewReader(file))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.Version != model.Version || (got.Diagrams != nil) != (name == "version 3") {
			t.Errorf("%s: loaded as version %d with diagrams %t, want %d and diagrams in version 3 only", name, got.Version, got.Diagrams != nil, model.Version)
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
			if p.Class != want[i].Class || !model.BitEqual(p.Decision, want[i].Decision) {
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

// chemblSample is testenv.ChEMBLTable's n molecules as a dataset, its
// classes pAct below and from 6.44 (the series' median).
func chemblSample(t *testing.T, n int) *graph.Dataset {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(testenv.ChEMBLTable(t, n)), "\n")[1:]
	ds := &graph.Dataset{Name: "chembl", Classes: []string{"pAct < 6.44", "pAct >= 6.44"}}
	var smiles []string
	for _, line := range lines {
		f := strings.Split(line, ",")
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			t.Fatalf("activity of %s: %v", line, err)
		}
		smiles = append(smiles, f[0])
		ds.Labels = append(ds.Labels, map[bool]int{false: 0, true: 1}[v >= 6.44])
	}
	var err error
	if ds.Graphs, err = graphfile.Parse("chembl.smi", []byte(strings.Join(smiles, "\n"))); err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestVersion3Modes: in every mode of the features (structure only,
// molecules from SMILES, node labels, size-aware images) the trainer's
// model keeps its diagrams, and its file of version 3 loads with the
// trainer's support images bit for bit and predicts exactly as the file
// of version 2 of the same model. (The molecules preset on MUTAG is
// TestFileMUTAG.)
func TestVersion3Modes(t *testing.T) {
	mutag, nodes, edges := readMUTAG(t)
	var half graph.Dataset // every other graph: quicker, both classes
	half.Name, half.Classes = mutag.Name, mutag.Classes
	for i := 0; i < len(mutag.Graphs); i += 2 {
		half.Graphs, half.Labels = append(half.Graphs, mutag.Graphs[i]), append(half.Labels, mutag.Labels[i])
	}
	quick := func(s spec.Spec) spec.Spec {
		s.Iterations, s.SVMChoice = 5, false
		return s
	}
	labels := quick(spec.Defaults())
	labels.Labels = true
	tests := []struct {
		name         string
		ds           *graph.Dataset
		s            spec.Spec
		nodes, edges map[string]string
		mode         string
		normalized   bool
	}{
		{"structure only", &half, quick(spec.Defaults()), nil, nil, features.ModeStructure, true},
		{"SMILES, molecules preset", chemblSample(t, 100), quick(spec.Molecules()), nil, nil, features.ModeMoleculesLabels, true},
		{"node labels", &half, labels, nodes, edges, features.ModeLabels, true},
		{"size-aware", &half, quick(spec.SizeAware()), nil, nil, features.ModeStructure, false},
	}
	ctx := context.Background()
	for _, tt := range tests {
		m := train(t, tt.ds, tt.s, tt.nodes, tt.edges)
		if m.Features.Mode() != tt.mode || m.Features.Normalize != tt.normalized || m.Diagrams == nil {
			t.Fatalf("%s: mode %q, normalized %t, diagrams %t; want %q, %t and diagrams", tt.name, m.Features.Mode(), m.Features.Normalize, m.Diagrams != nil, tt.mode, tt.normalized)
		}
		var v3, v2 bytes.Buffer
		images := *m
		images.Diagrams = nil
		if err := m.Save(&v3); err != nil {
			t.Fatal(err)
		}
		if err := images.Save(&v2); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d support vectors, version 2 %d bytes, version 3 %d", tt.name, len(m.Support), v2.Len(), v3.Len())
		var preds [2][]model.Prediction
		for k, file := range []*bytes.Buffer{&v3, &v2} {
			got, err := model.Load(file)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			for i, img := range got.Support {
				if !model.BitEqual(img, m.Support[i]) {
					t.Fatalf("%s: version %d: support image %d differs from the trainer's", tt.name, 3-k, i)
				}
			}
			if preds[k], err = got.Predict(ctx, tt.ds.Graphs); err != nil {
				t.Fatal(err)
			}
		}
		for i := range preds[0] {
			if a, b := preds[0][i], preds[1][i]; a.Class != b.Class || !model.BitEqual(a.Decision, b.Decision) {
				t.Fatalf("%s: graph %d: version 3 class %d decision %v, version 2 %d %v", tt.name, i, a.Class, a.Decision, b.Class, b.Decision)
			}
		}
	}
}
