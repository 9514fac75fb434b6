// Package progress is the one callback type that every long-running call
// of the pipeline takes, so that a CLI, a Web Worker or a test can watch
// work advance (stage, done of total) without the stages knowing who listens.
package progress

// Func receives progress reports. A nil Func is valid and ignores them.
type Func func(stage string, done, total int)

// Report calls f when it is not nil.
func (f Func) Report(stage string, done, total int) {
	if f != nil {
		f(stage, done, total)
	}
}
