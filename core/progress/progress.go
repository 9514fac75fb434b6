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
	add := f.Weighted(stage, total)
	return func() { add(1) }
}

// Weighted is Counter for parts of unequal size: the function returned
// counts w more units done. A pass over the pairs of n graphs counts
// row i as its n-1-i pairs, so that the count grows with the work.
func (f Func) Weighted(stage string, total int) func(w int) {
	var mu sync.Mutex
	done := 0
	return func(w int) {
		mu.Lock()
		defer mu.Unlock()
		done += w
		f.Report(stage, done, total)
	}
}

// Prefixed returns f with prefix before every stage's name ("final " for
// a final model trained after a cross-validation's folds, whose stages
// would otherwise share the folds' names); nil when f is nil.
func (f Func) Prefixed(prefix string) Func {
	if f == nil {
		return nil
	}
	return func(stage string, done, total int) { f(prefix+stage, done, total) }
}
