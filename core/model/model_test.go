package model

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/kernel"
	"wkpi-web/core/pimage"
	"wkpi-web/core/svm"
)

// small is a valid hand-made model: a 2x3 grid, one channel, two support
// images, one binary SVM.
func small() *Model {
	s := features.Default(filtration.KindDegree)
	s.Channels, s.Rows, s.Tau = []string{"ord0+ext0"}, 2, 0.5
	return &Model{
		Format: Format, Version: Version, Dataset: "toy", Classes: []string{"a", "b"},
		Features: s,
		Grid:     pimage.Grid{MinX: 0, MinY: 0, Pixel: 1, Rows: 2, Cols: 3},
		Weight:   kernel.Mixture{X: []float64{1}, Y: []float64{1}, Sigma: []float64{1}, W: []float64{1}},
		Sigma:    0.1, C: 1,
		SVM:     svm.Model{Classes: 2, N: 2, Pairs: []svm.Binary{{A: 0, B: 1, SV: []int{0, 1}, Coef: []float64{0.5, -0.5}, Rho: 0.1}}},
		Support: [][]float64{{0, 1, 0, 0, 0, 0}, {0, 0, 0, 1, 0, 0}},
	}
}

func encode(t *testing.T, m *Model) string {
	t.Helper()
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// encodeV1 writes m as format version 1 did: the support images dense.
func encodeV1(t *testing.T, m *Model) string {
	t.Helper()
	p := plain(*m)
	p.Version = 1
	data, err := json.Marshal(&p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// encodeWith writes m in version 2 with support images of the given bytes.
func encodeWith(t *testing.T, m *Model, images ...[]byte) string {
	t.Helper()
	p := plain(*m)
	p.Version = 2
	data, err := json.Marshal(struct {
		*plain
		Support [][]byte `json:"support"`
	}{&p, images})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := small().Save(&buf); err != nil {
		t.Fatal(err)
	}
	m, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if encode(t, m) != encode(t, small()) {
		t.Errorf("round trip changed the model:\n%s\n%s", encode(t, m), encode(t, small()))
	}
}

func TestLoadRejects(t *testing.T) {
	// sparse writes one image of the form AppendSparse writes, by hand.
	sparse := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	one := binary.LittleEndian.AppendUint64(nil, math.Float64bits(1))
	tests := []struct {
		name, want string
		mutate     func(*Model)
		v1         bool     // write version 1
		images     [][]byte // write version 2 with these support images
		raw        func(string) string
	}{
		{name: "format", want: "format", mutate: func(m *Model) { m.Format = "other" }},
		{name: "newer version", want: "format version 4, this build reads versions 1 to 3", raw: func(s string) string { return strings.Replace(s, `"version":2`, `"version":4`, 1) }},
		{name: "version 0", want: "format version 0", raw: func(s string) string { return strings.Replace(s, `"version":2`, `"version":0`, 1) }},
		{name: "v1 image size", want: "support image 1 has 5 pixels", v1: true, mutate: func(m *Model) { m.Support[1] = m.Support[1][:5] }},
		{name: "v1 sparse support", want: "dense, version 1", raw: func(s string) string { return strings.Replace(s, `"version":2`, `"version":1`, 1) }},
		{name: "v2 dense support", want: "sparse, version 2", v1: true, raw: func(s string) string { return strings.Replace(s, `"version":1`, `"version":2`, 1) }},
		{name: "index outside", want: "support image 1: pixel index 0: not in 0..5", images: [][]byte{{0}, sparse([]byte{1, 7}, one)}},
		{name: "index gap 0", want: "support image 0: pixel index 1", images: [][]byte{sparse([]byte{2, 1, 0}, one, one), {0}}},
		{name: "pixel count", want: "support image 0: pixel count", images: [][]byte{{7}, {0}}},
		{name: "no count", want: "support image 1: pixel count", images: [][]byte{{0}, {}}},
		{name: "truncated indices", want: "support image 0: truncated pixel indices", images: [][]byte{{3, 1}, {0}}},
		{name: "truncated values", want: "support image 0: truncated values", images: [][]byte{sparse([]byte{1, 1}, one[:7]), {0}}},
		{name: "trailing bytes", want: "support image 0: 1 bytes after", images: [][]byte{sparse([]byte{1, 1}, one, []byte{9}), {0}}},
		{name: "NaN pixel", want: "support image 1: pixel 2 is NaN", images: [][]byte{{0}, sparse([]byte{1, 3}, binary.LittleEndian.AppendUint64(nil, math.Float64bits(math.NaN())))}},
		{name: "zero pixel", want: "pixel 0 is 0", images: [][]byte{sparse([]byte{1, 1}, make([]byte, 8)), {0}}},
		{name: "bad base64", want: "support image 0: not base64", raw: func(s string) string { return strings.Replace(s, `"support":["`, `"support":["%`, 1) }},
		{name: "v2 support count", want: "expects 2 support images, file has 1", images: [][]byte{{0}}},
		{name: "v2 bad grid", want: "grid", mutate: func(m *Model) { m.Grid.Rows = -1 }, images: [][]byte{{0}, {0}}},
		{name: "one class", want: "classes", mutate: func(m *Model) { m.Classes = m.Classes[:1] }},
		{name: "svm classes", want: "SVM has 3 classes", mutate: func(m *Model) { m.SVM.Classes = 3 }},
		{name: "sigma", want: "sigma", mutate: func(m *Model) { m.Sigma = 0 }},
		{name: "support count", want: "expects 3 support images", mutate: func(m *Model) { m.SVM.N = 3 }},
		{name: "sv index", want: "support vector 7", mutate: func(m *Model) { m.SVM.Pairs[0].SV[1] = 7 }},
		{name: "coef count", want: "coefficients", mutate: func(m *Model) { m.SVM.Pairs[0].Coef = m.SVM.Pairs[0].Coef[:1] }},
		{name: "pair classes", want: "classes (1, 1)", mutate: func(m *Model) { m.SVM.Pairs[0].A = 1 }},
		{name: "weight", want: "weight function", mutate: func(m *Model) { m.Weight.Sigma[0] = -1 }},
		{name: "channels", want: "unknown sub-diagram", mutate: func(m *Model) { m.Features.Channels = []string{"dim9"} }},
		{name: "grid", want: "grid", mutate: func(m *Model) { m.Grid.Pixel = 0 }},
		{name: "gauss width", want: "Gaussian width -1", mutate: func(m *Model) { m.GaussWidth = -1 }},
		{name: "gauss alt", want: "needs the WKPI kernel", mutate: func(m *Model) { m.GaussWidth, m.Variant = 1, kernel.Alt }},
		{name: "truncated", want: "model:", raw: func(s string) string { return s[:len(s)/2] }},
		{name: "not JSON", want: "not valid JSON", raw: func(string) string { return "{\"format\": wkpi}" }},
		{name: "unknown field", want: "unknown field", raw: func(s string) string { return strings.Replace(s, "{", "{\"extra\":1,", 1) }},
		{name: "overflow", want: "model:", raw: func(s string) string { return strings.Replace(s, "\"rho\":0.1", "\"rho\":1e999", 1) }},
		{name: "empty", want: "model:", raw: func(string) string { return "" }},
	}
	for _, tt := range tests {
		m := small()
		if tt.mutate != nil {
			tt.mutate(m)
		}
		text := encode(t, m)
		switch {
		case tt.v1:
			text = encodeV1(t, m)
		case tt.images != nil:
			text = encodeWith(t, m, tt.images...)
		}
		if tt.raw != nil {
			text = tt.raw(text)
		}
		_, err := Load(strings.NewReader(text))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// TestKernelForUnitDiagonal: the SVM's WKPI kernel has k(A, A) = 1.
func TestKernelForUnitDiagonal(t *testing.T) {
	m := small()
	k := m.Kernel()
	for _, img := range m.Support {
		if got := k.Eval(img, img); got < 1-1e-12 || got > 1+1e-12 {
			t.Errorf("k(A, A) = %v, want 1", got)
		}
	}
}
