package model

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/kernel"
	"wkpi-web/core/persistence"
	"wkpi-web/core/svm"
)

// smallV3 is small() with its support vectors' diagrams, the images
// rendered from them.
func smallV3(t *testing.T) *Model {
	t.Helper()
	m := small()
	m.Diagrams = [][]persistence.Diagrams{
		{{Ord0: []persistence.Point{{Birth: 0.5, Death: 1.5}}, Rel1: []persistence.Point{{Birth: 2, Death: 1}}, Ext0: []persistence.Point{{Birth: 0.25, Death: 2}}}},
		{{Ord0: []persistence.Point{{Birth: 1, Death: 2.25}}}},
	}
	var err error
	if m.Support, err = renderSupport(m.Diagrams, m.Grid, m.Features); err != nil {
		t.Fatal(err)
	}
	return m
}

// smallV3Diagrams is how the file writes smallV3's diagrams, by hand.
const smallV3Diagrams = `"diagrams":[[[[0.5,1.5],[2,1],[0.25,2],[]]],[[[1,2.25],[],[],[]]]]`

// TestDiagramsFile: a model with its diagrams is written as version 3,
// the diagrams as the hand-written lists and no images, and reads back
// to the same diagrams and bit for bit the same images; saved again, it
// is the same file.
func TestDiagramsFile(t *testing.T) {
	want := smallV3(t)
	var buf bytes.Buffer
	if err := want.Save(&buf); err != nil {
		t.Fatal(err)
	}
	file := buf.String()
	if !strings.Contains(file, `"version":3`) || !strings.HasSuffix(file, smallV3Diagrams+"}\n") || strings.Contains(file, `"support"`) {
		t.Fatalf("file:\n%s\nwant version 3 ending in %s and no support images", file, smallV3Diagrams)
	}
	got, err := Load(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Diagrams, want.Diagrams) {
		t.Errorf("diagrams %v, want %v", got.Diagrams, want.Diagrams)
	}
	for i, img := range want.Support {
		if !bitEqual(got.Support[i], img) {
			t.Errorf("support image %d: %v, want %v", i, got.Support[i], img)
		}
	}
	if again := encode(t, got) + "\n"; again != file {
		t.Errorf("saved again:\n%s\nwant\n%s", again, file)
	}
}

// TestLoadRejectsV3: damaged diagrams are refused, saying where.
func TestLoadRejectsV3(t *testing.T) {
	tests := []struct {
		name, want string
		old, new   string // replaced in the file of smallV3
	}{
		{"odd list", "support vector 0 descriptor 0 sub-diagram 0: 3 numbers, want birth-death pairs", "[0.5,1.5]", "[0.5,1.5,3]"},
		{"three sub-diagrams", "support vector 1 descriptor 0: 3 sub-diagrams, want 4", "[[[1,2.25],[],[],[]]]", "[[[1,2.25],[],[]]]"},
		{"two descriptors", "support vector 1: diagrams of 2 descriptors, the features have 1", "[[[1,2.25],[],[],[]]]", "[[[1,2.25],[],[],[]],[[],[],[],[]]]"},
		{"no descriptors", "support vector 1: diagrams of 0 descriptors", "[[[1,2.25],[],[],[]]]", "null"},
		{"one support vector", "SVM expects 2 support images, file has 1", ",[[[1,2.25],[],[],[]]]]", "]"},
		{"NaN", "not valid JSON", "1.5", "NaN"},
		{"infinite", "cannot unmarshal number 1e999", "1.5", "1e999"},
		{"not numbers", "support vectors' diagrams (version 3)", "[0.5,1.5]", `["0.5","1.5"]`},
		{"no diagrams", "no diagrams", smallV3Diagrams, `"name":"x"`},
		{"images too", "support images in a file of version 3", smallV3Diagrams, smallV3Diagrams + `,"support":[]`},
		{"diagrams in version 2", "diagrams in a file of version 2", `"version":3`, `"version":2`},
		{"bad grid", "grid", `"rows":2,"cols":3`, `"rows":2,"cols":-3`},
	}
	file := encode(t, smallV3(t))
	for _, tt := range tests {
		if !strings.Contains(file, tt.old) {
			t.Fatalf("%s: %q not in %s", tt.name, tt.old, file)
		}
		_, err := Load(strings.NewReader(strings.Replace(file, tt.old, tt.new, 1)))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// TestDecodeDiagramsTooMany: more points than the cap are refused
// (Load's cap is 4 M points, too many for a test file).
func TestDecodeDiagramsTooMany(t *testing.T) {
	file := [][][][]float64{{{{0, 1, 0, 2}, {}, {0, 2}, {}}}}
	if _, err := decodeDiagrams(file, 1, 3); err != nil {
		t.Errorf("3 points, cap 3: %v", err)
	}
	if _, err := decodeDiagrams(file, 1, 2); err == nil || !strings.Contains(err.Error(), "over 2 diagram points") {
		t.Errorf("3 points, cap 2: error %v", err)
	}
}

// TestNewKeepsDiagrams: New keeps the support vectors' diagrams (graphs
// 0 and 2 of three) when they render to the images, and not when an
// image differs from its rendering in one bit: that model is written as
// version 2, with its images.
func TestNewKeepsDiagrams(t *testing.T) {
	path, err := graph.New(3, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	star, err := graph.New(4, []graph.Edge{{U: 0, V: 1}, {U: 0, V: 2}, {U: 0, V: 3}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	cycle, err := graph.New(4, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 0}, {U: 0, V: 2}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ds := &graph.Dataset{Graphs: []*graph.Graph{path, star, cycle}, Labels: []int{0, 1, 0}, Classes: []string{"a", "b"}}
	s := small().Features
	s.Tau = 0
	set, err := features.Compute(t.Context(), ds, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	trained := func() (*Model, string) {
		t.Helper()
		m, err := New(Trained{
			Dataset: "toy", Classes: ds.Classes, Set: set, Train: []int{0, 1, 2},
			Weight: small().Weight, Sigma: 0.1, Variant: kernel.WKPI, C: 1,
			SVM: &svm.Model{Classes: 2, N: 3, Pairs: []svm.Binary{{A: 0, B: 1, SV: []int{0, 2}, Coef: []float64{1, -1}}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		return m, encode(t, m)
	}
	m, file := trained()
	want := [][]persistence.Diagrams{set.GraphDiagrams(0), set.GraphDiagrams(2)}
	if !reflect.DeepEqual(m.Diagrams, want) || !strings.Contains(file, `"version":3`) {
		t.Errorf("diagrams %v, want %v, in a file of version 3: %s", m.Diagrams, want, file)
	}
	img := set.Images[2]
	img.Val[0] = math.Nextafter(img.Val[0], 2)
	if m, file = trained(); m.Diagrams != nil || !strings.Contains(file, `"version":2`) {
		t.Errorf("an image that is not its rendering: diagrams %v, file %s", m.Diagrams, file)
	}
}
