package progress

import (
	"sync"
	"testing"
)

func TestCounterConcurrent(t *testing.T) {
	var reports []int
	f := Func(func(stage string, done, total int) {
		if stage != "work" || total != 400 {
			t.Errorf("report %q %d/%d", stage, done, total)
		}
		reports = append(reports, done) // Counter serialises the calls
	})
	tick := f.Counter("work", 400)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				tick()
			}
		}()
	}
	wg.Wait()
	for i, d := range reports {
		if d != i+1 {
			t.Fatalf("report %d says %d done, want %d", i, d, i+1)
		}
	}
	if len(reports) != 400 {
		t.Errorf("%d reports, want 400", len(reports))
	}
	Func(nil).Counter("x", 1)() // a nil Func ignores reports
}

func TestPrefixed(t *testing.T) {
	var got []string
	f := Func(func(stage string, done, total int) { got = append(got, stage) }).Prefixed("final ")
	f.Report("learn", 1, 2)
	f.Counter("gram", 3)()
	if want := []string{"final learn", "final gram"}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("reports %q, want %q", got, want)
	}
	if Func(nil).Prefixed("final ") != nil {
		t.Error("a nil Func prefixed is not nil")
	}
}
