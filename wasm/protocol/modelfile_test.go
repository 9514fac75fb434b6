package protocol

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/model"
)

// TestWithEvaluation: a model file as a worker's Train writes it, with
// the name and evaluation the page adds, loads (model.Load, the oracle)
// with those values and predicts as before; the other fields stay byte
// for byte.
func TestWithEvaluation(t *testing.T) {
	data := toyModelFile(t)
	got := WithEvaluation(data, "chembl (2)", Evaluation{Folds: 3, Accuracy: 0.75, Std: 0.125})
	if !bytes.HasPrefix(got, bytes.TrimRight(data, "}\n")) {
		t.Errorf("the fields before are changed")
	}
	m, err := model.Load(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "chembl (2)" || m.Evaluation == nil || *m.Evaluation != (model.Evaluation{Folds: 3, Accuracy: 0.75, Std: 0.125}) {
		t.Errorf("loaded name %q, evaluation %+v", m.Name, m.Evaluation)
	}
	// No name: only the evaluation.
	if s := string(WithEvaluation([]byte(`{"a":1}`), "", Evaluation{Folds: 2})); s != `{"a":1,"evaluation":{"folds":2,"accuracy":0,"std":0}}` {
		t.Errorf("without a name: %s", s)
	}
	for _, in := range []string{"", "[1]", "not json", "{}"} {
		want := in
		if in == "{}" {
			want = `{"evaluation":{"folds":2,"accuracy":0,"std":0}}`
		}
		if s := string(WithEvaluation([]byte(in), "", Evaluation{Folds: 2})); s != want {
			t.Errorf("%q: %s, want %s", in, s, want)
		}
	}
}

// toyModelFile trains a tiny model (two triangles, two paths) and saves
// it as a worker's Train job does: no name, no evaluation.
func toyModelFile(t *testing.T) []byte {
	t.Helper()
	var gs []*graph.Graph
	for i := range 6 {
		edges := []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}}
		if i%2 == 0 {
			edges = append(edges, graph.Edge{U: 3, V: 0})
		}
		g, err := graph.New(4, edges, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	ds := &graph.Dataset{Name: "toy", Graphs: gs, Labels: []int{0, 1, 0, 1, 0, 1}, Classes: []string{"a", "b"}}
	cfg := eval.DefaultConfig()
	cfg.Learn.MaxIter = 2
	s := features.Default(filtration.KindDegree)
	set, err := features.Compute(context.Background(), ds, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := eval.NewWKPI(set, ds.Labels, 2)
	if err != nil {
		t.Fatal(err)
	}
	m, err := w.Train(context.Background(), ds.Name, ds.Classes, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "evaluation") {
		t.Fatal("a trained model has an evaluation already")
	}
	return buf.Bytes()
}
