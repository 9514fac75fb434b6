package protocol

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"wkpi-web/core/progress"
	"wkpi-web/core/spec"
	"wkpi-web/core/wire"
)

// Kind names a job.
type Kind string

const (
	// Load parses the dataset and summarises it. A Load that fails on
	// records of a molecule file that cannot be read lists them in
	// Response.Bad.
	Load Kind = "load"
	// InspectData lists what the one file of Request.Inputs (a molecule
	// table, an SD file or a GraphML collection, read with the file's
	// Options) offers as a dataset: Response.Inspection, and in
	// Response.Arrays the values of its numeric columns (ColumnValues).
	// It reads no dataset.
	InspectData Kind = "inspect-data"
	// Draw lays out one graph of the dataset for drawing.
	Draw Kind = "draw"
	// Explore computes a descriptor function on one graph, its extended
	// persistence diagrams and its image among the dataset's features.
	Explore Kind = "explore"
	// ChoiceScores measures candidate Training.Candidate of the automatic
	// choice of images (eval.ChoiceScores): its inner accuracies on the
	// training graphs of every fold and of every graph, Response.Scores.
	// Given to CrossValidate jobs as Training.ChoiceScores, the candidates'
	// scores spare each job the choice's kernels.
	ChoiceScores Kind = "choice-scores"
	// CrossValidate runs the folds Training.Only of a cross-validation.
	CrossValidate Kind = "cv"
	// Train learns a model on the whole dataset.
	Train Kind = "train"
	// Inspect validates a model (Request.Model) and describes it.
	Inspect Kind = "inspect"
	// Predict classifies the graphs of Request.Inputs with Request.Model.
	// An input named TypedSMILES holds SMILES lines the user typed.
	Predict Kind = "predict"
	// Explain explains the prediction for input graph Request.Graph (the
	// graphs of Request.Inputs counted as Predict lists them) with
	// Request.Model: Response.Explained, and in Response.Arrays "x" and
	// "y" a layout of the graph in [0,1]x[0,1].
	Explain Kind = "explain"
	// Compare runs methods of the baseline comparison (Request.Compare).
	Compare Kind = "compare"
	// MergeCV merges the parts of a cross-validation (Request.Parts) into
	// the report of the whole run and tests learned against initial
	// weight function over its folds (Response.Merged). It reads no
	// dataset, and is quick.
	MergeCV Kind = "merge-cv"
)

// TypedSMILES names the Predict input that holds the SMILES a user typed
// or pasted, one per line, each optionally followed by white space and a
// name: it is read as a .smi file, and a SMILES without a name is named
// by itself.
const TypedSMILES = "typed.smi"

// Event says what a Response reports.
type Event string

const (
	Progress Event = "progress" // Stage, Done and Total are set; more follows
	Partial  Event = "partial"  // Fold is set: one finished fold of a CV; more follows
	Done     Event = "done"     // the job's result; last message of the job
	Failed   Event = "failed"   // Error is set; last message of the job
)

// File is one file of a dataset as the user gave it: a TU text file, a
// zip, or a molecule table, SD file or GraphML collection (IsDataFile).
type File struct {
	Name string `json:"name"`
	Data []byte `json:"-"` // travels as a blob
	// Options say how a molecule file becomes a dataset; nil for TU
	// files and zips. They travel with the file, so that every worker
	// that parses the dataset reads it alike.
	Options *DataOptions `json:"options,omitempty"`
}

// Descriptor chooses the function a filtration is built from; it mirrors
// core/filtration.Options without importing it, so the page binary does
// not link the numerical code.
type Descriptor struct {
	Kind    string  `json:"kind"`              // ricci, jaccard, degree, hks
	Alpha   float64 `json:"alpha,omitempty"`   // Ricci idleness; 0 means the default
	HKSTime float64 `json:"hksTime,omitempty"` // heat kernel time; 0 means the default
}

// Request is one job for a worker.
type Request struct {
	ID         int64      `json:"id"`
	Kind       Kind       `json:"kind"`
	Dataset    string     `json:"dataset,omitempty"` // key of the dataset the job reads
	Files      []File     `json:"files,omitempty"`   // the dataset, when the worker lacks it
	Graph      int        `json:"graph,omitempty"`   // graph index for Draw, Explore and Explain
	Descriptor Descriptor `json:"descriptor,omitempty"`
	Training   *Training  `json:"training,omitempty"`
	Inputs     []File     `json:"inputs,omitempty"` // graph files to classify
	Model      []byte     `json:"-"`                // a model's JSON; travels as a blob

	Compare *CompareJob `json:"compare,omitempty"` // Compare
	// Parts are the parts of one cross-validation to merge (MergeCV),
	// one per CrossValidate job. A part without Labels is a report
	// merged already (saved by an earlier version of the page): it must
	// come alone, and is only tested.
	Parts []CVPart `json:"parts,omitempty"`
}

// Training is the settings of a training or cross-validation job: the
// settings spec (every field set; start from spec.Defaults) and the
// folds of the cross-validation to run.
type Training struct {
	spec.Spec
	Only []int `json:"only,omitempty"` // folds to run; all when empty
	// Final has a CrossValidate job train the final model of every graph
	// too, in its folds' passes over the pairs where it can (eval.Final):
	// the job answers with the Train job's model beside its part.
	Final bool `json:"final,omitempty"`
	// Candidate is the candidate a ChoiceScores job measures (0: the
	// images of the settings, 1: their size-aware variant). Its Only and
	// Final are those of the fold job that follows it on the page's bar,
	// whose stages its progress plans.
	Candidate int `json:"candidate,omitempty"`
	// ChoiceScores are every candidate's scores (ChoiceScores jobs), in
	// candidate order, for a CrossValidate job of automatic settings;
	// nil: the job chooses.
	ChoiceScores [][][]float64 `json:"choiceScores,omitempty"`
}

// UnmarshalJSON reads settings that lack fields (a run saved by an
// earlier version of the page) with spec.Defaults for what is missing.
func (t *Training) UnmarshalJSON(data []byte) error {
	type plain Training // without this method
	p := plain{Spec: spec.Defaults()}
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*t = Training(p)
	return nil
}

// Response is one message from a worker about job ID.
type Response struct {
	ID    int64  `json:"id"`
	Event Event  `json:"event"`
	Stage string `json:"stage,omitempty"`
	Done  int    `json:"done,omitempty"`
	Total int    `json:"total,omitempty"`
	// Status is a Progress event's whole news: with the stage's counter
	// the job's share done and time left (jobs.Worker.Track), which the
	// page shows as they are.
	Status *progress.Status `json:"status,omitempty"`
	Error  string           `json:"error,omitempty"`
	// Memory is the worker's WebAssembly memory in bytes when it answered
	// Done; the memory only grows, so this is the worker's peak so far.
	Memory uint64 `json:"memory,omitempty"`

	Summary  *Summary  `json:"summary,omitempty"`
	Drawing  *Drawing  `json:"drawing,omitempty"`
	Explored *Explored `json:"explored,omitempty"`
	CV       *CVPart   `json:"cv,omitempty"`
	Fold     *Fold     `json:"fold,omitempty"`   // Partial
	Merged   *MergedCV `json:"merged,omitempty"` // MergeCV
	// Explained is an Explain job's result.
	Explained *Explained `json:"explained,omitempty"`
	Info      *Info      `json:"info,omitempty"` // Train, Inspect and Predict
	// Inspection is an InspectData job's result.
	Inspection *DataInspection `json:"inspection,omitempty"`
	// Bad lists the records that made a Load fail (with Event Failed).
	Bad    *BadRecords `json:"bad,omitempty"`
	Graphs []Graph     `json:"graphs,omitempty"`
	// Compared holds a Compare job's methods.
	Compared []CompareMethod `json:"compared,omitempty"`
	// Scores are a ChoiceScores job's inner accuracies: per training set
	// (the folds', then every graph's), per inner fold.
	Scores [][]float64 `json:"scores,omitempty"`
	// Model is a trained model's JSON (Train); it travels as a blob.
	Model []byte `json:"-"`

	// Arrays holds large float results (coordinates, function values,
	// images), keyed by name; they travel as blobs.
	Arrays map[string][]float64 `json:"-"`
}

// Summary describes a loaded dataset.
type Summary struct {
	Name          string  `json:"name"`
	Graphs        int     `json:"graphs"`
	Classes       []Class `json:"classes"`
	Nodes         Stats   `json:"nodes"`
	Edges         Stats   `json:"edges"`
	NodeLabels    bool    `json:"nodeLabels"`
	EdgeLabels    bool    `json:"edgeLabels"`
	Disconnected  int     `json:"disconnected"`  // graphs with more than one component
	IsolatedNodes int     `json:"isolatedNodes"` // nodes of degree 0, over all graphs
	// Names are the graphs' names (a molecule file's name column, SD
	// titles, GraphML ids, else "row 3"); nil when the dataset has none
	// (TU).
	Names []string `json:"names,omitempty"`
	// Source says how a molecule file became the dataset; nil for TU and
	// SWC datasets.
	Source *DataSource `json:"source,omitempty"`
	// Molecules says the graphs are molecules (features.AreMolecules:
	// element symbols and bond types, or a TU README's tables naming
	// them), for which the Train tab starts from the molecules preset.
	Molecules bool `json:"molecules"`
	// AtomTypes are the node labels by decreasing frequency, at most
	// spec.AtomTypeGroups of them, when the atoms are typed by integer
	// codes that no table names (features.AtomCodes: NCI1), nil
	// otherwise; for these the Train tab offers the atom-types mode
	// (spec.AtomTypes).
	AtomTypes []string `json:"atomTypes,omitempty"`
}

// Class is one class label and how many graphs carry it.
type Class struct {
	Label string `json:"label"`
	Count int    `json:"count"`
}

// Stats summarises a per-graph count.
type Stats struct {
	Total int     `json:"total"`
	Min   int     `json:"min"`
	Max   int     `json:"max"`
	Mean  float64 `json:"mean"`
}

// Drawing is a layout of one graph; the coordinates, in [0,1]x[0,1], are
// Arrays["x"] and Arrays["y"].
type Drawing struct {
	Graph  int      `json:"graph"`
	N      int      `json:"n"`
	Edges  [][2]int `json:"edges"`
	Labels []string `json:"labels,omitempty"` // node labels, if any
	Class  string   `json:"class"`
	// Molecule is the graph as a molecule to draw as chemists do, a SMILES
	// or a molfile whose atom i is node i; "" when it is not a molecule.
	// LayOut says the molfile has no coordinates (written from the
	// graph) and the drawing must lay it out.
	Molecule string `json:"molecule,omitempty"`
	LayOut   bool   `json:"layOut,omitempty"`
}

// Explored is the persistence of one graph under one descriptor. The
// function's vertex values are Arrays["values"]. Arrays["image"] is the
// graph's image vector as training uses it: one Rows*Cols image per
// channel, concatenated in the order of Channels, each row-major with row
// 0 at the lowest persistence, all on Grid, the grid fitted over the
// whole dataset.
type Explored struct {
	Graph    int      `json:"graph"`
	Diagrams Diagrams `json:"diagrams"`
	// Channels names the images, as features.Settings does: "+"-joined
	// sub-diagrams such as "ord0+ext0".
	Channels []string `json:"channels"`
	Grid     Grid     `json:"grid"`
	// ImageError says why there is no image when the dataset's features
	// could not be computed (then Grid is zero and Arrays["image"] absent).
	ImageError string `json:"imageError,omitempty"`
}

// Grid places a persistence image in the (birth, persistence) plane.
type Grid struct {
	MinX  float64 `json:"minX"`
	MinY  float64 `json:"minY"`
	Pixel float64 `json:"pixel"`
	Rows  int     `json:"rows"`
	Cols  int     `json:"cols"`
}

// Info describes a model. Arrays["after"] is its weight function sampled
// at the centres of Grid's pixels (row-major, row 0 at the lowest
// persistence); a Train response adds Arrays["before"], the initial one.
type Info struct {
	Dataset string   `json:"dataset"`
	Classes []string `json:"classes"`
	// Target is the column, SD property or GraphML key whose values are
	// the classes, when the model was trained in this page on a molecule
	// file; "" for a TU or SWC dataset and for a model read from a file
	// (a model file does not record it; a threshold's classes name it:
	// "pAct < 6.44").
	Target     string  `json:"target,omitempty"`
	Descriptor string  `json:"descriptor"`
	Init       string  `json:"init"`
	M          int     `json:"m"`
	Sigma      float64 `json:"sigma"`
	C          float64 `json:"C"`
	// GaussWidth is the width of the SVM's Gaussian of the WKPI distance
	// (model.Model.GaussWidth); 0 when the SVM uses the WKPI kernel.
	GaussWidth float64   `json:"gaussWidth,omitempty"`
	Grid       Grid      `json:"grid"`
	Cost       []float64 `json:"cost"` // the learning's cost curve
	Support    int       `json:"support"`
	// Converged says whether the learning stopped on its tolerance (not
	// on its iteration cap) after Iterations steps.
	Converged  bool `json:"converged"`
	Iterations int  `json:"iterations"`
	// Centres are the (birth, persistence) centres of the learned
	// mixture's Gaussians; a Train response adds Before, those of the
	// initial mixture.
	Centres [][2]float64 `json:"centres,omitempty"`
	Before  [][2]float64 `json:"before,omitempty"`
	// Extra lists the model's further descriptors as Training.Extra does
	// ("" for none).
	Extra string `json:"extra,omitempty"`
	// Mode is features.Settings.Mode: "structure only", "molecules",
	// "atom types", "node labels", "molecules and node labels" or "atom
	// types and node labels".
	Mode string `json:"mode"`
	// Raw says the model's images are unnormalised (size-aware: chosen
	// by the automatic choice, or asked for).
	Raw bool `json:"raw,omitempty"`
	// Name and Evaluation are what the model file keeps of where it was
	// trained (model.Model's fields): the name it was kept under and its
	// cross-validation; empty and nil when the file has none.
	Name       string      `json:"name,omitempty"`
	Evaluation *Evaluation `json:"evaluation,omitempty"`
}

// Graph is the prediction for one input graph; Points are its diagram
// points in the (birth, persistence) plane of the weight function.
type Graph struct {
	File  string `json:"file"`
	Index int    `json:"index"` // graph of the file, from 0
	// Name is what the file calls the graph (graphfile.Record.Name): an SD
	// record's title line (else a name-like property), the name after a
	// SMILES (a typed SMILES without one: the SMILES itself), a table's
	// name column, a GraphML graph's id; "line 3" or "row 2" for a SMILES
	// without a name; "" when the format names nothing (edge lists, JSON,
	// TU sets without names).
	Name     string       `json:"name,omitempty"`
	Nodes    int          `json:"nodes"`
	Edges    int          `json:"edges"`
	Label    string       `json:"label"`
	Decision []float64    `json:"decision"`
	Points   [][2]float64 `json:"points"`
	// Truth is the graph's own class label when its file has one (a TU
	// set), so the page can score the model on it; "" otherwise.
	Truth string `json:"truth,omitempty"`
}

// Envelope is the form of a message on postMessage: a JSON header and
// binary blobs that are transferred.
type Envelope struct {
	Header []byte
	Blobs  [][]byte
}

// responseHeader adds the names that map the blobs back to Arrays.
type responseHeader struct {
	Response
	ArrayNames []string `json:"arrays,omitempty"`
	HasModel   bool     `json:"hasModel,omitempty"`
}

// requestHeader says whether a model blob follows the files.
type requestHeader struct {
	Request
	HasModel bool `json:"hasModel,omitempty"`
}

// Envelope moves the contents of Files, then of Inputs, then the model
// into blobs, in that order.
func (r Request) Envelope() (Envelope, error) {
	h, err := json.Marshal(requestHeader{Request: r, HasModel: r.Model != nil})
	if err != nil {
		return Envelope{}, fmt.Errorf("encoding request %d: %w", r.ID, err)
	}
	e := Envelope{Header: h}
	for _, f := range append(append([]File{}, r.Files...), r.Inputs...) {
		e.Blobs = append(e.Blobs, f.Data)
	}
	if r.Model != nil {
		e.Blobs = append(e.Blobs, r.Model)
	}
	return e, nil
}

// DecodeRequest is the inverse of Request.Envelope.
func DecodeRequest(e Envelope) (Request, error) {
	var h requestHeader
	if err := json.Unmarshal(e.Header, &h); err != nil {
		return h.Request, fmt.Errorf("decoding request: %w", err)
	}
	r := h.Request
	want := len(r.Files) + len(r.Inputs)
	if h.HasModel {
		want++
	}
	if len(e.Blobs) != want {
		return r, fmt.Errorf("request %d: %d blobs for %d files, %d inputs and %d model", r.ID, len(e.Blobs), len(r.Files), len(r.Inputs), want-len(r.Files)-len(r.Inputs))
	}
	for i := range r.Files {
		r.Files[i].Data = e.Blobs[i]
	}
	for i := range r.Inputs {
		r.Inputs[i].Data = e.Blobs[len(r.Files)+i]
	}
	if h.HasModel {
		r.Model = e.Blobs[want-1]
	}
	return r, nil
}

// Envelope moves the arrays into blobs, in sorted name order.
func (r Response) Envelope() (Envelope, error) {
	h := responseHeader{Response: r, HasModel: r.Model != nil}
	for name := range r.Arrays {
		h.ArrayNames = append(h.ArrayNames, name)
	}
	sort.Strings(h.ArrayNames)
	b, err := json.Marshal(h)
	if err != nil {
		return Envelope{}, fmt.Errorf("encoding response %d: %w", r.ID, err)
	}
	e := Envelope{Header: b}
	for _, name := range h.ArrayNames {
		e.Blobs = append(e.Blobs, Float64Bytes(r.Arrays[name]))
	}
	if r.Model != nil {
		e.Blobs = append(e.Blobs, r.Model)
	}
	return e, nil
}

// DecodeResponse is the inverse of Response.Envelope.
func DecodeResponse(e Envelope) (Response, error) {
	var h responseHeader
	if err := json.Unmarshal(e.Header, &h); err != nil {
		return Response{}, fmt.Errorf("decoding response: %w", err)
	}
	want := len(h.ArrayNames)
	if h.HasModel {
		want++
	}
	if len(e.Blobs) != want {
		return Response{}, fmt.Errorf("response %d: %d blobs for %d arrays and %d model", h.ID, len(e.Blobs), len(h.ArrayNames), want-len(h.ArrayNames))
	}
	r := h.Response
	if h.HasModel {
		r.Model = e.Blobs[want-1]
	}
	if len(h.ArrayNames) > 0 {
		r.Arrays = make(map[string][]float64, len(h.ArrayNames))
	}
	for i, name := range h.ArrayNames {
		f, err := BytesFloat64(e.Blobs[i])
		if err != nil {
			return Response{}, fmt.Errorf("response %d array %q: %w", h.ID, name, err)
		}
		r.Arrays[name] = f
	}
	return r, nil
}

// Float64Bytes encodes floats little-endian, the byte order of a
// Float64Array on every platform that runs WebAssembly.
func Float64Bytes(f []float64) []byte {
	b := make([]byte, 0, 8*len(f))
	for _, v := range f {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// BytesFloat64 is the inverse of Float64Bytes.
func BytesFloat64(b []byte) ([]float64, error) {
	if len(b)%8 != 0 {
		return nil, fmt.Errorf("%d bytes is not a whole number of float64s", len(b))
	}
	f := make([]float64, len(b)/8)
	for i := range f {
		f[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return f, nil
}

// CompareJob is a Compare job: the methods to run (core/compare names) on
// the held dataset's features under Descriptor, all on the same Folds
// split with Seed. With Pair set nothing runs: the worker pairs those
// finished methods with WKPI's folds (Paired) and returns them.
type CompareJob struct {
	Descriptor string          `json:"descriptor"`
	Methods    []string        `json:"methods"`
	Folds      int             `json:"folds"`
	Seed       int64           `json:"seed"`
	Pair       []CompareMethod `json:"pair,omitempty"`
}

// CompareMethod mirrors core/compare.Method (the JSON of `wkpi compare`)
// without importing it, so the page does not link the kernels.
type CompareMethod struct {
	Name     string    `json:"name"`
	Accuracy float64   `json:"accuracy_mean"`
	Std      float64   `json:"accuracy_std"`
	Folds    []float64 `json:"folds"`
	// ROCAUC, ROCAUCStd and ROCAUCFolds are the method's ROC-AUC; nil
	// (JSON null) where a fold's test graphs were of one class.
	ROCAUC      *float64       `json:"roc_auc_mean"`
	ROCAUCStd   *float64       `json:"roc_auc_std"`
	ROCAUCFolds []*float64     `json:"roc_auc_folds"`
	Seconds     float64        `json:"seconds"`
	Chosen      []string       `json:"chosen,omitempty"`
	Paired      *ComparePaired `json:"paired,omitempty"`
	// PairedROCAUC is the same of the folds' ROC-AUCs, over the folds
	// where both methods have one.
	PairedROCAUC *ComparePaired `json:"paired_roc_auc,omitempty"`
}

// ComparePaired is crossval.Paired: fold differences against WKPI and
// the two tests' p-values.
type ComparePaired = wire.Paired
