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
// The protocol imports no core package but core/wire, a leaf of the
// standard library alone: the page's binary links it, and nothing of the
// pipeline. Persistence diagrams, explanations and a molecule file's
// options, columns and bad records are core/wire's types, which the
// pipeline uses as its own (diagrams.go, explain.go, data.go). Where the
// page needs only part of a core result (a fold, a report, the
// comparison's methods) the protocol has plain types with the same JSON
// (results.go, methods.go), which package wasm/jobs fills.
//
// Adding a job: add a Kind, its parameters to Request and its result to
// Response (or to Response.Arrays for large float data), and a handler in
// package wasm/jobs.
package protocol
