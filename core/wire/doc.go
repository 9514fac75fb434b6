// Package wire holds the plain data types of the pipeline's results that
// the page shows: persistence diagrams (Point, Diagrams), an explanation
// of a prediction (Explanation and its scores), a molecule file's dataset
// options, columns and bad records (DatasetOptions, Column, Skipped), a
// learning trace (Trace) and a paired comparison of two methods (Paired),
// with their JSON form.
//
// The pipeline's packages use them as their own (persistence.Diagrams,
// explain.Explanation, dataset.Options, learn.Trace and crossval.Paired
// are aliases of these types) and wasm/protocol sends them to the page as
// they are, so there is one definition and one JSON form of each, not a
// copy per side.
//
// The package imports only the standard library: the page's binary links
// it without linking the pipeline.
package wire
