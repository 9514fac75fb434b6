package model

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"wkpi-web/core/kernel"
)

// TestKernelForScaledHandWorked: a constant weight function on 2 blocks of
// 2 pixels with scales (3, 1) gives weights 3/8, 3/8, 1/8, 1/8.
func TestKernelForScaledHandWorked(t *testing.T) {
	mix := kernel.Mixture{X: []float64{0}, Y: []float64{0}, Sigma: []float64{1e9}, W: []float64{1}}
	centres := [][2]float64{{0, 0}, {1, 0}, {0, 0}, {1, 0}}
	k := KernelForScaled(mix, centres, 0.1, kernel.WKPI, []float64{3, 1})
	for i, want := range []float64{3.0 / 8, 3.0 / 8, 1.0 / 8, 1.0 / 8} {
		if math.Abs(k.Weights[i]-want) > 1e-15 {
			t.Errorf("weight %d = %v, want %v", i, k.Weights[i], want)
		}
	}
}

// TestChannelScalesInFile: a model with scales survives a round trip, one
// without them (the older files) still loads, and bad scales are refused.
func TestChannelScalesInFile(t *testing.T) {
	m := small()
	m.ChannelScales = []float64{2} // one block: the channel
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"channel_scales":[2]`) {
		t.Fatalf("file does not hold the scales: %s", buf.String())
	}
	back, err := Load(&buf)
	if err != nil || len(back.ChannelScales) != 1 || back.ChannelScales[0] != 2 {
		t.Fatalf("Load: %v, scales %v", err, back.ChannelScales)
	}
	for _, bad := range [][]float64{{1, 1}, {-1}, {0}, {math.NaN()}} {
		m.ChannelScales = bad
		if err := m.Validate(); err == nil {
			t.Errorf("scales %v passed Validate", bad)
		}
	}
}
