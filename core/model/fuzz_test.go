package model

import (
	"bytes"
	"math"
	"testing"
)

// FuzzLoad checks that Load never panics on any input, and that a model
// it accepts is valid and saves and loads again to the same support
// images. Seeds live in testdata/fuzz/FuzzLoad: small() in versions 1
// and 2, smallV3() in version 3 (diagrams), and corrupt files.
func FuzzLoad(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Load(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Load accepted an invalid model: %v", err)
		}
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatalf("saving a loaded model: %v", err)
		}
		again, err := Load(&buf)
		if err != nil {
			t.Fatalf("loading a saved model: %v", err)
		}
		for i, img := range m.Support {
			for s, v := range img {
				w := again.Support[i][s]
				if math.Float64bits(v) != math.Float64bits(w) && !(v == 0 && w == 0) { // -0 is saved as 0
					t.Fatalf("support image %d pixel %d: %v, then %v", i, s, v, w)
				}
			}
		}
	})
}
