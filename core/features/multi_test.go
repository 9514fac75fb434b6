package features

import (
	"context"
	"math"
	"reflect"
	"testing"

	"wkpi-web/core/filtration"
	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
)

func multiSettings() Settings {
	s := Default(filtration.KindDegree)
	s.Extra = []filtration.Options{{Kind: filtration.KindDegree}, {Kind: filtration.KindJaccard}}
	return s
}

func norm2(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

func TestExtraDescriptorsShareOneGrid(t *testing.T) {
	set, err := Compute(context.Background(), toy(t), multiSettings(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := set.Settings
	// Degrees over the toy graphs' points: the star and the triangle with
	// a pendant have Ext0 (1, 3), so degree values span [1, 3].
	for k := range 2 {
		if s.Scales[k] != (Affine{Shift: 1, Scale: 2}) {
			t.Errorf("scale %d = %+v, want shift 1, scale 2", k, s.Scales[k])
		}
	}
	block := len(s.Channels) * set.Grid.Rows * set.Grid.Cols
	if s.Blocks() != 6 || len(Centres(set.Grid, s)) != 3*block {
		t.Fatalf("blocks %d, centres %d, want 6 and %d", s.Blocks(), len(Centres(set.Grid, s)), 3*block)
	}
	for i, sp := range set.Images {
		img := sp.Dense()
		if len(img) != 3*block {
			t.Fatalf("image %d has %d pixels, want %d", i, len(img), 3*block)
		}
		// The same descriptor twice gives the same block twice.
		if !equal(img[:block], img[block:2*block]) {
			t.Errorf("image %d: the two degree blocks differ", i)
		}
		// Each non-empty block has norm 1/sqrt(3): descriptors weigh alike.
		for k := range 3 {
			if n := norm2(img[k*block : (k+1)*block]); n != 0 && math.Abs(n-1/math.Sqrt(3)) > 1e-12 {
				t.Errorf("image %d block %d has norm %v, want 0 or 1/sqrt(3)", i, k, n)
			}
		}
		for _, p := range AllPoints(set.GraphDiagrams(i), s) {
			if p[0] < 0 || p[0] > 1 || p[1] < 0 || p[1] > 1 {
				t.Errorf("image %d: scaled point %v outside the unit square", i, p)
			}
		}
	}
}

// TestRenderJaccardBlock renders the Jaccard block independently: its own
// diagrams, a hand-fitted range, the points moved by hand, pimage on the
// set's grid and a plain normalisation.
func TestRenderJaccardBlock(t *testing.T) {
	ds := toy(t)
	set, err := Compute(context.Background(), ds, multiSettings(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := set.Settings
	only := Default(filtration.KindJaccard)
	lo, hi := math.Inf(1), math.Inf(-1)
	var diags []persistence.Diagrams
	for _, g := range ds.Graphs {
		d, _, err := Diagram(g, only)
		if err != nil {
			t.Fatal(err)
		}
		diags = append(diags, d)
		for _, p := range append(append(append(d.Ord0, d.Ext0...), d.Rel1...), d.Ext1...) {
			lo, hi = min(lo, p.Birth, p.Death), max(hi, p.Birth, p.Death)
		}
	}
	if got := s.Scales[2]; math.Abs(got.Shift-lo) > 1e-15 || math.Abs(got.Scale-(hi-lo)) > 1e-15 {
		t.Fatalf("Jaccard scale %+v, want shift %v scale %v", got, lo, hi-lo)
	}
	block := len(s.Channels) * set.Grid.Rows * set.Grid.Cols
	opt := pimage.Options{Rows: s.Rows, Tau: s.Tau, Weighting: pimage.Constant}
	for i, d := range diags {
		var want []float64
		for _, pts := range [][]persistence.Point{append(d.Ord0, d.Ext0...), append(d.Rel1, d.Ext1...)} {
			moved := make([]persistence.Point, len(pts))
			for j, p := range pts {
				moved[j] = persistence.Point{Birth: (p.Birth - lo) / (hi - lo), Death: (p.Death - lo) / (hi - lo)}
			}
			img, err := set.Grid.Image(moved, opt)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, img...)
		}
		want = withoutTails(want, 1e-3) // the settings give no cut
		if n := norm2(want); n > 0 {
			for j := range want {
				want[j] /= n * math.Sqrt(3)
			}
		}
		got := set.Images[i].Dense()[2*block:]
		for j := range want {
			if math.Abs(got[j]-want[j]) > 1e-12 {
				t.Fatalf("graph %d pixel %d: %v, want %v", i, j, got[j], want[j])
			}
		}
	}
}

func TestExtraDescriptorsErrors(t *testing.T) {
	s := multiSettings()
	if _, _, err := FitGridAll([][]persistence.Diagrams{{{}}}, s); err == nil {
		t.Error("FitGridAll took one diagram for three descriptors")
	}
	if _, err := Render([]persistence.Diagrams{{}}, pimage.Grid{Pixel: 1, Rows: 2, Cols: 2}, s); err == nil {
		t.Error("Render took one diagram for three descriptors")
	}
	s.Scales = []Affine{{0, 1}}
	if err := s.Validate(); err == nil {
		t.Error("one scale for three descriptors passed Validate")
	}
	s.Scales = []Affine{{0, 1}, {0, 0}, {0, 1}}
	if err := s.Validate(); err == nil {
		t.Error("a zero scale passed Validate")
	}
}

// TestPersistenceSqrt: (0, 4) goes to (0, 2) in the (birth, persistence)
// plane and the superlevel point (3, -1), persistence 4, to (3, 2); an
// unknown transform is refused.
func TestPersistenceSqrt(t *testing.T) {
	s := Default(filtration.KindDegree)
	s.Persistence = PersistenceSqrt
	d := persistence.Diagrams{Ext0: []persistence.Point{{Birth: 0, Death: 4}}, Ext1: []persistence.Point{{Birth: 3, Death: -1}}}
	got := Points(d, s)
	want := [][2]float64{{0, 2}, {3, 2}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("points %v, want %v", got, want)
	}
	s.Persistence = "log"
	if err := s.Validate(); err == nil {
		t.Error("persistence transform log passed Validate")
	}
}

// TestExtraFor: the descriptor-set texts of the CLI and the page.
func TestExtraFor(t *testing.T) {
	for _, tc := range []struct {
		main   filtration.Kind
		labels bool
		text   string
		want   string // FormatList of the result
	}{
		{filtration.KindRicci, false, "", "hks,degree"},
		{filtration.KindJaccard, false, " ", "hks,degree"},
		{filtration.KindHKS, false, "", "degree"},
		{filtration.KindDegree, false, "", "hks"},
		{filtration.KindGiven, false, "", ""},
		{filtration.KindRicci, true, "", ""},
		{filtration.KindRicci, false, NoExtra, ""},
		{filtration.KindRicci, true, "hks@0.5", "hks@0.5"},
		{filtration.KindRicci, false, "jaccard,degree", "jaccard,degree"},
	} {
		got, err := ExtraFor(tc.main, tc.labels, tc.text)
		if err != nil {
			t.Errorf("%s %v %q: %v", tc.main, tc.labels, tc.text, err)
			continue
		}
		if s := filtration.FormatList(got); s != tc.want {
			t.Errorf("%s labels=%v %q: %q, want %q", tc.main, tc.labels, tc.text, s, tc.want)
		}
	}
	if _, err := ExtraFor(filtration.KindRicci, false, "none,hks"); err == nil {
		t.Error(`"none,hks" accepted`)
	}
}

// TestRerender: rendering a set again unnormalised gives what Compute
// gives with Normalize off (same grid, scales and images), and rendering
// it normalised again gives the set back.
func TestRerender(t *testing.T) {
	ds := toy(t)
	s := multiSettings()
	set, err := Compute(context.Background(), ds, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Normalize = false
	unnormalised := set.Settings
	unnormalised.Normalize = false
	raw, err := set.Rerender(unnormalised)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Compute(context.Background(), ds, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(raw.Images, want.Images) || raw.Grid != want.Grid || !reflect.DeepEqual(raw.Settings, want.Settings) {
		t.Errorf("unnormalised again: grid %+v settings %+v, Compute's %+v %+v (images equal: %v)",
			raw.Grid, raw.Settings, want.Grid, want.Settings, reflect.DeepEqual(raw.Images, want.Images))
	}
	back, err := raw.Rerender(set.Settings)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Images, set.Images) || !set.Settings.Normalize {
		t.Error("normalised again: images differ from the set's")
	}
	if reflect.DeepEqual(raw.Images, set.Images) {
		t.Error("unnormalised images equal the normalised ones: the test cannot tell them apart")
	}
	unnormalised.Extra = nil
	if _, err := set.Rerender(unnormalised); err == nil {
		t.Error("settings of one descriptor accepted for a set of three")
	}
}
