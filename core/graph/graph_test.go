package graph

import (
	"errors"
	"reflect"
	"testing"
)

func TestNewNormalises(t *testing.T) {
	// Each undirected edge listed in both directions and twice over, as
	// IMDB-BINARY does; the first label seen is kept.
	edges := []Edge{{1, 0}, {0, 1}, {2, 1}, {1, 2}, {0, 1}, {1, 0}, {2, 1}, {1, 2}}
	labels := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	g, err := New(4, edges, labels, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Edge{{0, 1}, {1, 2}}; !reflect.DeepEqual(g.Edges, want) {
		t.Errorf("edges = %v, want %v", g.Edges, want)
	}
	if want := []string{"a", "c"}; !reflect.DeepEqual(g.EdgeLabels, want) {
		t.Errorf("edge labels = %v, want %v", g.EdgeLabels, want)
	}
	comp, count := g.Components()
	if count != 2 || !reflect.DeepEqual(comp, []int{0, 0, 0, 1}) {
		t.Errorf("components = %v (%d), want [0 0 0 1] (2)", comp, count)
	}
	if want := [][]int{{1}, {0, 2}, {1}, nil}; !reflect.DeepEqual(g.Neighbors(), want) {
		t.Errorf("neighbours = %v, want %v", g.Neighbors(), want)
	}
}

func TestNewRejects(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		edges  []Edge
		labels []string
		nodes  []string
	}{
		{"out of range", 2, []Edge{{0, 2}}, nil, nil},
		{"negative", 2, []Edge{{-1, 0}}, nil, nil},
		{"self-loop", 2, []Edge{{1, 1}}, nil, nil},
		{"edge labels", 2, []Edge{{0, 1}}, []string{}, nil},
		{"node labels", 2, nil, nil, []string{"x"}},
		{"negative count", -1, nil, nil, nil},
	}
	for _, tt := range tests {
		if _, err := New(tt.n, tt.edges, tt.labels, tt.nodes); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
	if _, err := New(2, []Edge{{1, 1}}, nil, nil); !errors.Is(err, ErrSelfLoop) {
		t.Errorf("self-loop error %v does not wrap ErrSelfLoop", err)
	}
}

func TestClassIndex(t *testing.T) {
	tests := []struct {
		raw     []string
		labels  []int
		classes []string
	}{
		{[]string{"1", "-1", "1"}, []int{1, 0, 1}, []string{"-1", "1"}},
		{[]string{"2", "1", "10"}, []int{1, 0, 2}, []string{"1", "2", "10"}},
		{[]string{"b", "a", "10"}, []int{2, 1, 0}, []string{"10", "a", "b"}},
		{nil, []int{}, nil},
	}
	for _, tt := range tests {
		labels, classes := ClassIndex(tt.raw)
		if !reflect.DeepEqual(labels, tt.labels) || !reflect.DeepEqual(classes, tt.classes) {
			t.Errorf("ClassIndex(%q) = %v, %q; want %v, %q", tt.raw, labels, classes, tt.labels, tt.classes)
		}
	}
}

func TestRenumbered(t *testing.T) {
	// C0-N1=O2 with values and atoms, numbered O0 C1 N2.
	g, err := New(3, []Edge{{U: 0, V: 1}, {U: 1, V: 2}}, []string{"1", "2"}, []string{"C", "N", "O"})
	if err != nil {
		t.Fatal(err)
	}
	g.NodeValues = []float64{0.5, 1.5, 2.5}
	g.Atoms = []Atom{{Hydrogens: 3}, {Charge: 1}, {Charge: -1}}
	h := g.Renumbered([]int{1, 2, 0})
	want := &Graph{N: 3, Edges: []Edge{{U: 0, V: 2}, {U: 1, V: 2}}, EdgeLabels: []string{"2", "1"}, NodeLabels: []string{"O", "C", "N"},
		NodeValues: []float64{2.5, 0.5, 1.5}, Atoms: []Atom{{Charge: -1}, {Hydrogens: 3}, {Charge: 1}}}
	if !reflect.DeepEqual(h, want) {
		t.Errorf("renumbered %+v, want %+v", h, want)
	}
}
