package features

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
)

func TestSnapTies(t *testing.T) {
	tests := []struct {
		name               string
		vertex, edge       []float64
		wantVertex, wantEd []float64
	}{
		{name: "apart: unchanged", vertex: []float64{3, 1, 2}, wantVertex: []float64{3, 1, 2}},
		{name: "a last-bit pair takes the smaller value",
			vertex: []float64{0.1 + 0.2, 0.3, 1}, wantVertex: []float64{0.3, 0.3, 1}},
		// Gaps of 0.6e-10 and 0.6e-10 at scale 1: one run, though its ends
		// are 1.2e-10 apart.
		{name: "a run is found by gaps", vertex: []float64{1, 1 - 0.6e-10, 1 - 1.2e-10, 0},
			wantVertex: []float64{1 - 1.2e-10, 1 - 1.2e-10, 1 - 1.2e-10, 0}},
		{name: "a gap of 2e-10 at scale 1 is kept", vertex: []float64{1, 1 - 2e-10}, wantVertex: []float64{1, 1 - 2e-10}},
		{name: "the scale is the largest |value|: 1e-12 apart at scale 1e-3 is kept",
			vertex: []float64{1e-3, 0, 1e-12}, wantVertex: []float64{1e-3, 0, 1e-12}},
		{name: "vertex and edge values together", vertex: []float64{-0.5, 1}, edge: []float64{-0.5 + 1e-17, 2},
			wantVertex: []float64{-0.5, 1}, wantEd: []float64{-0.5, 2}},
		{name: "all zero", vertex: []float64{0, 0}, wantVertex: []float64{0, 0}},
		{name: "empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snapTies(tc.vertex, tc.edge)
			if !reflect.DeepEqual(tc.vertex, tc.wantVertex) || !reflect.DeepEqual(tc.edge, tc.wantEd) {
				t.Errorf("got %v %v, want %v %v", tc.vertex, tc.edge, tc.wantVertex, tc.wantEd)
			}
		})
	}
}

// TestHKSTiesExact: in the heat kernel signature of nitrobenzene, whose
// symmetric atoms have equal signatures in exact arithmetic, the values
// the diagrams are made of are exactly equal (they are not, by a few
// units in the last place, as filtration.HeatKernelSignature returns
// them), and the vertices stay in the order of their signatures.
func TestHKSTiesExact(t *testing.T) {
	// O=[N+]([O-])c1ccccc1: oxygens 0 and 2, ortho 4 and 8, meta 5 and 7.
	var edges []graph.Edge
	for _, e := range [][2]int{{0, 1}, {1, 2}, {1, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {3, 8}} {
		edges = append(edges, graph.Edge{U: e[0], V: e[1]})
	}
	g, err := graph.New(9, edges, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := filtration.Options{Kind: filtration.KindHKS}
	_, _, f, err := diagramOf(g, nil, o, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := filtration.Compute(g, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]int{{0, 2}, {4, 8}, {5, 7}} {
		a, b := pair[0], pair[1]
		t.Logf("vertices %d and %d: signatures %v apart before", a, b, raw.Vertex[a]-raw.Vertex[b])
		if f.Vertex[a] != f.Vertex[b] {
			t.Errorf("vertices %d and %d: %v and %v, want them equal", a, b, f.Vertex[a], f.Vertex[b])
		}
		if math.Abs(f.Vertex[a]-raw.Vertex[a]) > 1e-15 {
			t.Errorf("vertex %d moved from %v to %v", a, raw.Vertex[a], f.Vertex[a])
		}
	}
	for u := range g.N {
		for v := range g.N {
			if raw.Vertex[u]-raw.Vertex[v] > 1e-10 && f.Vertex[u] <= f.Vertex[v] {
				t.Errorf("vertices %d and %d swapped order", u, v)
			}
		}
	}
}

// TestRenumbered: every descriptor of the molecules preset, and the heat
// of bonding-type labels, gives a molecule renumbered at random the same
// diagrams (the same number of points, equal to 1e-9), on 200 molecules
// of RDKit's NCI sample: values equal in exact arithmetic that a sum in
// another order puts apart in their last bits (Ricci curvatures, partial
// charges) make no points of persistence 1e-16 in one numbering and none
// in the other. With origins (whose sweeps take ties in a canonical
// order) the diagrams are those without, point for point.
func TestRenumbered(t *testing.T) {
	nci := testenv.NCISmiles(t)
	opts, err := filtration.ParseList("ricci,hks,degree,bonds,bonds:C,bonds:~O,bonds:~N,bonds:~halogens,en,charge,jaccard")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	molecules := 0
	for i := 0; i < len(nci); i += 25 {
		g, err := smiles.Parse(nci[i])
		if err != nil {
			continue
		}
		molecules++
		s := Settings{Filtration: opts[0], Extra: opts[1:]}
		if s, err = s.WithLabels([]*graph.Graph{g}, nil, 4, 3, nil, true); err != nil {
			t.Fatal(err)
		}
		perm := rng.Perm(g.N)
		h := g.Renumbered(perm)
		ds, err := GraphDiagramsOf(g, s)
		if err != nil {
			t.Fatal(err)
		}
		dh, err := GraphDiagramsOf(h, s)
		if err != nil {
			t.Fatal(err)
		}
		do, origins, err := GraphOrigins(g, nil, s)
		if err != nil {
			t.Fatal(err)
		}
		for k := range ds {
			if a, b := pointsKey(ds[k]), pointsKey(dh[k]); a != b {
				t.Errorf("%s, descriptor %d: renumbered, the diagrams differ:\n%s\n%s", nci[i], k, a, b)
			}
			if !reflect.DeepEqual(ds[k], do[k]) {
				t.Errorf("%s, descriptor %d: the diagrams with origins differ from those without", nci[i], k)
			}
			if len(origins[k].Ord0) != len(do[k].Ord0) || len(origins[k].Ext1) != len(do[k].Ext1) {
				t.Errorf("%s, descriptor %d: %d and %d origins for %d and %d points", nci[i], k, len(origins[k].Ord0), len(origins[k].Ext1), len(do[k].Ord0), len(do[k].Ext1))
			}
		}
	}
	if molecules < 190 {
		t.Fatalf("only %d molecules read", molecules)
	}
}

// pointsKey writes a diagram's points to 1e-9, sorted within each part.
func pointsKey(d persistence.Diagrams) string {
	var out strings.Builder
	for _, ps := range [][]persistence.Point{d.Ord0, d.Rel1, d.Ext0, d.Ext1} {
		var s []string
		for _, p := range ps {
			s = append(s, fmt.Sprintf("(%.9f,%.9f)", p.Birth, p.Death))
		}
		slices.Sort(s)
		fmt.Fprintln(&out, s)
	}
	return out.String()
}
