package main

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"wkpi-web/core/explain"
	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
	"wkpi-web/core/model"
)

// Limits that keep one request inside a Worker's CPU and memory budget.
const (
	maxGraphBytes = 1 << 20  // a predict body
	maxModelBytes = 16 << 20 // a model upload (a MUTAG model is 1.7 MB; KV takes 25 MiB)
	maxNodes      = 1000     // nodes over all graphs of one request
)

// Store keeps named models (Workers KV in the Worker).
type Store interface {
	// Get returns the model file, or ok false when there is none.
	Get(ctx context.Context, name string) (data []byte, ok bool, err error)
	Put(ctx context.Context, name string, data []byte) error
}

// API answers /api/*. The Worker's static assets serve everything else.
type API struct {
	Version string
	// Bundled returns the bundled model in the Worker's form (see
	// encodeModel): the Worker reads it from its static assets, once per
	// instance, at the first prediction that needs it.
	Bundled func(ctx context.Context) ([]byte, error)
	Models  Store  // models in the Worker's form; nil: no KV binding, only the bundled model
	Token   string // bearer token for model uploads; empty refuses them
	// Cache keeps models ready to predict between requests; nil decodes
	// a model at every request.
	Cache *Cache
}

// Cache keeps decoded models, ready to predict, for the requests an
// instance serves: the bundled model, and the last few KV models with
// the bytes they were decoded from (a KV model is still read at every
// request, and decoded again when its bytes changed). Safe for
// concurrent use; a predictor is read-only.
type Cache struct {
	mu      sync.Mutex
	bundled *predictor
	stored  map[string]cachedModel
}

type cachedModel struct {
	data []byte
	p    *predictor
}

// maxCached bounds the KV models a Cache keeps (about 15 MB each for
// MUTAG's, in a Worker's 128 MB).
const maxCached = 2

// bundledPath is where `make edge` puts the bundled model (MUTAG, `wkpi
// train` defaults, in the Worker's form) among the Worker's static assets:
// under /api/, which always reaches the Worker first, so that the public
// never gets the file; the Worker reads it through its ASSETS binding.
// Out of the binary, it does not count against the Worker's size limit.
const bundledPath = "/api/_bundled/model.bin"

// bundledName is what ?model= names when absent.
const bundledName = "bundled"

// modelName restricts KV keys to names that are safe in a URL and a key.
var modelName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// formats maps ?format= (a graphfile.Format) to the file extension
// graphfile.ReadFile reads as that format, the format's first.
func formats() map[string]string {
	m := map[string]string{}
	for _, e := range graphfile.Formats() {
		m[string(e.Name)] = e.Extensions[0]
	}
	return m
}

// formatNames lists the formats in messages.
func formatNames() string {
	var names []string
	for _, e := range graphfile.Formats() {
		names = append(names, string(e.Name))
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// contentTypes maps a Content-Type to a format; others are sniffed.
func contentTypes() map[string]string {
	m := map[string]string{}
	for _, e := range graphfile.Formats() {
		for _, t := range e.MediaTypes {
			m[t] = string(e.Name)
		}
	}
	return m
}

// apiError is an error with the HTTP status it maps to.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func fail(status int, format string, args ...any) error {
	return &apiError{status, fmt.Sprintf(format, args...)}
}

// ServeHTTP answers in JSON; an error is {"error": "..."} with its status.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var v any
	var err error
	switch {
	case r.URL.Path == "/api/health":
		v, err = a.health(r)
	case r.URL.Path == "/api/predict":
		v, err = a.predict(r)
	case r.URL.Path == "/api/explain":
		v, err = a.explain(r)
	case strings.HasPrefix(r.URL.Path, "/api/models/"):
		v, err = a.putModel(r, strings.TrimPrefix(r.URL.Path, "/api/models/"))
	default:
		err = fail(http.StatusNotFound, "no such endpoint %s (see /api/health, /api/predict, /api/explain, /api/models/NAME)", r.URL.Path)
	}
	status := http.StatusOK
	if err != nil {
		status = http.StatusInternalServerError
		var ae *apiError
		if errors.As(err, &ae) {
			status = ae.status
		}
		if status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", methodFor(r.URL.Path))
		}
		if status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Bearer realm="wkpi"`)
		}
		v = map[string]string{"error": err.Error()}
	}
	b, err := json.Marshal(v)
	if err != nil { // a non-finite decision value: the model is broken
		status = http.StatusInternalServerError
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func methodFor(path string) string {
	switch {
	case path == "/api/predict", path == "/api/explain":
		return http.MethodPost
	case strings.HasPrefix(path, "/api/models/"):
		return http.MethodPut
	}
	return http.MethodGet
}

func (a *API) health(r *http.Request) (any, error) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return nil, fail(http.StatusMethodNotAllowed, "use GET")
	}
	return map[string]any{"ok": true, "version": a.Version}, nil
}

// prediction is one graph's answer, the fields of `wkpi predict -json`.
type prediction struct {
	Graph int `json:"graph"`
	// Name is what the body calls the graph (graphfile.Record.Name): an SD
	// record's title, the name after a SMILES, a table's name column; a
	// SMILES of a JSON body without a name is named by itself.
	Name     string    `json:"name,omitempty"`
	Class    string    `json:"class"`
	Decision []float64 `json:"decision"`
	Points   int       `json:"points"`
}

type modelInfo struct {
	Name       string   `json:"name"`
	Dataset    string   `json:"dataset"`
	Classes    []string `json:"classes"`
	Filtration string   `json:"filtration"`
	Support    int      `json:"support_vectors"`
}

func (a *API) predict(r *http.Request) (any, error) {
	in, err := a.read(r)
	if err != nil {
		return nil, err
	}
	m := in.model
	out := make([]prediction, len(in.graphs))
	for i, g := range in.graphs {
		if err := r.Context().Err(); err != nil {
			return nil, err
		}
		p, err := m.predict(g)
		if err != nil {
			// Bad input is caught in read; what remains is a graph the
			// pipeline cannot featurise, still the request's fault.
			return nil, fail(http.StatusUnprocessableEntity, "%s: graph %d: %v", in.name, i, err)
		}
		out[i] = prediction{i, in.names[i], m.m.Classes[p.class], p.decision, p.points}
	}
	return map[string]any{"predictions": out, "model": in.info()}, nil
}

// explained is one graph's explanation, as `wkpi explain -format json`
// writes it, with its position in the body.
type explained struct {
	Index int `json:"index"`
	*explain.Explanation
}

// explain answers POST /api/explain: the body as /api/predict takes it,
// an explanation per graph.
func (a *API) explain(r *http.Request) (any, error) {
	in, err := a.read(r)
	if err != nil {
		return nil, err
	}
	e, err := in.model.explainer()
	if err != nil {
		return nil, err
	}
	out := make([]explained, len(in.graphs))
	for i, g := range in.graphs {
		if err := r.Context().Err(); err != nil {
			return nil, err
		}
		ex, err := e.Explain(g)
		if err != nil {
			return nil, fail(http.StatusUnprocessableEntity, "%s: graph %d: %v", in.name, i, err)
		}
		ex.Graph = in.names[i]
		out[i] = explained{i, ex}
	}
	return map[string]any{"explanations": out, "model": in.info()}, nil
}

// input is what a predict or explain request asks about.
type input struct {
	model  *predictor
	mname  string // the model's name
	name   string // the body's, in messages
	graphs []*graph.Graph
	names  []string
}

func (in input) info() modelInfo {
	m := in.model.m
	return modelInfo{Name: in.mname, Dataset: m.Dataset, Classes: m.Classes,
		Filtration: fmt.Sprint(m.Features.Filtration.Kind), Support: in.model.n}
}

// read reads a predict or explain request: the model it names and the
// graphs of its body (one graph file, or {"smiles": ...}).
func (a *API) read(r *http.Request) (input, error) {
	if r.Method != http.MethodPost {
		return input{}, fail(http.StatusMethodNotAllowed, `use POST with one graph file, or {"smiles": ...}, as the body`)
	}
	q := r.URL.Query()
	format := q.Get("format")
	if format == "" {
		ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		format = contentTypes()[ct]
	}
	in := input{name: "body"}
	if format != "" {
		ext, ok := formats()[format]
		if !ok {
			return input{}, fail(http.StatusBadRequest, "unknown format %q (want %s)", format, formatNames())
		}
		in.name += ext
	}
	// The model first: a wrong name is cheaper to report than a parse.
	var err error
	if in.model, in.mname, err = a.model(r.Context(), q.Get("model")); err != nil {
		return input{}, err
	}
	body, err := readCapped(r, maxGraphBytes)
	if err != nil {
		return input{}, err
	}
	if format == "" || format == "json" {
		var s *smilesBody
		if s, err = readSMILESBody(body); err != nil {
			return input{}, err
		}
		if s != nil {
			in.name = "smiles"
			in.graphs, in.names, err = s.parse()
		}
	}
	if in.graphs == nil && err == nil {
		in.graphs, in.names, err = parse(in.name, body)
	}
	return in, err
}

// parse reads the graphs of a body, with their names, and enforces the
// node cap. A JSON node count is checked before parsing, as it is the one
// size not backed by bytes of the body. A record that cannot be read (a
// bad SMILES: the line and character) fails the whole request.
func parse(name string, body []byte) ([]*graph.Graph, []string, error) {
	recs, err := records(name, body)
	if err != nil {
		return nil, nil, err
	}
	graphs, names := make([]*graph.Graph, len(recs)), make([]string, len(recs))
	for i, r := range recs {
		graphs[i], names[i] = r.Graph, r.Name
	}
	return graphs, names, nil
}

// records is parse's reading: every record of the body, all readable.
func records(name string, body []byte) ([]graphfile.Record, error) {
	if n := jsonNodeCount(body); n > maxNodes {
		return nil, fail(http.StatusUnprocessableEntity, "%s: %d nodes, this API takes at most %d per request", name, n, maxNodes)
	}
	f, err := graphfile.ReadFile(name, body, graphfile.Options{})
	if err == nil {
		err = f.FirstError()
	}
	if err != nil {
		return nil, fail(http.StatusBadRequest, "%v", err)
	}
	total := 0
	for _, r := range f.Records {
		total += r.Graph.N
	}
	if total > maxNodes {
		return nil, fail(http.StatusUnprocessableEntity, "%s: %d nodes in %d graphs, this API takes at most %d per request", name, total, len(f.Records), maxNodes)
	}
	return f.Records, nil
}

// smilesBody is a JSON body {"smiles": "..."} (one SMILES, or several
// lines as in a .smi file) or {"smiles": ["...", "..."]} (one SMILES per
// item); each SMILES may be followed by white space and a name.
type smilesBody struct {
	lines []string
	array bool // given as an array: errors name the item, smiles[i]
}

// readSMILESBody returns the SMILES of a JSON body that is an object with
// a "smiles" member, nil for any other body (a graph file).
func readSMILESBody(body []byte) (*smilesBody, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(trimmed, &obj) != nil {
		return nil, nil
	}
	raw, ok := obj["smiles"]
	if !ok {
		return nil, nil
	}
	for k := range obj {
		if k != "smiles" {
			return nil, fail(http.StatusBadRequest, `unknown field %q: a SMILES body is {"smiles": "..."} or {"smiles": ["...", ...]}`, k)
		}
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if strings.TrimSpace(one) == "" {
			return nil, fail(http.StatusBadRequest, `"smiles" is empty`)
		}
		return &smilesBody{lines: strings.Split(one, "\n")}, nil
	}
	var many []string
	if json.Unmarshal(raw, &many) != nil {
		return nil, fail(http.StatusBadRequest, `"smiles" must be a string or an array of strings`)
	}
	if len(many) == 0 {
		return nil, fail(http.StatusBadRequest, `"smiles" is an empty array`)
	}
	for i, s := range many {
		// Each item must give one molecule: the .smi reader skips blank
		// lines, comments and a header, and an item of several lines
		// would shift the others.
		f := strings.Fields(s)
		switch {
		case len(f) == 0:
			return nil, fail(http.StatusBadRequest, "smiles[%d] is empty", i)
		case strings.ContainsAny(s, "\r\n"):
			return nil, fail(http.StatusBadRequest, "smiles[%d] holds a line break: give one SMILES per item", i)
		case strings.HasPrefix(f[0], "#") || i == 0 && strings.EqualFold(f[0], "smiles"):
			return nil, fail(http.StatusBadRequest, "smiles[%d]: %q is not a SMILES", i, f[0])
		}
	}
	return &smilesBody{lines: many, array: true}, nil
}

// smilesLine matches the start of a .smi reader's message about a line.
var smilesLine = regexp.MustCompile(`^smiles\.smi line (\d+): `)

// parse reads the SMILES as a .smi file; errors name the array item or
// the line, and a SMILES without a name is named by itself.
func (s *smilesBody) parse() ([]*graph.Graph, []string, error) {
	text := strings.Join(s.lines, "\n")
	recs, err := records("smiles.smi", []byte(text))
	if err != nil {
		var ae *apiError
		if errors.As(err, &ae) {
			ae.msg = smilesLine.ReplaceAllStringFunc(ae.msg, func(m string) string {
				n, _ := strconv.Atoi(smilesLine.FindStringSubmatch(m)[1])
				if s.array {
					return fmt.Sprintf("smiles[%d]: ", n-1)
				}
				return fmt.Sprintf("smiles line %d: ", n)
			})
			ae.msg = strings.Replace(ae.msg, "smiles.smi:", "smiles:", 1)
		}
		return nil, nil, err
	}
	lines := strings.Split(text, "\n")
	graphs, names := make([]*graph.Graph, len(recs)), make([]string, len(recs))
	for i, r := range recs {
		graphs[i], names[i] = r.Graph, r.Name
		// graphfile names a SMILES without a name by its line (Where).
		if r.Name == r.Where && r.Index >= 1 && r.Index <= len(lines) {
			if f := strings.Fields(lines[r.Index-1]); len(f) > 0 {
				names[i] = f[0]
			}
		}
	}
	return graphs, names, nil
}

// jsonNodeCount sums the bare "nodes" counts of a JSON graph body (one
// object or an array); it is 0 for anything else, which Parse then judges.
func jsonNodeCount(body []byte) int {
	var objs []struct{ Nodes json.RawMessage }
	if json.Unmarshal(body, &objs) != nil {
		var one struct{ Nodes json.RawMessage }
		if json.Unmarshal(body, &one) != nil {
			return 0
		}
		objs = append(objs, one)
	}
	total := 0
	for _, o := range objs {
		var n float64
		if json.Unmarshal(o.Nodes, &n) == nil && n > 0 {
			total += int(min(n, 1<<30))
		}
	}
	return total
}

// model returns the named model, ready to predict: the bundled one, or
// one kept in the store.
func (a *API) model(ctx context.Context, name string) (*predictor, string, error) {
	if name == "" || name == bundledName {
		p, err := a.bundled(ctx)
		return p, bundledName, err
	}
	if !modelName.MatchString(name) {
		return nil, "", fail(http.StatusBadRequest, "model name %q: use 1 to 64 letters, digits, '.', '_' or '-'", name)
	}
	if a.Models == nil {
		return nil, "", fail(http.StatusNotFound, "no model %q: this deployment has no model store", name)
	}
	data, ok, err := a.Models.Get(ctx, name)
	if err != nil {
		return nil, "", fmt.Errorf("reading model %q: %w", name, err)
	}
	if !ok {
		return nil, "", fail(http.StatusNotFound, "no model %q (upload one with PUT /api/models/%s)", name, name)
	}
	if c := a.Cache; c != nil {
		c.mu.Lock()
		e, ok := c.stored[name]
		c.mu.Unlock()
		if ok && bytes.Equal(e.data, data) {
			return e.p, name, nil
		}
	}
	p, err := load(data)
	if err != nil {
		return nil, "", fmt.Errorf("model %q: %w", name, err)
	}
	if c := a.Cache; c != nil {
		c.mu.Lock()
		if c.stored == nil {
			c.stored = map[string]cachedModel{}
		}
		if _, ok := c.stored[name]; !ok && len(c.stored) >= maxCached {
			for k := range c.stored { // any one
				delete(c.stored, k)
				break
			}
		}
		c.stored[name] = cachedModel{data, p}
		c.mu.Unlock()
	}
	return p, name, nil
}

// bundled returns the bundled model, decoded once per Cache.
func (a *API) bundled(ctx context.Context) (*predictor, error) {
	c := a.Cache
	if c != nil {
		c.mu.Lock()
		p := c.bundled
		c.mu.Unlock()
		if p != nil {
			return p, nil
		}
	}
	if a.Bundled == nil {
		return nil, errors.New("this build has no bundled model")
	}
	data, err := a.Bundled(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the bundled model: %w", err)
	}
	p, err := load(data)
	if err != nil {
		return nil, fmt.Errorf("the bundled model: %w", err)
	}
	if c != nil {
		c.mu.Lock()
		c.bundled = p
		c.mu.Unlock()
	}
	return p, nil
}

// load decodes a model in the Worker's form and prepares it. The
// predictor keeps the support images in its own layout: the model's
// copy goes.
func load(data []byte) (*predictor, error) {
	m, err := decodeModel(data)
	if err != nil {
		return nil, err
	}
	p, err := newPredictor(m)
	m.Support = nil
	return p, err
}

func (a *API) putModel(r *http.Request, name string) (any, error) {
	if r.Method != http.MethodPut {
		return nil, fail(http.StatusMethodNotAllowed, "use PUT with a model file from wkpi train")
	}
	if !a.authorized(r) {
		return nil, fail(http.StatusUnauthorized, "a valid bearer token is required to store models")
	}
	if !modelName.MatchString(name) || name == bundledName {
		return nil, fail(http.StatusBadRequest, "model name %q: use 1 to 64 letters, digits, '.', '_' or '-', not %q", name, bundledName)
	}
	if a.Models == nil {
		return nil, fail(http.StatusNotFound, "this deployment has no model store (bind a KV namespace as MODELS)")
	}
	body, err := readCapped(r, maxModelBytes)
	if err != nil {
		return nil, err
	}
	m, err := model.Load(bytes.NewReader(body))
	if err != nil {
		return nil, fail(http.StatusBadRequest, "%v", err)
	}
	enc, err := encodeModel(m)
	if err != nil {
		return nil, err
	}
	if err := a.Models.Put(r.Context(), name, enc); err != nil {
		return nil, fmt.Errorf("storing model %q: %w", name, err)
	}
	return map[string]any{"stored": name, "dataset": m.Dataset, "classes": m.Classes}, nil
}

// authorized compares the bearer token in constant time.
func (a *API) authorized(r *http.Request) bool {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && a.Token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(a.Token)) == 1
}

// readCapped reads the body, refusing one over limit bytes with 413.
func readCapped(r *http.Request, limit int64) ([]byte, error) {
	tooLarge := fail(http.StatusRequestEntityTooLarge, "body over %d bytes", limit)
	if r.ContentLength > limit {
		return nil, tooLarge
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		return nil, fail(http.StatusBadRequest, "reading the body: %v", err)
	}
	if int64(len(b)) > limit {
		return nil, tooLarge
	}
	return b, nil
}
