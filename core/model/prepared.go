package model

import (
	"context"
	"fmt"

	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/kernel"
)

// Prepared is a model made ready for many predictions and explanations:
// the kernel's pixel weights and the sparse form of every support image
// (an f, for WKPI an exp, per non-zero pixel: 490,000 for the default
// MUTAG model) are computed once, so that a prediction costs its graph's
// features and one sweep over its image's non-zero pixels against the
// support images (kernel.Columns). Safe for concurrent use; the model
// must not change while prepared.
type Prepared struct {
	m       *Model
	k       kernel.Kernel
	support *kernel.Columns
}

// Prepare validates m and prepares it.
func Prepare(m *Model) (*Prepared, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	k := m.Kernel()
	support, err := k.Columns(m.Support)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	return &Prepared{m: m, k: k, support: support}, nil
}

// Model is the prepared model.
func (p *Prepared) Model() *Model { return p.m }

// Kernel is the model's kernel (Model.Kernel), computed once.
func (p *Prepared) Kernel() kernel.Kernel { return p.k }

// FromZero is support image i's divergence from the all-zero image (the
// empty diagram's), sum_s w_s f(x_is), as predictions sum it.
func (p *Prepared) FromZero(i int) float64 { return p.support.FromZero(i) }

// RowParts is a prediction's sweep of image img over the support images
// with its terms kept (kernel.RowParts), to split the prediction by pixel.
func (p *Prepared) RowParts(img []float64) (*kernel.RowParts, error) {
	return p.support.RowParts(img)
}

// GraphError is an error of one graph of those Predict classifies, for
// callers that know where the graph came from (a file's row or line).
type GraphError struct {
	Index int // the graph's position in Predict's argument
	Err   error
}

func (e *GraphError) Error() string { return fmt.Sprintf("graph %d: %v", e.Index, e.Err) }

func (e *GraphError) Unwrap() error { return e.Err }

// Predict classifies graphs with the model. An error that concerns one
// graph is a *GraphError.
func (p *Prepared) Predict(ctx context.Context, graphs []*graph.Graph) ([]Prediction, error) {
	m := p.m
	out := make([]Prediction, len(graphs))
	images := make([][]float64, len(graphs))
	for i, g := range graphs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ds, err := features.GraphDiagramsOf(g, m.Features)
		if err != nil {
			return nil, &GraphError{Index: i, Err: err}
		}
		img, err := features.Render(ds, m.Grid, m.Features)
		if err != nil {
			return nil, &GraphError{Index: i, Err: err}
		}
		images[i] = img
		out[i].Diagrams = ds[0]
		out[i].Points = features.AllPoints(ds, m.Features)
	}
	// The graphs' kernel rows, ranges of graphs in parallel.
	k := make([][]float64, len(images))
	parts := kernel.Parts(len(images))
	err := kernel.Parallel(parts, func(part int) error {
		for i := part * len(images) / parts; i < (part+1)*len(images)/parts; i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			row, err := p.support.Row(images[i])
			if err != nil {
				return &GraphError{Index: i, Err: err}
			}
			if m.GaussWidth > 0 {
				for j, v := range row {
					row[j] = kernel.GaussianOf(v, m.GaussWidth)
				}
			}
			k[i] = row
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Decision = m.SVM.Decision(k[i])
		out[i].Class = m.SVM.Predict(k[i])
		out[i].Label = m.Classes[out[i].Class]
	}
	return out, nil
}
