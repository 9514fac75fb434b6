package eval

import (
	"context"
	"math"
	"reflect"
	"testing"
)

// TestFinalInPasses: a cross-validation on the direct path that also
// trains the final model (Plan.Final) gives the folds it gives without
// it, and the model Train gives: the same SVM choice, support vectors
// and classes on every graph, decision values within svmTol of their
// largest. The two Gram matrices differ by rounding (the passes keep them
// in float32 and sum the pairs fold by fold, where Train keeps float64 and
// one running sum), and SMO stops anywhere its KKT violation is below its
// tolerance: on a dual with several optima (the toy set at C = 10 has
// support vectors at the bound) the two stops differ by up to that much.
func TestFinalInPasses(t *testing.T) {
	const svmTol = 1e-3 // svm.Options' default Tol
	with := toyConfig()
	with.SVM = DefaultSVMGrid()
	final := &Final{Dataset: "toy", Classes: []string{"tree", "cycle"}}
	for _, cfg := range []Config{toyConfig(), with} {
		for _, plan := range []Plan{{Folds: 4, Seed: 3}, {Folds: 5, Seed: 2, Only: []int{1, 3}}} {
			ds, w := toyWKPI(t)
			w.MaxTableBytes = 0
			if two, err := w.twoPasses(context.Background(), cfg, nil); err != nil || !two {
				t.Fatalf("two passes %v (%v), want true", two, err)
			}
			want, err := w.CrossValidate(context.Background(), cfg, plan, nil)
			if err != nil {
				t.Fatal(err)
			}
			trained, err := w.Train(context.Background(), final.Dataset, final.Classes, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			plan.Final = final
			got, err := w.CrossValidate(context.Background(), cfg, plan, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.Final == nil {
				t.Fatalf("SVM choice %v, plan %+v: no final model", cfg.SVM != nil, plan)
			}
			m, start := got.Final.Model, got.Final.Initial
			got.Final = nil
			if !reflect.DeepEqual(withoutSeconds(got), withoutSeconds(want)) {
				t.Errorf("SVM choice %v, plan %+v: the folds changed with the final model", cfg.SVM != nil, plan)
			}
			if m.C != trained.C || math.Abs(m.GaussWidth-trained.GaussWidth) > 1e-6*trained.GaussWidth {
				t.Errorf("SVM choice %v: C %g, width %g; Train's %g, %g", cfg.SVM != nil, m.C, m.GaussWidth, trained.C, trained.GaussWidth)
			}
			if len(m.Support) != len(trained.Support) {
				t.Errorf("SVM choice %v: %d support vectors, Train's %d", cfg.SVM != nil, len(m.Support), len(trained.Support))
			}
			init, err := w.Initial(indices(len(w.Labels)), cfg.Learn)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(init, start) {
				t.Error("the final model's initial weight function is not Initial's of every graph")
			}
			a, err := m.Predict(context.Background(), ds.Graphs)
			if err != nil {
				t.Fatal(err)
			}
			b, err := trained.Predict(context.Background(), ds.Graphs)
			if err != nil {
				t.Fatal(err)
			}
			worst, scale := 0.0, 0.0
			for i := range a {
				if a[i].Class != b[i].Class {
					t.Errorf("graph %d: class %d, Train's model %d", i, a[i].Class, b[i].Class)
				}
				for k := range a[i].Decision {
					worst = max(worst, math.Abs(a[i].Decision[k]-b[i].Decision[k]))
					scale = max(scale, math.Abs(b[i].Decision[k]))
				}
			}
			worst /= scale
			if worst > svmTol {
				t.Errorf("SVM choice %v, plan %+v: decision values differ from Train's model's by up to %.3g of the largest", cfg.SVM != nil, plan, worst)
			}
			t.Logf("SVM choice %v, plan %+v: decision values within %.2g of the largest of Train's model's", cfg.SVM != nil, plan.Only, worst)
		}
	}
}

// TestRunFinal: Run gives a final model with every protocol and source
// kind; where the folds' passes cannot serve it (the pair table's path,
// a search, per-fold features) it is Train's (or TrainChosen's) own.
func TestRunFinal(t *testing.T) {
	_, w := toyWKPI(t)
	cfg := toyConfig()
	final := &Final{Dataset: "toy", Classes: []string{"tree", "cycle"}}
	plan := Plan{Folds: 4, Seed: 3, Final: final}
	auto := Auto{Config: cfg}
	for _, tc := range []struct {
		name string
		p    Protocol
		src  Source
	}{
		{"fixed, pair table", Fixed{Config: cfg}, w.Source()},
		{"auto, pair table", auto, w.Source()},
		{"cost", Cost{Config: cfg, Grid: Grid{Ms: []int{cfg.Learn.M}, Sigmas: []float64{cfg.Sigma}, Cs: []float64{cfg.C}}}, w.Source()},
		{"per fold", Fixed{Config: cfg}, Source{Labels: w.Labels, Classes: w.Classes, PerFold: true, Features: func([]int) (*WKPI, error) { return w, nil }}},
	} {
		rep, err := Run(context.Background(), tc.src, tc.p, plan, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if rep.Final == nil {
			t.Fatalf("%s: no final model", tc.name)
		}
		want, err := tc.p.Train(context.Background(), w, *final, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(rep.Final, want) {
			t.Errorf("%s: the final model is not the protocol's Train's", tc.name)
		}
		if (rep.Final.Choice != nil) != (tc.p.Name() == "auto") {
			t.Errorf("%s: choice %v", tc.name, rep.Final.Choice)
		}
	}
}

// TestChosenFinalShared: the automatic choice's final model, made in the
// folds' choice and passes, chose as TrainChosen chooses and classifies
// every graph as its model does.
func TestChosenFinalShared(t *testing.T) {
	ds, w := toyWKPI(t)
	noisy := noiseWKPI(t, w)
	w.MaxTableBytes, noisy.MaxTableBytes = 0, 0
	cfg := toyConfig()
	final := &Final{Dataset: "toy", Classes: []string{"tree", "cycle"}}
	cands := []Candidate{{noisy, cfg}, {w, cfg}}
	rep, err := CrossValidateChosen(context.Background(), cands, Plan{Folds: 4, Seed: cfg.Learn.Seed, Only: []int{0, 2}, Final: final}, ChoiceOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, ch, err := TrainChosen(context.Background(), cands, final.Dataset, final.Classes, ChoiceOptions{Seed: cfg.Learn.Seed}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Final == nil || rep.Final.Choice == nil {
		t.Fatal("no final model or no choice")
	}
	if !reflect.DeepEqual(*rep.Final.Choice, ch) {
		t.Errorf("choice %+v, TrainChosen's %+v", *rep.Final.Choice, ch)
	}
	a, err := rep.Final.Model.Predict(context.Background(), ds.Graphs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.Predict(context.Background(), ds.Graphs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if a[i].Class != b[i].Class {
			t.Errorf("graph %d: class %d, TrainChosen's model %d", i, a[i].Class, b[i].Class)
		}
	}
}

// TestChoiceScoresGiven: the candidates' inner scores measured apart
// (ChoiceScores, as workers of their own measure them) and given back
// make the choice, the folds and the final model that the choice made
// in the run itself makes.
func TestChoiceScoresGiven(t *testing.T) {
	_, w := toyWKPI(t)
	noisy := noiseWKPI(t, w)
	w.MaxTableBytes, noisy.MaxTableBytes = 0, 0
	cfg := toyConfig()
	cands := []Candidate{{noisy, cfg}, {w, cfg}}
	plan := Plan{Folds: 4, Seed: cfg.Learn.Seed, Only: []int{1, 3}, Final: &Final{Dataset: "toy", Classes: []string{"tree", "cycle"}}}
	want, err := CrossValidateChosen(context.Background(), cands, plan, ChoiceOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var inner [][][]float64
	for c := range cands {
		scores, err := ChoiceScores(context.Background(), cands, c, plan, ChoiceOptions{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		inner = append(inner, scores)
	}
	got, err := CrossValidateChosen(context.Background(), cands, plan, ChoiceOptions{Inner: inner}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(withoutSeconds(got), withoutSeconds(want)) {
		t.Error("the folds differ with the scores given")
	}
	if !reflect.DeepEqual(got.Final.Choice, want.Final.Choice) {
		t.Errorf("final choice %+v, the run's own %+v", got.Final.Choice, want.Final.Choice)
	}
	if _, err := CrossValidateChosen(context.Background(), cands, plan, ChoiceOptions{Inner: inner[:1]}, nil); err == nil {
		t.Error("one candidate's scores of two accepted")
	}
	// Scores that make the noisy candidate win are followed, not measured
	// again.
	swapped := [][][]float64{inner[1], inner[0]}
	rigged, err := CrossValidateChosen(context.Background(), cands, plan, ChoiceOptions{Inner: swapped}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rigged.Folds {
		if f.Candidate != 1-want.Folds[0].Candidate {
			t.Errorf("fold %d chose candidate %d against the scores given", f.Index, f.Candidate)
		}
	}
}
