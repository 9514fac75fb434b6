package eval

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"gonum.org/v1/gonum/blas/blas32"

	"wkpi-web/core/crossval"
	"wkpi-web/core/features"
	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/model"
	"wkpi-web/core/pimage"
	"wkpi-web/core/progress"
	"wkpi-web/core/spec"
	"wkpi-web/core/svm"
)

// Config is one WKPI-SVM setting: the kernel width, the SVM's C and the
// metric learning options (m = Learn.M components, initialisation, ...).
type Config struct {
	Sigma   float64        `json:"sigma"`
	C       float64        `json:"C"`
	Learn   learn.Options  `json:"learn"`
	Variant kernel.Variant `json:"variant"`
	// Nystrom > 0 approximates the SVMs' kernel matrices from that many
	// landmark training graphs (nystromSet); 0 computes them exactly.
	Nystrom int `json:"nystrom,omitempty"`
	// Gauss is the SVM kernel's form: 0 the WKPI kernel itself, s > 0 the
	// Gaussian of the WKPI distance, exp(-D_w^2 / (s m)) with m the median
	// of D_w^2 over training pairs (kernel.GaussianOf, crossval.Median).
	Gauss float64 `json:"gauss,omitempty"`
	// SVM, when set, has every fold choose Gauss and C from it by inner CV
	// of the unlearned kernel on the fold's training graphs (chooseSVM);
	// Gauss and C then say what was chosen.
	SVM *SVMGrid `json:"svm_grid,omitempty"`
}

// DefaultConfig is the setting of `wkpi eval` without flags,
// spec.Defaults: m = 5, sigma = 0.01, and the SVM's form and C chosen in
// every fold (DefaultSVMGrid; C = 100 and the WKPI kernel itself when the
// choice is off).
func DefaultConfig() Config {
	u, err := FromSpec(spec.Defaults())
	if err != nil {
		panic("eval: the default settings are invalid: " + err.Error())
	}
	return u.Config
}

// Grid is a hyper-parameter grid; every combination is a cell.
type Grid struct {
	Ms     []int     `json:"m"`
	Sigmas []float64 `json:"sigma"`
	Cs     []float64 `json:"C"`
}

// PaperGrid is the grid of the paper, spec.PaperGrid.
func PaperGrid() Grid {
	g := spec.PaperGrid()
	return Grid{Ms: g.M, Sigmas: g.Sigma, Cs: g.C}
}

func (g Grid) validate() error {
	if len(g.Ms) == 0 || len(g.Sigmas) == 0 || len(g.Cs) == 0 {
		return errors.New("eval: grid needs at least one m, one sigma and one C")
	}
	return nil
}

// WKPI evaluates WKPI-SVM classifiers on one dataset's features.
type WKPI struct {
	Set     *features.Set
	Labels  []int
	Classes int
	centres [][2]float64   // pixel centres of an image vector
	points  [][][2]float64 // each graph's diagram points
	domain  [4]float64     // the grid's extent: minx, miny, maxx, maxy
	// MaxTableBytes bounds the memory of the pair table kept per sigma
	// (DefaultMaxTableBytes; 0 or less computes every pair directly).
	MaxTableBytes int64
	tables        map[float64]*kernel.Table
	// generalPath has CrossValidate take the general path (run) where it
	// would take crossValidatePasses: for tests that compare the two.
	generalPath bool
	// render, for a feature set whose images are rendered as they are
	// needed (SizeAware), renders graph i's image (ensure).
	render func(i int) ([]float64, error)
}

// NewWKPI prepares a dataset's features for evaluation.
func NewWKPI(set *features.Set, labels []int, classes int) (*WKPI, error) {
	if len(labels) != len(set.Images) {
		return nil, fmt.Errorf("eval: %d labels for %d images", len(labels), len(set.Images))
	}
	w := &WKPI{Set: set, Labels: labels, Classes: classes, centres: features.Centres(set.Grid, set.Settings), MaxTableBytes: DefaultMaxTableBytes}
	for i := range set.Diagrams {
		w.points = append(w.points, features.AllPoints(set.GraphDiagrams(i), set.Settings))
	}
	g := set.Grid
	w.domain = [4]float64{g.MinX, g.MinY, g.MinX + float64(g.Cols)*g.Pixel, g.MinY + float64(g.Rows)*g.Pixel}
	return w, nil
}

func (w *WKPI) subset(idx []int) (images []pimage.Sparse, labels []int) {
	images, labels = make([]pimage.Sparse, len(idx)), make([]int, len(idx))
	for i, s := range idx {
		images[i], labels[i] = w.Set.Images[s], w.Labels[s]
	}
	return images, labels
}

// Initial is the starting weight function of a training set (indices
// into the dataset): the "before" of a learning run.
func (w *WKPI) Initial(train []int, o learn.Options) (kernel.Mixture, error) {
	n := 0
	for _, s := range train {
		n += len(w.points[s])
	}
	pts := make([][2]float64, 0, n)
	for _, s := range train {
		pts = append(pts, w.points[s]...)
	}
	return learn.InitMixture(pts, w.domain, o)
}

// learnWeight trains the weight function on train, whose pair sums are
// sums without fold exclude (mini-batches ignore sums).
func (w *WKPI) learnWeight(ctx context.Context, train []int, sums *learn.PairSums, exclude int, cfg Config, prog progress.Func) (kernel.Mixture, learn.Trace, error) {
	init, err := w.Initial(train, cfg.Learn)
	if err != nil {
		return kernel.Mixture{}, learn.Trace{}, err
	}
	if cfg.Learn.Objective == learn.ObjectiveCKA {
		return w.learnAligned(ctx, train, init, cfg, prog)
	}
	if cfg.Learn.BatchSize > 0 {
		images, labels := w.subset(train)
		return learn.LearnBatched(ctx, images, labels, w.centres, cfg.Sigma, init, cfg.Learn, prog)
	}
	return learn.Learn(ctx, sums, exclude, w.centres, init, cfg.Learn, prog)
}

// kernelSet holds, for several weight functions, the SVM kernel's Gram
// matrix on a training set and its cross matrix from a test set: all of
// them come from one pass over the pairs, and serve an SVM for any C.
type kernelSet struct {
	train, test []int
	gram, cross [][][]float64 // per weight function
	// packed, when gram is nil, holds the Gram matrices packed (from
	// kernel.Splits); unpack unpacks one at a time into scratch.
	packed  []blas32.SymmetricPacked
	scratch *svmScratch
}

// svmScratch is memory that the SVMs of successive folds reuse: the
// unpacked Gram matrix, float32 as the pass keeps it (an SVM trains on
// it as on its float64 copy: svm.Element), and the SVM choice's
// Gaussian forms of it.
type svmScratch struct {
	full  [][]float32
	gauss [][]float64
}

// unpack is weight function i's packed Gram matrix, unpacked.
func (ks *kernelSet) unpack(i int) [][]float32 {
	g := ks.packed[i]
	full := slices.Grow(ks.scratch.full[:0], g.N)[:g.N]
	for r := range full {
		full[r] = slices.Grow(full[r][:0], g.N)[:g.N]
	}
	for r := range g.N {
		start := r*g.N - r*(r-1)/2 // row r's diagonal in blas.Upper packing
		for j, v := range g.Data[start : start+g.N-r] {
			full[r][r+j], full[r+j][r] = v, v
		}
	}
	ks.scratch.full = full
	return full
}

// weights are the pixel weights of the SVM kernels of mixes; scales[i],
// when scales is long enough, are weight function i's per-block scales
// (model.KernelForScaled; nil for none).
func (w *WKPI) weights(cfg Config, mixes []kernel.Mixture, scales [][]float64) [][]float64 {
	ws := make([][]float64, len(mixes))
	for i, mix := range mixes {
		var sc []float64
		if i < len(scales) {
			sc = scales[i]
		}
		ws[i] = model.KernelForScaled(mix, w.centres, cfg.Sigma, cfg.Variant, sc).Weights
	}
	return ws
}

func (w *WKPI) kernelSet(ctx context.Context, p pairs, cfg Config, mixes []kernel.Mixture, scales [][]float64, train, test []int) (*kernelSet, error) {
	ws := w.weights(cfg, mixes, scales)
	if cfg.Nystrom > 0 {
		return w.nystromSet(ctx, p, ws, cfg.Nystrom, cfg.Learn.Seed, train, test)
	}
	ks := &kernelSet{train: train, test: test}
	var err error
	if ks.gram, err = p.grams(ctx, ws, train); err != nil {
		return nil, err
	}
	if len(test) > 0 {
		if ks.cross, err = p.crosses(ctx, ws, test, train); err != nil {
			return nil, err
		}
	}
	return ks, nil
}

// svm trains the SVM with C on weight function i's Gram matrix.
func (w *WKPI) svm(ctx context.Context, ks *kernelSet, i int, c float64) (*svm.Model, error) {
	var m *svm.Model
	var err error
	if ks.gram != nil {
		m, err = svm.Train(ctx, ks.gram[i], w.truth(ks.train), svm.Options{C: c})
	} else {
		m, err = svm.TrainOn(ctx, ks.unpack(i), nil, w.truth(ks.train), svm.Options{C: c})
	}
	if err != nil && !errors.Is(err, svm.ErrNotConverged) {
		return nil, err
	}
	return m, nil
}

// predict trains the SVM with C on weight function i and classifies the
// test set.
func (w *WKPI) predict(ctx context.Context, ks *kernelSet, i int, c float64) ([]int, error) {
	m, err := w.svm(ctx, ks, i, c)
	if err != nil {
		return nil, err
	}
	pred := make([]int, len(ks.test))
	for t := range ks.test {
		pred[t] = m.Predict(ks.cross[i][t])
	}
	return pred, nil
}

// scored trains the SVM with C on weight function i and classifies the
// test set, with every test sample's per-class scores (svm.Model.Scores,
// one per class of the dataset).
func (w *WKPI) scored(ctx context.Context, ks *kernelSet, i int, c float64) ([]int, [][]float64, error) {
	m, err := w.svm(ctx, ks, i, c)
	if err != nil {
		return nil, nil, err
	}
	pred, scores := make([]int, len(ks.test)), make([][]float64, len(ks.test))
	for t := range ks.test {
		pred[t], scores[t] = m.Predict(ks.cross[i][t]), m.Scores(ks.cross[i][t], w.Classes)
	}
	return pred, scores, nil
}

// Fold is what one outer fold chose, learned and predicted.
type Fold struct {
	Index    int         `json:"index"`
	Config   Config      `json:"config"`
	Trace    learn.Trace `json:"trace"`
	Accuracy float64     `json:"accuracy"`
	Baseline float64     `json:"baseline_accuracy"`
	// BalancedAccuracy, F1Macro and ROCAUC score the learned SVM on the
	// fold, the Baseline ones the unlearned SVM (crossval.Evaluate). The
	// ROC-AUC comes from Scores: it is undefined (NaN, null in JSON) when
	// the fold's test graphs are all of one class.
	BalancedAccuracy         float64         `json:"balanced_accuracy"`
	F1Macro                  float64         `json:"f1_macro"`
	ROCAUC                   crossval.Metric `json:"roc_auc"`
	BaselineBalancedAccuracy float64         `json:"baseline_balanced_accuracy"`
	BaselineF1Macro          float64         `json:"baseline_f1_macro"`
	BaselineROCAUC           crossval.Metric `json:"baseline_roc_auc"`
	// InnerAccuracy is the chosen cell's inner CV accuracy (nested), or
	// Cost its training cost (selection by cost).
	InnerAccuracy float64 `json:"inner_accuracy,omitempty"`
	Cost          float64 `json:"cost,omitempty"`
	// ChannelScales are the learned per-block scales (Learn.Channels).
	ChannelScales []float64 `json:"channel_scales,omitempty"`
	// Candidate is the feature set CrossValidateChosen chose (index).
	Candidate int `json:"candidate,omitempty"`
	// Test are the fold's samples; Predicted and BaselinePredicted the
	// classes the learned and the initial weight function's SVMs gave them.
	Test              []int `json:"test"`
	Predicted         []int `json:"predicted"`
	BaselinePredicted []int `json:"baseline_predicted"`
	// Scores[t] and BaselineScores[t] are test graph t's per-class scores
	// (svm.Model.Scores: one per class of the dataset) from the learned
	// and the unlearned SVM. With two classes Scores[t][1] is the decision
	// value of the positive class (the second class, scikit-learn's
	// SVC.decision_function) and Scores[t][0] its opposite; with more, the
	// one-vs-one votes plus the summed decision values squashed into
	// (-1/3, 1/3), scikit-learn's decision_function_shape="ovr".
	Scores         [][]float64 `json:"scores,omitempty"`
	BaselineScores [][]float64 `json:"baseline_scores,omitempty"`
}

// Report is a cross-validated evaluation: the learned kernel's result
// and, on the same folds, the same SVM with the initial (unlearned)
// weight function.
type Report struct {
	Protocol string          `json:"protocol"` // "fixed", "nested" or "cost"
	Learned  crossval.Result `json:"learned"`
	Baseline crossval.Result `json:"baseline"`
	Folds    []Fold          `json:"folds"`
	Seconds  float64         `json:"seconds"`
	// Final is the final model that Plan.Final asked for.
	Final *FinalModel `json:"-"`
}

// Merge combines reports of disjoint folds of one cross-validation (as
// workers running some folds each return them) into the report of all
// folds: labels and classes are the dataset's.
func Merge(labels []int, classes int, parts ...Report) (Report, error) {
	if len(parts) == 0 {
		return Report{}, errors.New("eval: nothing to merge")
	}
	rep := Report{Protocol: parts[0].Protocol}
	for _, p := range parts {
		rep.Folds = append(rep.Folds, p.Folds...)
		rep.Seconds = math.Max(rep.Seconds, p.Seconds)
		rep.Final = cmp.Or(rep.Final, p.Final)
	}
	sort.Slice(rep.Folds, func(i, j int) bool { return rep.Folds[i].Index < rep.Folds[j].Index })
	for i, f := range rep.Folds {
		if f.Index != i {
			return Report{}, fmt.Errorf("eval: merged folds are not 0..%d (fold %d missing or repeated)", len(rep.Folds)-1, i)
		}
	}
	var err error
	if rep.Learned, err = summarize(labels, classes, rep.Folds, func(f Fold) ([]int, [][]float64) { return f.Predicted, f.Scores }); err != nil {
		return Report{}, err
	}
	if rep.Baseline, err = summarize(labels, classes, rep.Folds, func(f Fold) ([]int, [][]float64) { return f.BaselinePredicted, f.BaselineScores }); err != nil {
		return Report{}, err
	}
	rep.Learned.Seconds, rep.Baseline.Seconds = rep.Seconds, rep.Seconds
	return rep, nil
}

// summarize is the Result of one side of folds, the learned or the
// unlearned SVM's predictions and scores: every metric is computed again
// from them (crossval.Evaluate, as score did for the fold), so that folds
// kept without metrics or scores (by an earlier version) merge too; a
// fold without scores has no ROC-AUC.
func summarize(labels []int, classes int, folds []Fold, side func(Fold) ([]int, [][]float64)) (crossval.Result, error) {
	r := crossval.Result{Predictions: make([]int, len(labels))}
	for i := range r.Predictions {
		r.Predictions[i] = -1
	}
	var aucs, bals, f1s []float64
	for _, f := range folds {
		pred, scores := side(f)
		if len(pred) != len(f.Test) {
			return crossval.Result{}, fmt.Errorf("eval: fold %d has %d predictions for %d test samples", f.Index, len(pred), len(f.Test))
		}
		truth := make([]int, len(f.Test))
		for i, s := range f.Test {
			if s < 0 || s >= len(labels) {
				return crossval.Result{}, fmt.Errorf("eval: fold %d names sample %d of %d", f.Index, s, len(labels))
			}
			r.Predictions[s], truth[i] = pred[i], labels[s]
		}
		if len(scores) == 0 {
			scores = nil
		}
		m, err := crossval.Evaluate(pred, truth, scores)
		if err != nil {
			return crossval.Result{}, fmt.Errorf("eval: fold %d: %w", f.Index, err)
		}
		r.PerFold = append(r.PerFold, m.Accuracy)
		aucs, bals, f1s = append(aucs, float64(m.ROCAUC)), append(bals, m.BalancedAccuracy), append(f1s, m.F1Macro)
	}
	r.Accuracy, r.Std = crossval.MeanStd(r.PerFold)
	r.ROCAUC, r.BalancedAccuracy, r.F1Macro = crossval.Summarize(aucs), crossval.Summarize(bals), crossval.Summarize(f1s)
	var err error
	r.Confusion, err = crossval.Confusion(r.Predictions, labels, classes)
	return r, err
}

// indices is 0..n-1, every sample of a dataset of n.
func indices(n int) []int {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all
}

// Plan says which CV to run: nFolds stratified folds split with Seed (or,
// Grouped, folds that keep each group whole), and of them only the folds
// in Only (all when empty), so that a worker pool can run folds apart and
// Merge the reports.
type Plan struct {
	Folds int   `json:"folds"`
	Seed  int64 `json:"seed"`
	// Grouped splits by Groups (crossval.GroupKFold): each group's graphs
	// share one test fold, such as the molecules of one scaffold
	// (Setup.Groups). Inner folds, of the choices made on a fold's
	// training graphs, stay stratified.
	Grouped bool  `json:"grouped,omitempty"`
	Groups  []int `json:"groups,omitempty"`
	Only    []int `json:"only,omitempty"`
	// Final, when set, asks for the final model of every graph as well
	// (Report.Final): Run and the protocols train it in the folds' passes
	// over the pairs where they can. Default nil.
	Final *Final `json:"-"`
	// OnFold, when set, gets each fold as soon as it is complete, in
	// order of index, so that a page can show folds while others run.
	OnFold func(Fold) `json:"-"`
}

func (p Plan) runs(f int) bool {
	if len(p.Only) == 0 {
		return true
	}
	for _, o := range p.Only {
		if o == f {
			return true
		}
	}
	return false
}

// CrossValidate runs stratified CV with one fixed Config.
func (w *WKPI) CrossValidate(ctx context.Context, cfg Config, plan Plan, prog progress.Func) (Report, error) {
	if err := w.ensure(nil); err != nil {
		return Report{}, err
	}
	if two, err := w.twoPasses(ctx, cfg, prog); err != nil {
		return Report{}, err
	} else if two && !w.generalPath {
		return w.crossValidatePasses(ctx, cfg, plan, prog)
	}
	sigmas := []float64{cfg.Sigma}
	if cfg.Learn.BatchSize > 0 {
		sigmas = nil // mini-batches make their own sums
	}
	return w.run(ctx, "fixed", plan, prog, func(ctx context.Context, f int, train, test []int, sums map[float64]*learn.PairSums) (Fold, kernel.Mixture, kernel.Mixture, error) {
		return w.fitFixed(ctx, cfg, train, sums[cfg.Sigma], f, prog)
	}, sigmas, cfg.Variant)
}

// fitFixed learns cfg on train (sums without fold exclude) and returns
// the learned and the initial weight functions.
func (w *WKPI) fitFixed(ctx context.Context, cfg Config, train []int, sums *learn.PairSums, exclude int, prog progress.Func) (Fold, kernel.Mixture, kernel.Mixture, error) {
	mix, trace, err := w.learnWeight(ctx, train, sums, exclude, cfg, prog)
	if err != nil {
		return Fold{}, mix, mix, err
	}
	scales, err := w.channelScales(ctx, train, mix, cfg)
	if err != nil {
		return Fold{}, mix, mix, err
	}
	init, err := w.Initial(train, cfg.Learn)
	return Fold{Config: cfg, Trace: trace, ChannelScales: scales}, mix, init, err
}

type foldFitter func(ctx context.Context, f int, train, test []int, sums map[float64]*learn.PairSums) (Fold, kernel.Mixture, kernel.Mixture, error)

// run is the outer loop every protocol shares: the plan's folds, one
// pass of pair sums per sigma for all folds, a fit per fold, and the
// learned and baseline SVMs tested on the fold.
func (w *WKPI) run(ctx context.Context, protocol string, plan Plan, prog progress.Func, fit foldFitter, sigmas []float64, v kernel.Variant) (Report, error) {
	start := time.Now()
	folds, err := plan.split(w.Labels)
	if err != nil {
		return Report{}, err
	}
	sums := map[float64]*learn.PairSums{}
	for i, sigma := range sigmas {
		p, err := w.pairsFor(ctx, sigma, v, prog)
		if err != nil {
			return Report{}, err
		}
		if sums[sigma], err = p.sums(ctx, indices(len(w.Labels)), w.Labels, folds, plan.Folds); err != nil {
			return Report{}, err
		}
		prog.Report("pair sums", i+1, len(sigmas))
	}
	train, test := crossval.Split(indices(len(w.Labels)), folds, plan.Folds)
	rep := Report{Protocol: protocol}
	// Every fold learns first, so that folds of one kernel width can share
	// their kernels' pass over the pairs (testFolds).
	var fits []fitted
	for f := range plan.Folds {
		if !plan.runs(f) {
			continue
		}
		fold, learned, init, err := fit(ctx, f, train[f], test[f], sums)
		if err != nil {
			return Report{}, fmt.Errorf("eval: fold %d: %w", f, err)
		}
		fold.Index, fold.Test = f, test[f]
		fits = append(fits, fitted{fold: fold, mixes: []kernel.Mixture{learned, init}})
	}
	err = w.testFolds(ctx, fits, train, prog, func(fold Fold) {
		rep.Folds = append(rep.Folds, fold)
		if plan.OnFold != nil {
			plan.OnFold(fold)
		}
		prog.Report("folds", len(rep.Folds), plan.Folds)
	})
	if err != nil {
		return Report{}, err
	}
	rep.Seconds = time.Since(start).Seconds()
	if len(plan.Only) > 0 {
		return rep, nil // a part: the caller merges
	}
	return Merge(w.Labels, w.Classes, rep)
}

func (w *WKPI) truth(idx []int) []int {
	_, y := w.subset(idx)
	return y
}

// cells lists a grid's (m, sigma) pairs; C is chosen apart because it
// needs no new learning or Gram matrix.
func (g Grid) cells(base Config) []Config {
	var out []Config
	for _, sigma := range g.Sigmas {
		for _, m := range g.Ms {
			c := base
			c.Sigma, c.Learn.M = sigma, m
			out = append(out, c)
		}
	}
	return out
}

// Nested runs nested CV: for each outer fold of plan, every grid cell
// is scored by stratified inner-fold CV on the outer training set alone
// (split with seed+f+1), the best mean inner accuracy wins (ties: the
// first cell, in the order sigma, m, C), and it is refitted on the whole
// outer training set and tested on the outer fold.
func (w *WKPI) Nested(ctx context.Context, base Config, grid Grid, plan Plan, inner int, prog progress.Func) (Report, error) {
	if err := w.ensure(nil); err != nil {
		return Report{}, err
	}
	if err := grid.validate(); err != nil {
		return Report{}, err
	}
	base.SVM = nil // the grid chooses C
	return w.run(ctx, "nested", plan, prog, func(ctx context.Context, f int, train, test []int, _ map[float64]*learn.PairSums) (Fold, kernel.Mixture, kernel.Mixture, error) {
		best, acc, err := w.innerSearch(ctx, base, grid, train, inner, plan.Seed+int64(f)+1, prog)
		if err != nil {
			return Fold{}, kernel.Mixture{}, kernel.Mixture{}, err
		}
		p, err := w.pairsFor(ctx, best.Sigma, best.Variant, prog)
		if err != nil {
			return Fold{}, kernel.Mixture{}, kernel.Mixture{}, err
		}
		sums, err := p.sums(ctx, train, w.truth(train), nil, 1)
		if err != nil {
			return Fold{}, kernel.Mixture{}, kernel.Mixture{}, err
		}
		fold, learned, baseline, err := w.fitFixed(ctx, best, train, sums, -1, prog)
		fold.InnerAccuracy = acc
		return fold, learned, baseline, err
	}, nil, base.Variant)
}

// innerSearch scores every grid cell by CV on train and returns the best.
// For each sigma every cell's inner folds learn first; then, on the direct
// path, each inner fold's kernels for all m share passes over the pairs
// with the other inner folds (kernel.Splits, as testFolds), where one
// kernel a pass recomputed every pair's pixel terms len(Ms) x inner times.
func (w *WKPI) innerSearch(ctx context.Context, base Config, grid Grid, train []int, inner int, seed int64, prog progress.Func) (Config, float64, error) {
	labels := w.truth(train)
	folds, err := crossval.StratifiedKFold(labels, inner, seed)
	if err != nil {
		return Config{}, 0, fmt.Errorf("inner split: %w", err)
	}
	innerTrain, innerTest := crossval.Split(train, folds, inner)
	best, bestAcc := Config{}, math.Inf(-1)
	cells, done := len(grid.Sigmas)*len(grid.Ms), 0
	for _, sigma := range grid.Sigmas {
		p, err := w.pairsFor(ctx, sigma, base.Variant, prog)
		if err != nil {
			return Config{}, 0, err
		}
		sums, err := p.sums(ctx, train, labels, folds, inner)
		if err != nil {
			return Config{}, 0, err
		}
		cfgs := make([]Config, len(grid.Ms))
		// fits[g] holds inner fold g's weight functions, one per m.
		fits := make([]fitted, inner)
		scales := make([][][]float64, inner)
		for mi, m := range grid.Ms {
			cfgs[mi] = base
			cfgs[mi].Sigma, cfgs[mi].Learn.M = sigma, m
			for g := range inner {
				mix, _, err := w.learnWeight(ctx, innerTrain[g], sums, g, cfgs[mi], nil)
				if err != nil {
					return Config{}, 0, err
				}
				sc, err := w.channelScales(ctx, innerTrain[g], mix, cfgs[mi])
				if err != nil {
					return Config{}, 0, err
				}
				fits[g].fold = Fold{Index: g, Config: cfgs[0], Test: innerTest[g]}
				fits[g].mixes, scales[g] = append(fits[g].mixes, mix), append(scales[g], sc)
			}
		}
		// accs[mi][ci] lists the inner folds' accuracies, in fold order.
		accs := make([][][]float64, len(grid.Ms))
		for mi := range accs {
			accs[mi] = make([][]float64, len(grid.Cs))
		}
		// score tests ks's weight function k, cell mi's, on inner fold g.
		score := func(g, mi, k int, ks *kernelSet) error {
			for ci, c := range grid.Cs {
				pred, err := w.predict(ctx, ks, k, c)
				if err != nil {
					return err
				}
				acc, err := crossval.Accuracy(pred, w.truth(innerTest[g]))
				if err != nil {
					return err
				}
				accs[mi][ci] = append(accs[mi][ci], acc)
			}
			return nil
		}
		if direct, ok := p.(directPairs); ok && base.Nystrom == 0 {
			var out []kernel.SplitKernels
			var scratch svmScratch
			for a := 0; a < inner; {
				b := w.group(fits, a, innerTrain)
				splits := make([]kernel.Split, b-a)
				for q := range splits {
					g := a + q
					splits[q] = kernel.Split{Weights: w.weights(cfgs[0], fits[g].mixes, scales[g]), Train: innerTrain[g], Test: innerTest[g]}
				}
				if out, err = kernel.Splits(ctx, direct.images, sigma, base.Variant, splits, out, nil); err != nil {
					return Config{}, 0, err
				}
				for q, sp := range splits {
					ks := &kernelSet{train: sp.Train, test: sp.Test, cross: out[q].Cross, packed: out[q].Gram, scratch: &scratch}
					for mi := range grid.Ms {
						if err := score(a+q, mi, mi, ks); err != nil {
							return Config{}, 0, err
						}
					}
				}
				a = b
			}
		} else {
			for g := range inner {
				for mi := range grid.Ms {
					ks, err := w.kernelSet(ctx, p, cfgs[mi], fits[g].mixes[mi:mi+1], scales[g][mi:mi+1], innerTrain[g], innerTest[g])
					if err != nil {
						return Config{}, 0, err
					}
					if err := score(g, mi, 0, ks); err != nil {
						return Config{}, 0, err
					}
				}
			}
		}
		for mi, cfg := range cfgs {
			for ci, c := range grid.Cs {
				if mean, _ := crossval.MeanStd(accs[mi][ci]); mean > bestAcc {
					best, bestAcc = cfg, mean
					best.C = c
				}
			}
			done++
			prog.Report("grid", done, cells)
		}
	}
	return best, bestAcc, nil
}

// SelectByCost is the paper's second protocol: in each fold, every
// (m, sigma) cell is learned on the training set and the one with the
// smallest final training cost is kept; C is base.C.
func (w *WKPI) SelectByCost(ctx context.Context, base Config, grid Grid, plan Plan, prog progress.Func) (Report, error) {
	if err := w.ensure(nil); err != nil {
		return Report{}, err
	}
	if err := grid.validate(); err != nil {
		return Report{}, err
	}
	base.SVM = nil // the protocol's C is base.C
	return w.run(ctx, "cost", plan, prog, func(ctx context.Context, f int, train, test []int, sums map[float64]*learn.PairSums) (Fold, kernel.Mixture, kernel.Mixture, error) {
		var best Config
		bestCost := math.Inf(1)
		for _, cfg := range grid.cells(base) {
			_, trace, err := w.learnWeight(ctx, train, sums[cfg.Sigma], f, cfg, nil)
			if err != nil {
				return Fold{}, kernel.Mixture{}, kernel.Mixture{}, err
			}
			if c := trace.Cost[len(trace.Cost)-1]; c < bestCost {
				best, bestCost = cfg, c
			}
		}
		fold, learned, baseline, err := w.fitFixed(ctx, best, train, sums[best.Sigma], f, prog)
		fold.Cost = bestCost
		return fold, learned, baseline, err
	}, grid.Sigmas, base.Variant)
}

// Train learns cfg on the whole dataset and returns the model.
func (w *WKPI) Train(ctx context.Context, dataset string, classes []string, cfg Config, prog progress.Func) (*model.Model, error) {
	if err := w.ensure(nil); err != nil {
		return nil, err
	}
	all := indices(len(w.Labels))
	// One Gram matrix: building a pair table would cost as much as it
	// saves, but one left by a cross-validation of these features serves.
	var p pairs = directPairs{images: w.Set.Images, sigma: cfg.Sigma, variant: cfg.Variant, prog: prog}
	if t, ok := w.tables[cfg.Sigma]; ok && cfg.Variant == kernel.WKPI {
		p = tablePairs{t}
	}
	sums, err := p.sums(ctx, all, w.Labels, nil, 1)
	if err != nil {
		return nil, err
	}
	mix, trace, err := w.learnWeight(ctx, all, sums, -1, cfg, prog)
	if err != nil {
		return nil, err
	}
	scales, err := w.channelScales(ctx, all, mix, cfg)
	if err != nil {
		return nil, err
	}
	mixes, scaleSets := []kernel.Mixture{mix}, [][]float64{scales}
	if cfg.SVM != nil {
		// The choice scores the unlearned kernel, as in every fold.
		init, err := w.Initial(all, cfg.Learn)
		if err != nil {
			return nil, err
		}
		mixes = append(mixes, init)
	}
	ks, err := w.kernelSet(ctx, p, cfg, mixes, scaleSets, all, nil)
	if err != nil {
		return nil, err
	}
	var inner float64
	width, err := w.chooseFor(ctx, &cfg, &inner, ks, cfg.Learn.Seed+1)
	if err != nil {
		return nil, err
	}
	prog.Report("baseline", 1, 1) // the SVM chosen on the unlearned kernel, as a fold's
	m, err := w.svm(ctx, ks, 0, cfg.C)
	if err != nil {
		return nil, err
	}
	return model.New(model.Trained{
		Dataset: dataset, Classes: classes, Set: w.Set, Train: all,
		Weight: mix, Sigma: cfg.Sigma, Variant: cfg.Variant, C: cfg.C, GaussWidth: width,
		Learn: cfg.Learn, Trace: trace, SVM: m, ChannelScales: scales,
	})
}
