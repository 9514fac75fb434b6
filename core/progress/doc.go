// Package progress is the one callback type that the pipeline's
// long-running calls take (features, kernels, learning, cross-validation,
// evaluation and comparison), so that a CLI, a Web Worker or a test can
// watch work advance (stage, done of total) without the stages knowing
// who listens. It imports no other package of the pipeline.
package progress
