package explain

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/kernel"
	"wkpi-web/core/model"
	"wkpi-web/core/wire"
)

// Attribution says how a persistence point's share reaches the graph:
// Nodes or Simplices.
type Attribution = wire.Attribution

const (
	// Nodes gives every share to vertices (an edge's part split between
	// its ends) and scores an edge as the sum of its ends' scores.
	Nodes = wire.Nodes
	// Simplices keeps edges' parts on the edges: nodes and edges
	// together sum to the explained change.
	Simplices = wire.Simplices
)

// Options are the choices of an explanation.
type Options struct {
	// Attribution is how points' shares reach nodes and edges.
	// Default Nodes.
	Attribution Attribution
}

// DefaultOptions returns the default options.
func DefaultOptions() Options { return Options{Attribution: Nodes} }

// Explanation is what decided one graph's prediction; scores are signed
// towards the predicted class. It and its scores (wire.NodeScore, ...)
// are plain data of core/wire, which the page links without the
// pipeline.
type Explanation = wire.Explanation

// Explainer explains a prepared model's predictions. It is cheap to
// make: what costs is preparing the model.
type Explainer struct {
	p     *model.Prepared
	m     *model.Model
	opts  Options
	total float64                   // the SVM kernel's pixel weights' sum
	value func(div float64) float64 // the SVM's kernel from a divergence
}

// New prepares explanations of p's predictions.
func New(p *model.Prepared, o Options) (*Explainer, error) {
	if o.Attribution == "" {
		o.Attribution = Nodes
	}
	if o.Attribution != Nodes && o.Attribution != Simplices {
		return nil, fmt.Errorf("explain: attribution %q (want %s or %s)", o.Attribution, Nodes, Simplices)
	}
	m, k := p.Model(), p.Kernel()
	e := &Explainer{p: p, m: m, opts: o}
	for _, x := range k.Weights {
		e.total += x
	}
	e.value = func(div float64) float64 { return k.Value(div, e.total) }
	if m.GaussWidth > 0 {
		e.value = func(div float64) float64 { return kernel.GaussianOf(k.Value(div, e.total), m.GaussWidth) }
	}
	return e, nil
}

// Explain explains the model's prediction for g.
func (e *Explainer) Explain(g *graph.Graph) (*Explanation, error) {
	if g.N == 0 {
		return nil, errors.New("explain: the graph has no nodes")
	}
	m := e.m
	// g as a molecule, read once for the descriptors, the symmetry
	// classes and the functional groups (nil when g is no molecule).
	mol, err := moleculeOf(g, m.Features.Codes)
	if err != nil && m.Features.Molecular() {
		return nil, err
	}
	ds, origins, err := features.GraphOrigins(g, mol, m.Features)
	if err != nil {
		return nil, err
	}
	img, err := features.Render(ds, m.Grid, m.Features)
	if err != nil {
		return nil, err
	}
	pairs, k, err := e.pixelParts(img)
	if err != nil {
		return nil, err
	}
	class := m.SVM.Predict(k)
	// The pixels' parts towards the predicted class.
	pixels := make([]float64, len(img))
	out := &Explanation{Class: m.Classes[class], Attribution: e.opts.Attribution}
	for p, b := range m.SVM.Pairs {
		sign := 0.0
		switch class {
		case b.A:
			sign = 1
		case b.B:
			sign = -1
		default:
			continue
		}
		pp := pairs[p]
		for s, x := range pp.parts {
			pixels[s] += sign * x
		}
		out.Decision += sign * pp.decision
		out.Reference += sign * pp.reference
		if len(m.Classes) > 2 {
			other := b.A + b.B - class
			out.Against = append(out.Against, wire.Pair{Class: m.Classes[other], Decision: sign * pp.decision, Reference: sign * pp.reference})
		}
	}
	if err := e.toGraph(out, g, mol, ds, origins, pixels); err != nil {
		return nil, err
	}
	e.groupScores(out, g, mol)
	return out, nil
}

// Score is g's score towards the named class, as Explanation.Decision
// gives it for the predicted class: to measure how an explanation's
// edges matter, by deleting them (faithfulness).
func (e *Explainer) Score(g *graph.Graph, class string) (float64, error) {
	c := slices.Index(e.m.Classes, class)
	if c < 0 {
		return 0, fmt.Errorf("explain: the model has no class %q", class)
	}
	ds, err := features.GraphDiagramsOf(g, e.m.Features)
	if err != nil {
		return 0, err
	}
	img, err := features.Render(ds, e.m.Grid, e.m.Features)
	if err != nil {
		return 0, err
	}
	pairs, _, err := e.pixelParts(img)
	if err != nil {
		return 0, err
	}
	var score float64
	for p, b := range e.m.SVM.Pairs {
		switch c {
		case b.A:
			score += pairs[p].decision
		case b.B:
			score -= pairs[p].decision
		}
	}
	return score, nil
}

// pairParts is one SVM pair's decision value at the graph and at the
// reference, and its change split by pixel.
type pairParts struct {
	decision, reference float64
	parts               []float64
}

// pixelParts splits every SVM pair's change from the reference into
// pixel parts (see the package doc).
// It also returns the kernel values against the support images.
func (e *Explainer) pixelParts(img []float64) ([]pairParts, []float64, error) {
	m := e.m
	// Only the image's non-zero pixels have parts: where it is 0 every
	// support image's divergence from it is its divergence from zero.
	rp, err := e.p.RowParts(img)
	if err != nil {
		return nil, nil, err
	}
	// ratio[i] turns support image i's divergence change into its kernel
	// change: (phi(D) - phi(D0)) / (D - D0), or phi'(D0) when D = D0.
	ratio := make([]float64, len(m.Support))
	kx := make([]float64, len(m.Support))
	k0 := make([]float64, len(m.Support))
	for i := range m.Support {
		change := rp.Tot - rp.Less[i]
		// base is support image i's divergence from the zero image.
		base := e.p.FromZero(i)
		kx[i], k0[i] = e.value(rp.Div[i]), e.value(base)
		if change != 0 {
			ratio[i] = (kx[i] - k0[i]) / change
		} else {
			ratio[i] = e.slope(base)
		}
	}
	// Pixel s's part of a pair is the sum over its support images of
	// coef * ratio * (Own - Shared), Shared only where the support image
	// is non-zero: one pass over the sweep's terms, not one per support
	// image.
	out := make([]pairParts, len(m.SVM.Pairs))
	weight := make([]float64, len(m.Support)) // coef * ratio of the pair's support images
	for p, b := range m.SVM.Pairs {
		var fx, f0, all float64
		for t, sv := range b.SV {
			c := b.Coef[t]
			fx += c * kx[sv]
			f0 += c * k0[sv]
			weight[sv] = c * ratio[sv]
			all += weight[sv]
		}
		parts := make([]float64, len(img))
		for q, s := range rp.Pix {
			part := rp.Own[q] * all
			for x := rp.Start[q]; x < rp.Start[q+1]; x++ {
				part -= weight[rp.Col[x]] * rp.Shared[x]
			}
			parts[s] = part
		}
		for _, sv := range b.SV {
			weight[sv] = 0
		}
		out[p] = pairParts{decision: fx - b.Rho, reference: f0 - b.Rho, parts: parts}
	}
	return out, kx, nil
}

// slope is the kernel's derivative in the divergence at div, by a
// central difference (needed only where a support image's divergence
// does not change, so the parts it multiplies sum to 0).
func (e *Explainer) slope(div float64) float64 {
	h := 1e-6 * max(1, math.Abs(div))
	return (e.value(div+h) - e.value(div-h)) / (2 * h)
}
