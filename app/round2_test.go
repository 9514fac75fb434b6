package app

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/eval"
	"wkpi-web/core/persistence"
	"wkpi-web/wasm/protocol"
)

func folds(learned []float64, baseline ...float64) []eval.Fold {
	f := make([]eval.Fold, len(learned))
	for i := range f {
		f[i] = eval.Fold{Index: i, Accuracy: learned[i], Baseline: baseline[i]}
	}
	return f
}

// TestPairedTest checks the paired t-test against the closed forms of
// Student's t distribution for 1 and 2 degrees of freedom:
// p = 1 - 2 atan(|t|)/pi and p = 1 - |t|/sqrt(t^2 + 2).
func TestPairedTest(t *testing.T) {
	// Differences 0.1, 0.2, 0: mean 0.1, sample std 0.1, t = sqrt 3.
	p := pairedTest(folds([]float64{0.9, 1, 0.8}, 0.8, 0.8, 0.8))
	if want := 1 - math.Sqrt(3)/math.Sqrt(5); math.Abs(p.P-want) > 1e-9 || math.Abs(p.T-math.Sqrt(3)) > 1e-9 || math.Abs(p.Mean-0.1) > 1e-12 {
		t.Errorf("3 folds: t %v p %v mean %v, want t sqrt 3, p %v", p.T, p.P, p.Mean, want)
	}
	// Differences -0.3, -0.1: mean -0.2, std sqrt 0.02, t = -2.
	p = pairedTest(folds([]float64{0.5, 0.7}, 0.8, 0.8))
	if want := 1 - 2*math.Atan(2)/math.Pi; math.Abs(p.P-want) > 1e-9 || math.Abs(p.T+2) > 1e-9 {
		t.Errorf("2 folds: t %v p %v, want t -2, p %v", p.T, p.P, want)
	}
	if p := pairedTest(folds([]float64{0.8, 0.7}, 0.8, 0.7)); p.P != 1 || !strings.HasPrefix(p.verdict(), "Learning did not help") {
		t.Errorf("equal folds: p %v, verdict %q", p.P, p.verdict())
	}
	if p := pairedTest(folds([]float64{0.75, 1}, 0.5, 0.75)); p.P != 0 || !strings.HasPrefix(p.verdict(), "Learning helped") {
		t.Errorf("the same gain in every fold: p %v, verdict %q", p.P, p.verdict())
	}
	p = pairedTest(folds([]float64{0.66, 0.67}, 0.8, 0.85))
	p.Majority, p.MajorityOf = 0.665, "1"
	if !strings.Contains(p.verdict(), "no better than always answering class 1 (66.5 %)") {
		t.Errorf("a kernel at the majority rate is not called out: %q", p.verdict())
	}
	if r, c := majority([]protocol.Class{{Label: "-1", Count: 63}, {Label: "1", Count: 125}}); math.Abs(r-125.0/188) > 1e-12 || c != "1" {
		t.Errorf("majority %v %q", r, c)
	}
}

func TestFieldCheck(t *testing.T) {
	for _, tc := range []struct {
		id, text, msg string
		v             float64
	}{
		{"train-sigma", "0", "Must be more than 0.", 0},
		{"train-sigma", "-1", "Must be more than 0.", 0},
		{"train-sigma", "", "Enter a number.", 0},
		{"train-sigma", " 0.5 ", "", 0.5},
		{"train-sigma", "abc", `"abc" is not a number.`, 0},
		{"train-C", "1e-3", "", 0.001},
		{"train-m", "2.5", "Enter a whole number.", 0},
		{"train-m", "0", "Must be at least 1.", 0},
		{"train-folds", "1", "Must be at least 2.", 0},
		{"train-folds", "189", "At most 188 (the number of graphs).", 0},
		{"train-folds", "188", "", 188},
		{"train-prior", "0", "", 0}, // the paper's objective
		{"train-tau", "-0.1", "Must be at least 0.", 0},
		{"train-seed", "-7", "", -7},
	} {
		f, ok := fieldByID(tc.id)
		if !ok {
			t.Fatalf("no field %s", tc.id)
		}
		v, msg := f.check(tc.text, 188)
		if msg != tc.msg || (msg == "" && v != tc.v) {
			t.Errorf("%s %q: %v %q, want %v %q", tc.id, tc.text, v, msg, tc.v, tc.msg)
		}
	}
	// Every field reads back what it stores.
	var tr protocol.Training
	for i, f := range numFields {
		f.set(&tr, float64(i+2))
		if got := f.get(&tr); got != float64(i+2) {
			t.Errorf("%s stores %d, reads %v", f.id, i+2, got)
		}
	}
}

// TestStackedPoints: MUTAG graph 0's Rel1 has five points on three spots;
// each spot is drawn once and says how many points it holds.
func TestStackedPoints(t *testing.T) {
	d := persistence.Diagrams{Rel1: []persistence.Point{{Birth: 1, Death: 0}, {Birth: 1, Death: 0}, {Birth: 1, Death: 0}, {Birth: 2, Death: 0.5}, {Birth: 0.5, Death: 0}}}
	html := app.HTMLString(&DiagramView{Diagrams: d})
	spots := 0
	counts := map[string]int{}
	for _, g := range elems(html, "g") {
		if g["class"] == "spot" {
			spots++
			counts[g["data-count"]]++
		}
	}
	if spots != 3 || counts["3"] != 1 || counts["1"] != 2 {
		t.Errorf("%d spots with counts %v; want 3 spots, one of 3 points", spots, counts)
	}
	if !strings.Contains(html, "Rel1 (5)") || !strings.Contains(html, "× 3") || strings.Count(html, `class="count"`) != 1 {
		t.Error("the stacked spot has no count label, or the legend lost points")
	}
	g := protocol.Grid{MinX: 0, MinY: 0, Pixel: 1, Rows: 2, Cols: 2}
	html = app.HTMLString(&HeatView{Grid: g, Values: []float64{1, 2, 3, 4}, Points: [][2]float64{{1, 1}, {1, 1}, {0.5, 0.5}}})
	if n := len(elems(html, "circle")); n != 2 || !strings.Contains(html, ">2</text>") {
		t.Errorf("heat view: %d circles, want 2 with a count of 2", n)
	}
}

func TestCurveColoursDiffer(t *testing.T) {
	for n := 1; n <= 30; n++ {
		seen := map[string]bool{}
		for i := range n {
			seen[curveColour(i, n)] = true
		}
		if len(seen) != n {
			t.Errorf("%d curves get %d colours", n, len(seen))
		}
	}
	if got := stopReason(true, 12, []float64{2, 1.5}); got != "converged after 12, cost -25 %" {
		t.Errorf("stop reason %q", got)
	}
	if got := stopReason(false, 2000, nil); got != "iteration cap (2000)" {
		t.Errorf("stop reason %q", got)
	}
}

func TestPredictionsCSVAndScore(t *testing.T) {
	gs := []protocol.Graph{
		{File: "a, b.mol", Index: 0, Nodes: 3, Edges: 2, Label: "1", Decision: []float64{0.5}},
		{File: "T", Index: 1, Nodes: 4, Edges: 4, Label: "-1", Truth: "-1", Decision: []float64{-0.25}},
		{File: "T", Index: 2, Nodes: 4, Edges: 4, Label: "-1", Truth: "1", Decision: []float64{-1}},
	}
	rows, err := csv.NewReader(strings.NewReader(string(predictionsCSV(gs)))).ReadAll()
	if err != nil || len(rows) != 4 || rows[1][0] != "a, b.mol" || rows[2][5] != "-1" || rows[3][6] != "-1.0000" {
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

func TestStatusWords(t *testing.T) {
	r := &Root{jobs: 3, kinds: map[protocol.Kind]int{protocol.CrossValidate: 2, protocol.Defaults: 1}}
	if got := r.busy(); got != "Working in the background: cross-validating (2 parts), starting the computing workers." {
		t.Errorf("busy: %q", got)
	}
	html := staticTabs("train")
	if strings.Count(html, `aria-selected="true"`) != 1 || !strings.Contains(html, `id="tab-train" class="tab" role="tab" aria-selected="true"`) {
		t.Errorf("static tabs: %s", html)
	}
}

func TestHeatViewScaleAxesCentres(t *testing.T) {
	g := protocol.Grid{MinX: 0, MinY: 0, Pixel: 1, Rows: 2, Cols: 2}
	// A shared maximum of 8: the value 4 is half way up the scale.
	html := app.HTMLString(&HeatView{Grid: g, Values: []float64{0, 1, 2, 4}, Max: 8, Centres: [][2]float64{{1, 1}, {5, 5}}})
	px := rasterPixels(t, html)
	if len(px) != 4 || px[3] != colour(0.5) {
		t.Errorf("samples %v: want 4 with the last at half the shared scale", px)
	}
	if !strings.Contains(html, `data-max="8"`) || !strings.Contains(html, ">birth<") || !strings.Contains(html, ">persistence<") ||
		!strings.Contains(html, "colour-bar") || strings.Count(html, "<path") != 1 {
		t.Error("no shared scale, axes, colour bar, or not one centre cross (the other lies off the grid)")
	}
	// A difference: -2 is the bottom of the scale, +2 its top, 0 white.
	html = app.HTMLString(&HeatView{Grid: g, Values: []float64{-2, 0, 1, 2}, Diverging: true})
	px = rasterPixels(t, html)
	if len(px) != 4 || px[0] != "rgb(33,102,172)" || px[1] != "rgb(255,255,255)" || px[3] != "rgb(178,24,43)" {
		t.Errorf("difference colours %v", px)
	}
}

func TestModelsListAndReplacePrompt(t *testing.T) {
	info := &protocol.Info{Dataset: "MUTAG", Descriptor: "ricci", M: 5, Sigma: 0.01, C: 100, Classes: []string{"-1", "1"}}
	html := app.HTMLString(&ModelsTab{Kept: []Kept{{Name: "MUTAG", Info: info, Accuracy: 0.867, Current: true}, {Name: "MUTAG (2)", Info: info}},
		Name: "MUTAG", Model: info})
	rows := 0
	for _, tr := range elems(html, "tr") {
		if tr["data-name"] != "" {
			rows++
		}
	}
	for _, want := range []string{"86.7 %", "not known", "in use", `aria-label="Use MUTAG (2)"`, "Ollivier-Ricci curvature, m 5, σ 0.01, C 100", "Current model: MUTAG"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the model list", want)
		}
	}
	if rows != 2 {
		t.Errorf("%d kept models listed, want 2", rows)
	}
	s := &protocol.Summary{Name: "MUTAG", Graphs: 188}
	d := protocol.Training{Descriptor: "ricci", Init: "kcenter", M: 5, Sigma: 0.01, C: 100, Folds: 10, Seed: 1, Channels: "ord0+ext0,rel1+ext1", Rows: 40, Iterations: 2000, Prior: ptr(0.3), Contrast: ptr(0.03)}
	html = app.HTMLString(&TrainTab{Summary: s, Form: &d, Replace: "MUTAG"})
	for _, id := range []string{"train-ask", "train-replace", "train-both", "train-ask-cancel"} {
		if !strings.Contains(html, `id="`+id+`"`) {
			t.Errorf("the replace prompt has no #%s", id)
		}
	}
	// Typed text that does not parse stays in the field with its reason,
	// and the run waits.
	html = app.HTMLString(&TrainTab{Summary: s, Form: &d, Text: map[string]string{"train-sigma": "-1"}})
	if !strings.Contains(html, `id="train-sigma-error"`) || !strings.Contains(html, "Must be more than 0.") || !strings.Contains(html, `value="-1"`) ||
		!strings.Contains(html, `id="train-invalid"`) {
		t.Error("an invalid sigma is not shown with its reason")
	}
	for _, tc := range []struct {
		grid, sel, want string
	}{
		{"", "", "m = 5, σ = 0.01; the SVM's kernel (WKPI, or the Gaussian of its distance) and C chosen in every fold"},
		{"paper", "", "chosen in every fold by a nested 10-fold CV over the paper's grid"},
		{"paper", "cost", "by the smallest training cost over the paper's grid, C = 100"},
	} {
		u := d
		u.Grid, u.Select, u.Inner = tc.grid, tc.sel, 10
		if got := describeSettings(u); !strings.Contains(got, tc.want) || !strings.HasPrefix(got, "Ollivier-Ricci curvature; channels ord0+ext0 and rel1+ext1; 40-row images, τ fitted; k-center start; prior λ 0.3, contrast μ 0.03") {
			t.Errorf("settings %q, want %q", got, tc.want)
		}
	}
}

// fakeBackend records what the page keeps; other methods are not used.
type fakeBackend struct {
	Backend
	kept    map[string][]byte
	urls    int
	revoked int
}

func (f *fakeBackend) Put(key string, data []byte) { f.kept[key] = data }
func (f *fakeBackend) ObjectURL(data []byte, mime string) string {
	f.urls++
	return fmt.Sprint("blob:", f.urls)
}
func (f *fakeBackend) RevokeURL(string) { f.revoked++ }

func TestKeptModels(t *testing.T) {
	b := &fakeBackend{kept: map[string][]byte{}}
	r := &Root{Backend: b}
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
	rep := eval.Report{Folds: folds([]float64{1}, 0.5)}
	s := savedRun{Key: "demo:MUTAG", Used: protocol.Training{Folds: 1}, Folds: rep.Folds, Report: &rep, Info: info, Before: []float64{1}, After: []float64{2}}
	data, _ := json.Marshal(s)
	var back savedRun
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	c := back.run()
	if len(c.jobs) != 0 || !c.modelDone || !c.restored || c.finished() != c.units || c.report.Folds[0].Accuracy != 1 || c.after[0] != 2 {
		t.Errorf("restored run %+v", c)
	}
}
