// Package protocol is the typed message protocol between the page and its
// Web Workers: plain Go structs, no syscall/js, so both sides (and native
// tests) share one definition.
//
// A job is a Request with an ID and a Kind; the worker answers with zero or
// more Progress Responses (and, for a cross-validation, a Partial Response
// per fold as it finishes) and then exactly one Done or Failed Response
// with the same ID. A Request names the dataset it reads by key; the pool
// attaches the dataset's Files only when the worker does not hold that
// dataset yet, so a dataset is parsed once per worker, not once per job.
//
// On postMessage a message travels as an Envelope: a JSON header and binary
// blobs (file contents, float arrays, a model's JSON) whose ArrayBuffers
// are transferred, not copied.
//
// The protocol imports no core package: the page's binary links it, and
// nothing of the pipeline. Where the page needs results of core types (a
// fold, a report, persistence diagrams, the comparison's method names) the
// protocol has plain mirrors with the same JSON (results.go, diagrams.go,
// methods.go), which package wasm/jobs fills.
//
// Adding a job: add a Kind, its parameters to Request and its result to
// Response (or to Response.Arrays for large float data), and a handler in
// package wasm/jobs.
package protocol
