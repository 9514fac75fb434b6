package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"wkpi-web/core/explain"
	"wkpi-web/core/model"
	"wkpi-web/core/tu"
)

// The bundled model is written by `make edge`; the token is the test's.
const (
	bundledModel = "model.json"
	testToken    = "test-token-8c1f"
)

// loadBundled returns the model that `make edge` bundles.
func loadBundled(tb testing.TB) *model.Model {
	tb.Helper()
	f, err := os.Open(bundledModel)
	if err != nil {
		tb.Fatalf("no bundled model: run make edge first (%v)", err)
	}
	defer f.Close()
	m, err := model.Load(f)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// readBundled returns the model that `make edge` bundles, in the Worker's form.
func readBundled(t *testing.T) []byte {
	t.Helper()
	b, err := encodeModel(loadBundled(t))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// bundledFrom is an API's Bundled that returns b.
func bundledFrom(b []byte) func(context.Context) ([]byte, error) {
	return func(context.Context) ([]byte, error) { return b, nil }
}

// TestModelForm checks that the Worker's form gives back the model of
// the JSON file, field for field.
func TestModelForm(t *testing.T) {
	want := loadBundled(t)
	// The form keeps the support images, not the diagrams a version-3
	// file renders them from (form.go), so that a load renders nothing.
	want.Diagrams = nil
	got, err := decodeModel(readBundled(t))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the Worker's form differs from the JSON model")
	}
}

// memStore is a Store in memory, standing in for KV in native tests.
type memStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *memStore) Get(_ context.Context, name string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[name]
	return b, ok, nil
}

func (s *memStore) Put(_ context.Context, name string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[name] = data
	return nil
}

// badCase is one request that must get a JSON error with a 4xx status.
type badCase struct {
	name, method, path, ctype, auth, body string
	status                                int
	want                                  string // in the error message
}

// badCases are the bad inputs of the issue, run natively and under wrangler.
func badCases() []badCase {
	bigJSON := `{"nodes": 5000, "edges": [[0, 1]]}`
	var long strings.Builder
	for i := range maxNodes {
		fmt.Fprintf(&long, "%d %d\n", i, i+1)
	}
	return []badCase{
		{"body over the cap", "POST", "/api/predict?format=edgelist", "", "", strings.Repeat("0 1\n", maxGraphBytes/4+1), 413, "body over"},
		{"malformed edge list", "POST", "/api/predict?format=edgelist", "", "", "0 1\n1 2 a b\n", 400, "body.edges line 2"},
		{"malformed molfile from the content type", "POST", "/api/predict", "chemical/x-mdl-molfile", "", "m\n\n\n  2  1  0  0  0  0            999 V2000\n", 400, "body.mol line"},
		{"malformed JSON", "POST", "/api/predict?format=json", "", "", `{"nodes": 3, "edges": [[0, 1], [1, 7]]}`, 400, "body.json"},
		{"unknown format", "POST", "/api/predict?format=png", "", "", "0 1\n", 400, "unknown format"},
		{"bad SMILES in a .smi body", "POST", "/api/predict?format=smi", "", "", "CCO ethanol\nC1CC ring\n", 400, `body.smi line 2: SMILES "C1CC": character 2: ring bond 1 is never closed`},
		{"explain: bad SMILES", "POST", "/api/explain?format=smi", "", "", "CCO ethanol\nC1CC ring\n", 400, `body.smi line 2: SMILES "C1CC": character 2: ring bond 1 is never closed`},
		{"explain: GET", "GET", "/api/explain", "", "", "", 405, "use POST"},
		{"bad SMILES in a JSON array", "POST", "/api/predict", "application/json", "", `{"smiles": ["CCO", "CC(=O"]}`, 400, `smiles[1]: SMILES "CC(=O": character 3: '(' is never closed`},
		{"bad SMILES in a JSON string", "POST", "/api/predict", "", "", `{"smiles": "c1ccccc1\nC1CC"}`, 400, `smiles line 2: SMILES "C1CC": character 2`},
		{"SMILES neither string nor array", "POST", "/api/predict", "", "", `{"smiles": 5}`, 400, "a string or an array of strings"},
		{"no SMILES", "POST", "/api/predict", "", "", `{"smiles": []}`, 400, "empty array"},
		{"a blank SMILES item", "POST", "/api/predict", "", "", `{"smiles": ["CCO", " "]}`, 400, "smiles[1] is empty"},
		{"two lines in one SMILES item", "POST", "/api/predict", "", "", `{"smiles": ["CCO\nCCN"]}`, 400, "smiles[0] holds a line break"},
		{"a field beside smiles", "POST", "/api/predict", "", "", `{"smiles": "CCO", "name": "x"}`, 400, `unknown field "name"`},
		{"SMILES over the node cap", "POST", "/api/predict?format=smi", "", "", strings.Repeat("C", maxNodes+1) + "\n", 422, "1001 nodes"},
		{"bare node count over the cap", "POST", "/api/predict?format=json", "", "", bigJSON, 422, "5000 nodes"},
		{"edge list over the node cap", "POST", "/api/predict?format=edgelist", "", "", long.String(), 422, "1001 nodes"},
		{"unknown model", "POST", "/api/predict?model=nope", "", "", "0 1\n", 404, `no model "nope"`},
		{"model name with a slash", "POST", "/api/predict?model=a/b", "", "", "0 1\n", 400, "model name"},
		{"predict by GET", "GET", "/api/predict", "", "", "", 405, "use POST"},
		{"unknown endpoint", "GET", "/api/nothing", "", "", "", 404, "no such endpoint"},
		{"unknown endpoint by POST", "POST", "/api/nothing", "", "", "0 1\n", 404, "no such endpoint"},
		{"predict by PUT", "PUT", "/api/predict", "", "", "0 1\n", 405, "use POST for /api/predict, not PUT"},
		{"explain by DELETE", "DELETE", "/api/explain", "", "", "", 405, "use POST for /api/explain, not DELETE"},
		{"health by POST", "POST", "/api/health", "", "", "", 405, "use GET or HEAD for /api/health, not POST"},
		{"store by GET", "GET", "/api/models/m", "", "", "", 405, "use PUT for /api/models/m, not GET"},
		{"store with no name", "PUT", "/api/models/", "", "Bearer " + testToken, "{}", 400, "model name"},
		{"store without a token", "PUT", "/api/models/m", "", "", "{}", 401, "bearer token"},
		{"store with a wrong token", "PUT", "/api/models/m", "", "Bearer wrong", "{}", 401, "bearer token"},
		{"store a file that is no model", "PUT", "/api/models/m", "", "Bearer " + testToken, `{"format": "x"}`, 400, "model"},
		{"store over the name rules", "PUT", "/api/models/..%2Fx%20y", "", "Bearer " + testToken, "{}", 400, "model name"},
	}
}

// checkBad sends one bad case to base and checks status and message.
func checkBad(t *testing.T, base string, c badCase) {
	t.Helper()
	req, err := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
	if err != nil {
		t.Fatal(err)
	}
	if c.ctype != "" {
		req.Header.Set("Content-Type", c.ctype)
	}
	if c.auth != "" {
		req.Header.Set("Authorization", c.auth)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var e struct{ Error string }
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, &e); err != nil || e.Error == "" {
		t.Fatalf("status %d, body %q is not a JSON error (%v)", res.StatusCode, b, err)
	}
	if res.StatusCode != c.status || !strings.Contains(e.Error, c.want) {
		t.Errorf("status %d %q, want %d with %q", res.StatusCode, e.Error, c.status, c.want)
	}
	// A 405 names the methods the path takes, as its Allow header does.
	allow := res.Header.Get("Allow")
	if c.status == http.StatusMethodNotAllowed && (allow == "" || !strings.Contains(c.want, "use "+strings.ReplaceAll(allow, ", ", " or "))) {
		t.Errorf("Allow %q, want the methods of %q", allow, c.want)
	}
}

// predictResponse is the JSON of POST /api/predict.
type predictResponse struct {
	Predictions []prediction `json:"predictions"`
	Model       modelInfo    `json:"model"`
}

// post sends body to path and decodes a 200 answer.
func post(t *testing.T, base, method, path, auth string, body []byte, v any) {
	t.Helper()
	do := func() (*http.Response, []byte) {
		req, err := http.NewRequest(method, base+path, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	res, b := do()
	// wrangler dev now and then restarts workerd after a large model
	// upload and answers the next POST with 503 "Your worker restarted
	// mid-request. Please try sending the request again." (it retries only
	// GET and HEAD itself). Sent again once, as it asks; logged, so that a
	// run shows how often it happens.
	if res.StatusCode == http.StatusServiceUnavailable && bytes.Contains(b, []byte("restarted mid-request")) {
		t.Logf("%s %s: wrangler dev restarted the worker mid-request; sent again", method, path)
		res, b = do()
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: status %d: %s", method, path, res.StatusCode, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s %s: %v in %s", method, path, err, b)
	}
}

// graphsJSON writes the first n graphs of a TU dataset in the JSON graph
// format, nodes in the same order, so the API sees the graphs wkpi reads.
func graphsJSON(t *testing.T, dir string, n int) []byte {
	t.Helper()
	return graphsJSONRange(t, dir, 0, n)
}

// graphsJSONRange is graphsJSON of graphs from..to-1.
func graphsJSONRange(t *testing.T, dir string, from, to int) []byte {
	t.Helper()
	ds, err := tu.Read(dir)
	if err != nil {
		t.Fatalf("%v (run make data)", err)
	}
	type obj struct {
		Nodes      any       `json:"nodes"`
		Edges      [][2]int  `json:"edges"`
		EdgeLabels []string  `json:"edge_labels,omitempty"`
		NodeValues []float64 `json:"node_values,omitempty"`
	}
	var objs []obj
	for _, g := range ds.Graphs[from:to] {
		o := obj{Nodes: g.N, EdgeLabels: g.EdgeLabels, NodeValues: g.NodeValues}
		if g.NodeLabels != nil {
			o.Nodes = g.NodeLabels
		}
		for _, e := range g.Edges {
			o.Edges = append(o.Edges, [2]int{e.U, e.V})
		}
		objs = append(objs, o)
	}
	b, err := json.Marshal(objs)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cliPredictions runs `wkpi predict -json` (the oracle) on files.
func cliPredictions(t *testing.T, modelFile string, files ...string) []prediction {
	t.Helper()
	cmd := exec.Command("go", append([]string{"run", "../wkpi", "predict", "-json", "-model", modelFile}, files...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("wkpi predict: %v\n%s", err, stderr.Bytes())
	}
	var preds []prediction
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p prediction
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		preds = append(preds, p)
	}
	return preds
}

// samePredictions compares classes, point counts and decision values. The
// Worker runs wasm, whose math.Exp is plain Go where amd64 uses assembly,
// so decisions may differ in the last bits.
func samePredictions(t *testing.T, got, want []prediction) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d predictions, wkpi predict gives %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Class != w.Class || g.Name != w.Name || g.Points != w.Points || len(g.Decision) != len(w.Decision) {
			t.Errorf("graph %d: got %+v, wkpi predict %+v", i, g, w)
			continue
		}
		for k := range g.Decision {
			if d := g.Decision[k] - w.Decision[k]; d > 1e-9 || d < -1e-9 {
				t.Errorf("graph %d decision %d: got %.17g, wkpi predict %.17g", i, k, g.Decision[k], w.Decision[k])
			}
		}
	}
}

// TestAPI runs the API natively; TestWrangler runs the same checks under
// Cloudflare's runtime.
func TestAPI(t *testing.T) {
	api := &API{Version: "v-test", Bundled: bundledFrom(readBundled(t)), Cache: &Cache{}, Models: &memStore{m: map[string][]byte{}}, Token: testToken}
	srv := httptest.NewServer(api)
	defer srv.Close()
	checkAPI(t, srv.URL)
}

// checkAPI is every API check of the issue against a running server.
func checkAPI(t *testing.T, base string) {
	t.Run("health", func(t *testing.T) {
		var h struct {
			OK      bool   `json:"ok"`
			Version string `json:"version"`
		}
		res, err := http.Get(base + "/api/health")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if err := json.NewDecoder(res.Body).Decode(&h); err != nil || !h.OK || h.Version == "" {
			t.Errorf("health: %+v, %v", h, err)
		}
	})
	want := cliPredictions(t, bundledModel, "../../data/MUTAG", "../../core/graphfile/testdata/two.sdf")
	t.Run("20 MUTAG graphs as wkpi predict", func(t *testing.T) {
		var got predictResponse
		post(t, base, "POST", "/api/predict?format=json", "", graphsJSON(t, "../../data/MUTAG", 20), &got)
		samePredictions(t, got.Predictions, want[:20])
		if got.Model.Dataset != "MUTAG" || got.Model.Name != bundledName {
			t.Errorf("model %+v", got.Model)
		}
	})
	t.Run("an SDF file gives one prediction per record", func(t *testing.T) {
		sdf, err := os.ReadFile("../../core/graphfile/testdata/two.sdf")
		if err != nil {
			t.Fatal(err)
		}
		var got predictResponse
		post(t, base, "POST", "/api/predict?format=sdf", "", sdf, &got)
		samePredictions(t, got.Predictions, want[len(want)-2:])
	})
	t.Run("a model stored in KV is used", func(t *testing.T) {
		other := trainPTC(t)
		b, err := os.ReadFile(other)
		if err != nil {
			t.Fatal(err)
		}
		var stored struct{ Stored, Dataset string }
		post(t, base, "PUT", "/api/models/ptc", "Bearer "+testToken, b, &stored)
		if stored.Stored != "ptc" || stored.Dataset != "PTC_MR" {
			t.Errorf("stored %+v", stored)
		}
		var got predictResponse
		post(t, base, "POST", "/api/predict?format=json&model=ptc", "", graphsJSON(t, "../../data/MUTAG", 20), &got)
		if got.Model.Dataset != "PTC_MR" || got.Model.Name != "ptc" {
			t.Errorf("model %+v", got.Model)
		}
		samePredictions(t, got.Predictions, cliPredictions(t, other, "../../data/MUTAG")[:20])
	})
	t.Run("interleaved requests get their own answers", func(t *testing.T) {
		// Requests at once, each with its own graph, model or mistake:
		// whatever one request leaves in the serving instance (the Worker
		// keeps one Go instance per isolate) must not reach another.
		ptcWant := cliPredictions(t, trainPTC(t), "../../data/MUTAG")
		type answer struct {
			status int
			body   []byte
		}
		const n = 24
		answers := make([]answer, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				path, body := "/api/predict?format=json", graphsJSONRange(t, "../../data/MUTAG", i, i+1)
				switch i % 4 {
				case 1:
					path += "&model=ptc"
				case 3:
					path, body = "/api/predict?format=edgelist", []byte(fmt.Sprintf("0 1\n1 2 x%d y\n", i))
				}
				res, err := http.Post(base+path, "", bytes.NewReader(body))
				if err != nil {
					t.Error(err)
					return
				}
				defer res.Body.Close()
				b, _ := io.ReadAll(res.Body)
				answers[i] = answer{res.StatusCode, b}
			}()
		}
		wg.Wait()
		for i, a := range answers {
			if i%4 == 3 {
				if a.status != http.StatusBadRequest || !bytes.Contains(a.body, []byte("body.edges line 2")) {
					t.Errorf("request %d: %d %s, want 400 naming the bad line", i, a.status, a.body)
				}
				continue
			}
			var got predictResponse
			if a.status != http.StatusOK || json.Unmarshal(a.body, &got) != nil || len(got.Predictions) != 1 {
				t.Errorf("request %d: %d %s", i, a.status, a.body)
				continue
			}
			want, model := want[i:i+1], bundledName
			if i%4 == 1 {
				want, model = ptcWant[i:i+1], "ptc"
			}
			if got.Model.Name != model {
				t.Errorf("request %d: model %q, want %q", i, got.Model.Name, model)
			}
			one := want[0]
			one.Graph = 0 // the request's only graph
			samePredictions(t, got.Predictions, []prediction{one})
		}
	})
	t.Run("SMILES as wkpi predict: in JSON, named; in a .smi body", func(t *testing.T) {
		lines := []string{"c1ccc(cc1)[N+](=O)[O-] nitrobenzene", "O=[N+]([O-])c1ccc2c(c1)Cc1ccccc1-2", "Nc1ccccc1 aniline"}
		smi := filepath.Join(t.TempDir(), "mols.smi")
		if err := os.WriteFile(smi, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want := cliPredictions(t, bundledModel, smi)
		if len(want) != 3 || want[1].Name != "line 2" {
			t.Fatalf("wkpi predict: %+v", want)
		}
		var got predictResponse
		post(t, base, "POST", "/api/predict?format=smi", "", []byte(strings.Join(lines, "\n")), &got)
		samePredictions(t, got.Predictions, want)
		// In JSON, a SMILES without a name is named by itself.
		want[1].Name = "O=[N+]([O-])c1ccc2c(c1)Cc1ccccc1-2"
		body, _ := json.Marshal(map[string][]string{"smiles": lines})
		got = predictResponse{}
		post(t, base, "POST", "/api/predict", "", body, &got)
		samePredictions(t, got.Predictions, want)
		one, _ := json.Marshal(map[string]string{"smiles": lines[1]})
		got = predictResponse{}
		post(t, base, "POST", "/api/predict?format=json", "", one, &got)
		samePredictions(t, got.Predictions, want[1:2])
	})
	t.Run("explain as wkpi explain", func(t *testing.T) {
		lines := []string{"c1ccc(cc1)[N+](=O)[O-] nitrobenzene", "O=[N+]([O-])c1ccc2c(c1)Cc1ccccc1-2 2-nitrofluorene"}
		smi := filepath.Join(t.TempDir(), "mols.smi")
		if err := os.WriteFile(smi, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("go", "run", "../wkpi", "explain", "-format", "json", "-model", bundledModel, smi)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("wkpi explain: %v\n%s", err, stderr.Bytes())
		}
		var want []explain.Explanation
		for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
			var ex explain.Explanation
			if err := dec.Decode(&ex); err != nil {
				t.Fatal(err)
			}
			want = append(want, ex)
		}
		var got struct {
			Explanations []struct {
				Index int `json:"index"`
				explain.Explanation
			} `json:"explanations"`
			Model modelInfo `json:"model"`
		}
		body, _ := json.Marshal(map[string][]string{"smiles": lines})
		post(t, base, "POST", "/api/explain", "", body, &got)
		if len(got.Explanations) != 2 || len(want) != 2 || got.Model.Name != bundledName {
			t.Fatalf("%d explanations of model %q, wkpi explain %d", len(got.Explanations), got.Model.Name, len(want))
		}
		// wasm's math.Exp is plain Go, amd64's assembly: the last bits
		// may differ (as for predictions).
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }
		for i, g := range got.Explanations {
			w := want[i]
			if g.Index != i || g.Graph != []string{"nitrobenzene", "2-nitrofluorene"}[i] || g.Class != w.Class ||
				!near(g.Decision, w.Decision) || !near(g.Reference, w.Reference) || len(g.Nodes) != len(w.Nodes) || len(g.Edges) != len(w.Edges) {
				t.Fatalf("explanation %d: %+v %v %v; wkpi explain %v %v %v", i, g.Graph, g.Class, g.Decision, w.Class, w.Decision, w.Reference)
			}
			for j, n := range g.Nodes {
				if n.ID != w.Nodes[j].ID || !near(n.Score, w.Nodes[j].Score) {
					t.Errorf("explanation %d node %d: %+v, wkpi explain %+v", i, j, n, w.Nodes[j])
				}
			}
		}
	})
	for _, c := range badCases() {
		t.Run(c.name, func(t *testing.T) { checkBad(t, base, c) })
	}
}

var ptc struct {
	once sync.Once
	file string
	err  error
}

// trainPTC trains a second model (PTC_MR, defaults) once per test binary.
func trainPTC(t *testing.T) string {
	t.Helper()
	ptc.once.Do(func() {
		dir, err := os.MkdirTemp("", "edge-ptc")
		if err != nil {
			ptc.err = err
			return
		}
		ptc.file = dir + "/ptc.json"
		out, err := exec.Command("go", "run", "../wkpi", "train", "-data", "../../data/PTC_MR", "-out", ptc.file).CombinedOutput()
		if err != nil {
			ptc.err = fmt.Errorf("wkpi train: %v\n%s", err, out)
		}
	})
	if ptc.err != nil {
		t.Fatal(ptc.err)
	}
	return ptc.file
}
