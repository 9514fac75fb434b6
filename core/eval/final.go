package eval

import (
	"context"
	"fmt"

	"wkpi-web/core/kernel"
	"wkpi-web/core/model"
	"wkpi-web/core/progress"
)

// Final asks a cross-validation for the model of every graph too
// (Plan.Final), the model `wkpi train` fits: on the direct path the
// folds' passes over the pairs and the automatic choice serve it, so
// that it costs a fold's learning and SVMs instead of a run of its own.
type Final struct {
	Dataset string   // the model's dataset name (model.Model.Dataset)
	Classes []string // the dataset's class names
}

// FinalModel is the model a run trained beside its folds (Plan.Final).
type FinalModel struct {
	Model *model.Model
	// Initial is the unlearned weight function of every graph, the start
	// of the model's learning.
	Initial kernel.Mixture
	// Choice is the automatic choice of images that picked the model's
	// features (Auto); nil for the other protocols.
	Choice *Choice
}

// finalIndex is the Fold.Index that marks the final model among the
// folds of a pass (crossValidatePasses).
const finalIndex = -1

// Train fits the model of every graph with p.Config (WKPI.Train).
func (p Fixed) Train(ctx context.Context, w *WKPI, f Final, prog progress.Func) (*FinalModel, error) {
	return w.trainFinal(ctx, p.Config, f, prog)
}

// Train fits the model of the candidate that the choice picks on every
// graph (TrainChosen).
func (p Auto) Train(ctx context.Context, w *WKPI, f Final, prog progress.Func) (*FinalModel, error) {
	cands, err := p.candidates(w)
	if err != nil {
		return nil, err
	}
	m, ch, err := TrainChosen(ctx, cands, f.Dataset, f.Classes, ChoiceOptions{Seed: p.Config.Learn.Seed}, prog)
	if err != nil {
		return nil, err
	}
	c := cands[ch.Chosen]
	init, err := c.W.Initial(indices(len(c.W.Labels)), c.Config.Learn)
	if err != nil {
		return nil, err
	}
	return &FinalModel{Model: m, Initial: init, Choice: &ch}, nil
}

// Train fits the model of every graph with p.Config: a search's cells
// are chosen per fold, and the final model keeps the base setting, as
// `wkpi train` does.
func (p Nested) Train(ctx context.Context, w *WKPI, f Final, prog progress.Func) (*FinalModel, error) {
	return w.trainFinal(ctx, p.Config, f, prog)
}

// Train fits the model of every graph with p.Config, as Nested.Train.
func (p Cost) Train(ctx context.Context, w *WKPI, f Final, prog progress.Func) (*FinalModel, error) {
	return w.trainFinal(ctx, p.Config, f, prog)
}

// trainFinal is Train with the model's unlearned start.
func (w *WKPI) trainFinal(ctx context.Context, cfg Config, f Final, prog progress.Func) (*FinalModel, error) {
	m, err := w.Train(ctx, f.Dataset, f.Classes, cfg, prog)
	if err != nil {
		return nil, err
	}
	init, err := w.Initial(indices(len(w.Labels)), cfg.Learn)
	if err != nil {
		return nil, err
	}
	return &FinalModel{Model: m, Initial: init}, nil
}

// finalFit is the final model's state between the passes of
// crossValidatePasses.
type finalFit struct {
	fold    int // its index among the pass's fits
	learned kernel.Mixture
	init    kernel.Mixture
}

// chooseFinal chooses the final model's SVM form and C on its unlearned
// Gram matrix in ks, with the seed Train's choice takes.
func (w *WKPI) chooseFinal(ctx context.Context, fold *Fold, ks *kernelSet) error {
	if _, err := w.chooseFor(ctx, &fold.Config, &fold.InnerAccuracy, ks, fold.Config.Learn.Seed+1); err != nil {
		return fmt.Errorf("eval: final model: %w", err)
	}
	return nil
}

// finalModel trains the final model's SVM on its learned Gram matrix in
// ks (every graph), with the form and C chooseFinal chose, as Train does.
func (w *WKPI) finalModel(ctx context.Context, fold Fold, fit finalFit, ks *kernelSet, f Final) (*FinalModel, error) {
	cfg := fold.Config
	var width float64
	if cfg.Gauss > 0 {
		width = ks.toGaussian(0, cfg.Gauss)
	}
	m, err := w.svm(ctx, ks, 0, cfg.C)
	if err != nil {
		return nil, fmt.Errorf("eval: final model: %w", err)
	}
	mod, err := model.New(model.Trained{
		Dataset: f.Dataset, Classes: f.Classes, Set: w.Set, Train: ks.train,
		Weight: fit.learned, Sigma: cfg.Sigma, Variant: cfg.Variant, C: cfg.C, GaussWidth: width,
		Learn: cfg.Learn, Trace: fold.Trace, SVM: m, ChannelScales: fold.ChannelScales,
	})
	if err != nil {
		return nil, err
	}
	return &FinalModel{Model: mod, Initial: fit.init}, nil
}
