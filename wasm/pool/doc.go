// Package pool runs jobs on a small pool of Web Workers from the page.
//
// Jobs queue in submission order and go to an idle worker; workers start
// lazily, up to the pool's size. Interactive jobs (loading, drawing,
// exploring, classifying, explaining: protocol.JobKind.Interactive)
// overtake queued heavy ones (cross-validation, training), at most size heavy jobs run at once, and while any runs an
// interactive job may start one worker beyond the size: the page answers
// while a long computation fills the pool. A job gets progress and partial results,
// then exactly one of done or fail. Cancel ends a job at once: a queued job is dropped, a
// running one has its worker terminated and replaced, because a Go WASM
// worker busy in a loop does not return to the JavaScript event loop, so
// a "cancel" message would be read only after the job ends.
//
// A worker that dies (uncaught error, out of memory, Go runtime exit) is
// replaced; its job is retried once on a fresh worker and fails with a
// clear error the second time. Each worker holds one parsed dataset: the
// pool attaches a dataset's files to a job only when the chosen worker
// does not hold that dataset.
//
// A pool may have a second program, the classifier (SetClassifier), a
// smaller download that does only what classifying with a model takes
// (protocol.JobKind.Classifier): such jobs start classifiers when no
// worker is idle, and other jobs full workers, which take the place of
// idle classifiers when the pool is full.
//
// The pool logic is plain Go and tested natively with fake workers; the
// browser Worker behind Conn is in worker_js.go.
package pool
