package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wkpi-web/core/eval"
)

// value evaluates a JS expression (awaiting a promise) in the page.
func value[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 40*time.Second)
	defer cancel()
	v, err := chromedp.Run(sctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// predictions reads the Classify tab's table: file, label and decision
// values per row.
func predictions(t *testing.T, ctx context.Context) [][3]string {
	return value[[][3]string](t, ctx, `[...document.querySelectorAll("#predictions tbody tr")].map(r =>
		[r.querySelector(".file").textContent, r.querySelector(".predicted").textContent, r.querySelector(".decision").dataset.values])`)
}

// trainAndClassify runs with MUTAG loaded: a 10-fold CV with the defaults
// of structure only (the Mode switch; an edge list, which has no atoms,
// is classified below), the final model, classification of uploaded
// files, export, reload and import of the model, and the errors of bad
// files.
func trainAndClassify(t *testing.T, ctx context.Context) {
	fixtures, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	graphs := []string{filepath.Join(fixtures, "nitrobenzene.mol"), filepath.Join(fixtures, "bowtie.edges")}

	step(t, ctx, "Train tab: the form opens on the molecules preset; switched to structure only, on the defaults",
		chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.WaitEnabled(chromedp.CSS("#train-run")),
		until(`document.querySelector("#train-mode").dataset.mode === "molecules"`),
		chromedp.Click(chromedp.CSS("#train-mode-default")),
		until(`document.querySelector("#train-mode").dataset.mode === "default" && document.querySelector("#train-extra").value === "default" &&
			document.querySelector("#train-folds").value === "10" && document.querySelector("#train-filtration").value === "ricci"`),
	)
	start := time.Now()
	step(t, ctx, "run a 10-fold CV with the defaults; the page still answers",
		// Record every state of the fold table, so that folds shown before
		// the CV completes are seen even between two polls.
		until(`(() => { window.foldStates = [];
			new MutationObserver(() => {
				const s = {rows: document.querySelectorAll("#fold-table tbody tr").length,
					tally: Number(document.querySelector("#train-tally")?.dataset.done ?? -1),
					running: !!document.querySelector("#train-progress"), merged: !!document.querySelector("#acc-baseline"),
					bar: Number(document.querySelector("#train-progress progress")?.value ?? -1),
					eta: document.querySelector("#train-eta")?.textContent ?? "", at: Math.round(performance.now())};
				const last = window.foldStates.at(-1);
				if (!last || JSON.stringify(last) !== JSON.stringify(s)) window.foldStates.push(s);
			}).observe(document.body, {childList: true, subtree: true, attributes: true, characterData: true});
			return true; })()`),
		chromedp.Click(chromedp.CSS("#train-run")),
		chromedp.WaitVisible(chromedp.CSS("#train-progress progress")),
		chromedp.Click(chromedp.CSS("#tab-explore")),
		// Both at once: the click was handled while the CV still ran.
		until(`document.querySelector("#tab-explore").getAttribute("aria-selected") === "true" && !!document.querySelector("#jobs")`),
		// The footer says in words what runs.
		textContains("#jobs", "Working in the background: "),
		textContains("#jobs", "cross-validating"),
		chromedp.WaitVisible(chromedp.CSS("#diagram svg")),
		// A new Explore job answers while the CV still runs (the
		// pool gives interactive jobs a worker of their own).
		until(`(() => { const s = document.querySelector("#descriptor"); s.value = "degree";
			return s.dispatchEvent(new Event("change", {bubbles: true})); })()`),
		until(`document.querySelector("#panel").textContent.includes("Graph 0 coloured by degree") && !!document.querySelector("#diagram svg") &&
			(document.querySelector("#jobs")?.textContent ?? "").includes("cross-validating")`),
		chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.WaitVisible(chromedp.CSS("#train-progress")),
	)
	stepWithin(t, ctx, 4*time.Minute, "the CV ends with accuracies, folds, curves and the final model",
		chromedp.WaitVisible(chromedp.CSS("#acc-baseline")),
		chromedp.WaitVisible(chromedp.CSS("#heat-after svg image")),
		chromedp.WaitNotPresent(chromedp.CSS("#train-progress")),
	)
	workers := value[int](t, ctx, `Math.min(Math.max(navigator.hardwareConcurrency, 1), 4)`)
	t.Logf("BENCH browser 10-fold CV + final model on MUTAG (pool of %d workers): %.1f s", workers, time.Since(start).Seconds())
	type foldState struct {
		Rows    int     `json:"rows"`
		Tally   int     `json:"tally"`
		Running bool    `json:"running"`
		Merged  bool    `json:"merged"`
		Bar     float64 `json:"bar"`
		ETA     string  `json:"eta"`
		At      float64 `json:"at"` // ms
	}
	states := value[[]foldState](t, ctx, `window.foldStates`)
	// The bar never goes back, moves within the first seconds, and says
	// how much is done and how long is left from the workers' Statuses.
	var bar, shown, moved float64
	estimates := 0
	for _, s := range states {
		if !s.Running || s.Bar < 0 {
			continue
		}
		if s.Bar < bar {
			t.Errorf("the bar went back from %g to %g (%q)", bar, s.Bar, s.ETA)
		}
		bar = s.Bar
		if shown == 0 {
			shown = s.At
		}
		if moved == 0 && s.Bar > 0 {
			moved = s.At
		}
		if strings.Contains(s.ETA, "% done, about ") {
			estimates++
		}
	}
	t.Logf("the bar moved %.1f s after it showed; %d states with a time left, the last bar %g", (moved-shown)/1000, estimates, bar)
	if moved == 0 || moved-shown > 10000 || estimates == 0 {
		t.Errorf("the bar moved %.1f s after it showed, %d time-left texts; want a move within 10 s and time left", (moved-shown)/1000, estimates)
	}
	var early []int // row counts shown while the CV ran, before the merge
	counts := map[int]bool{}
	for _, s := range states {
		if s.Rows >= 1 && s.Rows <= 9 && s.Running && !s.Merged {
			if len(early) > 0 && s.Rows < early[len(early)-1] {
				t.Errorf("the fold table shrank from %d to %d rows", early[len(early)-1], s.Rows)
			}
			early, counts[s.Rows] = append(early, s.Rows), true
			if s.Tally != s.Rows {
				t.Errorf("%d fold rows but the tally counts %d folds", s.Rows, s.Tally)
			}
		}
	}
	t.Logf("fold rows shown before the CV completed: %v", early)
	// Folds arriving only with their job's end (one job per worker) would
	// show at most workers-1 row counts before the merge; one by one, they
	// show nearly every count of 1..9.
	if len(counts) <= workers {
		t.Errorf("the fold table showed %v rows while the CV ran, want more than %d different counts (folds one by one); states %+v", early, workers, states)
	}
	learned := value[string](t, ctx, `document.querySelector("#acc-learned").dataset.value`)
	baseline := value[string](t, ctx, `document.querySelector("#acc-baseline").dataset.value`)
	rows := value[int](t, ctx, `document.querySelectorAll("#fold-table tbody tr").length`)
	curves := value[int](t, ctx, `document.querySelectorAll("#cost-plot polyline").length`)
	cells := value[int](t, ctx, `[...document.querySelectorAll("#confusion-learned td")].reduce((s, c) => s + Number(c.textContent), 0)`)
	t.Logf("MUTAG 10-fold CV in the browser: learned %s, baseline %s (shown %q and %q)", learned, baseline,
		value[string](t, ctx, `document.querySelector("#acc-learned").textContent`), value[string](t, ctx, `document.querySelector("#acc-baseline").textContent`))
	l, errL := strconv.ParseFloat(learned, 64)
	b, errB := strconv.ParseFloat(baseline, 64)
	if errL != nil || errB != nil || l < 0 || l > 1 || b < 0 || b > 1 {
		t.Fatalf("accuracies %q, %q are not numbers in [0, 1]", learned, baseline)
	}
	if rows != 10 || curves != 10 || cells != 188 {
		t.Errorf("%d fold rows, %d cost curves, confusion over %d graphs; want 10, 10, 188", rows, curves, cells)
	}
	if b < 0.80 || l < 0.80 {
		t.Errorf("accuracy on MUTAG: learned %.3f, baseline (unlearned) %.3f; want both >= 0.80", l, b)
	}
	// ROC-AUC from the folds' decision values, as `wkpi eval` reports it
	// (0.947 learned on MUTAG with `wkpi eval -preset default`).
	auc := value[string](t, ctx, `document.querySelector("#metrics-learned").dataset.auc`)
	if a, err := strconv.ParseFloat(auc, 64); err != nil || a < 0.9 || a > 1 {
		t.Errorf("ROC-AUC on MUTAG %q, want a number in [0.9, 1]", auc)
	}
	t.Logf("MUTAG ROC-AUC in the browser: learned %s", auc)
	// The defaults choose the images per fold; the result says how.
	if choice := value[string](t, ctx, `document.querySelector("#train-choice")?.textContent ?? ""`); !regexp.MustCompile(`size-aware .* in \d+ of 10 folds`).MatchString(choice) {
		t.Errorf("the automatic choice of images is not reported: %q", choice)
	}
	step(t, ctx, "screenshot of the Train tab", screenshot("train"))
	checkTrainResults(t, ctx)
	step(t, ctx, "Models tab: the model is kept under the dataset's name with its CV accuracy",
		chromedp.Click(chromedp.CSS("#tab-models")),
		until(`document.querySelectorAll("#model-list tbody tr").length === 1 &&
			document.querySelector("#model-list .model-name").textContent === "MUTAG" &&
			document.querySelector("#model-list .model-accuracy").textContent === document.querySelector("#model-list .model-accuracy").textContent.match(/^\d+\.\d %$/)?.[0]`),
		chromedp.Click(chromedp.CSS("#tab-train")),
	)
	step(t, ctx, "a second run asks before replacing the model, and can be canceled; the model of the first stays",
		chromedp.Click(chromedp.CSS("#train-run")),
		textContains("#train-ask", `"MUTAG" is kept already`),
		chromedp.Click(chromedp.CSS("#train-ask-cancel")),
		chromedp.WaitNotPresent(chromedp.CSS("#train-ask")),
		until(`!document.querySelector("#train-progress")`),
		chromedp.Click(chromedp.CSS("#train-run")),
		chromedp.Click(chromedp.CSS("#train-both")),
		chromedp.WaitVisible(chromedp.CSS("#train-cancel")),
		chromedp.Click(chromedp.CSS("#train-cancel")),
		textContains("#train-error", "Canceled."),
		chromedp.WaitNotPresent(chromedp.CSS("#jobs")),
		chromedp.WaitEnabled(chromedp.CSS("#train-run")),
	)

	step(t, ctx, "classify uploaded graph files",
		chromedp.Click(chromedp.CSS("#tab-classify")),
		chromedp.SetUploadFiles(chromedp.CSS("#classify-upload"), graphs),
		until(`document.querySelectorAll("#predictions tbody tr").length === 2`),
		chromedp.WaitVisible(chromedp.CSS("#classify-heat .points circle")),
		screenshot("classify"),
	)
	first := predictions(t, ctx)
	t.Logf("predictions: %q", first)
	for i, want := range []string{"nitrobenzene.mol", "bowtie.edges"} {
		if first[i][0] != want || (first[i][1] != "class -1" && first[i][1] != "class 1") || first[i][2] == "" {
			t.Errorf("row %d: %q, want file %s with a MUTAG class and decision values", i, first[i], want)
		}
	}
	step(t, ctx, "a malformed graph file shows a readable error; the app stays usable",
		chromedp.SetUploadFiles(chromedp.CSS("#classify-upload"), []string{filepath.Join(fixtures, "broken.edges")}),
		textContains("#classify-error", "broken.edges line 2"),
		textContains("#classify-error", "earlier predictions"),
		chromedp.Click(chromedp.CSS("#predictions tbody tr:nth-child(2)")),
		textContains("#panel", "bowtie.edges, graph 0: predicted"),
	)

	dir := t.TempDir()
	step(t, ctx, "Models tab: the model can be downloaded",
		chromedp.Click(chromedp.CSS("#tab-models")),
		textContains("#model-dataset", "MUTAG"),
		chromedp.WaitVisible(chromedp.CSS("#model-download")),
		chromedp.WaitVisible(chromedp.CSS("#model-heat svg image")),
		screenshot("models"),
	)
	if name := value[string](t, ctx, `document.querySelector("#model-download").getAttribute("download")`); name != "wkpi-MUTAG.json" {
		t.Errorf("download name %q", name)
	}
	modelJSON := value[string](t, ctx, `fetch(document.querySelector("#model-download").href).then(r => r.text())`)
	var m struct {
		Format  string   `json:"format"`
		Dataset string   `json:"dataset"`
		Classes []string `json:"classes"`
	}
	if err := json.Unmarshal([]byte(modelJSON), &m); err != nil || m.Format != "wkpi-model" || m.Dataset != "MUTAG" {
		t.Fatalf("downloaded model: %v %+v", err, m)
	}
	modelFile := filepath.Join(dir, "wkpi-MUTAG.json")
	corrupt := filepath.Join(dir, "corrupt.json")
	if err := os.WriteFile(modelFile, []byte(modelJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(corrupt, []byte(modelJSON[:len(modelJSON)/3]), 0o644); err != nil {
		t.Fatal(err)
	}
	step(t, ctx, "a corrupt model file shows a readable error; the model stays",
		chromedp.SetUploadFiles(chromedp.CSS("#model-upload"), []string{corrupt}),
		textContains("#model-error", "Could not load corrupt.json: this file is not a usable WKPI model"),
		textContains("#model-error", "unchanged"),
		textContains("#model-dataset", "MUTAG"),
		screenshot("model-error"),
	)
	step(t, ctx, "reload: the model comes back from IndexedDB",
		chromedp.Reload(),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		// The URL keeps the tab (#models) across the reload.
		textContains("#model-dataset", "MUTAG"),
		textContains("#model-list", "MUTAG"),
		chromedp.Click(chromedp.CSS("#tab-data")),
		textContains("#summary-graphs", "188 graphs"),
		// The last results come back with their dataset.
		chromedp.Click(chromedp.CSS("#tab-train")),
		textContains("#train-settings", "from an earlier visit"),
		chromedp.WaitVisible(chromedp.CSS("#acc-learned")),
		chromedp.WaitVisible(chromedp.CSS("#heat-diff svg image")),
		until(`document.querySelectorAll("#fold-table tbody tr").length === 10 && document.querySelectorAll("#cost-plot polyline").length === 10`),
		chromedp.Click(chromedp.CSS("#tab-models")),
	)
	step(t, ctx, "the Models tab shows again", chromedp.WaitVisible(chromedp.CSS("#model-list tbody tr")))
	kept := value[int](t, ctx, `document.querySelectorAll("#model-list tbody tr").length`)
	step(t, ctx, "import the downloaded model: it is the kept one, in use again, and classifies the same",
		chromedp.SetUploadFiles(chromedp.CSS("#model-upload"), []string{modelFile}),
		textContains("#status", `wkpi-MUTAG.json is the model kept as "MUTAG"`),
		until(fmt.Sprintf(`document.querySelectorAll("#model-list tbody tr").length === %d`, kept)),
		textContains("#model-card h2", "Current model: MUTAG"),
		chromedp.Click(chromedp.CSS("#tab-classify")),
		chromedp.SetUploadFiles(chromedp.CSS("#classify-upload"), graphs),
		until(`document.querySelectorAll("#predictions tbody tr").length === 2`),
	)
	if again := predictions(t, ctx); again != nil && (len(again) != 2 || again[0] != first[0] || again[1] != first[1]) {
		t.Errorf("after export, reload and import: %q, before: %q", again, first)
	}
}

// benchmarkWorker times jobs on a fresh worker through the protocol,
// outside the UI: worker start with reading MUTAG, its diagrams (the
// first stage of a Train job; "training": {} is the default settings),
// one training, and a whole 10-fold CV in one job, the same
// work as the native `wkpi eval -data data/MUTAG`.
func benchmarkWorker(t *testing.T, ctx context.Context) {
	type timing struct {
		Start  float64            `json:"start"`
		Stages map[string]float64 `json:"stages"` // first report of each stage, ms after the job was sent
		Total  float64            `json:"total"`
		Error  string             `json:"error"`
	}
	stepWithin(t, ctx, 3*time.Minute, "benchmark a worker", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		res, err := chromedp.Evaluate[map[string]timing](`(async () => {
			const t0 = performance.now();
			const w = new Worker("/web/worker.js");
			const zip = await (await fetch("/web/datasets/MUTAG.zip")).arrayBuffer();
			let id = 0;
			const job = (req, blobs) => new Promise((ok) => {
				const sent = performance.now(), stages = {};
				req.id = ++id;
				w.onmessage = (e) => {
					const h = JSON.parse(e.data.h);
					if (h.event === "progress") { if (!(h.stage in stages)) stages[h.stage] = performance.now() - sent; return; }
					ok({stages, total: performance.now() - sent, error: h.error || ""});
				};
				w.postMessage({h: JSON.stringify(req), b: blobs}, blobs);
			});
			const out = {};
			out.load = await job({kind: "load", dataset: "m", files: [{name: "MUTAG.zip"}]}, [zip]);
			out.load.start = performance.now() - t0;
			out.train = await job({kind: "train", dataset: "m", training: {}}, []);
			out.cv = await job({kind: "cv", dataset: "m", training: {}}, []);
			w.terminate();
			return out; })()`, chromedp.EvalAwaitPromise)(ctx, tg)
		if err != nil {
			return err
		}
		for name, r := range res {
			if r.Error != "" {
				t.Errorf("%s job: %s", name, r.Error)
			}
		}
		tr, cv := res["train"], res["cv"]
		t.Logf("BENCH worker start incl. compile, and reading MUTAG (first job): %.0f ms", res["load"].Start)
		t.Logf("BENCH MUTAG diagrams (until the images stage): %.0f ms; stages of the Train job (ms): %v", tr.Stages["images"], tr.Stages)
		t.Logf("BENCH one Train job on MUTAG (features + learning + SVM): %.1f s", tr.Total/1000)
		t.Logf("BENCH one-job 10-fold CV on MUTAG in a worker (features cached): %.1f s", cv.Total/1000)
		return nil
	}))
}

// checkTrainResults runs right after trainAndClassify's 10-fold CV on
// MUTAG with the defaults of structure only: the result comes with its
// context.
func checkTrainResults(t *testing.T, ctx context.Context) {
	// The result has its context.
	step(t, ctx, "Train results: settings used, majority rate, per-fold difference, verdict",
		chromedp.Click(chromedp.CSS("#tab-train")),
		textContains("#train-settings", "Ollivier-Ricci curvature"),
		textContains("#train-settings", fmt.Sprintf("m = %d, σ = %g; the SVM's kernel (WKPI, or the Gaussian of its distance) and C chosen in every fold", eval.DefaultConfig().Learn.M, eval.DefaultConfig().Sigma)),
		textContains("#fold-table thead", "Learned − baseline"),
		// Every fold names the C it chose (the SVM choice is the default).
		textContains("#fold-table thead", "Chosen"),
		textContains("#fold-table tbody", "C "),
		textContains("#cost-plot", "cost"),
	)
	// MUTAG: 125 of 188 graphs in class 1.
	if got := value[string](t, ctx, `document.querySelector("#acc-majority").dataset.value`); got != strconv.FormatFloat(125.0/188, 'g', -1, 64) {
		t.Errorf("majority rate %s, want 125/188", got)
	}
	verdict := value[string](t, ctx, `document.querySelector("#train-verdict").textContent`)
	p, err := strconv.ParseFloat(value[string](t, ctx, `document.querySelector("#train-verdict").dataset.p`), 64)
	if err != nil || p < 0 || p > 1 || !regexp.MustCompile(`^Learning (helped|did not help here|made it worse): .* p = .*ROC-AUC: learned minus initial [-+]`).MatchString(verdict) {
		t.Errorf("verdict %q with p %v (%v): want the accuracies' test, then the ROC-AUCs'", verdict, p, err)
	}
	t.Logf("verdict: %s", verdict)
	// Ten folds, ten colours, and each curve says why it stopped.
	colours := value[[]string](t, ctx, `[...document.querySelectorAll("#cost-plot polyline")].map(l => l.getAttribute("stroke"))`)
	seen := map[string]bool{}
	for _, c := range colours {
		seen[c] = true
	}
	if len(colours) != 10 || len(seen) != 10 {
		t.Errorf("fold colours %v: want 10 different", colours)
	}
	legend := value[string](t, ctx, `document.querySelector("#cost-plot .legend").textContent`)
	if !strings.Contains(legend, "converged after") && !strings.Contains(legend, "iteration cap") {
		t.Errorf("the cost legend gives no stopping reason: %q", legend)
	}
	// Before and after on one scale, the difference, the centres.
	type heat struct {
		Max     string `json:"max"`
		Centres int    `json:"centres"`
		Axes    string `json:"axes"`
		Bar     bool   `json:"bar"`
	}
	heats := value[[]heat](t, ctx, `["#heat-before", "#heat-after", "#heat-diff"].map(s => { const f = document.querySelector(s);
		return f ? {max: f.dataset.max, centres: f.querySelectorAll(".centres path").length, axes: f.querySelector(".axes").textContent,
			bar: !!f.querySelector(".colour-bar .bar")} : {}; })`)
	m := eval.DefaultConfig().Learn.M
	if len(heats) != 3 || heats[0].Max == "" || heats[0].Max != heats[1].Max || heats[2].Max == "" {
		t.Errorf("heat maps %+v: want before and after on one scale, and a difference map", heats)
	}
	for i, h := range heats {
		if !h.Bar || !strings.Contains(h.Axes, "birth") || !strings.Contains(h.Axes, "persistence") || h.Centres == 0 || h.Centres > m {
			t.Errorf("heat map %d: %+v; want axes, a colour bar and up to %d centres", i, h, m)
		}
	}

	// The results fit 390 px; the accuracy stays on one line.
	step(t, ctx, "390 px: the Train results", chromedp.EmulateViewport(390, 844), chromedp.Sleep(300*time.Millisecond))
	if scrolls, wide := overflow(t, ctx); scrolls || len(wide) > 0 {
		t.Errorf("390 px, Train results: page scrolls sideways %v; too wide: %v", scrolls, wide)
	}
	lines := value[[]float64](t, ctx, `["#acc-learned", "#acc-baseline"].map(s => { const e = document.querySelector(s);
		return e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight); })`)
	for _, n := range lines {
		if n > 1.5 {
			t.Errorf("390 px: an accuracy wraps over %.1f lines", n)
		}
	}
	checkAxe(t, ctx, "Train results")
	step(t, ctx, "390 px screenshot of the Train results", screenshot("narrow-train"), chromedp.EmulateViewport(1280, 900))

}
