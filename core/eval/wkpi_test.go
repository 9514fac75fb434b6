package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"wkpi-web/core/crossval"
	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/model"
	"wkpi-web/core/pimage"
	"wkpi-web/core/svm"
)

// treesAndCycles is a small two-class dataset: random trees (class 0)
// and random trees with two extra edges (class 1, so two independent
// cycles), described by degree.
func treesAndCycles(t testing.TB, n int) *graph.Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 12))
	ds := &graph.Dataset{Name: "toy", Classes: []string{"tree", "cyclic"}}
	for i := range n {
		size := 8 + rng.IntN(8)
		var edges []graph.Edge
		for v := 1; v < size; v++ {
			edges = append(edges, graph.Edge{U: rng.IntN(v), V: v})
		}
		class := i % 2
		for extra := 0; extra < 2*class; {
			u, v := rng.IntN(size), rng.IntN(size)
			if u != v && !hasEdge(edges, u, v) {
				edges = append(edges, graph.Edge{U: u, V: v})
				extra++
			}
		}
		g, err := graph.New(size, edges, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		ds.Graphs = append(ds.Graphs, g)
		ds.Labels = append(ds.Labels, class)
	}
	return ds
}

func hasEdge(edges []graph.Edge, u, v int) bool {
	for _, e := range edges {
		if (e.U == u && e.V == v) || (e.U == v && e.V == u) {
			return true
		}
	}
	return false
}

func toyWKPI(t testing.TB) (*graph.Dataset, *WKPI) {
	return toyWKPIWith(t, features.Default(filtration.KindDegree))
}

func toyWKPIWith(t testing.TB, s features.Settings) (*graph.Dataset, *WKPI) {
	ds := treesAndCycles(t, 40)
	s.Rows = 12
	set, err := features.Compute(context.Background(), ds, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWKPI(set, ds.Labels, 2)
	if err != nil {
		t.Fatal(err)
	}
	return ds, w
}

// toyConfig is a fixed setting for the toy set: no SVM choice.
func toyConfig() Config {
	cfg := DefaultConfig()
	cfg.Learn.M, cfg.Learn.MaxIter, cfg.Sigma, cfg.C, cfg.SVM = 3, 50, 0.05, 10, nil
	return cfg
}

// TestCrossValidateOracle recomputes every fold of a cross-validation
// along an independent path -- folds from crossval.StratifiedKFold, the initial and
// the learned weight functions from learn, Gram and cross matrices from
// kernel.Kernel on image copies (no pair table), the SVM from svm -- and
// requires the report's predictions and accuracies to match.
func TestCrossValidateOracle(t *testing.T) {
	// Both ways of computing pairs: the pair table, and direct
	// computation of the learned and initial kernels, of all folds in one
	// pass (budget 0) or of one fold per pass (budget 1 byte).
	for _, budget := range []int64{DefaultMaxTableBytes, 0, 1} {
		_, w := toyWKPI(t)
		w.MaxTableBytes = budget
		crossValidateOracle(t, w)
	}
}

// crossValidateWithSums runs a 4-fold CV of cfg (seed 3) and returns it
// with the folds and the oracle's pair sums of those folds.
func crossValidateWithSums(t *testing.T, w *WKPI, cfg Config) (Report, Plan, []int, *learn.PairSums) {
	t.Helper()
	plan := Plan{Folds: 4, Seed: 3}
	rep, err := w.CrossValidate(context.Background(), cfg, plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	folds, _ := crossval.StratifiedKFold(w.Labels, plan.Folds, plan.Seed)
	sums, err := learn.NewPairSums(context.Background(), w.Set.Images, w.Labels, folds, plan.Folds, cfg.Sigma, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep, plan, folds, sums
}

func crossValidateOracle(t *testing.T, w *WKPI) {
	cfg := toyConfig()
	rep, plan, folds, sums := crossValidateWithSums(t, w, cfg)
	for f := range plan.Folds {
		var train, test []int
		for i, g := range folds {
			if g == f {
				test = append(test, i)
			} else {
				train = append(train, i)
			}
		}
		init := oracleInitial(t, w, train, cfg)
		learned, _, err := learn.Learn(context.Background(), sums, f, features.Centres(w.Set.Grid, w.Set.Settings), init, cfg.Learn, nil)
		if err != nil {
			t.Fatal(err)
		}
		fold := rep.Folds[f]
		for _, side := range []struct {
			name   string
			mix    kernel.Mixture
			got    []int
			scores [][]float64
		}{{"baseline", init, fold.BaselinePredicted, fold.BaselineScores}, {"learned", learned, fold.Predicted, fold.Scores}} {
			want, scores := oracleScores(t, w, side.mix, nil, cfg, train, test)
			if !reflect.DeepEqual(side.got, want) {
				t.Errorf("fold %d %s: predictions %v, oracle %v", f, side.name, side.got, want)
			}
			if len(side.scores) != len(scores) {
				t.Fatalf("fold %d %s: %d score rows for %d test graphs", f, side.name, len(side.scores), len(scores))
			}
			// Float32 Gram matrices (kernel.Splits) against the oracle's
			// float64 ones move the SVM's stopping point within its
			// tolerance 1e-3: decision values agree to about that.
			for i := range scores {
				for c := range scores[i] {
					if math.Abs(side.scores[i][c]-scores[i][c]) > 5e-3 {
						t.Errorf("fold %d %s: graph %d class %d score %g, oracle %g", f, side.name, test[i], c, side.scores[i][c], scores[i][c])
					}
				}
			}
		}
	}
	if rep.Baseline.Accuracy < 0.8 {
		t.Errorf("baseline accuracy %.3f on a separable toy set, want >= 0.8", rep.Baseline.Accuracy)
	}
}

// oracleInitial is the initial weight function of the training graphs
// train, from learn.InitMixture on their diagram points and the grid.
func oracleInitial(t *testing.T, w *WKPI, train []int, cfg Config) kernel.Mixture {
	t.Helper()
	var pts [][2]float64
	for _, i := range train {
		pts = append(pts, features.Points(w.Set.Diagrams[i], w.Set.Settings)...)
	}
	g := w.Set.Grid
	init, err := learn.InitMixture(pts, [4]float64{g.MinX, g.MinY, g.MinX + float64(g.Cols)*g.Pixel, g.MinY + float64(g.Rows)*g.Pixel}, cfg.Learn)
	if err != nil {
		t.Fatal(err)
	}
	return init
}

func oraclePredict(t *testing.T, w *WKPI, mix kernel.Mixture, cfg Config, train, test []int) []int {
	t.Helper()
	return oraclePredictScaled(t, w, mix, nil, cfg, train, test)
}

func oraclePredictScaled(t *testing.T, w *WKPI, mix kernel.Mixture, scales []float64, cfg Config, train, test []int) []int {
	t.Helper()
	pred, _ := oracleScores(t, w, mix, scales, cfg, train, test)
	return pred
}

// oracleScores is oraclePredictScaled with the test graphs' per-class
// scores.
func oracleScores(t *testing.T, w *WKPI, mix kernel.Mixture, scales []float64, cfg Config, train, test []int) ([]int, [][]float64) {
	t.Helper()
	width := oracleWidth(t, w, mix, scales, cfg, train)
	gram := oracleKernel(t, w, mix, scales, cfg, train, train, width)
	m, err := svm.Train(context.Background(), gram, w.truth(train), svm.Options{C: cfg.C})
	if err != nil {
		t.Fatal(err)
	}
	cross := oracleKernel(t, w, mix, scales, cfg, test, train, width)
	pred, scores := make([]int, len(test)), make([][]float64, len(test))
	for i := range test {
		pred[i], scores[i] = m.Predict(cross[i]), m.Scores(cross[i], w.Classes)
	}
	return pred, scores
}

// oracleKernel is the SVM kernel of cfg between the graphs rows and cols,
// from kernel.Kernel on image copies: the WKPI kernel, or (cfg.Gauss > 0)
// exp(-D^2 / width) with D^2 from Kernel.Distance2.
func oracleKernel(t *testing.T, w *WKPI, mix kernel.Mixture, scales []float64, cfg Config, rows, cols []int, width float64) [][]float64 {
	t.Helper()
	k := model.KernelForScaled(mix, features.Centres(w.Set.Grid, w.Set.Settings), cfg.Sigma, cfg.Variant, scales)
	pick := func(idx []int) [][]float64 {
		out := make([][]float64, len(idx))
		for i, s := range idx {
			out[i] = append([]float64(nil), w.Set.Images[s].Dense()...)
		}
		return out
	}
	if cfg.Gauss == 0 {
		out, err := k.Cross(context.Background(), pimage.SparseAll(pick(rows)), pimage.SparseAll(pick(cols)), nil)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := make([][]float64, len(rows))
	for i, a := range rows {
		out[i] = make([]float64, len(cols))
		for j, b := range cols {
			out[i][j] = math.Exp(-k.Distance2(w.Set.Images[a].Dense(), w.Set.Images[b].Dense()) / width)
		}
	}
	return out
}

// oracleWidth is cfg.Gauss times the median of D^2 over all pairs of the
// graphs idx (at most 300 of them: no sampling), by sorting; 0 without
// the Gaussian form.
func oracleWidth(t *testing.T, w *WKPI, mix kernel.Mixture, scales []float64, cfg Config, idx []int) float64 {
	t.Helper()
	if cfg.Gauss == 0 {
		return 0
	}
	if len(idx) > 300 {
		t.Fatalf("oracleWidth: %d graphs, at most 300", len(idx))
	}
	k := model.KernelForScaled(mix, features.Centres(w.Set.Grid, w.Set.Settings), cfg.Sigma, cfg.Variant, scales)
	var d2 []float64
	for a := range idx {
		for b := a + 1; b < len(idx); b++ {
			d2 = append(d2, k.Distance2(w.Set.Images[idx[a]].Dense(), w.Set.Images[idx[b]].Dense()))
		}
	}
	sort.Float64s(d2)
	med := d2[len(d2)/2]
	if len(d2)%2 == 0 {
		med = (d2[len(d2)/2-1] + med) / 2
	}
	return cfg.Gauss * med
}

// TestMergeEqualsWhole: folds run in two parts (as two workers would) and
// merged give the report of one run over all folds.
func TestMergeEqualsWhole(t *testing.T) {
	_, w := toyWKPI(t)
	cfg := toyConfig()
	whole, err := w.CrossValidate(context.Background(), cfg, Plan{Folds: 4, Seed: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := w.CrossValidate(context.Background(), cfg, Plan{Folds: 4, Seed: 5, Only: []int{3, 0}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.CrossValidate(context.Background(), cfg, Plan{Folds: 4, Seed: 5, Only: []int{1, 2}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	merged, err := Merge(w.Labels, w.Classes, b, a)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(merged.Learned.Predictions, whole.Learned.Predictions) ||
		!reflect.DeepEqual(merged.Baseline.Confusion, whole.Baseline.Confusion) ||
		merged.Learned.Accuracy != whole.Learned.Accuracy || merged.Baseline.Std != whole.Baseline.Std ||
		!reflect.DeepEqual(merged.Learned.ROCAUC, whole.Learned.ROCAUC) || !reflect.DeepEqual(merged.Baseline.F1Macro, whole.Baseline.F1Macro) {
		t.Errorf("merged %+v\nwhole %+v", merged.Learned, whole.Learned)
	}
	if _, err := Merge(w.Labels, w.Classes, a, a); err == nil {
		t.Error("merging a part with itself: no error")
	}
}

// TestNestedPicksWorkingCell: a grid with one useless cell (C so small
// that every SVM predicts one class) and one working cell; nested CV
// must choose the working one in every outer fold.
func TestNestedPicksWorkingCell(t *testing.T) {
	_, w := toyWKPI(t)
	grid := Grid{Ms: []int{2}, Sigmas: []float64{0.05}, Cs: []float64{1e-9, 10}}
	base := toyConfig()
	rep, err := w.Nested(context.Background(), base, grid, Plan{Folds: 3, Seed: 1}, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	for f, fold := range rep.Folds {
		if fold.Config.C != 10 || fold.Config.Learn.M != 2 {
			t.Errorf("outer fold %d chose m=%d C=%g, want m=2 C=10", f, fold.Config.Learn.M, fold.Config.C)
		}
	}
	cost, err := w.SelectByCost(context.Background(), base, Grid{Ms: []int{2, 3}, Sigmas: []float64{0.05}, Cs: []float64{10}}, Plan{Folds: 3, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for f, fold := range cost.Folds {
		if fold.Cost <= 0 || fold.Config.Learn.M < 2 {
			t.Errorf("fold %d: cost %g, m %d", f, fold.Cost, fold.Config.Learn.M)
		}
	}
}

// TestModelReproducesTraining: a model trained on the whole toy set,
// saved and loaded, classifies each training graph exactly as the SVM
// does from the training Gram matrix row (computed directly).
func TestModelReproducesTraining(t *testing.T) {
	multi := features.Default(filtration.KindDegree)
	multi.Extra = []filtration.Options{{Kind: filtration.KindHKS, HKSTime: 1}}
	for name, s := range map[string]features.Settings{"degree": features.Default(filtration.KindDegree), "degree+hks": multi} {
		t.Run(name, func(t *testing.T) { modelReproducesTraining(t, s, false) })
		t.Run(name+" channel scales", func(t *testing.T) { modelReproducesTraining(t, s, true) })
	}
}

func modelReproducesTraining(t *testing.T, s features.Settings, channels bool) {
	ds, w := toyWKPIWith(t, s)
	cfg := toyConfig()
	cfg.Learn.Channels = channels
	m, err := w.Train(context.Background(), ds.Name, ds.Classes, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	loaded, err := model.Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	preds, err := loaded.Predict(context.Background(), ds.Graphs)
	if err != nil {
		t.Fatal(err)
	}
	all := indices(len(ds.Graphs))
	if channels != (m.ChannelScales != nil) {
		t.Fatalf("channel scales %v with Learn.Channels %v", m.ChannelScales, channels)
	}
	want := oraclePredictScaled(t, w, m.Weight, m.ChannelScales, cfg, all, all)
	for i, p := range preds {
		if p.Class != want[i] || p.Label != ds.Classes[want[i]] {
			t.Fatalf("graph %d: model says %d (%s), oracle %d", i, p.Class, p.Label, want[i])
		}
	}
}

// TestFoldMetrics: every fold's scores agree with its predictions (two
// classes: class 1 exactly where its score, the opposite of the pair's
// decision value, is >= 0), its metrics are crossval.Evaluate's of them,
// the report's summaries are the folds' means, and all of it survives
// JSON, as parts and the app's store keep it.
func TestFoldMetrics(t *testing.T) {
	_, w := toyWKPI(t)
	rep, err := w.CrossValidate(context.Background(), toyConfig(), Plan{Folds: 4, Seed: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkFoldMetrics(t, w, rep)
	if rep.Learned.ROCAUC.Mean < 0.9 {
		t.Errorf("ROC-AUC %g on a separable toy set, want >= 0.9", rep.Learned.ROCAUC.Mean)
	}
	for f, fold := range rep.Folds {
		for i := range fold.Test {
			for _, side := range []struct {
				pred   int
				scores []float64
			}{{fold.Predicted[i], fold.Scores[i]}, {fold.BaselinePredicted[i], fold.BaselineScores[i]}} {
				if len(side.scores) != 2 || side.scores[0] != -side.scores[1] || (side.pred == 1) != (side.scores[1] >= 0) {
					t.Errorf("fold %d graph %d: predicted %d with scores %v", f, fold.Test[i], side.pred, side.scores)
				}
			}
		}
	}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	again, err := Merge(w.Labels, w.Classes, back)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Learned.ROCAUC, rep.Learned.ROCAUC) || !reflect.DeepEqual(again.Baseline.BalancedAccuracy, rep.Baseline.BalancedAccuracy) || !reflect.DeepEqual(again.Folds[1].Scores, rep.Folds[1].Scores) {
		t.Errorf("after JSON: %+v\nbefore: %+v", again.Learned.ROCAUC, rep.Learned.ROCAUC)
	}
	// A fold as an earlier version kept it, without metrics or scores,
	// merges: no ROC-AUC for it, the rest from its predictions.
	back.Folds[2].Scores, back.Folds[2].BalancedAccuracy, back.Folds[2].ROCAUC = nil, 0, 0
	old, err := Merge(w.Labels, w.Classes, back)
	if err != nil {
		t.Fatal(err)
	}
	if auc := old.Learned.ROCAUC; auc.Undefined != 1 || !math.IsNaN(float64(auc.PerFold[2])) || auc.PerFold[1] != rep.Learned.ROCAUC.PerFold[1] ||
		!reflect.DeepEqual(old.Learned.BalancedAccuracy, rep.Learned.BalancedAccuracy) {
		t.Errorf("a fold without scores: ROC-AUC %+v, balanced accuracy %+v", auc, old.Learned.BalancedAccuracy)
	}
}

// TestFoldMetricsThreeClasses: the toy graphs relabelled into three
// classes; every score row has one score per class, the highest score's
// class is the prediction unless votes tie, and the metrics follow.
func TestFoldMetricsThreeClasses(t *testing.T) {
	_, two := toyWKPI(t)
	labels := make([]int, len(two.Labels))
	for i, c := range two.Labels {
		labels[i] = c
		if c == 1 && i%4 == 1 {
			labels[i] = 2
		}
	}
	w, err := NewWKPI(two.Set, labels, 3)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := w.CrossValidate(context.Background(), toyConfig(), Plan{Folds: 3, Seed: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkFoldMetrics(t, w, rep)
	for f, fold := range rep.Folds {
		for i, row := range fold.Scores {
			best, votes := 0, make([]int, 3)
			for c, v := range row {
				votes[c] = int(math.Floor(v + 0.5)) // v = votes + (-1/3, 1/3)
				if v > row[best] {
					best = c
				}
			}
			if len(row) != 3 || votes[0]+votes[1]+votes[2] != 3 {
				t.Errorf("fold %d graph %d: scores %v are not 3 votes plus confidences", f, fold.Test[i], row)
			}
			if votes[best] != votes[fold.Predicted[i]] {
				t.Errorf("fold %d graph %d: predicted %d with %d votes, class %d scores highest with %d", f, fold.Test[i], fold.Predicted[i], votes[fold.Predicted[i]], best, votes[best])
			}
		}
	}
}

func checkFoldMetrics(t *testing.T, w *WKPI, rep Report) {
	t.Helper()
	var aucs []float64
	for f, fold := range rep.Folds {
		truth := w.truth(fold.Test)
		for _, side := range []struct {
			name   string
			pred   []int
			scores [][]float64
			got    crossval.Metrics
		}{
			{"learned", fold.Predicted, fold.Scores, crossval.Metrics{Accuracy: fold.Accuracy, BalancedAccuracy: fold.BalancedAccuracy, F1Macro: fold.F1Macro, ROCAUC: fold.ROCAUC}},
			{"unlearned", fold.BaselinePredicted, fold.BaselineScores, crossval.Metrics{Accuracy: fold.Baseline, BalancedAccuracy: fold.BaselineBalancedAccuracy, F1Macro: fold.BaselineF1Macro, ROCAUC: fold.BaselineROCAUC}},
		} {
			want, err := crossval.Evaluate(side.pred, truth, side.scores)
			if err != nil {
				t.Fatal(err)
			}
			if side.got != want || math.IsNaN(float64(want.ROCAUC)) {
				t.Errorf("fold %d %s: metrics %+v, want %+v", f, side.name, side.got, want)
			}
		}
		if rep.Learned.ROCAUC.PerFold[f] != fold.ROCAUC || rep.Baseline.BalancedAccuracy.PerFold[f] != crossval.Metric(fold.BaselineBalancedAccuracy) {
			t.Errorf("fold %d: report per fold %v, fold %v", f, rep.Learned.ROCAUC.PerFold[f], fold.ROCAUC)
		}
		aucs = append(aucs, float64(fold.ROCAUC))
	}
	if mean, std := crossval.MeanStd(aucs); float64(rep.Learned.ROCAUC.Mean) != mean || float64(rep.Learned.ROCAUC.Std) != std || rep.Learned.ROCAUC.Undefined != 0 {
		t.Errorf("ROC-AUC summary %+v, want mean %g std %g", rep.Learned.ROCAUC, mean, std)
	}
}
