package eval

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
)

// noiseWKPI is w's feature set with the images dealt out to the graphs
// at random: the same pixels, no information about the labels.
func noiseWKPI(t *testing.T, w *WKPI) *WKPI {
	t.Helper()
	set := *w.Set
	r := rand.New(rand.NewPCG(7, 7))
	set.Images = make([][]float64, len(w.Set.Images))
	for i, j := range r.Perm(len(set.Images)) {
		set.Images[i] = w.Set.Images[j]
	}
	n, err := NewWKPI(&set, w.Labels, w.Classes)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestChooseRule: an informative feature set beats shuffled images
// whichever comes first, and a copy of the first candidate (equal inner
// accuracies) does not displace it.
func TestChooseRule(t *testing.T) {
	_, w := toyWKPI(t)
	cfg := toyConfig()
	noise := noiseWKPI(t, w)
	_, twin := toyWKPI(t)
	train := indices(len(w.Labels))
	for _, tc := range []struct {
		name  string
		cands []Candidate
		want  int
	}{
		{"noise first", []Candidate{{noise, cfg}, {w, cfg}}, 1},
		{"informative first", []Candidate{{w, cfg}, {noise, cfg}}, 0},
		{"twin", []Candidate{{w, cfg}, {twin, cfg}}, 0},
	} {
		ch, err := Choose(context.Background(), tc.cands, train, ChoiceOptions{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if ch.Chosen != tc.want {
			t.Errorf("%s: chose %d (inner accuracies %v), want %d", tc.name, ch.Chosen, ch.Inner, tc.want)
		}
	}
}

// TestChooseInnerBruteForce recomputes Choose's inner accuracies along an
// independent path: the initial weight function from learn.InitMixture on
// the training graphs' points, Gram and cross matrices from kernel.Kernel
// on image copies, the SVM from svm (oraclePredict), on a stratified
// sample of the training graphs when they exceed MaxGraphs. Two copies of
// one feature set check both of Choose's paths: the first candidate's
// pair table and the second's direct kernels.
func TestChooseInnerBruteForce(t *testing.T) {
	_, w := toyWKPI(t)
	_, twin := toyWKPI(t)
	cfg := toyConfig()
	folds, err := StratifiedKFold(w.Labels, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	trains, _ := foldSplit(indices(len(w.Labels)), folds, 4)
	train := trains[1]
	for _, maxGraphs := range []int{1000, 30} {
		o := ChoiceOptions{Folds: 3, MaxGraphs: maxGraphs, Seed: 5}
		ch, err := Choose(context.Background(), []Candidate{{twin, cfg}, {w, cfg}}, train, o)
		if err != nil {
			t.Fatal(err)
		}
		sub := train
		if len(train) > maxGraphs {
			parts := (len(train) + maxGraphs - 1) / maxGraphs
			split, err := StratifiedKFold(w.truth(train), parts, o.Seed)
			if err != nil {
				t.Fatal(err)
			}
			sub = nil
			for i, s := range train {
				if split[i] == 0 {
					sub = append(sub, s)
				}
			}
			if len(sub) > maxGraphs || len(sub) < maxGraphs/2 {
				t.Fatalf("sample of %d graphs for at most %d", len(sub), maxGraphs)
			}
		}
		init := oracleInitial(t, w, train, cfg)
		inner, err := StratifiedKFold(w.truth(sub), o.Folds, o.Seed+1)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, o.Folds)
		for f := range o.Folds {
			var tr, te []int
			for i, s := range sub {
				if inner[i] == f {
					te = append(te, s)
				} else {
					tr = append(tr, s)
				}
			}
			if want[f], err = Accuracy(oraclePredict(t, w, init, cfg, tr, te), w.truth(te)); err != nil {
				t.Fatal(err)
			}
		}
		for c, got := range ch.Inner {
			if !reflect.DeepEqual(got, want) {
				t.Errorf("at most %d graphs, candidate %d: inner accuracies %v, oracle %v", maxGraphs, c, got, want)
			}
		}
		if _, built := w.tables[cfg.Sigma]; built {
			t.Error("the second candidate built a pair table")
		}
	}
}

// TestCrossValidateChosen: when every fold picks the informative set, the
// report is that set's own cross-validation, fold for fold.
func TestCrossValidateChosen(t *testing.T) {
	_, w := toyWKPI(t)
	cfg := toyConfig()
	plan := Plan{Folds: 4, Seed: 3}
	want, err := w.CrossValidate(context.Background(), cfg, plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	var seen []int
	plan.OnFold = func(f Fold) { seen = append(seen, f.Candidate) }
	got, err := CrossValidateChosen(context.Background(), []Candidate{{noiseWKPI(t, w), cfg}, {w, cfg}}, plan, ChoiceOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Protocol != "auto" {
		t.Errorf("protocol %q", got.Protocol)
	}
	if !reflect.DeepEqual(got.Learned.Predictions, want.Learned.Predictions) || !reflect.DeepEqual(got.Baseline.Predictions, want.Baseline.Predictions) {
		t.Errorf("predictions %v / %v, the chosen set's own CV %v / %v", got.Learned.Predictions, got.Baseline.Predictions, want.Learned.Predictions, want.Baseline.Predictions)
	}
	for _, f := range got.Folds {
		if f.Candidate != 1 {
			t.Errorf("fold %d used candidate %d", f.Index, f.Candidate)
		}
	}
	if !reflect.DeepEqual(seen, []int{1, 1, 1, 1}) {
		t.Errorf("OnFold saw candidates %v", seen)
	}
	if _, err := CrossValidateChosen(context.Background(), []Candidate{{w, cfg}, {w, cfg}}, plan, ChoiceOptions{}, nil); err == nil {
		t.Error("one feature set twice accepted")
	}
}
