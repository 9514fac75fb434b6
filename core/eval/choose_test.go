package eval

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"wkpi-web/core/crossval"
	"wkpi-web/core/pimage"
)

// noiseWKPI is w's feature set with the images dealt out to the graphs
// at random: the same pixels, no information about the labels.
func noiseWKPI(t *testing.T, w *WKPI) *WKPI {
	t.Helper()
	set := *w.Set
	r := rand.New(rand.NewPCG(7, 7))
	set.Images = pimage.SparseAll(make([][]float64, len(w.Set.Images)))
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

// TestChooseInnerBruteForce recomputes the inner accuracies of Choose
// and of chooseAll (every fold's choice of a CV at once) along an
// independent path: the sample and inner folds as documented, the initial
// weight function from learn.InitMixture on the training graphs' points
// (oracleInitial), Gram and cross matrices from kernel.Kernel on image
// copies and the SVM from svm (oraclePredict). Two copies of one feature
// set check both kernel paths: the first candidate's pair table and the
// second's direct kernels in one pass for all training sets.
func TestChooseInnerBruteForce(t *testing.T) {
	_, w := toyWKPI(t)
	_, twin := toyWKPI(t)
	cfg := toyConfig()
	cands := []Candidate{{twin, cfg}, {w, cfg}}
	folds, err := crossval.StratifiedKFold(w.Labels, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	trains, _ := crossval.Split(indices(len(w.Labels)), folds, 4)
	for _, maxGraphs := range []int{1000, 30, 20} {
		o := ChoiceOptions{Folds: 3, MaxGraphs: maxGraphs, Seed: 5, MinT: DefaultChoiceT}
		ch, err := Choose(context.Background(), cands, trains[1], o)
		if err != nil {
			t.Fatal(err)
		}
		checkInner(t, w, cfg, o, trains[1], trains[1], ch)
		all, err := chooseAll(context.Background(), cands, indices(len(w.Labels)), trains, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		for f, train := range trains {
			checkInner(t, w, cfg, o, indices(len(w.Labels)), train, all[f])
		}
	}
	if _, built := w.tables[cfg.Sigma]; built {
		t.Error("the second candidate built a pair table")
	}
}

// checkInner compares ch's inner accuracies, for the training graphs
// train drawn from pool, with the oracle's.
func checkInner(t *testing.T, w *WKPI, cfg Config, o ChoiceOptions, pool, train []int, ch Choice) {
	t.Helper()
	sample := pool
	if len(pool) > o.MaxGraphs {
		parts := (len(pool) + o.MaxGraphs - 1) / o.MaxGraphs
		split, err := crossval.StratifiedKFold(w.truth(pool), parts, o.Seed)
		if err != nil {
			t.Fatal(err)
		}
		sample = nil
		for i, s := range pool {
			if split[i] == 0 {
				sample = append(sample, s)
			}
		}
		if len(sample) > o.MaxGraphs || len(sample) < o.MaxGraphs/2 {
			t.Fatalf("sample of %d graphs for at most %d", len(sample), o.MaxGraphs)
		}
	}
	var sub []int
	for _, s := range sample {
		if slices.Contains(train, s) {
			sub = append(sub, s)
		}
	}
	init := oracleInitial(t, w, train, cfg)
	inner, err := crossval.StratifiedKFold(w.truth(sub), o.Folds, o.Seed+1)
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
		if want[f], err = crossval.Accuracy(oraclePredict(t, w, init, cfg, tr, te), w.truth(te)); err != nil {
			t.Fatal(err)
		}
	}
	for c, got := range ch.Inner {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("at most %d graphs of %d, candidate %d: inner accuracies %v, oracle %v", o.MaxGraphs, len(pool), c, got, want)
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

// TestSizeAwareLazy: the size-aware candidate renders its images as they
// are needed, each as Set.Rerender renders it: the choice renders only
// its sample's (none else), a cross-validation on it all of them; a
// choice between it and the unit images gives the report it gave when
// the candidate was rendered whole.
func TestSizeAwareLazy(t *testing.T) {
	_, w := toyWKPI(t)
	cfg := toyConfig()
	s := w.Set.Settings
	s.Normalize = false
	want, err := w.Set.Rerender(s)
	if err != nil {
		t.Fatal(err)
	}
	sized, err := SizeAware(w, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, img := range sized.W.Set.Images {
		if img.Len > 0 {
			t.Fatalf("image %d rendered before it is needed", i)
		}
	}
	o := ChoiceOptions{MaxGraphs: 15, Seed: 4}
	if _, err := Choose(context.Background(), []Candidate{{w, cfg}, sized}, indices(len(w.Labels)), o); err != nil {
		t.Fatal(err)
	}
	rendered := 0
	for i, img := range sized.W.Set.Images {
		if img.Len > 0 {
			rendered++
			if !reflect.DeepEqual(img, want.Images[i]) {
				t.Fatalf("image %d differs from Rerender's", i)
			}
		}
	}
	if rendered == 0 || rendered >= len(w.Labels) {
		t.Errorf("the choice on a sample rendered %d of %d images", rendered, len(w.Labels))
	}
	eager := *sized.W
	eager.Set = want
	eager.render = nil
	plan := Plan{Folds: 4, Seed: 3}
	lazy, err := CrossValidateChosen(context.Background(), []Candidate{{w, cfg}, sized}, plan, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := CrossValidateChosen(context.Background(), []Candidate{{w, cfg}, {&eager, sized.Config}}, plan, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	lazy.Seconds, whole.Seconds = 0, 0
	lazy.Learned.Seconds, lazy.Baseline.Seconds, whole.Learned.Seconds, whole.Baseline.Seconds = 0, 0, 0, 0
	if !reflect.DeepEqual(lazy, whole) {
		t.Errorf("report with lazy images %+v\nrendered whole %+v", lazy.Folds, whole.Folds)
	}
	if _, err := sized.W.CrossValidate(context.Background(), sized.Config, plan, nil); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sized.W.Set.Images, want.Images) {
		t.Error("after a cross-validation on it, the images are not all Rerender's")
	}
}
