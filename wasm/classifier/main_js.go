// Command classifier is the Web Worker's Go program for the jobs that
// classifying with a model takes (protocol.JobKind.Classifier): checking
// a model, classifying and explaining graphs, reading a file's columns.
// It links none of the training code, so it is a quarter smaller to
// download than wasm/worker; the page's pool starts it for those jobs
// when no full worker is idle, which makes a published classifier's
// first visit lighter. public/worker.js loads it in a Web Worker named
// "classifier".
package main

import "wkpi-web/wasm/jobs"

func main() {
	var c jobs.Classifier
	jobs.Serve(c.Run, c.Track, nil)
}
