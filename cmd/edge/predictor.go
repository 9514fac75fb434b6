package main

import (
	"fmt"
	"math"
	"sync"

	"wkpi-web/core/explain"
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
// over the graph image's non-zero pixels, each against all support
// images.
//
// The arithmetic is kernel.Cross's, operation for operation (the same
// divergences from zero, the same corrections on the common pixels summed
// in ascending order), so decisions equal model.Predict's to the bit;
// TestPredictorMatchesModel checks it.
type predictor struct {
	m     *model.Model
	n     int       // support vectors
	w     []float64 // the kernel's pixel weights
	total float64   // sum of w: k(A, A) of the WKPI kernel
	c     float64   // 1 / (2 sigma^2)
	alt   bool      // altWKPI: f(d) = d^2, and the kernel exp(-D / (2 sigma^2))
	// The support images pixel-major, vals[s*n+j] the pixel s of image
	// j, and fs = f(vals): a graph's pixel meets every support image's
	// in one contiguous row. tot[j] is image j's divergence from zero.
	vals, fs, tot []float64

	// The explainer, built on the first explanation asked for.
	explainOnce sync.Once
	explain     *explain.Explainer
	explainErr  error
}

// sparseImage is a graph's image: its non-zero pixels idx, their values
// val and f(val) (f is the kernel's pixel function), and tot = sum w_s
// f(val), its divergence from an all-zero image.
type sparseImage struct {
	idx []int32
	val []float64
	f   []float64
	tot float64
}

// prediction of one graph.
type predicted struct {
	class    int
	decision []float64
	points   int
}

// newPredictor prepares m. It keeps m but not m.Support (load drops it).
func newPredictor(m *model.Model) (*predictor, error) {
	k := m.Kernel()
	n := len(m.Support)
	p := &predictor{m: m, n: n, w: k.Weights, c: 1 / (2 * k.Sigma * k.Sigma), alt: m.Variant == kernel.Alt}
	for s, w := range p.w {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("model: kernel pixel weight %d is not finite", s)
		}
		p.total += w
	}
	p.vals = make([]float64, n*len(p.w))
	p.fs = make([]float64, n*len(p.w))
	p.tot = make([]float64, n)
	for j, img := range m.Support {
		if len(img) != len(p.w) {
			return nil, fmt.Errorf("model: support image %d has %d pixels, the kernel %d", j, len(img), len(p.w))
		}
		// As kernel.Cross's sparse form: tot summed over the non-zero
		// pixels in ascending order.
		for s, v := range img {
			if v != 0 {
				fv := p.pixel(v)
				p.vals[s*n+j], p.fs[s*n+j] = v, fv
				p.tot[j] += p.w[s] * fv
			}
		}
	}
	return p, nil
}

// pixel is the kernel's pixel function (kernel.Kernel's pixelFunc).
func (p *predictor) pixel(d float64) float64 {
	if p.alt {
		return d * d
	}
	return kernel.WKPITerm(d * d * p.c)
}

func (p *predictor) sparse(img []float64) sparseImage {
	var sp sparseImage
	for s, v := range img {
		if v != 0 {
			fv := p.pixel(v)
			sp.idx = append(sp.idx, int32(s))
			sp.val = append(sp.val, v)
			sp.f = append(sp.f, fv)
			sp.tot += p.w[s] * fv
		}
	}
	return sp
}

// kernels returns k(a, b) for a graph's image a and every support image
// b, as kernel.Cross computes them: each divergence is both images'
// divergences from zero, corrected on their common pixels by
// w_s (f(a_s) + f(b_s) - f(a_s - b_s)), summed in ascending pixel order.
// The sweep goes over a's pixels (fewer than a support image's), each
// meeting all support images at once.
func (p *predictor) kernels(a *sparseImage) []float64 {
	n := p.n
	d := make([]float64, n)
	for k, s := range a.idx {
		av, af, ws := a.val[k], a.f[k], p.w[s]
		vals, fs := p.vals[int(s)*n:int(s)*n+n], p.fs[int(s)*n:int(s)*n+n]
		if p.alt {
			for j, bv := range vals {
				if bv != 0 {
					diff := av - bv
					d[j] += ws * (af + fs[j] - diff*diff)
				}
			}
			continue
		}
		for j, bv := range vals {
			if bv != 0 {
				diff := av - bv
				d[j] += ws * (af + fs[j] - kernel.WKPITerm(diff*diff*p.c))
			}
		}
	}
	for j := range d {
		div := max(0, a.tot+p.tot[j]-d[j])
		if p.alt {
			d[j] = math.Exp(-div / (2 * p.m.Sigma * p.m.Sigma))
		} else {
			d[j] = p.total - div/2
		}
	}
	return d
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
	k := p.kernels(&a)
	if m.GaussWidth > 0 {
		for j := range k {
			k[j] = kernel.GaussianOf(k[j], m.GaussWidth)
		}
	}
	return predicted{class: m.SVM.Predict(k), decision: m.SVM.Decision(k), points: len(features.AllPoints(ds, m.Features))}, nil
}

// explainer returns an explainer of the model, built once: it needs the
// support images image-major, rebuilt from the predictor's layout (the
// model's copy is dropped at load to save memory predictions never use).
func (p *predictor) explainer() (*explain.Explainer, error) {
	p.explainOnce.Do(func() {
		m := *p.m
		m.Support = make([][]float64, p.n)
		for j := range m.Support {
			img := make([]float64, len(p.w))
			for s := range img {
				img[s] = p.vals[s*p.n+j]
			}
			m.Support[j] = img
		}
		p.explain, p.explainErr = explain.New(&m, explain.DefaultOptions())
	})
	return p.explain, p.explainErr
}
