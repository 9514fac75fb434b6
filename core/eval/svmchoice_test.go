package eval

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"wkpi-web/core/crossval"
	"wkpi-web/core/features"
	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/svm"
)

// noisyToy is the toy set with a fifth of its labels flipped, so that the
// SVM's form and C matter and inner accuracies differ between cells.
func noisyToy(t *testing.T) *WKPI {
	t.Helper()
	_, w := toyWKPI(t)
	labels := slices.Clone(w.Labels)
	r := rand.New(rand.NewPCG(3, 9))
	for _, i := range r.Perm(len(labels))[:len(labels)/5] {
		labels[i] = 1 - labels[i]
	}
	n, err := NewWKPI(w.Set, labels, 2)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func choiceConfig() Config {
	cfg := toyConfig()
	cfg.SVM = &SVMGrid{Cs: []float64{0.1, 1, 10, 100}, Gauss: []float64{0, 1, 0.3}, Folds: 3}
	return cfg
}

// TestSVMChoiceOracle recomputes every fold's choice of SVM form and C
// along an independent path -- inner folds from crossval.StratifiedKFold, kernels
// from kernel.Kernel (the Gaussian form from Distance2 and a sorted
// median over all pairs), SVMs from svm -- and then both SVMs'
// predictions with the chosen cell, on the pair table and on both direct
// paths (all folds in one pass, or one fold a pass, whose Gram matrices
// are packed and turned into the Gaussian form in place).
func TestSVMChoiceOracle(t *testing.T) {
	for _, budget := range []int64{DefaultMaxTableBytes, 0, 1} {
		w := noisyToy(t)
		w.MaxTableBytes = budget
		cfg := choiceConfig()
		rep, plan, folds, sums := crossValidateWithSums(t, w, cfg)
		train, test := crossval.Split(indices(len(w.Labels)), folds, plan.Folds)
		distinct := map[float64]bool{}
		for f := range plan.Folds {
			init := oracleInitial(t, w, train[f], cfg)
			chosen, acc := oracleChoice(t, w, init, cfg, train[f], cfg.Learn.Seed+int64(f)+1, distinct)
			got := rep.Folds[f]
			if got.Config.C != chosen.C || got.Config.Gauss != chosen.Gauss || math.Abs(got.InnerAccuracy-acc) > 1e-12 {
				t.Errorf("budget %d fold %d: chose C %g, form %g (inner %.4f); oracle C %g, form %g (inner %.4f)",
					budget, f, got.Config.C, got.Config.Gauss, got.InnerAccuracy, chosen.C, chosen.Gauss, acc)
				continue
			}
			learned, _, err := learn.Learn(context.Background(), sums, f, features.Centres(w.Set.Grid, w.Set.Settings), init, cfg.Learn, nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := oraclePredict(t, w, init, chosen, train[f], test[f]); !reflect.DeepEqual(got.BaselinePredicted, want) {
				t.Errorf("budget %d fold %d baseline: predictions %v, oracle %v", budget, f, got.BaselinePredicted, want)
			}
			if want := oraclePredict(t, w, learned, chosen, train[f], test[f]); !reflect.DeepEqual(got.Predicted, want) {
				t.Errorf("budget %d fold %d learned: predictions %v, oracle %v", budget, f, got.Predicted, want)
			}
		}
		if len(distinct) < 3 {
			t.Errorf("budget %d: the cells' inner accuracies take %d values; the test needs a choice to make", budget, len(distinct))
		}
	}
}

// oracleChoice is the cell of cfg.SVM with the best mean inner accuracy
// (the first of equals, forms major) for the unlearned weight init on
// train, the Gaussian's width from all of train; distinct collects the
// cells' mean accuracies.
func oracleChoice(t *testing.T, w *WKPI, init kernel.Mixture, cfg Config, train []int, seed int64, distinct map[float64]bool) (Config, float64) {
	t.Helper()
	inner, err := crossval.StratifiedKFold(w.truth(train), cfg.SVM.Folds, seed)
	if err != nil {
		t.Fatal(err)
	}
	best, bestAcc := cfg, -1.0
	for _, form := range cfg.SVM.Gauss {
		c := cfg
		c.Gauss = form
		width := oracleWidth(t, w, init, nil, c, train)
		for _, C := range cfg.SVM.Cs {
			c.C = C
			var sum float64
			for g := range cfg.SVM.Folds {
				var tr, te []int
				for i, s := range train {
					if inner[i] == g {
						te = append(te, s)
					} else {
						tr = append(tr, s)
					}
				}
				m, err := svm.Train(context.Background(), oracleKernel(t, w, init, nil, c, tr, tr, width), w.truth(tr), svm.Options{C: C})
				if err != nil {
					t.Fatal(err)
				}
				correct := 0
				for i, row := range oracleKernel(t, w, init, nil, c, te, tr, width) {
					if m.Predict(row) == w.Labels[te[i]] {
						correct++
					}
				}
				sum += float64(correct) / float64(len(te))
			}
			mean := sum / float64(cfg.SVM.Folds)
			distinct[math.Round(mean*1e9)/1e9] = true
			if mean > bestAcc+1e-12 {
				best, bestAcc = c, mean
			}
		}
	}
	return best, bestAcc
}

// TestTrainGaussModel: a model trained with the Gaussian form predicts
// its training graphs as an SVM on the oracle's Gaussian kernel of its
// learned weight function does, and stores that kernel's width.
func TestTrainGaussModel(t *testing.T) {
	ds, w := toyWKPI(t)
	w = noisyToy(t)
	cfg := toyConfig()
	cfg.SVM = &SVMGrid{Cs: []float64{10}, Gauss: []float64{0.5}, Folds: 3}
	m, err := w.Train(context.Background(), "toy", []string{"a", "b"}, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	chosen := cfg
	chosen.Gauss, chosen.C = 0.5, 10
	all := indices(len(w.Labels))
	if want := oracleWidth(t, w, m.Weight, nil, chosen, all); math.Abs(m.GaussWidth-want) > 1e-6*want {
		t.Errorf("model Gaussian width %g, oracle %g", m.GaussWidth, want)
	}
	preds, err := m.Predict(context.Background(), ds.Graphs)
	if err != nil {
		t.Fatal(err)
	}
	want := oraclePredict(t, w, m.Weight, chosen, all, all)
	for i, p := range preds {
		if p.Class != want[i] {
			t.Errorf("graph %d: model predicts %d, oracle %d", i, p.Class, want[i])
		}
	}
}

func TestSVMGridErrors(t *testing.T) {
	for _, g := range []SVMGrid{
		{Cs: nil, Gauss: []float64{0}, Folds: 3},
		{Cs: []float64{1}, Gauss: nil, Folds: 3},
		{Cs: []float64{1}, Gauss: []float64{0}, Folds: 1},
		{Cs: []float64{0}, Gauss: []float64{0}, Folds: 3},
		{Cs: []float64{1}, Gauss: []float64{-1}, Folds: 3},
		{Cs: []float64{1}, Gauss: []float64{math.NaN()}, Folds: 3},
	} {
		cfg := toyConfig()
		cfg.SVM = &g
		if _, _, err := chooseSVM(context.Background(), [][]float64{{1, 0}, {0, 1}}, []int{0, 1}, cfg, 1, nil); err == nil {
			t.Errorf("grid %+v: no error", g)
		}
	}
}
