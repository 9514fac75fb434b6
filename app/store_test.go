package app

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/eval"
	"wkpi-web/core/learn"
	"wkpi-web/core/spec"
	"wkpi-web/wasm/jobs"
	"wkpi-web/wasm/pool"
	"wkpi-web/wasm/protocol"
)

// fakeBackend keeps what the page puts in memory and records the jobs it
// submits, for the test to answer; it has no datasets or files.
type fakeBackend struct {
	kept    map[string][]byte
	urls    int
	revoked int
	size    int
	jobs    []submitted
	// registered are the datasets the page made, in order.
	registered [][]protocol.File
	canceled   []int64 // the jobs canceled, in order
}

type submitted struct {
	req protocol.Request
	h   pool.Handler
}

func newFakeBackend() *fakeBackend { return &fakeBackend{kept: map[string][]byte{}, size: 1} }

func (f *fakeBackend) Submit(req protocol.Request, h pool.Handler) int64 {
	req.ID = int64(len(f.jobs) + 1)
	f.jobs = append(f.jobs, submitted{req, h})
	return req.ID
}
func (f *fakeBackend) Cancel(id int64)                  { f.canceled = append(f.canceled, id) }
func (f *fakeBackend) Size() int                        { return f.size }
func (f *fakeBackend) Demo(string, func(string, error)) {}
func (f *fakeBackend) Register(fs []protocol.File) string {
	f.registered = append(f.registered, fs)
	return protocol.DatasetKey(fs)
}
func (f *fakeBackend) Save(string)                                       {}
func (f *fakeBackend) Restore(done func(string))                         { done("") }
func (f *fakeBackend) ReadFiles(app.Value, func([]protocol.File, error)) {}
func (f *fakeBackend) Put(key string, data []byte)                       { f.kept[key] = data }
func (f *fakeBackend) Get(key string, done func([]byte))                 { done(f.kept[key]) }
func (f *fakeBackend) ObjectURL(data []byte, mime string) string {
	f.urls++
	return fmt.Sprint("blob:", f.urls)
}
func (f *fakeBackend) RevokeURL(string) { f.revoked++ }

// of returns the jobs of kind submitted so far.
func (f *fakeBackend) of(kind protocol.Kind) []submitted {
	var out []submitted
	for _, j := range f.jobs {
		if j.req.Kind == kind {
			out = append(out, j)
		}
	}
	return out
}

// harness mounts a Root in go-app's test engine, which calls OnMount in
// the browser only: natively it calls OnPreRender, which mounts the Root
// with the harness's context.
type harness struct {
	app.Compo
	root *Root
}

func (h *harness) Render() app.UI              { return h.root }
func (h *harness) OnPreRender(ctx app.Context) { h.root.OnMount(ctx) }

// mount runs a Root on b in go-app's test engine, as in the browser:
// the form starts from the default settings, with no job.
func mount(t *testing.T, b *fakeBackend) (*Root, app.TestEngine) {
	t.Helper()
	r := newRoot(b)
	e := app.NewTestEngine()
	if err := e.Load(&harness{root: r}); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	if r.train.form == nil || r.train.form.Spec != spec.Defaults() {
		t.Fatalf("the form starts from %+v, not the defaults", r.train.form)
	}
	r.train.form.Folds = 3 // the toy datasets have 6 graphs
	return r, e
}

// runMerge answers job j (a MergeCV) with a worker of package jobs, as
// the pool would run it.
func runMerge(t *testing.T, j submitted) protocol.Response {
	t.Helper()
	var w jobs.Worker
	resp := w.Run(context.Background(), j.req, nil, nil)
	if resp.Event != protocol.Done {
		t.Fatalf("merge: %s", resp.Error)
	}
	j.h.Done(resp)
	return resp
}

var toyLabels = []int{0, 1, 0, 1, 0, 1}

// toyFold is fold i of 3 over toyLabels, its test samples 2i and 2i+1.
func toyFold(i int, acc, base float64, pred, basePred []int) protocol.Fold {
	return protocol.Fold{Index: i, Accuracy: acc, Baseline: base, Test: []int{2 * i, 2*i + 1}, Predicted: pred, BaselinePredicted: basePred,
		Trace: protocol.Trace{Cost: []float64{1, 0.5}, Iterations: 1}}
}

// TestRunMergedByAWorker: a run's parts go to a worker to merge once
// every fold is in, the last part with the final model (no job of its
// own); the Train tab shows the worker's report and test, the run ends
// when the merge is in, and the saved run keeps the test.
func TestRunMergedByAWorker(t *testing.T) {
	b := newFakeBackend()
	b.size = 2
	r, e := mount(t, b)
	r.data.key, r.data.summary = "demo:TOY", &protocol.Summary{Name: "TOY", Graphs: 6, Classes: []protocol.Class{{Label: "x", Count: 3}, {Label: "y", Count: 3}}}
	r.act(func(ctx app.Context) { r.askCV(ctx) })
	e.ConsumeAll()
	// The automatic choice's candidates first, a job each; the folds'
	// jobs take their scores.
	choices := b.of(protocol.ChoiceScores)
	// Each candidate's job plans the fold job after it on the bar.
	if len(choices) != 2 || len(b.of(protocol.CrossValidate)) != 0 || choices[0].req.Training.Candidate != 0 || choices[1].req.Training.Candidate != 1 ||
		fmt.Sprint(choices[0].req.Training.Only, choices[1].req.Training.Only) != "[0 2] [1]" || !choices[1].req.Training.Final {
		t.Fatalf("%d choice jobs (%v), %d CV jobs before their scores", len(choices), choices, len(b.of(protocol.CrossValidate)))
	}
	scores := [][][]float64{{{1}, {2}, {3}, {4}}, {{0}, {0}, {0}, {0}}}
	choices[1].h.Done(protocol.Response{Scores: scores[1]})
	e.ConsumeAll()
	if n := len(b.of(protocol.CrossValidate)); n != 0 {
		t.Fatalf("%d CV jobs with a candidate's scores missing", n)
	}
	choices[0].h.Done(protocol.Response{Scores: scores[0]})
	e.ConsumeAll()
	cvs, train := b.of(protocol.CrossValidate), b.of(protocol.Train)
	if len(cvs) != 2 || len(train) != 0 || fmt.Sprint(cvs[0].req.Training.Only, cvs[1].req.Training.Only) != "[0 2] [1]" ||
		cvs[0].req.Training.Final || !cvs[1].req.Training.Final {
		t.Fatalf("%d CV jobs, %d training; folds %v, want the final model with the last", len(cvs), len(train), cvs)
	}
	for _, cv := range cvs {
		if !reflect.DeepEqual(cv.req.Training.ChoiceScores, scores) {
			t.Fatalf("a CV job has the scores %v, want %v", cv.req.Training.ChoiceScores, scores)
		}
	}
	folds := []protocol.Fold{
		toyFold(0, 1, 0.5, []int{0, 1}, []int{0, 0}),
		toyFold(1, 0.5, 0.5, []int{0, 0}, []int{0, 0}),
		toyFold(2, 1, 0.5, []int{0, 1}, []int{1, 1}),
	}
	partOf := func(fs ...protocol.Fold) protocol.CVPart {
		return protocol.CVPart{Report: protocol.Report{Protocol: "fixed", Folds: fs, Seconds: 1}, Labels: toyLabels, Classes: 2}
	}
	second, first := partOf(folds[1]), partOf(folds[0], folds[2])
	info := &protocol.Info{Dataset: "TOY", Classes: []string{"x", "y"}, Grid: protocol.Grid{Rows: 1, Cols: 1, Pixel: 1}}
	cvs[1].h.Done(protocol.Response{CV: &second, Info: info, Model: []byte("{}"), Arrays: map[string][]float64{"before": {1}, "after": {2}}})
	e.ConsumeAll()
	if n := len(b.of(protocol.MergeCV)); n != 0 {
		t.Fatalf("%d merge jobs with a part missing", n)
	}
	cvs[0].h.Done(protocol.Response{CV: &first})
	e.ConsumeAll()
	merges := b.of(protocol.MergeCV)
	if len(merges) != 1 || !reflect.DeepEqual(merges[0].req.Parts, []protocol.CVPart{second, first}) {
		t.Fatalf("merge jobs %+v, want one of the two parts as they came", merges)
	}
	c := r.train.cv
	if c.report != nil || len(c.jobs.ids) != 1 || strings.HasPrefix(r.status, "Cross-validation and training done") {
		t.Fatalf("report %v before the merge; %d jobs running, want the merge; status %q", c.report, len(c.jobs.ids), r.status)
	}
	resp := runMerge(t, merges[0])
	e.ConsumeAll()
	if !reflect.DeepEqual(c.report, &resp.Merged.Report) || !reflect.DeepEqual(c.test, &resp.Merged.Test) {
		t.Fatalf("the run holds %+v %+v, not the worker's merge", c.report, c.test)
	}
	if len(c.jobs.ids) != 0 || !strings.HasPrefix(r.status, "Cross-validation and training done") {
		t.Fatalf("%d jobs left, status %q", len(c.jobs.ids), r.status)
	}
	// The merged accuracy is the kept model's, and the run is saved with
	// its test.
	if m := r.findModel("TOY"); m == nil || m.accuracy != resp.Merged.Report.Learned.Accuracy {
		t.Errorf("kept model %+v, want the merged accuracy %v", m, resp.Merged.Report.Learned.Accuracy)
	}
	// The model's file keeps its name and the evaluation (3 folds: 1,
	// 0.5, 1), and the download link gives that file.
	learned := resp.Merged.Report.Learned
	want := fmt.Sprintf(`{"name":"TOY","evaluation":{"folds":3,"accuracy":%v,"std":%v}}`, learned.Accuracy, learned.Std)
	if m := r.findModel("TOY"); m == nil || string(m.data) != want || m.url != fmt.Sprint("blob:", b.urls) || learned.Accuracy != 2.5/3 {
		t.Errorf("kept model file %s (link %s of %d), want %s", m.data, m.url, b.urls, want)
	}
	var saved savedRun
	if err := json.Unmarshal(b.kept[keyResults], &saved); err != nil || !reflect.DeepEqual(saved.Test, c.test) || !reflect.DeepEqual(saved.Report, c.report) {
		t.Errorf("saved run %+v (%v)", saved, err)
	}
	// The tab shows the worker's numbers: differences 0.5, 0, 0.5.
	html := app.HTMLString(r.trainTab())
	for _, want := range []string{
		fmt.Sprintf(`data-p="%v"`, resp.Merged.Test.TP),
		fmt.Sprintf("+33.3 ± 28.9 points over 3 folds (paired t-test p = %.2g, Wilcoxon signed-rank p = %.2g)", resp.Merged.Test.TP, resp.Merged.Test.WilcoxonP),
		"83.3 ± 23.6 %",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the Train tab", want)
		}
	}
}

// oldSavedRun is savedRun as pages kept it before the protocol had its
// own types: eval's, and no test.
type oldSavedRun struct {
	Key     string            `json:"key"`
	Used    protocol.Training `json:"used"`
	Folds   []eval.Fold       `json:"folds"`
	Report  *eval.Report      `json:"report"`
	Info    *protocol.Info    `json:"info"`
	Before  []float64         `json:"before"`
	After   []float64         `json:"after"`
	Seconds float64           `json:"seconds"`
}

// TestOldSavedRunLoads: the last run as an earlier page saved it (eval's
// JSON) shows again with its dataset, every value the Train tab reads
// intact; a worker adds the paired test it lacks, and the run is saved
// again with it.
func TestOldSavedRunLoads(t *testing.T) {
	cfg := eval.DefaultConfig()
	cfg.Learn.M, cfg.Sigma, cfg.C, cfg.Gauss = 4, 0.1, 10, 1
	fold := func(i int, acc, base float64, pred, basePred []int) eval.Fold {
		return eval.Fold{Index: i, Config: cfg, Accuracy: acc, Baseline: base, Test: []int{2 * i, 2*i + 1}, Predicted: pred, BaselinePredicted: basePred,
			Trace: learn.Trace{Cost: []float64{2, 1.5}, Iterations: 1, Converged: true}, Candidate: i % 2}
	}
	rep, err := eval.Merge(toyLabels, 2, eval.Report{Protocol: "auto", Seconds: 7, Folds: []eval.Fold{
		fold(0, 1, 0.5, []int{0, 1}, []int{0, 0}), fold(1, 0.5, 0.5, []int{0, 0}, []int{0, 0}), fold(2, 1, 1, []int{0, 1}, []int{0, 1})}})
	if err != nil {
		t.Fatal(err)
	}
	old := oldSavedRun{Key: "demo:TOY", Used: protocol.Training{Spec: spec.Defaults()}, Folds: rep.Folds, Report: &rep,
		Info: &protocol.Info{Dataset: "TOY", Grid: protocol.Grid{Rows: 1, Cols: 1, Pixel: 1}}, Before: []float64{1}, After: []float64{2}, Seconds: 7}
	data, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	b := newFakeBackend()
	b.kept[keyResults] = data
	r, e := mount(t, b)
	if r.train.lastRun == nil || r.train.cv != nil {
		t.Fatalf("last run %v, run %v before its dataset loaded", r.train.lastRun, r.train.cv)
	}
	r.act(func(ctx app.Context) { r.load(ctx, "demo:TOY") })
	e.ConsumeAll()
	summary := &protocol.Summary{Name: "TOY", Graphs: 6, Classes: []protocol.Class{{Label: "x", Count: 3}, {Label: "y", Count: 3}}}
	b.of(protocol.Load)[0].h.Done(protocol.Response{Summary: summary})
	e.ConsumeAll()
	c := r.train.cv
	if c == nil || !c.restored || c.report == nil || c.test != nil {
		t.Fatalf("restored run %+v", c)
	}
	// What the Train tab reads, by hand from the folds above.
	got := c.report
	if got.Protocol != "auto" || got.Learned.Accuracy != rep.Learned.Accuracy || got.Learned.Std != rep.Learned.Std ||
		!reflect.DeepEqual(got.Learned.Confusion, [][]int{{3, 0}, {1, 2}}) || !reflect.DeepEqual(got.Baseline.Confusion, [][]int{{3, 0}, {2, 1}}) ||
		len(c.folds) != 3 || len(got.Folds) != 3 {
		t.Fatalf("restored report %+v", got)
	}
	for i, f := range c.folds {
		want := protocol.Fold{Index: i, Config: protocol.FoldConfig{Sigma: 0.1, C: 10, Gauss: 1, Learn: protocol.FoldLearn{M: 4}},
			Trace: protocol.Trace{Cost: []float64{2, 1.5}, Iterations: 1, Converged: true}, Accuracy: rep.Folds[i].Accuracy, Baseline: rep.Folds[i].Baseline,
			Candidate: i % 2, Test: rep.Folds[i].Test, Predicted: rep.Folds[i].Predicted, BaselinePredicted: rep.Folds[i].BaselinePredicted}
		zero := 0.0 // eval.Fold writes an unscored fold's ROC-AUC as 0
		want.ROCAUC, want.BaselineROCAUC = &zero, &zero
		if !reflect.DeepEqual(f, want) || !reflect.DeepEqual(got.Folds[i], want) {
			t.Errorf("fold %d: %+v, want %+v", i, f, want)
		}
	}
	merges := b.of(protocol.MergeCV)
	if len(merges) != 1 || len(merges[0].req.Parts) != 1 || merges[0].req.Parts[0].Labels != nil {
		t.Fatalf("merge jobs %+v, want one testing the saved report", merges)
	}
	status := r.status
	resp := runMerge(t, merges[0])
	e.ConsumeAll()
	if !reflect.DeepEqual(c.test, &resp.Merged.Test) || !reflect.DeepEqual(resp.Merged.Test.Differences, []float64{0.5, 0, 0}) || r.status != status || len(c.jobs.ids) != 0 {
		t.Fatalf("test %+v, status %q (was %q), %d jobs", c.test, r.status, status, len(c.jobs.ids))
	}
	html := app.HTMLString(r.trainTab())
	for _, want := range []string{`id="train-verdict"`, "Results of the last run, from an earlier visit", "size-aware (unnormalised, σ = 1) in 1 of 3 folds", "m 4, σ 0.1, C 10, Gaussian"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the restored Train tab", want)
		}
	}
	var again savedRun
	if err := json.Unmarshal(b.kept[keyResults], &again); err != nil || again.Test == nil || again.Seconds != 7 || !reflect.DeepEqual(*again.Test, resp.Merged.Test) {
		t.Errorf("saved again: %+v (%v)", again, err)
	}
}

// TestKeptModelGivenBack: a kept model's own file, downloaded and given
// back, makes that model current with its name and accuracy; no copy
// named "MUTAG (2)" that knows no accuracy.
func TestKeptModelGivenBack(t *testing.T) {
	b := newFakeBackend()
	r, e := mount(t, b)
	info := &protocol.Info{Dataset: "MUTAG"}
	r.keepModel(&trained{name: "MUTAG", data: []byte("1"), info: info, accuracy: 0.9})
	r.keepModel(&trained{name: "MUTAG (2)", data: []byte("2"), info: info})
	r.act(func(ctx app.Context) { r.inspect(ctx, "wkpi-MUTAG.json", []byte("1")) })
	e.ConsumeAll()
	ms := &r.models
	if len(ms.kept) != 2 || ms.current != ms.kept[0] || ms.current.accuracy != 0.9 || string(b.kept[keyCurrent]) != "MUTAG" ||
		len(b.of(protocol.Inspect)) != 0 || !strings.Contains(r.status, `the model kept as "MUTAG"`) {
		t.Fatalf("the kept file given back: models %v, current %v, %d inspections, status %q", ms.kept, ms.current, len(b.of(protocol.Inspect)), r.status)
	}
	// Another file goes to a worker to be checked.
	r.act(func(ctx app.Context) { r.inspect(ctx, "other.json", []byte("3")) })
	e.ConsumeAll()
	if len(b.of(protocol.Inspect)) != 1 {
		t.Errorf("a new file: %d inspections, want 1", len(b.of(protocol.Inspect)))
	}
}

func TestKeptModels(t *testing.T) {
	b := newFakeBackend()
	r := newRoot(b)
	info := &protocol.Info{Dataset: "MUTAG"}
	r.keepModel(&trained{name: "MUTAG", data: []byte("1"), info: info})
	if got := r.uniqueName("MUTAG"); got != "MUTAG (2)" {
		t.Errorf("unique name %q", got)
	}
	r.keepModel(&trained{name: r.uniqueName("MUTAG"), data: []byte("2"), info: info, accuracy: 0.9})
	r.keepModel(&trained{name: "MUTAG", data: []byte("3"), info: info}) // replaces the first
	ms := &r.models
	if len(ms.kept) != 2 || ms.kept[0].name != "MUTAG" || string(ms.kept[0].data) != "3" || ms.current != ms.kept[0] || b.revoked != 1 {
		t.Fatalf("models %v, current %v, %d URLs revoked", ms.kept, ms.current, b.revoked)
	}
	var saved []savedModel
	if err := json.Unmarshal(b.kept[keyModels], &saved); err != nil || len(saved) != 2 || saved[1].Name != "MUTAG (2)" ||
		string(saved[1].Data) != "2" || saved[1].Accuracy != 0.9 || string(b.kept[keyCurrent]) != "MUTAG" {
		t.Errorf("saved %+v (%v), current %q", saved, err, b.kept[keyCurrent])
	}
	r.deleteModel("MUTAG")
	if len(ms.kept) != 1 || ms.current == nil || ms.current.name != "MUTAG (2)" || string(b.kept[keyCurrent]) != "MUTAG (2)" {
		t.Errorf("after deleting the current model: %v, current %v", ms.kept, ms.current)
	}
	// A saved run comes back as a finished run with the same results.
	rep := protocol.Report{Folds: []protocol.Fold{{Index: 0, Accuracy: 1, Baseline: 0.5}}}
	test := protocol.PairedTest{ComparePaired: protocol.ComparePaired{Differences: []float64{0.5}, TP: 1, WilcoxonP: 1}, Mean: 0.5}
	s := savedRun{Key: "demo:MUTAG", Used: protocol.Training{Spec: spec.Defaults()}, Folds: rep.Folds, Report: &rep, Test: &test, Info: info, Before: []float64{1}, After: []float64{2}}
	data, _ := json.Marshal(s)
	var back savedRun
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	c := back.run()
	if len(c.jobs.ids) != 0 || c.fraction != 1 || !c.restored || c.report.Folds[0].Accuracy != 1 || c.after[0] != 2 ||
		!reflect.DeepEqual(c.test, &test) {
		t.Errorf("restored run %+v", c)
	}
}

// TestModelFileKeepsEvaluation: a model file that keeps its name and
// evaluation, loaded in a browser that never saw it, is kept under its
// name with its CV accuracy, as the Models tab shows it; a file without
// them gets the dataset's name and no accuracy.
func TestModelFileKeepsEvaluation(t *testing.T) {
	b := newFakeBackend()
	r, e := mount(t, b)
	for _, tc := range []struct {
		info        protocol.Info
		name, shown string
	}{
		{protocol.Info{Dataset: "chembl", Name: "chembl", Evaluation: &protocol.Evaluation{Folds: 10, Accuracy: 0.8125, Std: 0.05}}, "chembl", "81.2 %"},
		{protocol.Info{Dataset: "chembl", Name: "pAct model", Evaluation: &protocol.Evaluation{Folds: 5, Accuracy: 0.75}}, "pAct model", "75.0 %"},
		{protocol.Info{Dataset: "chembl"}, "chembl (2)", "not known"},
	} {
		r.act(func(ctx app.Context) { r.inspect(ctx, "wkpi-chembl.json", []byte(tc.name)) })
		e.ConsumeAll()
		jobs := b.of(protocol.Inspect)
		info := tc.info
		jobs[len(jobs)-1].h.Done(protocol.Response{Info: &info})
		e.ConsumeAll()
		if m := r.models.current; m == nil || m.name != tc.name {
			t.Fatalf("%+v: current %+v, want it named %q", tc.info, m, tc.name)
		}
		html := app.HTMLString(r.modelsTab())
		row := regexp.MustCompile(`data-name="` + regexp.QuoteMeta(tc.name) + `"(?s:.*?)</tr>`).FindString(html)
		if !strings.Contains(row, ">"+tc.shown+"<") {
			t.Errorf("%s: row %s, want CV accuracy %q", tc.name, row, tc.shown)
		}
	}
}

// TestRestoreShowsOneModel: after a reload the saved models come back as
// workers check them, in any order, but the page shows one state,
// "Loading your models…", until the current one is back, and never
// another model as current; the list keeps its saved order; a model
// trained meanwhile is current from then on, and saving waits for the
// restored models, so that none is lost.
func TestRestoreShowsOneModel(t *testing.T) {
	saved := []savedModel{{Name: "MUTAG", Data: []byte("1")}, {Name: "PTC", Data: []byte("2"), Accuracy: 0.6}, {Name: "chembl", Data: []byte("3")}}
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 2, 0}} {
		b := newFakeBackend()
		data, _ := json.Marshal(saved)
		b.kept[keyModels], b.kept[keyCurrent] = data, []byte("PTC")
		r, e := mount(t, b)
		jobs := b.of(protocol.Inspect)
		if len(jobs) != 3 {
			t.Fatalf("%d inspections, want 3", len(jobs))
		}
		for k, i := range order {
			if r.models.current != nil {
				t.Fatalf("order %v: current %q before its check ended", order, r.models.current.name)
			}
			tab, models := app.HTMLString(r.classifyTab()), app.HTMLString(r.modelsTab())
			if !strings.Contains(tab, "Loading your models…") || strings.Contains(tab, "with the model of") ||
				!strings.Contains(models, "Loading your models…") || strings.Contains(models, "No model yet") {
				t.Fatalf("order %v, %d checked: Classify %q, Models %q", order, k, textOf(tab, "classify-waiting"), textOf(models, "model-restoring"))
			}
			jobs[i].h.Done(protocol.Response{Info: &protocol.Info{Dataset: saved[i].Name}})
			e.ConsumeAll()
			if i == 1 {
				break
			}
		}
		if m := r.models.current; m == nil || m.name != "PTC" || m.accuracy != 0.6 || r.models.restoring {
			t.Fatalf("order %v: current %+v, restoring %v", order, m, r.models.restoring)
		}
		// The others come back without changing it; the list keeps the
		// saved order.
		for _, i := range order {
			if r.findModel(saved[i].Name) == nil {
				jobs[i].h.Done(protocol.Response{Info: &protocol.Info{Dataset: saved[i].Name}})
				e.ConsumeAll()
			}
		}
		var names []string
		for _, m := range r.models.kept {
			names = append(names, m.name)
		}
		if r.models.current.name != "PTC" || strings.Join(names, " ") != "MUTAG PTC chembl" {
			t.Errorf("order %v: current %q, kept %v", order, r.models.current.name, names)
		}
	}

	// A model kept while the others are checked is current, and the
	// list is saved once all are back.
	b := newFakeBackend()
	data, _ := json.Marshal(saved)
	b.kept[keyModels], b.kept[keyCurrent] = data, []byte("PTC")
	r, e := mount(t, b)
	jobs := b.of(protocol.Inspect)
	jobs[0].h.Done(protocol.Response{Info: &protocol.Info{Dataset: "MUTAG"}})
	e.ConsumeAll()
	r.keepModel(&trained{name: "new", data: []byte("4"), info: &protocol.Info{Dataset: "new"}})
	if string(b.kept[keyModels]) != string(data) {
		t.Fatalf("saved while restoring: %s", b.kept[keyModels])
	}
	for _, j := range jobs[1:] {
		j.h.Done(protocol.Response{Info: &protocol.Info{Dataset: "x"}})
		e.ConsumeAll()
	}
	var list []savedModel
	if err := json.Unmarshal(b.kept[keyModels], &list); err != nil || len(list) != 4 || r.models.current.name != "new" || string(b.kept[keyCurrent]) != "new" {
		t.Errorf("saved %d models (%v), current %q", len(list), err, r.models.current.name)
	}
}
