package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/pool"
	"wkpi-web/wasm/protocol"
)

// Backend is what the UI needs from the browser side; wasm/app implements
// it with a worker pool, fetch and IndexedDB. Callbacks may run on any
// goroutine; the components move them onto the UI goroutine.
type Backend interface {
	// Submit runs a job on the worker pool; Cancel ends it.
	Submit(req protocol.Request, h pool.Handler) int64
	Cancel(id int64)
	// Size is how many jobs run at once.
	Size() int
	// Demo makes a bundled dataset (e.g. MUTAG) the current one and
	// returns its key for Request.Dataset.
	Demo(name string, done func(key string, err error))
	// Register makes files (read with ReadFiles; a molecule file with the
	// options chosen for it) a dataset and returns its key for
	// Request.Dataset (protocol.DatasetKey).
	Register(files []protocol.File) string
	// Save keeps dataset key for the next visit (called once it loaded
	// without error, so a broken upload is not restored).
	Save(key string)
	// Restore returns the key of the dataset saved by an earlier visit, or
	// "" when there is none.
	Restore(done func(key string))
	// ReadFiles reads a JS array of File into memory.
	ReadFiles(files app.Value, done func([]protocol.File, error))
	// Put keeps data under key for the next visit (the models, the last
	// results); Get returns it, nil when there is none.
	Put(key string, data []byte)
	Get(key string, done func(data []byte))
	// ObjectURL makes a URL for data (for a download link); RevokeURL
	// frees it.
	ObjectURL(data []byte, mime string) string
	RevokeURL(url string)
}

// Demos are the datasets bundled with the site, ready offline.
var Demos = []string{"MUTAG", "PTC_MR"}

// Register routes the app's single page to Root with backend b (nil when
// prerendering). The same call runs in the browser and in cmd/static.
func Register(b Backend) {
	app.Route("/", func() app.Composer { return &Root{Backend: b} })
}
