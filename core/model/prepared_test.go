package model_test

import (
	"context"
	"math"
	"testing"

	"wkpi-web/core/explain"
	"wkpi-web/core/features"
	"wkpi-web/core/kernel"
	"wkpi-web/core/model"
	"wkpi-web/core/spec"
)

// prepared prepares m.
func prepared(t *testing.T, m *model.Model) *model.Prepared {
	t.Helper()
	p, err := model.Prepare(m)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPreparedMatchesPlainLoop checks a prepared model's predictions and
// explanations on MUTAG (every eighth graph) against decisions computed by the plain loop over
// all pixels (kernel.Kernel.Eval, the SVM's Decision), to 1e-12, for the
// default and the molecules settings, each with the three kernels a model
// may have (the decisions of the altered ones mean nothing, the
// arithmetic is what is checked); and Model.Predict against it, to the
// bit.
func TestPreparedMatchesPlainLoop(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    spec.Spec
	}{
		{"default", spec.Defaults()},
		{"molecules", spec.Molecules()},
	} {
		trained, ds := trainMUTAG(t, tc.s)
		wkpi, alt, gauss := *trained, *trained, *trained
		wkpi.GaussWidth = 0
		alt.Variant, alt.GaussWidth, alt.Sigma = kernel.Alt, 0, 0.3
		gauss.GaussWidth = 0.3
		for _, v := range []struct {
			name string
			m    *model.Model
		}{{"WKPI", &wkpi}, {"altWKPI", &alt}, {"Gaussian of the distance", &gauss}} {
			t.Run(tc.name+"/"+v.name, func(t *testing.T) {
				m := v.m
				p := prepared(t, m)
				ctx := context.Background()
				got, err := p.Predict(ctx, ds.Graphs)
				if err != nil {
					t.Fatal(err)
				}
				once, err := m.Predict(ctx, ds.Graphs)
				if err != nil {
					t.Fatal(err)
				}
				e, err := explain.New(p, explain.DefaultOptions())
				if err != nil {
					t.Fatal(err)
				}
				zero := plain(m, make([]float64, len(m.Support[0])))
				for i, g := range ds.Graphs {
					if got[i].Class != once[i].Class || !model.BitEqual(got[i].Decision, once[i].Decision) || len(got[i].Points) != len(once[i].Points) {
						t.Errorf("graph %d: prepared class %d decision %v, Model.Predict %d %v", i, got[i].Class, got[i].Decision, once[i].Class, once[i].Decision)
					}
					if i%8 != 0 { // the plain loop is slow
						continue
					}
					gs, err := features.GraphDiagramsOf(g, m.Features)
					if err != nil {
						t.Fatal(err)
					}
					img, err := features.Render(gs, m.Grid, m.Features)
					if err != nil {
						t.Fatal(err)
					}
					want := plain(m, img)
					near(t, "graph %d decision", i, got[i].Decision, want)
					if m.Classes[got[i].Class] != got[i].Label {
						t.Errorf("graph %d: class %d is labelled %q", i, got[i].Class, got[i].Label)
					}
					ex, err := e.Explain(g)
					if err != nil {
						t.Fatal(err)
					}
					if ex.Class != got[i].Label {
						t.Errorf("graph %d: explained class %s, predicted %s", i, ex.Class, got[i].Label)
					}
					near(t, "graph %d explained decision", i, []float64{ex.Decision, ex.Reference},
						[]float64{score(m, want, got[i].Class), score(m, zero, got[i].Class)})
				}
			})
		}
	}
}

// plain is m's decision values at img, each kernel value by the plain
// loop over all pixels.
func plain(m *model.Model, img []float64) []float64 {
	k := m.Kernel()
	row := make([]float64, len(m.Support))
	for j, x := range m.Support {
		row[j] = k.Eval(img, x)
		if m.GaussWidth > 0 {
			row[j] = kernel.GaussianOf(row[j], m.GaussWidth)
		}
	}
	return m.SVM.Decision(row)
}

// score is class c's score from decision values, as explanations sum
// it: each pair with c, signed towards c.
func score(m *model.Model, decision []float64, c int) float64 {
	var s float64
	for p, b := range m.SVM.Pairs {
		switch c {
		case b.A:
			s += decision[p]
		case b.B:
			s -= decision[p]
		}
	}
	return s
}

// near fails unless got and want agree to 1e-12 (relative above 1).
func near(t *testing.T, what string, i int, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf(what+": %d values, want %d", i, len(got), len(want))
	}
	for k := range got {
		if !(math.Abs(got[k]-want[k]) <= 1e-12*max(1, math.Abs(want[k]))) {
			t.Errorf(what+" %d: %.17g, plain loop %.17g", i, k, got[k], want[k])
		}
	}
}
