package app

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/spec"
	"wkpi-web/wasm/protocol"
)

func TestPredictionsCSVAndScore(t *testing.T) {
	gs := []protocol.Graph{
		{File: "a, b.mol", Index: 0, Nodes: 3, Edges: 2, Label: "1", Decision: []float64{0.5}},
		{File: "T", Index: 1, Nodes: 4, Edges: 4, Label: "-1", Truth: "-1", Decision: []float64{-0.25}},
		{File: "T", Index: 2, Nodes: 4, Edges: 4, Label: "-1", Truth: "1", Decision: []float64{-1}},
	}
	rows, err := csv.NewReader(strings.NewReader(string(predictionsCSV(gs)))).ReadAll()
	if err != nil || len(rows) != 4 || strings.Join(rows[0], ",") != "name,file,graph,nodes,edges,predicted,label,decision_values" ||
		rows[1][1] != "a, b.mol" || rows[2][6] != "-1" || rows[3][7] != "-1.0000" {
		t.Errorf("CSV %v (%v)", rows, err)
	}
	if right, labelled := score(gs); right != 1 || labelled != 2 {
		t.Errorf("score %d of %d, want 1 of 2", right, labelled)
	}
	html := app.HTMLString(&ClassifyTab{Model: &protocol.Info{Dataset: "MUTAG", Classes: []string{"-1", "1"}, Grid: protocol.Grid{Rows: 1, Cols: 1, Pixel: 1}},
		Weight: []float64{1}, Graphs: gs, CSV: "blob:c"})
	for _, want := range []string{"50.0 % (1 of 2 graphs)", "class -1, class 1", "atom and bond types", `href="blob:c"`, `aria-pressed="false"`} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the Classify tab", want)
		}
	}
}

// cells returns the text of every cell of each row of the table with id.
func cells(html, id string) [][]string {
	_, table, _ := strings.Cut(html, `id="`+id+`"`)
	table, _, _ = strings.Cut(table, "</table>")
	_, body, _ := strings.Cut(table, "<tbody")
	var rows [][]string
	tag := regexp.MustCompile(`<[^>]*>`)
	for _, tr := range strings.Split(body, "<tr")[1:] {
		var row []string
		for _, td := range strings.Split(tr, "<td")[1:] {
			_, text, _ := strings.Cut(td, ">")
			text, _, _ = strings.Cut(text, "</td>")
			row = append(row, strings.TrimSpace(tag.ReplaceAllString(text, "")))
		}
		rows = append(rows, row)
	}
	return rows
}

var mutagInfo = &protocol.Info{Dataset: "MUTAG", Classes: []string{"-1", "1"}, Grid: protocol.Grid{Rows: 1, Cols: 1, Pixel: 1}}

// TestClassifyNamesCountsWords: the table leads with each graph's name and
// predicted class, counts the predictions per class above it, and says
// what each decision value means.
func TestClassifyNamesCountsWords(t *testing.T) {
	gs := []protocol.Graph{
		{File: protocol.TypedSMILES, Index: 0, Name: "nitrobenzene", Nodes: 9, Edges: 9, Label: "-1", Decision: []float64{0.5734}},
		{File: protocol.TypedSMILES, Index: 1, Name: "CCO", Nodes: 3, Edges: 2, Label: "1", Decision: []float64{-1.2}},
		{File: "two.edges", Index: 0, Nodes: 2, Edges: 1, Label: "-1", Decision: []float64{1}},
	}
	html := app.HTMLString(&ClassifyTab{Model: mutagInfo, Weight: []float64{1}, Graphs: gs, SMILES: "c1ccc(cc1)[N+](=O)[O-] nitrobenzene\nCCO", Chosen: 1})
	rows := cells(html, "predictions")
	want := [][]string{
		{"nitrobenzene", "class -1", "+0.57: towards class -1", "9", "9", "typed.smi", "0"},
		{"CCO", "class 1", "-1.20: clearly class 1", "3", "2", "typed.smi", "1"},
		{"two.edges, graph 0", "class -1", "+1.00: clearly class -1", "2", "1", "two.edges", "0"},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows\n%q, want\n%q", rows, want)
	}
	if got := regexp.MustCompile(`\s+`).ReplaceAllString(textOf(html, "classify-counts"), " "); got != "3 predictions: class -1 for 2 , class 1 for 1 ." {
		t.Errorf("counts %q", got)
	}
	var counts []string
	for _, a := range elems(html, "span") {
		if a["class"] == "count" {
			counts = append(counts, a["data-class"]+"="+a["data-count"])
		}
	}
	if strings.Join(counts, " ") != "-1=2 1=1" {
		t.Errorf("counts %q, want -1=2 1=1", counts)
	}
	if ta := elems(html, "textarea"); len(ta) != 1 || ta[0]["id"] != "classify-smiles" || ta[0]["value"] != `c1ccc(cc1)[N+](=O)[O-] nitrobenzene\nCCO` {
		t.Errorf("text area %v", ta)
	}
	for _, want := range []string{
		"CCO: predicted class 1",
		"positive means class -1, negative class 1",
		`accept="` + protocol.GraphAccept + `"`, // every graph format's extensions (protocol's TestAcceptedExtensions)
	} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the Classify tab", want)
		}
	}
	if strings.Contains(html, "classify-accuracy") || strings.Contains(html, "<th>Label</th>") {
		t.Error("an accuracy without labels")
	}

	// More classes: one phrase per pair, the pair named.
	three := &protocol.Info{Dataset: "T", Classes: []string{"a", "b", "c"}, Grid: mutagInfo.Grid}
	if got := decisionWords([]float64{0.25, -2, 0}, three.Classes); got != "+0.25: towards class a (a vs b); -2.00: clearly class c (a vs c); 0: undecided (b vs c)" {
		t.Errorf("three classes: %q", got)
	}
	if got := decisionWords([]float64{0.25}, three.Classes); got != "+0.2500" {
		t.Errorf("decisions not of the model: %q", got)
	}
	html = app.HTMLString(&ClassifyTab{Model: three, Weight: []float64{1}, Graphs: []protocol.Graph{{Name: "x", Label: "c", Decision: []float64{1, -1, -1}}}})
	if !strings.Contains(html, "1 prediction: ") || !strings.Contains(html, "class a for 0") || !strings.Contains(html, "a vs b, a vs c, b vs c") {
		t.Errorf("three classes: counts or help missing")
	}

	// The Classify button waits for SMILES and a model.
	for _, tc := range []struct {
		tab      *ClassifyTab
		disabled bool
		text     string
	}{
		{&ClassifyTab{Model: mutagInfo}, true, "Classify molecules with the model of MUTAG"},
		{&ClassifyTab{Model: mutagInfo, SMILES: "CCO"}, false, "Or files: SMILES"},
		{&ClassifyTab{Model: mutagInfo, SMILES: "CCO", Running: true}, true, "Classifying…"},
		{&ClassifyTab{SMILES: "CCO"}, true, "No model yet"},
		{&ClassifyTab{SMILES: "CCO", Waiting: "Loading this site's model…"}, true, "Loading this site"},
		{&ClassifyTab{SMILES: "CCO", Waiting: loadingModels}, true, "Loading your models…"},
	} {
		html := app.HTMLString(tc.tab)
		button := regexp.MustCompile(`<button[^>]*id="classify-run"[^>]*>`).FindString(html)
		if button == "" {
			t.Fatalf("no Classify button in %s", html)
		}
		if off := strings.Contains(button, " disabled"); off != tc.disabled || !strings.Contains(html, tc.text) {
			t.Errorf("%+v: button disabled %v, want %v; %q shown: %v", tc.tab, off, tc.disabled, tc.text, strings.Contains(html, tc.text))
		}
	}
}

// textOf returns the text inside the element with id (tags removed).
func textOf(html, id string) string {
	i := strings.Index(html, `id="`+id+`"`)
	if i < 0 {
		return ""
	}
	start := strings.LastIndex(html[:i], "<")
	tag := strings.Fields(html[start+1:])[0]
	rest := html[i:]
	_, rest, _ = strings.Cut(rest, ">")
	depth, end := 1, 0
	for re := regexp.MustCompile(`<(/?)` + tag + `\b[^>]*>`); depth > 0; {
		m := re.FindStringSubmatchIndex(rest[end:])
		if m == nil {
			end = len(rest)
			break
		}
		if rest[end+m[2]:end+m[3]] == "/" {
			depth--
		} else {
			depth++
		}
		if depth == 0 {
			end += m[0]
			break
		}
		end += m[1]
	}
	return strings.TrimSpace(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(rest[:end], ""))
}

// TestLinkSMILES: a #classify?smiles=... link fills the text area and
// classifies it as typed SMILES once a model is current, with the model
// restored from an earlier visit.
func TestLinkSMILES(t *testing.T) {
	b := newFakeBackend()
	list, _ := json.Marshal([]savedModel{{Name: "MUTAG", Data: []byte(`{"m":1}`)}})
	b.kept[keyModels] = list
	r, e := mount(t, b)
	r.act(func(ctx app.Context) {
		r.linkSMILES(ctx, "smiles=c1ccc(cc1)%5BN%2B%5D(%3DO)%5BO-%5D&other=1&smiles=CCO%20ethanol&smiles=[NH4+]")
	})
	e.ConsumeAll()
	want := "c1ccc(cc1)[N+](=O)[O-]\nCCO ethanol\n[NH4+]"
	if r.classify.smiles != want || len(b.of(protocol.Predict)) != 0 {
		t.Fatalf("text area %q, %d Predict jobs before a model is current", r.classify.smiles, len(b.of(protocol.Predict)))
	}
	answerInspect(t, e, b, 0, "MUTAG")
	jobs := b.of(protocol.Predict)
	if len(jobs) != 1 || len(jobs[0].req.Inputs) != 1 || jobs[0].req.Inputs[0].Name != protocol.TypedSMILES ||
		string(jobs[0].req.Inputs[0].Data) != want || string(jobs[0].req.Model) != `{"m":1}` {
		t.Fatalf("Predict jobs %+v", jobs)
	}
	if !r.classify.running {
		t.Error("not running")
	}
	jobs[0].h.Done(protocol.Response{Graphs: []protocol.Graph{{File: protocol.TypedSMILES, Name: "nitrobenzene", Label: "-1", Decision: []float64{0.5}}}})
	e.ConsumeAll()
	if cl := r.classify; cl.running || len(cl.graphs) != 1 || cl.csvURL == "" || cl.err != "" {
		t.Fatalf("after the job: %+v", cl)
	}
	html := app.HTMLString(r.classifyTab())
	if !strings.Contains(html, "+0.50: towards class -1") || !strings.Contains(html, "nitrobenzene: predicted class -1") {
		t.Errorf("the prediction is not shown")
	}

	// Typing replaces the link's SMILES; the Classify button sends them.
	r.act(func(ctx app.Context) { r.classify.smiles, r.classify.fromLink = "C1CC", false; r.classifySMILES(ctx) })
	e.ConsumeAll()
	jobs = b.of(protocol.Predict)
	if len(jobs) != 2 || string(jobs[1].req.Inputs[0].Data) != "C1CC" {
		t.Fatalf("Predict jobs %+v", jobs)
	}
	jobs[1].h.Fail(errors.New("typed.smi line 1: SMILES \"C1CC\": character 2: ring bond 1 is never closed"))
	e.ConsumeAll()
	if cl := r.classify; cl.running || !strings.Contains(cl.err, "line 1") || !strings.Contains(cl.err, "character 2") ||
		!strings.Contains(cl.err, "earlier predictions below still stand") || len(cl.graphs) != 1 {
		t.Errorf("after a bad SMILES: %+v", cl)
	}
	r.act(func(ctx app.Context) { r.classify.smiles = "  \n"; r.classifySMILES(ctx) })
	e.ConsumeAll()
	if len(b.of(protocol.Predict)) != 2 || !strings.Contains(r.classify.err, "Type or paste a SMILES") {
		t.Errorf("blank SMILES: %d jobs, error %q", len(b.of(protocol.Predict)), r.classify.err)
	}
}

// TestClassifyReplacesRunning: a new classification cancels the running
// one, whose late answer is ignored.
func TestClassifyReplacesRunning(t *testing.T) {
	b := newFakeBackend()
	r, e := mount(t, b)
	r.models.current = &trained{name: "M", data: []byte("{}"), info: mutagInfo}
	r.act(func(ctx app.Context) { r.classify.smiles = "CCO"; r.classifySMILES(ctx) })
	r.act(func(ctx app.Context) { r.classify.smiles = "CCN"; r.classifySMILES(ctx) })
	e.ConsumeAll()
	jobs := b.of(protocol.Predict)
	if len(jobs) != 2 {
		t.Fatalf("%d jobs", len(jobs))
	}
	jobs[1].h.Done(protocol.Response{Graphs: []protocol.Graph{{Name: "CCN", Label: "1", Decision: []float64{-1}}}})
	jobs[0].h.Done(protocol.Response{Graphs: []protocol.Graph{{Name: "CCO", Label: "1", Decision: []float64{-1}}}})
	e.ConsumeAll()
	if cl := r.classify; cl.running || len(cl.graphs) != 1 || cl.graphs[0].Name != "CCN" {
		t.Errorf("graphs %+v, running %v", cl.graphs, cl.running)
	}
}

// TestClassifyAnsweredWhenModelChanges: a classification whose model is
// no longer current when its answer comes (another model loaded or
// chosen meanwhile) is not dropped: it runs again with the current model,
// whose predictions show.
func TestClassifyAnsweredWhenModelChanges(t *testing.T) {
	b := newFakeBackend()
	r, e := mount(t, b)
	a, other := &trained{name: "A", data: []byte("a"), info: mutagInfo}, &trained{name: "B", data: []byte("b"), info: mutagInfo}
	r.keepModel(a)
	r.keepModel(other)
	r.act(func(ctx app.Context) { r.useModel(a); r.classify.smiles = "CCO"; r.classifySMILES(ctx) })
	e.ConsumeAll()
	r.act(func(app.Context) { r.useModel(other) })
	e.ConsumeAll()
	jobs := b.of(protocol.Predict)
	jobs[0].h.Done(protocol.Response{Graphs: []protocol.Graph{{Name: "CCO", Label: "-1", Decision: []float64{1}}}})
	e.ConsumeAll()
	jobs = b.of(protocol.Predict)
	if len(jobs) != 2 || string(jobs[1].req.Model) != "b" || !r.classify.running || len(r.classify.graphs) != 0 {
		t.Fatalf("%d predict jobs (the last with model %q), running %v, graphs %v; want the input sent again with B", len(jobs), jobs[len(jobs)-1].req.Model, r.classify.running, r.classify.graphs)
	}
	jobs[1].h.Done(protocol.Response{Graphs: []protocol.Graph{{Name: "CCO", Label: "1", Decision: []float64{-1}}}})
	e.ConsumeAll()
	if cl := r.classify; cl.running || len(cl.graphs) != 1 || cl.graphs[0].Label != "1" {
		t.Errorf("graphs %+v, running %v", cl.graphs, cl.running)
	}
}

// TestAboutClasses: the Classify tab says what a model's classes are: a
// threshold's classes by their names, a molecule file's by its target
// column, a bundled TU dataset's as the labels of its label file, and
// nothing it does not know.
func TestAboutClasses(t *testing.T) {
	for _, tc := range []struct {
		info protocol.Info
		want string
	}{
		{protocol.Info{Dataset: "chembl", Classes: []string{"pAct < 6.44", "pAct >= 6.44"}},
			"Its classes are class pAct < 6.44, class pAct >= 6.44."},
		{protocol.Info{Dataset: "chembl", Classes: []string{"pAct < 6.44", "pAct >= 6.44"}, Target: "pAct"},
			"Its classes are class pAct < 6.44, class pAct >= 6.44."},
		{protocol.Info{Dataset: "chembl", Classes: []string{"active", "inactive"}, Target: "outcome"},
			"Its classes are the values of outcome in chembl's file: class active, class inactive."},
		{protocol.Info{Dataset: "MUTAG", Classes: []string{"-1", "1"}},
			"Its classes are class -1, class 1, the labels of MUTAG's graph label file; MUTAG's files do not say what they mean."},
		{protocol.Info{Dataset: "chembl", Classes: []string{"0", "1"}},
			"Its classes are class 0, class 1, as the data it was trained on (chembl) names them."},
		// Not a cut: the targets differ.
		{protocol.Info{Dataset: "x", Classes: []string{"a < 1", "b >= 1"}},
			"Its classes are class a < 1, class b >= 1, as the data it was trained on (x) names them."},
	} {
		if got := aboutClasses(&tc.info); got != tc.want {
			t.Errorf("%+v:\n got %q\nwant %q", tc.info, got, tc.want)
		}
		if strings.Contains(aboutClasses(&tc.info), "do not say") && tc.info.Dataset != "MUTAG" {
			t.Errorf("%s: claims its files do not say what the classes mean", tc.info.Dataset)
		}
	}
}

// TestModeLine: every mode the pipeline names (features.Settings.Mode,
// which the page does not link) gets a sentence of its own, starting
// with the mode; a model with atoms and bonds is never told to ignore
// bond types.
func TestModeLine(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range []spec.Spec{spec.Defaults(), spec.Molecules(), spec.AtomTypes([]string{"3", "1", "2"})} {
		for _, labels := range []bool{false, true} {
			u, err := eval.FromSpec(s)
			if err != nil {
				t.Fatal(err)
			}
			f := u.Features
			if labels {
				f.Labels = &features.Labels{}
			}
			mode := f.Mode()
			seen[mode] = true
			line := modeLine(mode)
			if !strings.HasPrefix(line, "Mode: "+mode+": ") {
				t.Errorf("mode %q: %q", mode, line)
			}
			if f.Molecular() && strings.Contains(line, "bond types") {
				t.Errorf("mode %q reads bonds, but: %q", mode, line)
			}
		}
	}
	if len(seen) != 6 {
		t.Errorf("%d modes, want 6: %v", len(seen), seen)
	}
}
