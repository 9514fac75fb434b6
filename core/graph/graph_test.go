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
