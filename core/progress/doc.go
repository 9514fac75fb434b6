// Package progress is the one callback type that every long-running call
// of the pipeline takes, so that a CLI, a Web Worker or a test can watch
// work advance (stage, done of total) without the stages knowing who listens.
package progress
