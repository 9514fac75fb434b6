package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"wkpi-web/core/crossval"
	"wkpi-web/core/features"
	"wkpi-web/core/kernel"
	"wkpi-web/core/model"
	"wkpi-web/core/progress"
	"wkpi-web/core/spec"
)

// Candidate is one feature set of a dataset with the Config to use it
// with, for Choose.
type Candidate struct {
	W      *WKPI
	Config Config
}

// ChoiceOptions bound the inner cross-validation of Choose.
type ChoiceOptions struct {
	// Folds are the inner folds (DefaultChoiceFolds when 0).
	Folds int
	// MaxGraphs caps the training graphs scored: larger training sets are
	// scored on a stratified sample of about this many
	// (DefaultChoiceGraphs when 0), which keeps the choice a small part
	// of a CV on NCI1-sized data.
	MaxGraphs int
	// MinT is how many standard errors of the inner folds' paired
	// differences a challenger must beat the first candidate by
	// (DefaultChoiceT when 0): the first candidate is the default, and
	// inner CV on a few hundred graphs picks among close settings by
	// noise (docs/results.md, -auto), so only a clear win moves it.
	MinT float64
	Seed int64
}

// Defaults of ChoiceOptions.
const (
	DefaultChoiceFolds  = 5
	DefaultChoiceGraphs = 1000
	DefaultChoiceT      = 2
)

// Choice is what Choose measured: each candidate's inner accuracies, in
// inner-fold order, and the candidate chosen.
type Choice struct {
	Chosen int         `json:"chosen"`
	Inner  [][]float64 `json:"inner"`
}

// Choose picks one of cands for the training graphs train (indices into
// the dataset; every candidate holds the same graphs and labels) by
// stratified inner CV on train alone, each candidate scored with its
// initial (unlearned) weight function: learning moves accuracy by about a
// point on every dataset measured (docs/results.md), so the initial
// kernel ranks settings at a fraction of the cost. cands[0] stays unless
// another beats its mean inner accuracy by at least MinT standard errors
// of the paired differences; of several that do, the largest mean gain
// wins.
func Choose(ctx context.Context, cands []Candidate, train []int, o ChoiceOptions) (Choice, error) {
	chs, err := chooseAll(ctx, cands, train, [][]int{train}, o, nil)
	if err != nil {
		return Choice{}, err
	}
	return chs[0], nil
}

// chooseAll makes Choose's choice for every training set of trains, all
// drawn from pool. One stratified sample of pool (about MaxGraphs graphs
// when pool is larger; all of it otherwise) serves them all, each
// training set scoring its part of it, so that every candidate's kernels
// for all the training sets come from one pass over the sample's pairs.
// prog hears of the candidates' kernels and of the pair table's
// construction.
func chooseAll(ctx context.Context, cands []Candidate, pool []int, trains [][]int, o ChoiceOptions, prog progress.Func) ([]Choice, error) {
	if len(cands) == 0 {
		return nil, errors.New("eval: no candidate to choose from")
	}
	o = o.withDefaults()
	sample := pool
	if len(pool) > o.MaxGraphs {
		parts := (len(pool) + o.MaxGraphs - 1) / o.MaxGraphs
		folds, err := crossval.StratifiedKFold(cands[0].W.truth(pool), parts, o.Seed)
		if err != nil {
			return nil, err
		}
		_, pick := crossval.Split(pool, folds, parts)
		sample = pick[0]
	}
	// subs[t] are the positions in sample of training set t's graphs,
	// split into inner folds by inner[t].
	subs, inner := make([][]int, len(trains)), make([][]int, len(trains))
	for t, train := range trains {
		in := map[int]bool{}
		for _, s := range train {
			in[s] = true
		}
		var idx []int
		for i, s := range sample {
			if in[s] {
				subs[t], idx = append(subs[t], i), append(idx, s)
			}
		}
		var err error
		if inner[t], err = crossval.StratifiedKFold(cands[0].W.truth(idx), o.Folds, o.Seed+1); err != nil {
			return nil, fmt.Errorf("eval: choice inner split: %w", err)
		}
	}
	chs := make([]Choice, len(trains))
	for t := range chs {
		chs[t].Inner = make([][]float64, len(cands))
	}
	// "choice" counts the pairs of the candidates' kernels, most of the
	// work; the pair table's construction reports as "pairs", before.
	per := len(sample) * (len(sample) - 1) / 2
	work := len(cands) * per
	for c, cand := range cands {
		if err := cand.W.ensure(sample); err != nil {
			return nil, err
		}
		grams, err := cand.grams(ctx, trains, sample, c == 0, func(stage string, done, total int) {
			switch stage {
			case "pairs":
				prog.Report(stage, done, total)
			case "gram":
				prog.Report("choice", c*per+done, work)
			}
		})
		if err != nil {
			return nil, fmt.Errorf("eval: candidate %d: %w", c, err)
		}
		for t := range trains {
			if chs[t].Inner[c], err = cand.innerAccuracies(ctx, grams[t], sample, subs[t], inner[t], o.Folds); err != nil {
				return nil, fmt.Errorf("eval: candidate %d: %w", c, err)
			}
		}
		prog.Report("choice", (c+1)*per, work)
	}
	for t := range chs {
		chs[t].Chosen = chs[t].clearWinner(o)
	}
	return chs, nil
}

// clearWinner is the candidate that beats the first by the largest mean
// inner gain among those that beat it by at least o.MinT standard errors
// of the paired differences; the first if none does.
func (ch Choice) clearWinner(o ChoiceOptions) int {
	best, bestGain := 0, 0.0
	for c := 1; c < len(ch.Inner); c++ {
		d := make([]float64, len(ch.Inner[c]))
		for g := range d {
			d[g] = ch.Inner[c][g] - ch.Inner[0][g]
		}
		mean, sd := stat.MeanStdDev(d, nil)
		clear := sd == 0 || mean/(sd/math.Sqrt(float64(len(d)))) >= o.MinT
		if mean > bestGain && clear {
			best, bestGain = c, mean
		}
	}
	return best
}

func (o ChoiceOptions) withDefaults() ChoiceOptions {
	if o.Folds == 0 {
		o.Folds = DefaultChoiceFolds
	}
	if o.MaxGraphs == 0 {
		o.MaxGraphs = DefaultChoiceGraphs
	}
	if o.MinT == 0 {
		o.MinT = DefaultChoiceT
	}
	return o
}

// grams are the candidate's kernel matrices over the graphs sample, one
// per training set of trains, each with the initial weight function of
// that training set (as the CV's unlearned baseline). The first
// candidate's come from its pair table (built here when it fits, as the
// CV would build it); the others' from their table only if one is already
// built, and otherwise directly in one pass for all training sets, so
// that a candidate that loses costs no table's memory.
func (c Candidate) grams(ctx context.Context, trains [][]int, sample []int, first bool, prog progress.Func) ([][][]float64, error) {
	mixes := make([]kernel.Mixture, len(trains))
	for t, train := range trains {
		var err error
		if mixes[t], err = c.W.Initial(train, c.Config.Learn); err != nil {
			return nil, err
		}
	}
	var p pairs = directPairs{images: c.W.Set.Images, sigma: c.Config.Sigma, variant: c.Config.Variant, prog: prog}
	if _, built := c.W.tables[c.Config.Sigma]; first || built {
		var err error
		if p, err = c.W.pairsFor(ctx, c.Config.Sigma, c.Config.Variant, prog); err != nil {
			return nil, err
		}
	}
	return p.grams(ctx, c.W.weights(c.Config, mixes, nil), sample)
}

// innerAccuracies scores a kernel matrix over the graphs sample by CV
// over its positions sub, split into nFolds by folds.
func (c Candidate) innerAccuracies(ctx context.Context, gram [][]float64, sample, sub, folds []int, nFolds int) ([]float64, error) {
	accs, err := innerScores(ctx, gram, c.W.truth(sample), sub, folds, nFolds, []float64{c.Config.C})
	if err != nil {
		return nil, err
	}
	return accs[0], nil
}

// CrossValidateChosen runs a cross-validation in which every outer fold
// uses the candidate Choose picks on that fold's training graphs alone
// (Fold.Candidate says which), with the candidate's own Config; folds
// that chose alike run together, so each candidate's kernels still take
// one pass over the pairs. The candidates must be distinct feature sets.
func CrossValidateChosen(ctx context.Context, cands []Candidate, plan Plan, o ChoiceOptions, prog progress.Func) (Report, error) {
	if len(cands) == 0 {
		return Report{}, errors.New("eval: no candidate to choose from")
	}
	index := map[*WKPI]int{}
	for i, c := range cands {
		if _, dup := index[c.W]; dup {
			return Report{}, fmt.Errorf("eval: candidate %d repeats a feature set", i)
		}
		index[c.W] = i
	}
	if o.Seed == 0 {
		o.Seed = plan.Seed
	}
	// Every running fold's choice at once, from one sample of all graphs
	// (chooseAll), so that a fold chooses alike in any job of a split run.
	labels, classes := cands[0].W.Labels, cands[0].W.Classes
	folds, err := plan.split(labels)
	if err != nil {
		return Report{}, err
	}
	train, _ := crossval.Split(indices(len(labels)), folds, plan.Folds)
	var running [][]int
	for f := range plan.Folds {
		if plan.runs(f) {
			running = append(running, train[f])
		}
	}
	chs, err := chooseAll(ctx, cands, indices(len(labels)), running, o, prog)
	if err != nil {
		return Report{}, err
	}
	// From here on only the chosen candidates are kept: a feature set no
	// fold chose (NCI1's size-aware images, 0.3 GB) can go before the
	// folds' kernels need the memory, if the caller keeps no reference.
	chosen, configs := make([]*WKPI, len(cands)), make([]Config, len(cands))
	for i, c := range cands {
		configs[i] = c.Config
	}
	for _, ch := range chs {
		chosen[ch.Chosen] = cands[ch.Chosen].W
	}
	clear(index)
	for i, w := range chosen {
		if w != nil {
			index[w] = i
		}
	}
	cands = nil
	prepare := func(tr []int) (*WKPI, error) {
		for i, r := range running {
			if slices.Equal(r, tr) {
				return chosen[chs[i].Chosen], nil
			}
		}
		return nil, errors.New("eval: a training set the choice did not see")
	}
	run := func(w *WKPI, p Plan) (Report, error) {
		i := index[w]
		if on := p.OnFold; on != nil {
			p.OnFold = func(f Fold) { f.Candidate = i; on(f) }
		}
		rep, err := w.CrossValidate(ctx, configs[i], p, prog)
		for k := range rep.Folds {
			rep.Folds[k].Candidate = i
		}
		return rep, err
	}
	rep, err := ByTrainingFolds(ctx, labels, classes, plan, prepare, run)
	rep.Protocol = "auto"
	return rep, err
}

// SizeAware is the size-aware variant of w with cfg that the automatic
// choice weighs against them: the same diagrams, grid and descriptors
// rendered unnormalised, so that graph size counts (PROTEINS: 75.1 %
// against 68.5 % with unit images; PTC_MR and NCI1 lose with it,
// docs/results.md), with kernel width spec.SizeAwareSigma. Its images are
// rendered as they are needed: the choice renders only its sample's (a
// quarter of NCI1's), and all are rendered once a fold chooses them (or
// a method of the WKPI that uses them runs); until then the Set's
// Images of the others are nil.
func SizeAware(w *WKPI, cfg Config) (Candidate, error) {
	s := w.Set.Settings
	s.Normalize = false
	set := *w.Set
	set.Settings = s
	set.Images = make([][]float64, len(w.Set.Images))
	raw, err := NewWKPI(&set, w.Labels, w.Classes)
	if err != nil {
		return Candidate{}, err
	}
	raw.render = func(i int) ([]float64, error) { return features.Render(set.GraphDiagrams(i), set.Grid, s) }
	raw.MaxTableBytes = w.MaxTableBytes
	return Candidate{W: raw, Config: SizeAwareConfig(cfg)}, nil
}

// ensure renders the images of graphs idx of a feature set rendered
// lazily (SizeAware) that are not rendered yet, all of them when idx is
// nil; nothing for the others.
func (w *WKPI) ensure(idx []int) error {
	if w.render == nil {
		return nil
	}
	all := idx == nil
	if all {
		idx = indices(len(w.Labels))
	}
	for _, i := range idx {
		if w.Set.Images[i] != nil {
			continue
		}
		img, err := w.render(i)
		if err != nil {
			return fmt.Errorf("eval: graph %d: %w", i, err)
		}
		w.Set.Images[i] = img
	}
	if all {
		w.render = nil
	}
	return nil
}

// SizeAwareConfig is cfg for the size-aware candidate: kernel width
// spec.SizeAwareSigma.
func SizeAwareConfig(cfg Config) Config {
	cfg.Sigma = spec.SizeAwareSigma
	return cfg
}

// TrainChosen trains the final model of the candidate that Choose picks
// on all graphs, as CrossValidateChosen does on each fold's training
// graphs.
func TrainChosen(ctx context.Context, cands []Candidate, dataset string, classes []string, o ChoiceOptions, prog progress.Func) (*model.Model, Choice, error) {
	if len(cands) == 0 {
		return nil, Choice{}, errors.New("eval: no candidate to choose from")
	}
	all := indices(len(cands[0].W.Labels))
	chs, err := chooseAll(ctx, cands, all, [][]int{all}, o, prog)
	if err != nil {
		return nil, Choice{}, err
	}
	ch := chs[0]
	c := cands[ch.Chosen]
	m, err := c.W.Train(ctx, dataset, classes, c.Config, prog)
	return m, ch, err
}
