package main

import (
	"fmt"
	"math"

	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/kernel"
	"wkpi-web/core/model"
)

// predictor is a model made ready for many predictions. model.Predict
// builds the kernel's pixel weights and, in kernel.Cross, the sparse form
// of every support image (an exp per non-zero pixel: 200,000 for the
// MUTAG model) at every call; that was most of a prediction's time. The
// Worker keeps one Go instance per isolate, so a predictor does that once
// per model and a prediction costs its graph's features and one sweep
// over the graph's image per support vector.
//
// The arithmetic is kernel.Cross's, operation for operation (the same
// divergences from zero, the same corrections on the common pixels summed
// in ascending order), so decisions equal model.Predict's to the bit;
// TestPredictorMatchesModel checks it.
type predictor struct {
	m     *model.Model
	w     []float64 // the kernel's pixel weights
	total float64   // sum of w: k(A, A) of the WKPI kernel
	c     float64   // 1 / (2 sigma^2)
	sv    []sparseImage
}

// sparseImage is an image with its non-zero pixels idx, f of their
// values (f is the kernel's pixel function) and tot = sum w_s f(img_s),
// its divergence from an all-zero image. A support image also has fAt,
// f at every pixel (0 off its support), to look up the common pixels'.
type sparseImage struct {
	img []float64
	idx []int32
	f   []float64
	fAt []float64
	tot float64
}

// prediction of one graph.
type predicted struct {
	class    int
	decision []float64
	points   int
}

func newPredictor(m *model.Model) (*predictor, error) {
	k := m.Kernel()
	p := &predictor{m: m, w: k.Weights, c: 1 / (2 * k.Sigma * k.Sigma)}
	for s, w := range p.w {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("model: kernel pixel weight %d is not finite", s)
		}
		p.total += w
	}
	p.sv = make([]sparseImage, len(m.Support))
	for i, img := range m.Support {
		sp := p.sparse(img)
		sp.fAt = make([]float64, len(img))
		for n, s := range sp.idx {
			sp.fAt[s] = sp.f[n]
		}
		sp.idx, sp.f = nil, nil
		p.sv[i] = sp
	}
	return p, nil
}

// pixel is the kernel's pixel function (kernel.Kernel's pixelFunc).
func (p *predictor) pixel(d float64) float64 {
	if p.m.Variant == kernel.Alt {
		return d * d
	}
	return kernel.WKPITerm(d * d * p.c)
}

func (p *predictor) sparse(img []float64) sparseImage {
	sp := sparseImage{img: img}
	for s, v := range img {
		if v != 0 {
			fv := p.pixel(v)
			sp.idx = append(sp.idx, int32(s))
			sp.f = append(sp.f, fv)
			sp.tot += p.w[s] * fv
		}
	}
	return sp
}

// kernel is k(a, b) for a graph's image a and a support image b.
func (p *predictor) kernel(a, b *sparseImage) float64 {
	// The common pixels, ascending: a graph's image has fewer non-zero
	// pixels than a support image, so sweep a's.
	var d float64
	for n, s := range a.idx {
		bv := b.img[s]
		if bv == 0 {
			continue
		}
		g := a.f[n] + b.fAt[s] - p.pixel(a.img[s]-bv)
		d += p.w[s] * g
	}
	div := max(0, a.tot+b.tot-d)
	if p.m.Variant == kernel.Alt {
		return math.Exp(-div / (2 * p.m.Sigma * p.m.Sigma))
	}
	return p.total - div/2
}

// predict classifies one graph as model.Predict does.
func (p *predictor) predict(g *graph.Graph) (predicted, error) {
	m := p.m
	ds, err := features.GraphDiagramsOf(g, m.Features)
	if err != nil {
		return predicted{}, err
	}
	img, err := features.Render(ds, m.Grid, m.Features)
	if err != nil {
		return predicted{}, err
	}
	if len(img) != len(p.w) {
		return predicted{}, fmt.Errorf("kernel: image has %d pixels, want %d", len(img), len(p.w))
	}
	a := p.sparse(img)
	k := make([]float64, len(p.sv))
	for j := range p.sv {
		k[j] = p.kernel(&a, &p.sv[j])
		if m.GaussWidth > 0 {
			k[j] = kernel.GaussianOf(k[j], m.GaussWidth)
		}
	}
	return predicted{class: m.SVM.Predict(k), decision: m.SVM.Decision(k), points: len(features.AllPoints(ds, m.Features))}, nil
}
