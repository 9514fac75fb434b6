package progress

import "sync"

// Func receives progress reports. A nil Func is valid and ignores them.
type Func func(stage string, done, total int)

// Report calls f when it is not nil.
func (f Func) Report(stage string, done, total int) {
	if f != nil {
		f(stage, done, total)
	}
}

// Counter returns a goroutine-safe function that counts one more unit of
// work done and reports stage, the count and total: the way parallel
// parts of one computation share a single progress line.
func (f Func) Counter(stage string, total int) func() {
	var mu sync.Mutex
	done := 0
	return func() {
		mu.Lock()
		defer mu.Unlock()
		done++
		f.Report(stage, done, total)
	}
}
