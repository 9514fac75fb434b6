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
	app.Route("/", func() app.Composer { return newRoot(b) })
}

// savedDataset is what loads while OnMount restores the dataset of an
// earlier visit.
const savedDataset = "saved dataset"

// newRoot is the page on backend b. With a backend it renders as restoring
// the saved dataset from its first render on, not only after OnMount: the
// buttons that load a dataset stay disabled until the saved one is back, so
// the restore cannot undo a click made in between. So does the current
// model (modelsState.restoring): Classify waits for it.
func newRoot(b Backend) *Root {
	r := &Root{Backend: b}
	if b != nil {
		r.data.loading = savedDataset
		r.models.restoring = true
	}
	return r
}

// Depicter is a Backend that draws molecules as chemists draw them
// (wasm/app's, with RDKit MinimalLib loaded on first use). Without one,
// or when it fails, the Explain view draws the graph's own layout.
type Depicter interface {
	// Depict calls done with the SVG text of the drawing, or an error
	// when the molecule cannot be drawn with its atoms and bonds as the
	// graph's nodes and edges.
	Depict(d Depiction, done func(svg string, err error))
}

// Depiction is a molecule to draw, its atoms and bonds in colours if
// given.
type Depiction struct {
	Molecule string `json:"molecule"` // SMILES or molfile; atom i is graph node i
	// LayOut says Molecule is a molfile without coordinates, to lay out.
	LayOut bool `json:"layOut"`
	// Nodes is the graph's number of nodes, which RDKit's atoms must be.
	Nodes int          `json:"nodes"`
	Atoms [][3]float64 `json:"atoms"` // colour (RGB in [0,1]) of each atom; none leaves RDKit's
	Bonds []BondColour `json:"bonds"` // colour of every bond; none leaves RDKit's
	// Numbers writes each atom's number (its node, from 0) beside it.
	Numbers bool `json:"numbers"`
	Width   int  `json:"width"` // of the drawing, in pixels
	Height  int  `json:"height"`
}

// BondColour is the colour of the bond between atoms U and V.
type BondColour struct {
	U      int        `json:"u"`
	V      int        `json:"v"`
	Colour [3]float64 `json:"colour"`
}

// MaxWorkers caps the page's pool of Web Workers, one per processor core
// below it: each worker is a Go runtime with its own heap and its own copy
// of the dataset's features (NCI1: about 1 GB).
const MaxWorkers = 4
