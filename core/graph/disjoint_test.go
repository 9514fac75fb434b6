package graph

import "testing"

// TestDisjointSets links roots as the sweeps do and checks every
// element's root against the sets worked out by hand, twice, so that
// the second pass reads the halved paths.
func TestDisjointSets(t *testing.T) {
	d := NewDisjointSets(7)
	for _, link := range [][2]int{{0, 1}, {1, 2}, {3, 4}, {0, 3}} { // 4 -> 3 -> 0: a path to halve
		d[link[1]] = d.Find(link[0])
	}
	want := []int{0, 0, 0, 0, 0, 5, 6}
	for pass := range 2 {
		for x, r := range want {
			if got := d.Find(x); got != r {
				t.Errorf("pass %d: Find(%d) = %d, want %d", pass, x, got, r)
			}
		}
	}
}
