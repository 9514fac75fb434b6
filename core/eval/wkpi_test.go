package eval

import (
	"bytes"
	"context"
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
		for _, side := range []struct {
			name string
			mix  kernel.Mixture
			got  []int
		}{{"baseline", init, rep.Folds[f].BaselinePredicted}, {"learned", learned, rep.Folds[f].Predicted}} {
			want := oraclePredict(t, w, side.mix, cfg, train, test)
			if !reflect.DeepEqual(side.got, want) {
				t.Errorf("fold %d %s: predictions %v, oracle %v", f, side.name, side.got, want)
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
	width := oracleWidth(t, w, mix, scales, cfg, train)
	gram := oracleKernel(t, w, mix, scales, cfg, train, train, width)
	m, err := svm.Train(context.Background(), gram, w.truth(train), svm.Options{C: cfg.C})
	if err != nil {
		t.Fatal(err)
	}
	cross := oracleKernel(t, w, mix, scales, cfg, test, train, width)
	pred := make([]int, len(test))
	for i := range test {
		pred[i] = m.Predict(cross[i])
	}
	return pred
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
			out[i] = append([]float64(nil), w.Set.Images[s]...)
		}
		return out
	}
	if cfg.Gauss == 0 {
		out, err := k.Cross(context.Background(), pick(rows), pick(cols), nil)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := make([][]float64, len(rows))
	for i, a := range rows {
		out[i] = make([]float64, len(cols))
		for j, b := range cols {
			out[i][j] = math.Exp(-k.Distance2(w.Set.Images[a], w.Set.Images[b]) / width)
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
			d2 = append(d2, k.Distance2(w.Set.Images[idx[a]], w.Set.Images[idx[b]]))
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
		merged.Learned.Accuracy != whole.Learned.Accuracy || merged.Baseline.Std != whole.Baseline.Std {
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
