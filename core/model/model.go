package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
	"wkpi-web/core/spec"
	"wkpi-web/core/svm"
)

// Format and Version identify the file format: Load reads versions 1 to
// Version and refuses others; Save writes Version, or version 2 for a
// model without its support vectors' diagrams (file.go).
const (
	Format  = "wkpi-model"
	Version = 3
)

// Model is a trained classifier, plain data throughout.
type Model struct {
	Format   string            `json:"format"`
	Version  int               `json:"version"`
	Dataset  string            `json:"dataset"`
	Classes  []string          `json:"classes"`
	Features features.Settings `json:"features"`
	Grid     pimage.Grid       `json:"grid"`
	Weight   kernel.Mixture    `json:"weight"`
	Sigma    float64           `json:"sigma"`
	Variant  kernel.Variant    `json:"variant"`
	C        float64           `json:"C"`
	Learn    learn.Options     `json:"learn"`
	Trace    learn.Trace       `json:"trace"`
	// ChannelScales, when present, multiply the pixel weights of each
	// image block (features.Settings.Blocks, in image order) before the
	// kernel's weights are normalised (learn.Options.Channels).
	ChannelScales []float64 `json:"channel_scales,omitempty"`
	// GaussWidth, when positive, makes the SVM's kernel the Gaussian of
	// the WKPI distance, exp(-D^2 / GaussWidth) (kernel.GaussianOf), where
	// 0 (absent) is the WKPI kernel itself.
	GaussWidth float64 `json:"gauss_width,omitempty"`
	// Settings are the user settings the model was trained with, when
	// the trainer recorded them (models of earlier builds lack them).
	Settings *spec.Spec `json:"settings,omitempty"`
	// Name is what the user called the model where it was trained (the
	// page's Models tab), and Evaluation the cross-validation of its
	// settings, when the trainer ran one; both are absent otherwise.
	Name       string      `json:"name,omitempty"`
	Evaluation *Evaluation `json:"evaluation,omitempty"`
	// SVM's support vector indices point into Support, the images of
	// the support vectors (written sparsely: file.go).
	SVM     svm.Model   `json:"svm"`
	Support [][]float64 `json:"support"`
	// Diagrams, when present, are each support vector's diagrams, one
	// per descriptor, which features.Render turns into its image bit for
	// bit: the file keeps them instead of the images (diagrams.go). Nil
	// for a model read from a file of version 1 or 2.
	Diagrams [][]persistence.Diagrams `json:"-"`
}

// Trained is what a training run hands to New.
type Trained struct {
	Dataset string
	Classes []string
	Set     *features.Set // features of the whole dataset
	Train   []int         // indices into Set of the SVM's training samples
	Weight  kernel.Mixture
	Sigma   float64
	Variant kernel.Variant
	C       float64
	Learn   learn.Options
	Trace   learn.Trace
	SVM     *svm.Model // trained on Train, indices into Train
	// ChannelScales are per-block scales of the weight (nil: none).
	ChannelScales []float64
	// GaussWidth is the width of the SVM's Gaussian of the distance (0:
	// the WKPI kernel itself).
	GaussWidth float64
}

// New keeps only the support vectors' images and diagrams and renumbers
// the SVM's indices to point into them. It keeps the diagrams only when
// they render to the images bit for bit (and the set has them).
func New(t Trained) (*Model, error) {
	keep := t.SVM.SupportVectors()
	index := make(map[int]int, len(keep))
	support := make([][]float64, len(keep))
	var diagrams [][]persistence.Diagrams
	if len(t.Set.Diagrams) == len(t.Set.Images) {
		diagrams = make([][]persistence.Diagrams, len(keep))
	}
	for i, sv := range keep {
		if sv < 0 || sv >= len(t.Train) {
			return nil, fmt.Errorf("model: support vector %d outside the %d training samples", sv, len(t.Train))
		}
		index[sv] = i
		support[i] = t.Set.Images[t.Train[sv]].Dense()
		if diagrams != nil {
			diagrams[i] = t.Set.GraphDiagrams(t.Train[sv])
		}
	}
	if diagrams != nil {
		diagrams = renderable(diagrams, support, t.Set.Grid, t.Set.Settings)
	}
	compact := svm.Model{Classes: t.SVM.Classes, N: len(keep)}
	for _, b := range t.SVM.Pairs {
		nb := b
		nb.SV = make([]int, len(b.SV))
		for i, sv := range b.SV {
			nb.SV[i] = index[sv]
		}
		compact.Pairs = append(compact.Pairs, nb)
	}
	m := &Model{
		Format: Format, Version: Version, Dataset: t.Dataset, Classes: t.Classes,
		Features: t.Set.Settings, Grid: t.Set.Grid, Weight: t.Weight, Sigma: t.Sigma,
		Variant: t.Variant, C: t.C, Learn: t.Learn, Trace: t.Trace, SVM: compact, Support: support,
		Diagrams: diagrams, ChannelScales: t.ChannelScales, GaussWidth: t.GaussWidth,
	}
	return m, m.Validate()
}

// Save writes the model as JSON, in format version Version (2 when it
// has no Diagrams).
func (m *Model) Save(w io.Writer) error {
	if err := m.Validate(); err != nil {
		return err
	}
	return json.NewEncoder(w).Encode(m)
}

// Load reads a model file of any version up to Version and validates it.
func Load(r io.Reader) (*Model, error) {
	var m Model
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return nil, fmt.Errorf("model: not valid JSON at byte %d: %w", syntax.Offset, err)
		}
		return nil, fmt.Errorf("model: %w", err)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Validate checks the format, every shape and every number.
func (m *Model) Validate() error {
	if err := m.Evaluation.Validate(); err != nil {
		return err
	}
	if m.Settings != nil {
		if err := m.Settings.Validate(); err != nil {
			return fmt.Errorf("model: settings: %w", err)
		}
	}
	switch {
	case m.Format != Format:
		return fmt.Errorf("model: format %q, want %q (is this a wkpi-web model file?)", m.Format, Format)
	case m.Version != Version:
		return fmt.Errorf("model: format version %d, want %d (Load reads older versions into it)", m.Version, Version)
	case len(m.Classes) < 2:
		return fmt.Errorf("model: %d classes, want at least 2", len(m.Classes))
	case m.SVM.Classes != len(m.Classes):
		return fmt.Errorf("model: SVM has %d classes, model names %d", m.SVM.Classes, len(m.Classes))
	case !(m.Sigma > 0) || math.IsInf(m.Sigma, 0):
		return fmt.Errorf("model: kernel sigma %v must be positive and finite", m.Sigma)
	case m.Variant != kernel.WKPI && m.Variant != kernel.Alt:
		return fmt.Errorf("model: unknown kernel variant %d", m.Variant)
	case !(m.GaussWidth >= 0) || math.IsInf(m.GaussWidth, 0):
		return fmt.Errorf("model: Gaussian width %v must be 0 (the WKPI kernel) or positive and finite", m.GaussWidth)
	case m.GaussWidth > 0 && m.Variant != kernel.WKPI:
		return errors.New("model: a Gaussian of the distance needs the WKPI kernel variant")
	}
	if err := m.Features.Validate(); err != nil {
		return fmt.Errorf("model: %w", err)
	}
	if !(m.Features.Tau > 0) {
		return fmt.Errorf("model: features tau %v must be positive", m.Features.Tau)
	}
	if err := m.Grid.Validate(); err != nil {
		return fmt.Errorf("model: %w", err)
	}
	if err := m.Weight.Validate(); err != nil {
		return fmt.Errorf("model: weight function: %w", err)
	}
	pixels := m.Features.Blocks() * m.Grid.Rows * m.Grid.Cols
	if err := checkScales(m.ChannelScales, m.Features.Blocks()); err != nil {
		return err
	}
	if m.SVM.N != len(m.Support) {
		return fmt.Errorf("model: SVM expects %d support images, file has %d", m.SVM.N, len(m.Support))
	}
	if m.Diagrams != nil && len(m.Diagrams) != len(m.Support) {
		return fmt.Errorf("model: diagrams of %d support vectors for %d support images", len(m.Diagrams), len(m.Support))
	}
	for i, img := range m.Support {
		if len(img) != pixels {
			return fmt.Errorf("model: support image %d has %d pixels, the grid gives %d", i, len(img), pixels)
		}
		if err := finite(img); err != nil {
			return fmt.Errorf("model: support image %d: %w", i, err)
		}
	}
	for p, b := range m.SVM.Pairs {
		if b.A < 0 || b.B >= len(m.Classes) || b.A >= b.B {
			return fmt.Errorf("model: SVM pair %d has classes (%d, %d)", p, b.A, b.B)
		}
		if len(b.SV) != len(b.Coef) {
			return fmt.Errorf("model: SVM pair %d has %d support vectors and %d coefficients", p, len(b.SV), len(b.Coef))
		}
		for _, sv := range b.SV {
			if sv < 0 || sv >= len(m.Support) {
				return fmt.Errorf("model: SVM pair %d names support vector %d of %d", p, sv, len(m.Support))
			}
		}
		if err := finite(append(b.Coef, b.Rho)); err != nil {
			return fmt.Errorf("model: SVM pair %d: %w", p, err)
		}
	}
	return nil
}

func checkScales(scales []float64, blocks int) error {
	if scales == nil {
		return nil
	}
	if len(scales) != blocks {
		return fmt.Errorf("model: %d channel scales for %d image blocks", len(scales), blocks)
	}
	var total float64
	for b, x := range scales {
		if !(x >= 0) || math.IsInf(x, 0) {
			return fmt.Errorf("model: channel scale %d is %v, want a finite number >= 0", b, x)
		}
		total += x
	}
	if !(total > 0) {
		return errors.New("model: every channel scale is 0")
	}
	return nil
}

func finite(xs []float64) error {
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("value %d is %v", i, x)
		}
	}
	return nil
}

// KernelFor is the kernel an SVM uses with the weight function mix: its
// pixel weights are scaled to sum 1, so that a WKPI kernel has k(A, A) = 1
// whatever the mixture's overall scale and the number of pixels, and one C
// grid fits every dataset and resolution. (For altWKPI the scaling is a
// change of sigma.)
func KernelFor(mix kernel.Mixture, centres [][2]float64, sigma float64, v kernel.Variant) kernel.Kernel {
	return KernelForScaled(mix, centres, sigma, v, nil)
}

// KernelForScaled is KernelFor with the pixel weights of block b (the
// centres cut into len(scales) equal blocks) multiplied by scales[b]
// before the normalisation; nil scales change nothing.
func KernelForScaled(mix kernel.Mixture, centres [][2]float64, sigma float64, v kernel.Variant, scales []float64) kernel.Kernel {
	w := mix.PixelWeights(centres)
	if len(scales) > 0 {
		size := len(w) / len(scales)
		for i := range w {
			w[i] *= scales[i/size]
		}
	}
	var total float64
	for _, x := range w {
		total += x
	}
	if total > 0 {
		for i := range w {
			w[i] /= total
		}
	}
	return kernel.Kernel{Weights: w, Sigma: sigma, Variant: v}
}

// Kernel returns the learned kernel on the model's pixel grid.
func (m *Model) Kernel() kernel.Kernel {
	return KernelForScaled(m.Weight, features.Centres(m.Grid, m.Features), m.Sigma, m.Variant, m.ChannelScales)
}

// Prediction is the model's answer for one graph.
type Prediction struct {
	Class    int                  `json:"class"`
	Label    string               `json:"label"`
	Decision []float64            `json:"decision"` // one value per SVM pair; positive votes for the pair's first class
	Diagrams persistence.Diagrams `json:"diagrams"`
	Points   [][2]float64         `json:"points"` // diagram points in the (birth, persistence) plane of the weight function
}

// Predict classifies graphs with the model. To classify more than once,
// Prepare the model and use Prepared.Predict: this prepares it at every
// call.
func (m *Model) Predict(ctx context.Context, graphs []*graph.Graph) ([]Prediction, error) {
	p, err := Prepare(m)
	if err != nil {
		return nil, err
	}
	return p.Predict(ctx, graphs)
}
