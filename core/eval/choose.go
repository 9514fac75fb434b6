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
	"wkpi-web/core/pimage"
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
	// Inner, when not nil, are the candidates' inner accuracies measured
	// already (ChoiceScores of each candidate, in candidate order): the
	// choice is made from them without computing a kernel.
	Inner [][][]float64
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
// construction. With o.Inner given, the scores are those (ChoiceScores).
func chooseAll(ctx context.Context, cands []Candidate, pool []int, trains [][]int, o ChoiceOptions, prog progress.Func) ([]Choice, error) {
	if len(cands) == 0 {
		return nil, errors.New("eval: no candidate to choose from")
	}
	o = o.withDefaults()
	chs := make([]Choice, len(trains))
	for t := range chs {
		chs[t].Inner = make([][]float64, len(cands))
	}
	if o.Inner != nil {
		if len(o.Inner) != len(cands) {
			return nil, fmt.Errorf("eval: %d candidates' inner scores given for %d candidates", len(o.Inner), len(cands))
		}
		for c, scores := range o.Inner {
			if len(scores) != len(trains) {
				return nil, fmt.Errorf("eval: candidate %d: inner scores of %d training sets given for %d", c, len(scores), len(trains))
			}
			for t := range trains {
				chs[t].Inner[c] = scores[t]
			}
		}
	} else {
		cs, err := newChoiceSample(cands[0].W, pool, trains, o)
		if err != nil {
			return nil, err
		}
		work := len(cands) * cs.pairs()
		for c, cand := range cands {
			scores, err := cs.score(ctx, cand, c == 0, o, func(stage string, done, total int) {
				switch stage {
				case "pairs":
					prog.Report(stage, done, total)
				case "gram":
					prog.Report("choice", c*cs.pairs()+done, work)
				}
			})
			if err != nil {
				return nil, fmt.Errorf("eval: candidate %d: %w", c, err)
			}
			for t := range trains {
				chs[t].Inner[c] = scores[t]
			}
			prog.Report("choice", (c+1)*cs.pairs(), work)
		}
	}
	for t := range chs {
		chs[t].Chosen = chs[t].clearWinner(o)
	}
	return chs, nil
}

// choiceSample is the graphs the choice scores candidates on: a sample
// of a pool, with every training set's part of it split into inner folds.
type choiceSample struct {
	sample []int
	trains [][]int // the training sets, whose initial weight functions score them
	// subs[t] are the positions in sample of training set t's graphs,
	// split into inner folds by inner[t].
	subs, inner [][]int
}

func newChoiceSample(w *WKPI, pool []int, trains [][]int, o ChoiceOptions) (choiceSample, error) {
	cs := choiceSample{sample: pool, trains: trains, subs: make([][]int, len(trains)), inner: make([][]int, len(trains))}
	if len(pool) > o.MaxGraphs {
		parts := (len(pool) + o.MaxGraphs - 1) / o.MaxGraphs
		folds, err := crossval.StratifiedKFold(w.truth(pool), parts, o.Seed)
		if err != nil {
			return cs, err
		}
		_, pick := crossval.Split(pool, folds, parts)
		cs.sample = pick[0]
	}
	for t, train := range trains {
		in := map[int]bool{}
		for _, s := range train {
			in[s] = true
		}
		var idx []int
		for i, s := range cs.sample {
			if in[s] {
				cs.subs[t], idx = append(cs.subs[t], i), append(idx, s)
			}
		}
		var err error
		if cs.inner[t], err = crossval.StratifiedKFold(w.truth(idx), o.Folds, o.Seed+1); err != nil {
			return cs, fmt.Errorf("eval: choice inner split: %w", err)
		}
	}
	return cs, nil
}

// pairs is the number of pairs of the sample.
func (cs choiceSample) pairs() int { return len(cs.sample) * (len(cs.sample) - 1) / 2 }

// score is cand's inner accuracies on every training set (first: the
// first candidate, whose kernels come from its pair table when it fits).
// prog hears of the kernels ("gram") and of the table ("pairs").
func (cs choiceSample) score(ctx context.Context, cand Candidate, first bool, o ChoiceOptions, prog progress.Func) ([][]float64, error) {
	if err := cand.W.ensure(cs.sample); err != nil {
		return nil, err
	}
	grams, err := cand.grams(ctx, cs.trains, cs.sample, first, prog)
	if err != nil {
		return nil, err
	}
	scores := make([][]float64, len(cs.trains))
	for t := range cs.trains {
		if scores[t], err = cand.innerAccuracies(ctx, grams[t], cs.sample, cs.subs[t], cs.inner[t], o.Folds); err != nil {
			return nil, err
		}
	}
	return scores, nil
}

// ChoiceScores is the part of CrossValidateChosen's choice that candidate
// c's kernels make, so that a worker of its own can make it: c's inner
// accuracies on the training graphs of every fold of plan (all folds,
// plan.Only aside), then of every graph (the final model). Given back to
// CrossValidateChosen as ChoiceOptions.Inner, one per candidate, they
// make the choice it would make itself. prog hears of them as "choice".
func ChoiceScores(ctx context.Context, cands []Candidate, c int, plan Plan, o ChoiceOptions, prog progress.Func) ([][]float64, error) {
	if c < 0 || c >= len(cands) {
		return nil, fmt.Errorf("eval: no candidate %d of %d", c, len(cands))
	}
	if o.Seed == 0 {
		o.Seed = plan.Seed
	}
	o = o.withDefaults()
	labels := cands[0].W.Labels
	folds, err := plan.split(labels)
	if err != nil {
		return nil, err
	}
	all := indices(len(labels))
	train, _ := crossval.Split(all, folds, plan.Folds)
	cs, err := newChoiceSample(cands[0].W, all, append(train, all), o)
	if err != nil {
		return nil, err
	}
	return cs.score(ctx, cands[c], c == 0, o, func(stage string, done, total int) {
		if stage == "gram" {
			stage = "choice"
		}
		prog.Report(stage, done, total)
	})
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
	var picked []int // the running folds, then the final model: what o.Inner holds of them
	for f := range plan.Folds {
		if plan.runs(f) {
			running, picked = append(running, train[f]), append(picked, f)
		}
	}
	// The final model's choice is TrainChosen's when it comes from the
	// same sample and seed: then it shares the folds' pass.
	all := indices(len(labels))
	shared := plan.Final != nil && o.Seed == cands[0].Config.Learn.Seed
	trains := running
	if shared {
		trains, picked = append(slices.Clip(running), all), append(picked, plan.Folds)
	}
	if o.Inner != nil {
		// Given for every fold and the final model (ChoiceScores): the
		// running ones'.
		given := o.Inner
		o.Inner = make([][][]float64, len(given))
		for c, scores := range given {
			if len(scores) != plan.Folds+1 {
				return Report{}, fmt.Errorf("eval: candidate %d: inner scores of %d training sets given for %d folds and the final model", c, len(scores), plan.Folds)
			}
			for _, t := range picked {
				o.Inner[c] = append(o.Inner[c], scores[t])
			}
		}
	}
	chs, err := chooseAll(ctx, cands, all, trains, o, prog)
	if err != nil {
		return Report{}, err
	}
	var finalChoice *Choice
	if shared {
		finalChoice, chs = &chs[len(running)], chs[:len(running)]
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
	var finalW *WKPI // the final model's features, when chosen here
	if finalChoice != nil {
		finalW = cands[finalChoice.Chosen].W
		chosen[finalChoice.Chosen] = finalW
	}
	clear(index)
	for i, w := range chosen {
		if w != nil {
			index[w] = i
		}
	}
	finalCands := cands[:len(cands):len(cands)]
	if finalChoice == nil {
		finalCands = nil // the features no fold chose can go
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
		if w != finalW {
			p.Final = nil // the final model runs with its own features' folds
		}
		rep, err := w.CrossValidate(ctx, configs[i], p, prog)
		for k := range rep.Folds {
			rep.Folds[k].Candidate = i
		}
		return rep, err
	}
	rep, err := ByTrainingFolds(ctx, labels, classes, plan, prepare, run)
	rep.Protocol = "auto"
	if err != nil || finalChoice == nil {
		return rep, err // without a shared choice, Run trains the final model
	}
	if rep.Final == nil {
		// No running fold chose the final model's features, or their path
		// has no shared passes (the pair table's): trained on its own.
		c := finalCands[finalChoice.Chosen]
		if rep.Final, err = c.W.trainFinal(ctx, c.Config, *plan.Final, prog); err != nil {
			return Report{}, err
		}
	}
	rep.Final.Choice = finalChoice
	return rep, nil
}

// SizeAware is the size-aware variant of w with cfg that the automatic
// choice weighs against them: the same diagrams, grid and descriptors
// rendered unnormalised, so that graph size counts (PROTEINS: 75.1 %
// against 68.5 % with unit images; PTC_MR and NCI1 lose with it,
// docs/results.md), with kernel width spec.SizeAwareSigma. Its images are
// rendered as they are needed: the choice renders only its sample's (a
// quarter of NCI1's), and all are rendered once a fold chooses them (or
// a method of the WKPI that uses them runs); until then the Set's
// Images of the others are empty (Len 0).
func SizeAware(w *WKPI, cfg Config) (Candidate, error) {
	s := w.Set.Settings
	s.Normalize = false
	set := *w.Set
	set.Settings = s
	set.Images = make([]pimage.Sparse, len(w.Set.Images))
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
		if w.Set.Images[i].Len > 0 {
			continue // rendered
		}
		img, err := w.render(i)
		if err != nil {
			return fmt.Errorf("eval: graph %d: %w", i, err)
		}
		w.Set.Images[i] = pimage.NewSparse(img)
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
