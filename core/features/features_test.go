package features

import (
	"context"
	"math"
	"testing"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
)

func mustGraph(t *testing.T, n int, edges ...graph.Edge) *graph.Graph {
	t.Helper()
	g, err := graph.New(n, edges, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// toy is a small dataset: a triangle with a pendant vertex, a 4-path, a
// 5-cycle and a star, with the degree descriptor so diagrams are hand-checkable.
func toy(t *testing.T) *graph.Dataset {
	return &graph.Dataset{
		Name: "toy",
		Graphs: []*graph.Graph{
			mustGraph(t, 4, graph.Edge{U: 0, V: 1}, graph.Edge{U: 1, V: 2}, graph.Edge{U: 0, V: 2}, graph.Edge{U: 2, V: 3}),
			mustGraph(t, 4, graph.Edge{U: 0, V: 1}, graph.Edge{U: 1, V: 2}, graph.Edge{U: 2, V: 3}),
			mustGraph(t, 5, graph.Edge{U: 0, V: 1}, graph.Edge{U: 1, V: 2}, graph.Edge{U: 2, V: 3}, graph.Edge{U: 3, V: 4}, graph.Edge{U: 0, V: 4}),
			mustGraph(t, 4, graph.Edge{U: 0, V: 1}, graph.Edge{U: 0, V: 2}, graph.Edge{U: 0, V: 3}),
		},
		Labels:  []int{0, 0, 1, 1},
		Classes: []string{"a", "b"},
	}
}

func TestDiagramTrianglePendant(t *testing.T) {
	// Degrees: 2, 2, 3, 1. Lower-star: vertex 3 (value 1) is born first,
	// vertices 0, 1 at 2 join through edge {0,1} at 2, all merge at 3.
	// Extended: one component (1, 3); one cycle, born at 3 (edge {0,2} or
	// {1,2} closes it at value 3) and dying at 2 in the superlevel pass.
	g := toy(t).Graphs[0]
	d, f, err := Diagram(g, Default(filtration.KindDegree))
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{2, 2, 3, 1}; !equal(f.Vertex, want) {
		t.Fatalf("degree = %v, want %v", f.Vertex, want)
	}
	if len(d.Ext0) != 1 || d.Ext0[0] != (persistence.Point{Birth: 1, Death: 3}) {
		t.Errorf("Ext0 = %v, want [(1, 3)]", d.Ext0)
	}
	if len(d.Ext1) != 1 || d.Ext1[0] != (persistence.Point{Birth: 3, Death: 2}) {
		t.Errorf("Ext1 = %v, want [(3, 2)]", d.Ext1)
	}
	// Vertex 0 and 1 (value 2) form a component that merges into vertex 3's
	// at value 3: Ord0 = [(2, 3)].
	if len(d.Ord0) != 1 || d.Ord0[0] != (persistence.Point{Birth: 2, Death: 3}) {
		t.Errorf("Ord0 = %v, want [(2, 3)]", d.Ord0)
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// withoutTails is the oracle of the tail cut: a descriptor's block with
// every pixel below cut of its largest set to 0.
func withoutTails(block []float64, cut float64) []float64 {
	peak := 0.0
	for _, v := range block {
		peak = max(peak, math.Abs(v))
	}
	out := make([]float64, len(block))
	for j, v := range block {
		if math.Abs(v) >= cut*peak {
			out[j] = v
		}
	}
	return out
}

// TestComputeImagesMatchChannels: every graph's image is its channels
// rendered directly from their sub-diagrams, with the pixels below the
// tail cut of their block's largest set to 0: 1/1000 when the settings
// give none (as models saved before the setting was kept have it), or
// the cut they give.
func TestComputeImagesMatchChannels(t *testing.T) {
	ds := toy(t)
	for _, tc := range []struct{ cut, oracle float64 }{{0, 1e-3}, {0.01, 0.01}, {0.3, 0.3}} {
		s := Default(filtration.KindDegree)
		s.Normalize, s.TailCut = false, tc.cut
		set, err := Compute(context.Background(), ds, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		if set.Settings.Tau <= 0 {
			t.Fatalf("automatic tau not resolved: %v", set.Settings.Tau)
		}
		pixels := set.Grid.Rows * set.Grid.Cols
		if len(Centres(set.Grid, set.Settings)) != 2*pixels {
			t.Fatalf("centres: %d, want %d", len(Centres(set.Grid, set.Settings)), 2*pixels)
		}
		opt := pimage.Options{Rows: s.Rows, Tau: set.Settings.Tau, Weighting: s.Weighting}
		for i, d := range set.Diagrams {
			img := set.Images[i].Dense()
			if len(img) != 2*pixels {
				t.Fatalf("graph %d: %d pixels, want %d", i, len(img), 2*pixels)
			}
			// Oracle: each channel rendered directly from its sub-diagrams.
			dim0, _ := set.Grid.Image(append(append([]persistence.Point{}, d.Ord0...), d.Ext0...), opt)
			dim1, _ := set.Grid.Image(append(append([]persistence.Point{}, d.Rel1...), d.Ext1...), opt)
			for j, want := range withoutTails(append(dim0, dim1...), tc.oracle) {
				if math.Abs(img[j]-want) > 1e-12*math.Max(1, math.Abs(want)) {
					t.Fatalf("cut %g: graph %d pixel %d = %g, want %g", tc.cut, i, j, img[j], want)
				}
			}
		}
		// The path has no cycle; the 5-cycle has one, but its degree is
		// constant, so the point has zero persistence and is dropped.
		if got := []int{len(set.Diagrams[0].Ext1), len(set.Diagrams[1].Ext1), len(set.Diagrams[2].Ext1)}; got[0] != 1 || got[1] != 0 || got[2] != 0 {
			t.Errorf("Ext1 sizes %v, want [1 0 0]", got)
		}
	}
}

func TestNormalizeGivesUnitVectors(t *testing.T) {
	set, err := Compute(context.Background(), toy(t), Default(filtration.KindDegree), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, img := range set.Images {
		var sum float64
		for _, v := range img.Val {
			sum += v * v
		}
		// The cycle's degree is constant: every point has zero
		// persistence and its image is empty.
		if norm := math.Sqrt(sum); norm != 0 && math.Abs(norm-1) > 1e-12 {
			t.Errorf("graph %d: norm %g, want 1", i, norm)
		}
	}
}

func TestPointsSkipNothingFinite(t *testing.T) {
	ds := toy(t)
	s := Default(filtration.KindDegree)
	for i, g := range ds.Graphs {
		d, _, err := Diagram(g, s)
		if err != nil {
			t.Fatal(err)
		}
		want := len(d.Ord0) + len(d.Ext0) + len(d.Rel1) + len(d.Ext1)
		if got := len(Points(d, s)); got != want {
			t.Errorf("graph %d: %d points, want %d", i, got, want)
		}
	}
}

func TestValidate(t *testing.T) {
	bad := []func(*Settings){
		func(s *Settings) { s.Channels = nil },
		func(s *Settings) { s.Channels = []string{"ord0+dim7"} },
		func(s *Settings) { s.Rows = 1 },
		func(s *Settings) { s.Tau = math.NaN() },
		func(s *Settings) { s.Tau = -1 },
	}
	for i, mutate := range bad {
		s := Default(filtration.KindRicci)
		mutate(&s)
		if s.Validate() == nil {
			t.Errorf("case %d: no error for %+v", i, s)
		}
	}
	if err := Default(filtration.KindRicci).Validate(); err != nil {
		t.Errorf("default settings: %v", err)
	}
}

func TestComputeCancels(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Compute(ctx, toy(t), Default(filtration.KindDegree), nil); err == nil {
		t.Error("cancelled context: no error")
	}
}
