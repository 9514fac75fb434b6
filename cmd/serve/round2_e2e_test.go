package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wkpi-web/core/eval"
	"wkpi-web/core/learn"
)

// axeDir holds package.json and package-lock.json of axe-core; npm ci
// installs it there (.ci/run does, and so does the test when npm is at hand).
const axeDir = "testdata/axe"

var axeOnce struct {
	sync.Once
	src []byte
	err error
}

// axeSource returns axe.min.js, installing axe-core with npm ci when it
// is missing; a missing axe fails under CI=true and skips otherwise.
func axeSource(t *testing.T) []byte {
	t.Helper()
	axeOnce.Do(func() {
		path := filepath.Join(axeDir, "node_modules", "axe-core", "axe.min.js")
		if _, err := os.Stat(path); err != nil {
			if npm, lerr := exec.LookPath("npm"); lerr == nil {
				out, err := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--prefix", axeDir).CombinedOutput()
				if err != nil {
					axeOnce.err = fmt.Errorf("npm ci in %s: %v\n%s", axeDir, err, out)
					return
				}
			}
		}
		axeOnce.src, axeOnce.err = os.ReadFile(path)
	})
	if axeOnce.err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the accessibility test needs axe-core (npm ci --prefix %s): %v", axeDir, axeOnce.err)
		}
		t.Skipf("SKIPPED ACCESSIBILITY TEST: no axe-core (%v)", axeOnce.err)
	}
	return axeOnce.src
}

type axeViolation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	Targets []string `json:"targets"`
}

// checkAxe runs axe-core on the page as it is and fails on any violation
// of serious or critical impact; it returns the count of all violations.
func checkAxe(t *testing.T, ctx context.Context, where string) int {
	t.Helper()
	src := axeSource(t)
	if !value[bool](t, ctx, `typeof window.axe === "object"`) {
		value[bool](t, ctx, string(src)+"\n;true")
	}
	vs := value[[]axeViolation](t, ctx, `axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v =>
		({id: v.id, impact: v.impact || "", help: v.help, targets: v.nodes.map(n => String(n.target))})))`)
	for _, v := range vs {
		if v.Impact == "serious" || v.Impact == "critical" {
			t.Errorf("axe on %s: %s violation %s (%s) at %v", where, v.Impact, v.ID, v.Help, v.Targets)
		} else {
			t.Logf("axe on %s: %s violation %s (%s) at %v", where, v.Impact, v.ID, v.Help, v.Targets)
		}
	}
	return len(vs)
}

// overflow lists the elements that stick out of a narrow viewport, and
// whether the page scrolls sideways.
func overflow(t *testing.T, ctx context.Context) (bool, []string) {
	type result struct {
		Scrolls bool     `json:"scrolls"`
		Wide    []string `json:"wide"`
	}
	r := value[result](t, ctx, `(() => {
		const w = document.documentElement.clientWidth, wide = [];
		for (const e of document.querySelectorAll("#main *, nav, footer, header")) {
			// Content inside a scrolling box (tables, the tab bar) may be wider.
			let inner = false;
			for (let p = e.parentElement; p; p = p.parentElement) {
				const o = getComputedStyle(p).overflowX;
				if (o === "auto" || o === "scroll") { inner = true; break; }
			}
			const r = e.getBoundingClientRect();
			if (!inner && r.width > 0 && (r.right > w + 0.5 || r.left < -0.5)) wide.push(e.tagName + (e.id ? "#" + e.id : "") + "." + e.className + " " + Math.round(r.left) + ".." + Math.round(r.right));
		}
		return {scrolls: document.documentElement.scrollWidth > w, wide: wide.slice(0, 10)}; })()`)
	return r.Scrolls, r.Wide
}

// setInput types text into a number field as a user would (input event).
func setInput(id, text string) chromedp.Action[chromedp.Void] {
	return until(fmt.Sprintf(`(() => { const e = document.querySelector("#%s"); e.value = %q;
		return e.dispatchEvent(new Event("input", {bubbles: true})); })()`, id, text))
}

// checkTrainResults runs right after trainAndClassify's 10-fold CV on
// MUTAG with the defaults: the result comes with its context.
func checkTrainResults(t *testing.T, ctx context.Context) {
	// Point 4: the result has its context.
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
	if err != nil || p < 0 || p > 1 || !regexp.MustCompile(`^Learning (helped|did not help here|made it worse): .* p = `).MatchString(verdict) {
		t.Errorf("verdict %q with p %v (%v)", verdict, p, err)
	}
	t.Logf("verdict: %s", verdict)
	// Point 5: ten folds, ten colours, and each curve says why it stopped.
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
	// Point 5: before and after on one scale, the difference, the centres.
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

	// Point 10: the results fit 390 px; the accuracy stays on one line.
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

// round2 runs with MUTAG loaded, a 10-fold CV done and a model trained:
// the second round of fixes (issue 10) as a user meets them.
func round2(t *testing.T, ctx context.Context, url string) {
	mutag, err := filepath.Abs("../../data/MUTAG")
	if err != nil {
		t.Fatal(err)
	}
	var tuFiles []string
	for _, s := range []string{"A", "graph_indicator", "graph_labels"} {
		tuFiles = append(tuFiles, filepath.Join(mutag, "MUTAG_"+s+".txt"))
	}

	// Point 1: the form refuses what the worker would replace silently.
	d := eval.DefaultConfig()
	step(t, ctx, "Train form: 0, -1 and empty are refused next to the field; reset restores the defaults",
		chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.WaitEnabled(chromedp.CSS("#train-run")),
		setInput("train-sigma", "0"),
		textContains("#train-sigma-error", "more than 0"),
		until(`document.querySelector("#train-run").disabled && document.querySelector("#train-sigma").getAttribute("aria-invalid") === "true"`),
		setInput("train-sigma", "-1"),
		textContains("#train-sigma-error", "more than 0"),
		setInput("train-m", ""),
		textContains("#train-m-error", "Enter a number"),
		// C is chosen in every fold by default; fixing the SVM shows its field.
		until(`!document.querySelector("#train-C") && document.querySelector("#train-svm").value === "auto"`),
		until(`(() => { const s = document.querySelector("#train-svm"); s.value = "wkpi";
			return s.dispatchEvent(new Event("change", {bubbles: true})); })()`),
		chromedp.WaitVisible(chromedp.CSS("#train-C")),
		setInput("train-C", "0"),
		textContains("#train-C-error", "more than 0"),
		setInput("train-folds", "1000"),
		textContains("#train-folds-error", "At most 188"),
		textContains("#train-invalid", "Correct the fields"),
	)
	checkAxe(t, ctx, "the Train form with errors")
	step(t, ctx, "Train form: the paper's settings, then the defaults again",
		chromedp.Click(chromedp.CSS("#train-paper")),
		until(fmt.Sprintf(`document.querySelector("#train-prior").value === "0" && document.querySelector("#train-contrast").value === "0" &&
			document.querySelector("#train-protocol").value === "nested" && document.querySelector("#train-inner").value === "10" &&
			document.querySelector("#train-iterations").value === "%d" && !document.querySelector("#train-sigma") &&
			document.querySelector("#train-extra").value === "none" && document.querySelector("#train-images").value === "unit"`, learn.DefaultOptions().MaxIter)),
		chromedp.Click(chromedp.CSS("#train-reset")),
		until(`document.querySelector("#train-svm").value === "auto" && !document.querySelector("#train-C")`),
		until(fmt.Sprintf(`document.querySelector("#train-sigma").value === %q && document.querySelector("#train-m").value === "%d" &&
			document.querySelector("#train-prior").value === %q && !document.querySelector("#train-invalid") && !document.querySelector("#train-run").disabled`,
			strconv.FormatFloat(d.Sigma, 'g', -1, 64), d.Learn.M, strconv.FormatFloat(d.Learn.Prior, 'g', -1, 64))),
		until(`[...document.querySelectorAll("#train-descriptor option")].some(o => o.textContent === "Ollivier-Ricci curvature")`),
	)
	step(t, ctx, "Train form (issue 8): the size-aware preset sets raw images and sigma 1 with the default descriptor set; reset clears them",
		until(`document.querySelector("#train-extra").value === "default" && document.querySelector("#train-images").value === "auto" &&
			document.querySelector("#train-objective").value === "tc" && document.querySelector("#train-scales").value === "off"`),
		chromedp.Click(chromedp.CSS("#train-size")),
		until(`document.querySelector("#train-extra").value === "default" && document.querySelector("#train-images").value === "raw" &&
			document.querySelector("#train-sigma").value === "1"`),
		chromedp.Click(chromedp.CSS("#train-reset")),
		until(`document.querySelector("#train-extra").value === "default" && document.querySelector("#train-images").value === "auto"`),
	)
	// The descriptor menu is wide enough for its longest entry.
	if w := value[[]float64](t, ctx, `(() => { const s = document.querySelector("#train-descriptor"), c = document.createElement("canvas").getContext("2d");
		c.font = getComputedStyle(s).font; return [s.clientWidth, c.measureText("Ollivier-Ricci curvature").width]; })()`); w[0] < w[1]+20 {
		t.Errorf("descriptor menu %.0f px wide for a %.0f px label", w[0], w[1])
	}

	// Point 2: a labelled upload is scored; predictions export as CSV.
	step(t, ctx, "Classify MUTAG's own TU files: accuracy against their labels, class names, CSV",
		chromedp.Click(chromedp.CSS("#tab-classify")),
		textContains("#classify-about", "atom and bond types"),
		textContains("#classify-about", "class -1, class 1"),
		chromedp.SetUploadFiles(chromedp.CSS("#classify-upload"), tuFiles),
		until(`document.querySelectorAll("#predictions tbody tr").length === 188`),
		chromedp.WaitVisible(chromedp.CSS("#classify-accuracy")),
		chromedp.WaitVisible(chromedp.CSS("#classify-csv")),
	)
	acc := value[[]string](t, ctx, `[document.querySelector("#classify-accuracy").dataset.value,
		...[...document.querySelectorAll("#predictions tbody tr")].map(r => r.querySelector(".predicted").textContent + "|" + r.querySelector(".truth").textContent)]`)
	right := 0
	for _, row := range acc[1:] {
		pred, truth, _ := strings.Cut(row, "|")
		if !strings.HasPrefix(pred, "class ") || !strings.HasPrefix(truth, "class ") {
			t.Fatalf("row %q: want class names", row)
		}
		if pred == truth {
			right++
		}
	}
	if shown, _ := strconv.ParseFloat(acc[0], 64); fmt.Sprintf("%.6f", shown) != fmt.Sprintf("%.6f", float64(right)/188) || right < 150 {
		t.Errorf("accuracy shown %s; the rows give %d of 188 (the model was trained on these graphs)", acc[0], right)
	}
	text := value[string](t, ctx, `fetch(document.querySelector("#classify-csv").href).then(r => r.text())`)
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(rows) != 189 || strings.Join(rows[0], ",") != "file,graph,nodes,edges,predicted,label,decision_values" || rows[1][0] != "MUTAG" {
		t.Errorf("CSV export: %v, %d rows, first %v", err, len(rows), rows[:min(2, len(rows))])
	}

	// Point 9: the keyboard reaches every prediction.
	step(t, ctx, "the keyboard chooses a prediction row",
		until(`(() => { const b = document.querySelector("#predictions tbody tr:nth-child(3) button"); b.focus();
			return document.activeElement === b; })()`),
		chromedp.KeyEvent("\r"),
		textContains("#panel", "MUTAG, graph 2: predicted"),
		until(`document.querySelector("#predictions tbody tr:nth-child(3) button").getAttribute("aria-pressed") === "true"`),
	)

	// Point 3: MUTAG graph 0's Rel1 has 5 points on 3 spots.
	step(t, ctx, "Explore: points on one spot show how many they are",
		chromedp.Click(chromedp.CSS("#tab-explore")),
		until(`(() => { const s = document.querySelector("#descriptor"); s.value = "ricci";
			return s.dispatchEvent(new Event("change", {bubbles: true})); })()`),
		textContains("#panel", "Graph 0 coloured by ricci"),
		textContains("#diagram .legend", "Rel1 (5)"),
	)
	spots := value[[]int](t, ctx, `[...document.querySelectorAll("#diagram .rel1 .spot")].map(g => Number(g.dataset.count))`)
	sum, shown := 0, value[int](t, ctx, `[...document.querySelectorAll("#diagram .rel1 text.count")].length`)
	stacked := 0
	for _, n := range spots {
		sum += n
		if n > 1 {
			stacked++
		}
	}
	if sum != 5 || stacked == 0 || shown != stacked {
		t.Errorf("Rel1 spots %v (%d count labels): want 5 points with the stacked ones labelled", spots, shown)
	}

	// Point 9: axe-core on every tab; point 10: every tab at 390 px.
	total := 0
	for _, tab := range tabNames {
		step(t, ctx, "show tab "+tab, chromedp.Click(chromedp.CSS("#tab-"+tab)),
			until(fmt.Sprintf(`document.querySelector("#tab-%s").getAttribute("aria-selected") === "true" && location.hash === "#%s"`, tab, tab)))
		total += checkAxe(t, ctx, tab)
	}
	t.Logf("AXE: %d violations of minor or moderate impact over the six tabs, none serious or critical", total)
	step(t, ctx, "narrow the window to 390 px", chromedp.EmulateViewport(390, 844))
	for _, tab := range tabNames {
		step(t, ctx, "390 px: tab "+tab, chromedp.Click(chromedp.CSS("#tab-"+tab)), chromedp.Sleep(300*time.Millisecond))
		if scrolls, wide := overflow(t, ctx); scrolls || len(wide) > 0 {
			t.Errorf("390 px, tab %s: page scrolls sideways %v; too wide: %v", tab, scrolls, wide)
		}
		if tab == "classify" {
			checkAxe(t, ctx, "classify at 390 px")
		}
	}
	if tabs := value[[]float64](t, ctx, `[...document.querySelectorAll(".tab")].map(b => b.getBoundingClientRect().top)`); len(tabs) > 0 {
		for _, top := range tabs {
			if top != tabs[0] {
				t.Errorf("390 px: the tab bar wraps (tops %v)", tabs)
				break
			}
		}
	}
	step(t, ctx, "screenshot at 390 px", screenshot("narrow-models"))
	step(t, ctx, "back to 1280 px", chromedp.EmulateViewport(1280, 900))

	// Point 10: tabs live in the URL.
	step(t, ctx, "Back and Forward move between tabs; a link opens its tab",
		chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.Click(chromedp.CSS("#tab-classify")),
		until(`location.hash === "#classify"`),
		until(`(history.back(), true)`),
		until(`location.hash === "#train" && document.querySelector("#tab-train").getAttribute("aria-selected") === "true"`),
		until(`(history.forward(), true)`),
		until(`document.querySelector("#tab-classify").getAttribute("aria-selected") === "true"`),
		chromedp.Navigate(url+"#models"),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		until(`document.querySelector("#tab-models").getAttribute("aria-selected") === "true"`),
		chromedp.Click(chromedp.CSS("#tab-data")),
	)
}

// TestPrerenderedHTML: the static page (what a browser shows before the
// wasm starts) has no disabled="false" (which means disabled) and no ARIA
// state without a value.
func TestPrerenderedHTML(t *testing.T) {
	page, err := os.ReadFile(filepath.Join(site, "index.html"))
	if err != nil {
		t.Fatalf("run make web first: %v", err)
	}
	html := string(page)
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`\s(disabled|selected|checked)="false"`),
		regexp.MustCompile(`\baria-[a-z]+(\s|>|/)`), // an aria attribute with no value
	} {
		if m := bad.FindAllString(html, 5); len(m) > 0 {
			t.Errorf("prerendered HTML has %q", m)
		}
	}
	if n := strings.Count(html, `aria-selected="true"`); n != 1 {
		t.Errorf("%d selected tabs in the prerendered HTML, want 1", n)
	}
	if !strings.Contains(html, "<main") || strings.Contains(html, `<main role="tabpanel"`) {
		t.Error("the prerendered page has no main landmark, or it is a tab panel")
	}
}

// tabNames are the page's tabs, in order.
var tabNames = []string{"data", "explore", "train", "compare", "classify", "models"}
