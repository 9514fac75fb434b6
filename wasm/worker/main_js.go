// Command worker is the Web Worker's Go program (GOOS=js GOARCH=wasm): it
// answers protocol Requests posted by the page's pool with protocol
// Responses, running every kind of job with package wasm/jobs and warming
// up while idle. public/worker.js loads it.
package main

import "wkpi-web/wasm/jobs"

func main() {
	var w jobs.Worker
	jobs.Serve(w.Run, w.Track, jobs.Warm)
}
