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

	routes     *http.ServeMux // built at the first request
	routesOnce sync.Once
}

// Cache keeps decoded models, ready to predict, for the requests an
// instance serves: the bundled model, and the last few KV models with
// the bytes they were decoded from (a KV model is still read at every
// request, and decoded again when its bytes changed). Safe for
// concurrent use; a prepared model is read-only.
type Cache struct {
	mu      sync.Mutex
	bundled *model.Prepared
	stored  map[string]cachedModel
}

type cachedModel struct {
	data []byte
	p    *model.Prepared
}

// maxCached bounds the KV models a Cache keeps (about 35 MB each for one
// like the bundled MUTAG model, prepared, in a Worker's 128 MB).
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
// The routes are ServeMux patterns: a path that some route takes, asked
// with another method, gets 405 with the methods it takes in Allow.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.routesOnce.Do(func() {
		a.routes = http.NewServeMux()
		a.routes.Handle("GET /api/health", a.answer(a.health))
		a.routes.Handle("POST /api/predict", a.answer(a.predict))
		a.routes.Handle("POST /api/explain", a.answer(a.explain))
		a.routes.Handle("PUT /api/models/{name...}", a.answer(a.putModel))
	})
	h, pattern := a.routes.Handler(r)
	if pattern != "" {
		a.routes.ServeHTTP(w, r) // which also sets r's path values
		return
	}
	// No route: the mux's own answer is plain text; its status and Allow
	// header become a JSON error.
	rec := headerOnly{header: http.Header{}}
	h.ServeHTTP(&rec, r)
	allow := rec.header.Get("Allow")
	if rec.status == http.StatusMethodNotAllowed && allow != "" {
		w.Header().Set("Allow", allow)
		reply(w, nil, fail(http.StatusMethodNotAllowed, "use %s for %s, not %s", strings.ReplaceAll(allow, ", ", " or "), r.URL.Path, r.Method))
		return
	}
	reply(w, nil, fail(http.StatusNotFound, "no such endpoint %s (see /api/health, /api/predict, /api/explain, /api/models/NAME)", r.URL.Path))
}

// headerOnly keeps a response's status and header and drops its body.
type headerOnly struct {
	header http.Header
	status int
}

func (h *headerOnly) Header() http.Header         { return h.header }
func (h *headerOnly) WriteHeader(status int)      { h.status = status }
func (h *headerOnly) Write(b []byte) (int, error) { return len(b), nil }

// answer turns a route's function into a handler that replies in JSON.
func (a *API) answer(f func(r *http.Request) (any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := f(r)
		reply(w, v, err)
	})
}

// reply writes v, or err as {"error": "..."} with the status it maps to.
func reply(w http.ResponseWriter, v any, err error) {
	status := http.StatusOK
	if err != nil {
		status = http.StatusInternalServerError
		var ae *apiError
		if errors.As(err, &ae) {
			status = ae.status
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

func (a *API) health(*http.Request) (any, error) {
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
	preds, err := in.model.Predict(r.Context(), in.graphs)
	if err != nil {
		if r.Context().Err() != nil {
			return nil, err
		}
		// Bad input is caught in read; what remains is a graph the
		// pipeline cannot featurise (the error names it), still the
		// request's fault.
		return nil, fail(http.StatusUnprocessableEntity, "%s: %v", in.name, err)
	}
	out := make([]prediction, len(preds))
	for i, p := range preds {
		out[i] = prediction{i, in.names[i], p.Label, p.Decision, len(p.Points)}
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
	e, err := explain.New(in.model, explain.DefaultOptions())
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
	model  *model.Prepared
	mname  string // the model's name
	name   string // the body's, in messages
	graphs []*graph.Graph
	names  []string
}

func (in input) info() modelInfo {
	m := in.model.Model()
	return modelInfo{Name: in.mname, Dataset: m.Dataset, Classes: m.Classes,
		Filtration: fmt.Sprint(m.Features.Filtration.Kind), Support: m.SVM.N}
}

// read reads a predict or explain request: the model it names and the
// graphs of its body (one graph file, or {"smiles": ...}).
func (a *API) read(r *http.Request) (input, error) {
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
func (a *API) model(ctx context.Context, name string) (*model.Prepared, string, error) {
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
func (a *API) bundled(ctx context.Context) (*model.Prepared, error) {
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

// load decodes a model in the Worker's form and prepares it.
func load(data []byte) (*model.Prepared, error) {
	m, err := decodeModel(data)
	if err != nil {
		return nil, err
	}
	return model.Prepare(m)
}

func (a *API) putModel(r *http.Request) (any, error) {
	name := r.PathValue("name")
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
