// Package progress is the one callback type that the pipeline's
// long-running calls take (features, kernels, learning, cross-validation,
// evaluation and comparison), so that a CLI, a Web Worker or a test can
// watch work advance (stage, done of total) without the stages knowing
// who listens, and the one model of a job's progress that the CLI's line
// and the page's bar show: a Tracker of the job's Stages, each weighed by
// its cost and known before the job starts (eval.Work), turns the reports
// into a Status whose share done never goes back and whose time left
// extrapolates the rate so far; a Run makes one Status of jobs that run
// together. It imports no other package of the pipeline.
package progress
