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
