package compare

import (
	"context"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/crossval"
	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/graphstats"
	"wkpi-web/core/pdkernel"
	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
	"wkpi-web/core/svm"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

func mutag(t testing.TB) *Data {
	t.Helper()
	ds, err := tu.ReadDir(testenv.Dataset(t, "MUTAG"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := features.Compute(context.Background(), ds, features.Default(filtration.KindRicci), nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewData(ds, set)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// plainMedian: the median of all training pairs, by a full sort (MUTAG's
// training sets are under 300 samples (crossval.Median), so nothing is sampled).
func plainMedian(d [][]float64, train []int) float64 {
	var v []float64
	for a := range train {
		for b := a + 1; b < len(train); b++ {
			v = append(v, d[train[a]][train[b]])
		}
	}
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// plainAccuracy trains an SVM on the explicit Gram matrix of kernel k
// and returns its accuracy on test.
func plainAccuracy(t *testing.T, labels []int, k func(i, j int) float64, train, test []int, c float64) float64 {
	acc, _ := plainScores(t, labels, k, train, test, c)
	return acc
}

// plainScores is plainAccuracy with the binary ROC-AUC on test, counted
// over all (class 1, class 0) pairs of the score of class 1, minus the
// SVM's decision value (positive for class 0), ties one half.
func plainScores(t *testing.T, labels []int, k func(i, j int) float64, train, test []int, c float64) (float64, float64) {
	gram := make([][]float64, len(train))
	y := make([]int, len(train))
	for a, i := range train {
		y[a] = labels[i]
		gram[a] = make([]float64, len(train))
		for b, j := range train {
			gram[a][b] = k(i, j)
		}
	}
	m, err := svm.Train(context.Background(), gram, y, svm.Options{C: c})
	if err != nil && !errors.Is(err, svm.ErrNotConverged) {
		t.Fatal(err)
	}
	right := 0
	score := make([]float64, len(test))
	for a, i := range test {
		row := make([]float64, len(train))
		for b, j := range train {
			row[b] = k(i, j)
		}
		if m.Predict(row) == labels[i] {
			right++
		}
		score[a] = -m.Decision(row)[0]
	}
	var wins, pairs float64
	for a, i := range test {
		for b, j := range test {
			if labels[i] != 1 || labels[j] != 0 {
				continue
			}
			pairs++
			if score[a] > score[b] {
				wins++
			} else if score[a] == score[b] {
				wins += 0.5
			}
		}
	}
	return float64(right) / float64(len(test)), wins / pairs
}

func split(idx, folds []int, f int) (train, test []int) {
	for i, s := range idx {
		if folds[i] == f {
			test = append(test, s)
		} else {
			train = append(train, s)
		}
	}
	return train, test
}

// TestNestedMatchesPlainLoop: the SW method's outer fold accuracies equal
// a plain nested loop written from the protocol's description: SW of
// each channel summed, exp(-D / (s median)) with the median of the
// training pairs, every (M, s, C) cell scored by inner CV on the outer
// training set, best mean inner accuracy (first on ties), refit, test.
func TestNestedMatchesPlainLoop(t *testing.T) {
	d := mutag(t)
	o := DefaultOptions()
	o.Folds, o.Inner, o.SWDirections, o.Scales, o.Cs = 5, 3, []int{10}, []float64{1, 10}, []float64{1, 100}
	got, err := RunMethod(context.Background(), d, SW, o, nil)
	if err != nil {
		t.Fatal(err)
	}

	dist := make([][]float64, len(d.Labels))
	for i := range dist {
		dist[i] = make([]float64, len(d.Labels))
	}
	for _, c := range d.Set.Settings.Channels {
		ch := make([][]persistence.Point, len(d.Labels))
		for g, dg := range d.Set.Diagrams {
			ch[g] = channelPoints(dg, c)
		}
		sw, err := pdkernel.SlicedWasserstein(context.Background(), ch, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range sw {
			for j := range sw {
				dist[i][j] += sw[i][j]
			}
		}
	}
	kern := func(train []int, s float64) func(i, j int) float64 {
		// exp(-t d) with t = 1 / (s m), rounded as the method rounds
		// it: an ulp in the kernel can move the SVM's stopping point
		// within its tolerance, which accuracy shrugs off and a
		// ROC-AUC's close ranks do not.
		rate := 1 / (s * plainMedian(dist, train))
		return func(i, j int) float64 { return math.Exp(-rate * dist[i][j]) }
	}
	all := make([]int, len(d.Labels))
	for i := range all {
		all[i] = i
	}
	outer, err := crossval.StratifiedKFold(d.Labels, o.Folds, o.Seed)
	if err != nil {
		t.Fatal(err)
	}
	for f := range o.Folds {
		train, test := split(all, outer, f)
		sub := make([]int, len(train))
		for i, s := range train {
			sub[i] = d.Labels[s]
		}
		inner, err := crossval.StratifiedKFold(sub, o.Inner, o.Seed+int64(f)+1)
		if err != nil {
			t.Fatal(err)
		}
		bestAcc, bestS, bestC := -1.0, 0.0, 0.0
		for _, s := range o.Scales {
			for _, c := range o.Cs {
				var sum float64
				for g := range o.Inner {
					itr, ite := split(train, inner, g)
					sum += plainAccuracy(t, d.Labels, kern(itr, s), itr, ite, c)
				}
				if acc := sum / float64(o.Inner); acc > bestAcc {
					bestAcc, bestS, bestC = acc, s, c
				}
			}
		}
		want, auc := plainScores(t, d.Labels, kern(train, bestS), train, test, bestC)
		if math.Abs(got.Folds[f]-want) > 1e-12 {
			t.Errorf("fold %d: accuracy %g, plain loop %g (scale %g, C %g; chose %s)", f, got.Folds[f], want, bestS, bestC, got.Chosen[f])
		}
		if math.Abs(float64(got.ROCAUCFolds[f])-auc) > 1e-12 {
			t.Errorf("fold %d: ROC-AUC %g, plain loop %g", f, got.ROCAUCFolds[f], auc)
		}
	}
	var aucs []float64
	for _, a := range got.ROCAUCFolds {
		aucs = append(aucs, float64(a))
	}
	if mean, std := crossval.MeanStd(aucs); float64(got.ROCAUC) != mean || float64(got.ROCAUCStd) != std || mean < 0.7 {
		t.Errorf("ROC-AUC %g ± %g, folds give %g ± %g", got.ROCAUC, got.ROCAUCStd, mean, std)
	}
}

// TestMajority: the majority method's fold accuracies are the rates of
// the largest class in each test fold, counted here from the folds.
func TestMajority(t *testing.T) {
	d := mutag(t)
	o := DefaultOptions()
	m, err := RunMethod(context.Background(), d, Majority, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	folds, _ := crossval.StratifiedKFold(d.Labels, o.Folds, o.Seed)
	for f := range o.Folds {
		count := map[int]int{}
		n := 0
		for i, g := range folds {
			if g == f {
				count[d.Labels[i]]++
				n++
			}
		}
		best := 0
		for _, c := range count {
			best = max(best, c)
		}
		if want := float64(best) / float64(n); math.Abs(m.Folds[f]-want) > 1e-15 {
			t.Errorf("fold %d: %g, majority rate %g", f, m.Folds[f], want)
		}
		if m.ROCAUCFolds[f] != 0.5 {
			t.Errorf("fold %d: ROC-AUC %g, want 1/2 (every graph scores alike)", f, m.ROCAUCFolds[f])
		}
	}
	if m.ROCAUC != 0.5 || m.ROCAUCStd != 0 {
		t.Errorf("ROC-AUC %g ± %g, want 0.5 ± 0", m.ROCAUC, m.ROCAUCStd)
	}
}

// TestTrainPWGKBlocks: trainPWGK's Gram and test blocks (learned once per
// training set, computed on the training set and on the test rows apart,
// kept in a cache) equal the Gaussian of the RKHS distance computed on
// all graphs at once with the same learned weight.
func TestTrainPWGKBlocks(t *testing.T) {
	d := mutag(t)
	o := DefaultOptions()
	tp := &trainedPWGK{d: d, o: o, rho: o.TrainRho * d.maxPers, capacity: 2}
	var train, test []int
	for i := range d.Labels {
		if i%4 == 0 {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	k, err := tp.source(1)(context.Background(), train)
	if err != nil {
		t.Fatal(err)
	}
	gram := k.gram()
	cross, err := k.cross(context.Background(), test)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := k.cross(context.Background(), test) // from the cache
	e := tp.entries[0]
	lin, err := pdkernel.PWGKLinear(context.Background(), d.union, e.params, nil)
	if err != nil {
		t.Fatal(err)
	}
	d2 := pdkernel.SquaredDistances(lin)
	m := plainMedian(d2, train)
	check := func(what string, rows []int, got [][]float64) {
		for a, i := range rows {
			for b, j := range train {
				if want := math.Exp(-d2[i][j] / m); math.Abs(got[a][b]-want) > 1e-9 {
					t.Fatalf("%s[%d][%d] = %g, want %g", what, a, b, got[a][b], want)
				}
			}
		}
	}
	check("gram", train, gram)
	check("cross", test, cross)
	check("cached cross", test, again)
}

// TestStatsSource: the stats kernel standardises with the training rows
// only, checked against a plain computation.
func TestStatsSource(t *testing.T) {
	d := mutag(t)
	x := graphstats.All(d.Graphs)
	train := []int{0, 3, 5, 8, 13, 21, 34, 55, 89, 144}
	test := []int{1, 2, 100}
	k, err := statsSource(x, 2)(context.Background(), train)
	if err != nil {
		t.Fatal(err)
	}
	cross, _ := k.cross(context.Background(), test)
	dim := len(x[0])
	mean, sd := make([]float64, dim), make([]float64, dim)
	for f := range dim {
		for _, i := range train {
			mean[f] += x[i][f] / float64(len(train))
		}
		for _, i := range train {
			sd[f] += (x[i][f] - mean[f]) * (x[i][f] - mean[f]) / float64(len(train))
		}
		if sd[f] = math.Sqrt(sd[f]); sd[f] == 0 {
			sd[f] = 1
		}
	}
	dist := func(i, j int) float64 {
		var s float64
		for f := range dim {
			a, b := (x[i][f]-mean[f])/sd[f], (x[j][f]-mean[f])/sd[f]
			s += (a - b) * (a - b)
		}
		return s
	}
	full := make([][]float64, len(x))
	for _, i := range append(append([]int(nil), train...), test...) {
		full[i] = make([]float64, len(x))
		for _, j := range train {
			full[i][j] = dist(i, j)
		}
	}
	m := plainMedian(full, train)
	for a, i := range test {
		for b, j := range train {
			if want := math.Exp(-dist(i, j) / (2 * m)); math.Abs(cross[a][b]-want) > 1e-12 {
				t.Fatalf("cross[%d][%d] = %g, want %g", a, b, cross[a][b], want)
			}
		}
	}
}

// TestWKPIPair: WKPI and WKPI-init come from one cross-validation (the
// second reuses it: same time), on the same folds as majority, and Run
// pairs every method with WKPI.
func TestWKPIPair(t *testing.T) {
	d := mutag(t)
	o := DefaultOptions()
	o.Folds = 5
	res, err := Run(context.Background(), d, []string{Majority, WKPI, WKPIInit}, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, init := res.Methods[1], res.Methods[2]
	if w.Seconds != init.Seconds || len(d.reports) != 1 {
		t.Errorf("WKPI-init did not reuse WKPI's run: %g s and %g s, %d runs", w.Seconds, init.Seconds, len(d.reports))
	}
	if w.Paired != nil || res.Methods[0].Paired == nil || init.Paired == nil {
		t.Fatal("pairing: want every method but WKPI paired")
	}
	for f, diff := range res.Methods[0].Paired.Differences {
		if want := res.Methods[0].Folds[f] - w.Folds[f]; diff != want {
			t.Errorf("fold %d: difference %g, want %g", f, diff, want)
		}
	}
	for f, diff := range res.Methods[0].PairedROCAUC.Differences {
		if want := float64(res.Methods[0].ROCAUCFolds[f] - w.ROCAUCFolds[f]); diff != want {
			t.Errorf("fold %d: ROC-AUC difference %g, want %g", f, diff, want)
		}
	}
	if !(w.Accuracy > res.Methods[0].Accuracy) {
		t.Errorf("WKPI %.3f does not beat the majority class %.3f on MUTAG", w.Accuracy, res.Methods[0].Accuracy)
	}
	// WKPI's and WKPI-init's ROC-AUCs are the eval report's.
	rep := d.reports[d.wkpiKey(o, false)]
	if !reflect.DeepEqual(w.ROCAUCFolds, rep.Learned.ROCAUC.PerFold) || !reflect.DeepEqual(init.ROCAUCFolds, rep.Baseline.ROCAUC.PerFold) ||
		w.ROCAUC != rep.Learned.ROCAUC.Mean || init.ROCAUCStd != rep.Baseline.ROCAUC.Std || len(w.ROCAUCFolds) != 5 || w.ROCAUC < 0.8 {
		t.Errorf("WKPI ROC-AUC %v (%g), WKPI-init %v; eval's %+v, %+v", w.ROCAUCFolds, w.ROCAUC, init.ROCAUCFolds, rep.Learned.ROCAUC, rep.Baseline.ROCAUC)
	}
}

// TestRepeats: two repeats are the runs with seeds Seed and Seed+1, fold
// by fold, the means are over all folds, and each paired comparison gets
// the corrected repeated k-fold t-test (with one repeat, none).
func TestRepeats(t *testing.T) {
	d := mutag(t)
	o := DefaultOptions()
	o.Folds = 5
	names := []string{WKPI, PIConst}
	var want [2]Result
	for r := range want {
		or := o
		or.Seed = o.Seed + int64(r)
		res, err := Run(context.Background(), d, names, or, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Methods[1].Paired.CorrectedTP != nil {
			t.Error("one repeat: a corrected t-test")
		}
		want[r] = res
	}
	o.Repeats = 2
	res, err := Run(context.Background(), d, names, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range res.Methods {
		folds := slices.Concat(want[0].Methods[i].Folds, want[1].Methods[i].Folds)
		aucs := slices.Concat(want[0].Methods[i].ROCAUCFolds, want[1].Methods[i].ROCAUCFolds)
		if !slices.Equal(m.Folds, folds) || !slices.Equal(m.ROCAUCFolds, aucs) {
			t.Errorf("%s: folds %v, ROC-AUCs %v; want the two runs' %v, %v", m.Name, m.Folds, m.ROCAUCFolds, folds, aucs)
		}
		if mean, _ := crossval.MeanStd(folds); math.Abs(m.Accuracy-mean) > 1e-12 {
			t.Errorf("%s: accuracy %g, want the mean of all 10 folds %g", m.Name, m.Accuracy, mean)
		}
		if len(m.Chosen) != len(folds) {
			t.Errorf("%s: %d chosen cells for %d folds", m.Name, len(m.Chosen), len(folds))
		}
	}
	p := res.Methods[1].Paired
	if p == nil || p.CorrectedTP == nil || *p.CorrectedTP != crossval.CorrectedRepeatedT(p.Differences, 5) || res.Methods[1].PairedROCAUC.CorrectedTP == nil {
		t.Errorf("PI-CONST against WKPI over two repeats: %+v, want the corrected t-test of its 10 differences", p)
	}
}

// TestPairROCAUC pairs ROC-AUCs over the folds where both methods have
// one (a fold of one class has none).
func TestPairROCAUC(t *testing.T) {
	nan := crossval.Metric(math.NaN())
	res := Result{Methods: []Method{
		{Name: WKPI, Folds: []float64{0.9, 0.8, 0.7, 0.6}, ROCAUCFolds: []crossval.Metric{0.95, nan, 0.85, 0.75}},
		{Name: WL, Folds: []float64{0.8, 0.8, 0.8, 0.8}, ROCAUCFolds: []crossval.Metric{0.90, 0.80, nan, 0.80}},
		{Name: Majority, Folds: []float64{0.5, 0.5, 0.5, 0.5}, ROCAUCFolds: []crossval.Metric{nan, 0.5, nan, 0.5}},
	}}
	if err := Pair(&res); err != nil {
		t.Fatal(err)
	}
	wl := res.Methods[1].PairedROCAUC
	if wl == nil || len(wl.Differences) != 2 || math.Abs(wl.Differences[0]+0.05) > 1e-12 || math.Abs(wl.Differences[1]-0.05) > 1e-12 {
		t.Errorf("WL against WKPI: %+v, want differences -0.05 and +0.05 (folds 0 and 3)", wl)
	}
	if m := res.Methods[2]; m.Paired == nil || m.PairedROCAUC != nil {
		t.Errorf("majority: accuracy paired %v, ROC-AUC paired %+v; want paired and nil (one fold with both)", m.Paired != nil, m.PairedROCAUC)
	}
	res.Methods[1].ROCAUCFolds = res.Methods[1].ROCAUCFolds[:3]
	if err := Pair(&res); err == nil {
		t.Error("3 folds' ROC-AUC against 4: no error")
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{nil, "no methods"},
		{[]string{"WKPI", "SVM"}, `unknown method "SVM"`},
		{[]string{"SW", "SW"}, "twice"},
	} {
		if err := Check(c.names); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.names, err, c.want)
		}
	}
	if err := Check(Names()); err != nil {
		t.Error(err)
	}
}

// TestSeveralDescriptors: with the default descriptor set (Ricci, HKS,
// degree) PI-PL renders every descriptor's images again with the linear
// weighting, as features.Compute does from scratch with that weighting,
// and every method runs.
func TestSeveralDescriptors(t *testing.T) {
	ds, err := tu.ReadDir(testenv.Dataset(t, "MUTAG"))
	if err != nil {
		t.Fatal(err)
	}
	s := features.Default(filtration.KindRicci)
	s.Extra = features.DefaultExtra(s.Filtration.Kind, false)
	set, err := features.Compute(context.Background(), ds, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewData(ds, set)
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.linearImages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s.Weighting = pimage.Linear
	want, err := features.Compute(context.Background(), ds, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want.Grid != set.Grid || !reflect.DeepEqual(got, pimage.DenseAll(want.Images)) {
		t.Errorf("PI-PL images of three descriptors differ from features.Compute's with linear weighting (grids %+v, %+v)", set.Grid, want.Grid)
	}
	o := DefaultOptions()
	o.Folds, o.WKPI.Learn.MaxIter, o.WLIterations = 3, 20, []int{1, 2}
	res, err := Run(context.Background(), d, Names(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range res.Methods {
		if !(m.Accuracy > 0.5) {
			t.Errorf("%s: accuracy %.3f on MUTAG", m.Name, m.Accuracy)
		}
	}
}

// TestWKPIAuto: with WKPIAuto, WKPI and WKPI-init are the folds of
// eval.CrossValidateChosen between the set's images and their size-aware
// variant, as `wkpi eval` runs by default.
func TestWKPIAuto(t *testing.T) {
	d := mutag(t)
	o := DefaultOptions()
	o.Folds, o.WKPI.Learn.MaxIter, o.WKPIAuto = 3, 20, true
	res, err := Run(context.Background(), d, []string{WKPI, WKPIInit}, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	sized, err := eval.SizeAware(d.wkpi, o.WKPI)
	if err != nil {
		t.Fatal(err)
	}
	want, err := eval.CrossValidateChosen(context.Background(), []eval.Candidate{{W: d.wkpi, Config: o.WKPI}, sized}, eval.Plan{Folds: 3, Seed: o.Seed}, eval.ChoiceOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Methods[0].Folds, want.Learned.PerFold) || !reflect.DeepEqual(res.Methods[1].Folds, want.Baseline.PerFold) {
		t.Errorf("WKPI %v, WKPI-init %v; eval.CrossValidateChosen %v, %v", res.Methods[0].Folds, res.Methods[1].Folds, want.Learned.PerFold, want.Baseline.PerFold)
	}
}
