package eval

import (
	"context"

	"wkpi-web/core/progress"
)

// A Protocol is how a cross-validation sets the WKPI-SVM of each outer
// fold, as gonum's optimize.Method is how a minimisation steps: Fixed,
// Auto, Nested or Cost. Setup.Protocol gives the one a Spec names, and
// Run runs any of them on a Source, so that front ends never choose.
type Protocol interface {
	// Name is the protocol's name in reports (Report.Protocol) and part
	// files (RunID.Protocol).
	Name() string
	// CrossValidate runs the folds of plan on the features w, and with
	// plan.Final the final model too when it can share the folds' work
	// (Report.Final; Run trains it otherwise).
	CrossValidate(ctx context.Context, w *WKPI, plan Plan, prog progress.Func) (Report, error)
	// Train fits the model of every graph of w, as the protocol's
	// cross-validation would with plan.Final.
	Train(ctx context.Context, w *WKPI, f Final, prog progress.Func) (*FinalModel, error)
}

// Fixed is one setting in every fold (WKPI.CrossValidate).
type Fixed struct {
	Config Config
}

// Name is "fixed".
func (Fixed) Name() string { return "fixed" }

// CrossValidate runs WKPI.CrossValidate with p.Config.
func (p Fixed) CrossValidate(ctx context.Context, w *WKPI, plan Plan, prog progress.Func) (Report, error) {
	return w.CrossValidate(ctx, p.Config, plan, prog)
}

// Auto has every fold choose between the features and their size-aware
// variant (SizeAware) by inner CV on its training graphs
// (CrossValidateChosen with the default ChoiceOptions).
type Auto struct {
	Config Config
	// SizeAware gives the size-aware candidate of w under cfg, so that a
	// front end that runs several cross-validations on the same features
	// builds it once; nil builds it on every run (the function SizeAware).
	SizeAware func(w *WKPI, cfg Config) (Candidate, error)
	// Inner, when not nil, are the candidates' scores measured apart
	// (Scores, ChoiceOptions.Inner): the folds choose by them.
	Inner [][][]float64
}

// Name is "auto".
func (Auto) Name() string { return "auto" }

// CrossValidate runs CrossValidateChosen over w with p.Config and its
// size-aware candidate.
func (p Auto) CrossValidate(ctx context.Context, w *WKPI, plan Plan, prog progress.Func) (Report, error) {
	cands, err := p.candidates(w)
	if err != nil {
		return Report{}, err
	}
	return CrossValidateChosen(ctx, cands, plan, ChoiceOptions{Inner: p.Inner}, prog)
}

// Scores is candidate c's part of the choice of a CrossValidate of plan
// (ChoiceScores), for Inner.
func (p Auto) Scores(ctx context.Context, w *WKPI, c int, plan Plan, prog progress.Func) ([][]float64, error) {
	cands, err := p.candidates(w)
	if err != nil {
		return nil, err
	}
	return ChoiceScores(ctx, cands, c, plan, ChoiceOptions{}, prog)
}

// candidates are w with p.Config and its size-aware variant.
func (p Auto) candidates(w *WKPI) ([]Candidate, error) {
	sized := p.SizeAware
	if sized == nil {
		sized = SizeAware
	}
	sa, err := sized(w, p.Config)
	if err != nil {
		return nil, err
	}
	return []Candidate{{W: w, Config: p.Config}, sa}, nil
}

// Nested chooses the cell of Grid in every fold by inner CV with Inner
// folds on its training graphs (WKPI.Nested); Config gives the rest.
type Nested struct {
	Config Config
	Grid   Grid
	Inner  int
}

// Name is "nested".
func (Nested) Name() string { return "nested" }

// CrossValidate runs WKPI.Nested.
func (p Nested) CrossValidate(ctx context.Context, w *WKPI, plan Plan, prog progress.Func) (Report, error) {
	return w.Nested(ctx, p.Config, p.Grid, plan, p.Inner, prog)
}

// Cost chooses the cell of Grid of least training cost in every fold,
// the paper's second protocol (WKPI.SelectByCost); Config gives the rest.
type Cost struct {
	Config Config
	Grid   Grid
}

// Name is "cost".
func (Cost) Name() string { return "cost" }

// CrossValidate runs WKPI.SelectByCost.
func (p Cost) CrossValidate(ctx context.Context, w *WKPI, plan Plan, prog progress.Func) (Report, error) {
	return w.SelectByCost(ctx, p.Config, p.Grid, plan, prog)
}

// Source is the features Run evaluates a protocol on.
type Source struct {
	// Labels are the graphs' classes, of Classes.
	Labels  []int
	Classes int
	// Features returns the features of the graphs for the training graphs
	// train (indices into Labels), or for all graphs when train is nil.
	Features func(train []int) (*WKPI, error)
	// PerFold says the features depend on each fold's training graphs
	// (the node-label vocabulary): Run then asks Features for every outer
	// fold's, and folds that get the same *WKPI run together
	// (ByTrainingFolds). Otherwise Run asks once, with nil. Default
	// false.
	PerFold bool
}

// Source is w as a Source: the same features for every fold.
func (w *WKPI) Source() Source {
	return Source{Labels: w.Labels, Classes: w.Classes, Features: func([]int) (*WKPI, error) { return w, nil }}
}

// Run cross-validates protocol p on the folds of plan over the features
// of src: the one entry point of the command line, the page's workers,
// compare and shards.
// With plan.Final it also trains the final model (Report.Final): in the
// folds' passes where the protocol can, otherwise after them (p.Train);
// features that depend on the training graphs (PerFold) are those of
// every graph for it.
func Run(ctx context.Context, src Source, p Protocol, plan Plan, prog progress.Func) (Report, error) {
	// The folds of a feature set after the first report their stages
	// with SetPrefix (eval.Work plans them apart).
	sets := 0
	run := func(w *WKPI, plan Plan) (Report, error) {
		sets++
		report := prog
		if sets > 1 {
			report = prog.Prefixed(SetPrefix(sets))
		}
		return p.CrossValidate(ctx, w, plan, report)
	}
	var rep Report
	var err error
	if src.PerFold {
		folds := plan
		folds.Final = nil
		rep, err = ByTrainingFolds(ctx, src.Labels, src.Classes, folds, src.Features, run)
	} else {
		var w *WKPI
		if w, err = src.Features(nil); err != nil {
			return Report{}, err
		}
		rep, err = run(w, plan)
	}
	if err != nil || plan.Final == nil || rep.Final != nil {
		return rep, err
	}
	w, err := src.Features(nil)
	if err != nil {
		return Report{}, err
	}
	// Its stages report as "final learn", ...: the folds' have the plain
	// names (eval.Work plans both).
	rep.Final, err = p.Train(ctx, w, *plan.Final, prog.Prefixed(FinalPrefix))
	return rep, err
}
