// Command worker is the Web Worker's Go program (GOOS=js GOARCH=wasm): it
// answers protocol Requests posted by the page's pool with protocol
// Responses, running every kind of job with package wasm/jobs and warming
// up while idle. public/worker.js loads it.
package main

import (
	"runtime/debug"

	"wkpi-web/wasm/jobs"
)

// memoryLimit is the size past which the collector works harder instead
// of letting the heap grow to twice what is live (debug.SetMemoryLimit; a
// soft limit, so a job that needs more still gets it). WebAssembly memory
// never shrinks: an NCI1 CV has up to 626 MB live, so its heap goal
// reaches 1,252 MB, and one worker of a browser run once kept 1,664 MB
// for work its twin did in 538 MB.
const memoryLimit = 1 << 30

func main() {
	debug.SetMemoryLimit(memoryLimit)
	var w jobs.Worker
	jobs.Serve(w.Run, w.Track, jobs.Warm)
}
