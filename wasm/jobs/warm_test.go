package jobs

import (
	"context"
	"testing"
)

func TestWarm(t *testing.T) {
	idles := 0
	if err := Warm(context.Background(), func() { idles++ }); err != nil {
		t.Fatal(err)
	}
	if idles != 2 {
		t.Errorf("idle called %d times, want once before each of the 2 steps", idles)
	}
	ctx, cancel := context.WithCancel(context.Background())
	idles = 0
	if err := Warm(ctx, func() { idles++; cancel() }); err != nil {
		t.Fatal(err)
	}
	if idles != 1 {
		t.Errorf("after cancel: idle called %d times, want 1 (no step runs)", idles)
	}
	ds, err := warmDataset()
	if err != nil {
		t.Fatal(err)
	}
	count := [2]int{}
	for i, g := range ds.Graphs {
		count[ds.Labels[i]]++
		if g.N < 10 || len(g.Edges) < g.N {
			t.Errorf("graph %d: %d nodes, %d edges; want a ring of at least 10 nodes", i, g.N, len(g.Edges))
		}
	}
	if count != [2]int{12, 12} {
		t.Errorf("classes %v, want 12 and 12", count)
	}
}
