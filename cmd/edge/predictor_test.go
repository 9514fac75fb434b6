package main

import (
	"context"
	"math"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/kernel"
	"wkpi-web/core/model"
	"wkpi-web/core/tu"
)

// TestPredictorMatchesModel checks the predictor against model.Predict,
// to the bit, on every MUTAG graph: with the bundled model, and with its
// kernel turned into altWKPI and into a Gaussian of the WKPI distance
// (the decisions of those are meaningless, the arithmetic is what is
// checked).
func TestPredictorMatchesModel(t *testing.T) {
	m := loadBundled(t)
	ds, err := tu.Read("../../data/MUTAG")
	if err != nil {
		t.Fatalf("%v (run make data)", err)
	}
	alt, gauss := *m, *m
	alt.Variant, alt.GaussWidth = kernel.Alt, 0
	gauss.Variant, gauss.GaussWidth = kernel.WKPI, 0.7
	for name, m := range map[string]*model.Model{"bundled": m, "altWKPI": &alt, "Gaussian": &gauss} {
		t.Run(name, func(t *testing.T) { samePredictor(t, m, ds.Graphs) })
	}
}

func samePredictor(t *testing.T, m *model.Model, graphs []*graph.Graph) {
	t.Helper()
	want, err := m.Predict(context.Background(), graphs)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPredictor(m)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range graphs {
		got, err := p.predict(g)
		if err != nil {
			t.Fatal(err)
		}
		w := want[i]
		if got.class != w.Class || got.points != len(w.Points) || len(got.decision) != len(w.Decision) {
			t.Fatalf("graph %d: got %+v, model.Predict class %d, %d points, decision %v", i, got, w.Class, len(w.Points), w.Decision)
		}
		for k := range got.decision {
			if math.Float64bits(got.decision[k]) != math.Float64bits(w.Decision[k]) {
				t.Errorf("graph %d decision %d: got %.17g, model.Predict %.17g", i, k, got.decision[k], w.Decision[k])
			}
		}
	}
}

// TestFormRefusesDamage feeds decodeModel every prefix of a stored
// model's end and a gob file of an older build: each is an error, never
// a panic or a model.
func TestFormRefusesDamage(t *testing.T) {
	b := readBundled(t)
	for _, cut := range []int{len(formMagic), len(formMagic) + 1, len(formMagic) + 100, len(b) / 2, len(b) - 8, len(b) - 1} {
		if _, err := decodeModel(b[:cut]); err == nil {
			t.Errorf("the first %d of %d bytes decode", cut, len(b))
		}
	}
	if _, err := decodeModel(append(b[:len(b):len(b)], 0)); err == nil {
		t.Error("a byte after the end decodes")
	}
	// The start of a gob stream, as earlier builds stored models.
	if _, err := decodeModel([]byte("\x7f\xff\x81\x03\x01\x01\x05Model")); err != errOldForm {
		t.Errorf("a gob model: %v, want errOldForm", err)
	}
}

// BenchmarkPredict is one MUTAG graph's prediction with the bundled
// model, prepared (what a Worker's request costs besides parsing).
func BenchmarkPredict(b *testing.B) {
	m := loadBundled(b)
	ds, err := tu.Read("../../data/MUTAG")
	if err != nil {
		b.Fatal(err)
	}
	p, err := newPredictor(m)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := p.predict(ds.Graphs[0]); err != nil {
			b.Fatal(err)
		}
	}
}
