package wire

import (
	"encoding/json"
	"math"
	"testing"
)

func TestPointJSON(t *testing.T) {
	for _, c := range []struct {
		p    Point
		text string
	}{
		{Point{1, 2.5}, `[1,2.5]`},
		{Point{-0.125, math.Inf(1)}, `[-0.125,"Infinity"]`},
		{Point{3, math.Inf(-1)}, `[3,"-Infinity"]`},
		{Point{1e-300, 7}, `[1e-300,7]`},
	} {
		b, err := json.Marshal(c.p)
		if err != nil || string(b) != c.text {
			t.Errorf("Marshal(%v) = %s, %v; want %s", c.p, b, err, c.text)
		}
		var back Point
		if err := json.Unmarshal([]byte(c.text), &back); err != nil || back != c.p {
			t.Errorf("Unmarshal(%s) = %v, %v; want %v", c.text, back, err, c.p)
		}
	}
	if _, err := json.Marshal(Point{math.NaN(), 0}); err == nil {
		t.Error("Marshal accepted NaN")
	}
	for _, bad := range []string{`[1]`, `[1,2,3]`, `{"b":1}`, `[1,"inf"]`, `[1,true]`} {
		var p Point
		if err := json.Unmarshal([]byte(bad), &p); err == nil {
			t.Errorf("Unmarshal(%s) accepted", bad)
		}
	}
	// Diagrams round-trip through their JSON field names.
	d := Diagrams{Ord0: []Point{{0, 1}}, Ext1: []Point{{2, 1}}}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"ord0":[[0,1]],"rel1":null,"ext0":null,"ext1":[[2,1]]}`; string(b) != want {
		t.Errorf("Marshal(Diagrams) = %s, want %s", b, want)
	}
}
