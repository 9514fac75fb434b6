// Package jobs runs the worker's jobs: it turns a protocol.Request into a
// protocol.Response using the core packages. It has no syscall/js, so the
// same code runs natively in tests and in the Web Worker (wasm/worker).
//
// A Worker holds the one dataset its worker last parsed, so that jobs on
// the same dataset (draw graph 3, explore graph 3 with Ricci, ...) do not
// parse it again, and the features of that dataset under the last
// feature settings, so that the jobs of one cross-validation (some folds
// each, then the final Train) compute them once per worker. Worker.Run
// finds each kind's handler in one table (handlers, one per row of
// protocol.Kinds), after reading the dataset for the kinds that read one
// (protocol.JobKind.ReadsDataset). Jobs that read no dataset (Inspect,
// InspectData, Predict, Explain, MergeCV) carry their inputs: a model's
// JSON, graph files, a molecule file to inspect, the parts of a
// cross-validation. A dataset is a TU dataset's files or zip, a zip of
// SWC neurons with a labels.csv, or one molecule table, SD file or
// GraphML collection with the options it is read with (data.go, through
// core/dataset); a Load that fails on records that cannot be read lists
// them in Response.Bad. convert.go turns core results into the
// protocol's plain mirrors. docs/development.md says how to add a job.
package jobs
