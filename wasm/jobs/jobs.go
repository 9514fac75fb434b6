package jobs

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
	"wkpi-web/core/model"
	"wkpi-web/core/progress"
	"wkpi-web/core/scaffold"
	"wkpi-web/core/spec"
	"wkpi-web/core/tu"
	"wkpi-web/wasm/protocol"
)

// Worker is the state of one worker: the dataset it holds.
type Worker struct {
	key string
	ds  *graph.Dataset
	// source says how a molecule file became ds; nil for TU and SWC.
	source *protocol.DataSource
	// codes is the dataset's node-label code table from its README.txt
	// (tu.NodeLabelNames), nil when it has none; edgeCodes its edge-label
	// table (tu.EdgeLabelNames), which a scaffold split reads bonds by.
	codes, edgeCodes map[string]string
	// feats are the features of dataset featKey computed last: of one
	// setting, one per node-label vocabulary (the folds of a CV may fit
	// different ones, and each is computed once however they alternate).
	feats   []cachedFeatures
	featKey string
	// job counts the jobs run, so that a job's progress plans only the
	// feature sets it takes (cachedFeatures.job), not those an earlier
	// job of the same settings left.
	job int
	// sized is the size-aware variant of sizedOf (the automatic choice's
	// second candidate), kept while sizedOf is the features in use.
	sized, sizedOf *eval.WKPI
	// prepared is the model whose JSON is preparedOf, kept for the next
	// Predict or Explain job: reading a model and weighing its support
	// images costs more than one prediction or explanation.
	prepared   *model.Prepared
	preparedOf []byte
}

// Classifier is the worker of the classifier program (wasm/classifier):
// it runs only the kinds of job that classifying with a model takes
// (protocol.JobKind.Classifier), so that the program links none of the
// training code and a published classifier's first visit downloads less.
type Classifier struct{ w Worker }

// Run does one job of a classifier kind as Worker.Run does it; any other
// kind fails, naming the kind.
func (c *Classifier) Run(ctx context.Context, req protocol.Request, report progress.Func, fold func(protocol.Fold)) protocol.Response {
	if _, known := req.Kind.About(); known && !req.Kind.Classifier() {
		return protocol.Response{ID: req.ID, Event: protocol.Failed, Error: fmt.Sprintf("the classifier program does not do %q jobs", req.Kind)}
	}
	return c.w.runWith(c.w.classifierHandlers(), ctx, req, report, fold)
}

// Track gives each progress report of job req to out as it is: the
// classifier's jobs are short and have no planned stages.
func (c *Classifier) Track(req protocol.Request, now func() time.Time, out func(progress.Status)) progress.Func {
	return counterOnly(out)
}

// Run does one job. It always returns a Done or Failed Response for req.ID;
// errors become Failed with a message meant for the user. A CrossValidate
// job also gives each fold to fold (when not nil) as soon as it finishes,
// before the Done that holds them all.
func (w *Worker) Run(ctx context.Context, req protocol.Request, report progress.Func, fold func(protocol.Fold)) protocol.Response {
	return w.runWith(w.handlers(), ctx, req, report, fold)
}

func (w *Worker) runWith(handlers map[protocol.Kind]handler, ctx context.Context, req protocol.Request, report progress.Func, fold func(protocol.Fold)) protocol.Response {
	resp, err := w.run(handlers, ctx, req, report, fold)
	if err != nil {
		return protocol.Response{ID: req.ID, Event: protocol.Failed, Error: err.Error(), Bad: failedRecords(err)}
	}
	resp.ID, resp.Event = req.ID, protocol.Done
	return resp
}

func (w *Worker) run(handlers map[protocol.Kind]handler, ctx context.Context, req protocol.Request, report progress.Func, fold func(protocol.Fold)) (protocol.Response, error) {
	kind, known := req.Kind.About()
	do := handlers[req.Kind]
	if !known || do == nil {
		return protocol.Response{}, fmt.Errorf("unknown job kind %q", req.Kind)
	}
	w.job++
	c := call{ctx: ctx, req: req, report: report, fold: fold}
	if kind.ReadsDataset {
		var err error
		if c.ds, err = w.dataset(req); err != nil {
			return protocol.Response{}, err
		}
	}
	return do(c)
}

// call is one job as its handler gets it.
type call struct {
	ctx context.Context
	req protocol.Request
	// ds is the request's dataset for the kinds that read one
	// (protocol.JobKind.ReadsDataset), else nil.
	ds     *graph.Dataset
	report progress.Func
	fold   func(protocol.Fold)
}

// handler does one kind of job.
type handler func(call) (protocol.Response, error)

// handlers returns the function that does each kind of job, one per row
// of protocol.Kinds.
func (w *Worker) handlers() map[protocol.Kind]handler {
	h := map[protocol.Kind]handler{
		protocol.Load: func(c call) (protocol.Response, error) {
			s := Summarise(c.ds)
			s.Source = w.source
			codes := &features.Codes{Nodes: w.codes, Edges: w.edgeCodes}
			s.Molecules = features.AreMolecules(c.ds.Graphs, codes)
			if !s.Molecules {
				types := features.AtomCodes(c.ds.Graphs, codes)
				s.AtomTypes = types[:min(len(types), spec.AtomTypeGroups)]
			}
			return protocol.Response{Summary: s}, nil
		},
		protocol.Draw: func(c call) (protocol.Response, error) {
			g, err := pick(c.ds, c.req.Graph)
			if err != nil {
				return protocol.Response{}, err
			}
			d, x, y := Layout(g, c.ds.Classes[c.ds.Labels[c.req.Graph]])
			d.Graph = c.req.Graph
			d.Molecule, d.LayOut = w.molecule(c.ds, c.req.Graph)
			return protocol.Response{Drawing: &d, Arrays: map[string][]float64{"x": x, "y": y}}, nil
		},
		protocol.Explore: func(c call) (protocol.Response, error) { return w.explore(c.ctx, c.ds, c.req, c.report) },
		protocol.ChoiceScores: func(c call) (protocol.Response, error) {
			return w.choiceScores(c.ctx, c.ds, c.req.Training, c.report)
		},
		protocol.CrossValidate: func(c call) (protocol.Response, error) {
			return w.crossValidate(c.ctx, c.ds, c.req.Training, c.report, c.fold)
		},
		protocol.Train:   func(c call) (protocol.Response, error) { return w.train(c.ctx, c.ds, c.req.Training, c.report) },
		protocol.Compare: func(c call) (protocol.Response, error) { return w.compare(c.ctx, c.ds, c.req.Compare, c.report) },
		protocol.MergeCV: func(c call) (protocol.Response, error) { return mergeCV(c.req.Parts) },
	}
	for k, do := range w.classifierHandlers() {
		h[k] = do
	}
	return h
}

// classifierHandlers returns the handlers of the kinds the classifier
// program runs (protocol.JobKind.Classifier).
func (w *Worker) classifierHandlers() map[protocol.Kind]handler {
	return map[protocol.Kind]handler{
		protocol.InspectData: func(c call) (protocol.Response, error) { return inspectData(c.req) },
		protocol.Inspect: func(c call) (protocol.Response, error) {
			_, resp, err := inspect(c.req.Model)
			return resp, err
		},
		protocol.Predict: func(c call) (protocol.Response, error) { return w.predict(c.ctx, c.req, c.report) },
		protocol.Explain: func(c call) (protocol.Response, error) { return w.explainOne(c.ctx, c.req) },
	}
}

// molecule is graph i of ds as a molecule to draw: the SMILES or molfile
// of its file (as Explain draws it), else for a TU dataset whose README
// names its label codes (MUTAG's node 0 is C, edge 0 aromatic) a molfile
// written from them, to lay out (true); "" when the graph is not a
// molecule (PROTEINS, REDDIT, neurons).
func (w *Worker) molecule(ds *graph.Dataset, i int) (string, bool) {
	if i < len(ds.Molecules) && ds.Molecules[i] != "" {
		return ds.Molecules[i], false
	}
	if w.codes == nil {
		return "", false
	}
	m, err := scaffold.Molecule(ds.Graphs[i], w.codes, w.edgeCodes)
	if err != nil {
		return "", false
	}
	name := ""
	if i < len(ds.Names) {
		name = ds.Names[i]
	}
	text, err := graphfile.Molfile(name, m)
	if err != nil {
		return "", false
	}
	return text, true
}

// dataset parses req.Files when given (replacing the held dataset), and
// otherwise returns the held dataset if its key matches.
func (w *Worker) dataset(req protocol.Request) (*graph.Dataset, error) {
	if len(req.Files) > 0 {
		ds, src, err := readDataset(req.Files)
		if err != nil {
			return nil, err
		}
		w.key, w.ds, w.source, w.feats, w.codes = req.Dataset, ds, src, nil, codeTable(req.Files)
		w.edgeCodes = readmeTable(req.Files, tu.ZipEdgeLabelNames, tu.EdgeLabelNames)
		return ds, nil
	}
	if w.ds == nil || w.key != req.Dataset {
		return nil, fmt.Errorf("worker does not hold dataset %q", req.Dataset)
	}
	return w.ds, nil
}

// Parse reads a dataset given as its files: a TU dataset's text files or
// zip, a zip of SWC neurons with a labels.csv, or one molecule table, SD
// file or GraphML collection read with its options.
func Parse(files []protocol.File) (*graph.Dataset, error) {
	ds, _, err := readDataset(files)
	return ds, err
}

// codeTable reads the node-label code table of a dataset's README.txt, in
// its zip or among its files. A README is documentation: one whose table
// cannot be read leaves the codes as codes (nil), and a molfile sent to a
// node-label model then gets an error saying no code table is known.
func codeTable(files []protocol.File) map[string]string {
	return readmeTable(files, tu.ZipNodeLabelNames, tu.NodeLabelNames)
}

// readmeTable reads one code table of a dataset's README.txt, as
// codeTable reads the node table.
func readmeTable(files []protocol.File, fromZip func(*zip.Reader) (map[string]string, error), fromText func([]byte) (map[string]string, error)) map[string]string {
	for _, f := range files {
		var t map[string]string
		var err error
		switch {
		case strings.EqualFold(path.Ext(f.Name), ".zip"):
			var zr *zip.Reader
			if zr, err = zip.NewReader(bytes.NewReader(f.Data), int64(len(f.Data))); err == nil {
				t, err = fromZip(zr)
			}
		case path.Base(f.Name) == "README.txt":
			t, err = fromText(f.Data)
		}
		if err == nil && t != nil {
			return t
		}
	}
	return nil
}

func pick(ds *graph.Dataset, i int) (*graph.Graph, error) {
	if i < 0 || i >= len(ds.Graphs) {
		return nil, fmt.Errorf("graph %d does not exist: the dataset has graphs 0..%d", i, len(ds.Graphs)-1)
	}
	return ds.Graphs[i], nil
}

// errCanceled is returned when the context ends between chunks of work.
var errCanceled = errors.New("canceled")
