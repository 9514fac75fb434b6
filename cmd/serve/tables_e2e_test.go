package main

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wkpi-web/core/compare"
	"wkpi-web/core/testenv"
)

// clippedCells lists the table cells on the page that a reader cannot
// see whole: cut by the viewport or by a box that hides or scrolls its
// overflow, or with text wider than the cell (cut, or over its
// neighbours). A cell cut by a scroll
// region counts only when that region cannot be reached: it must be
// focusable (the keyboard scrolls it), named, and show a visible cue
// (an element of class scroll-cue in it).
func clippedCells(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return value[[]string](t, ctx, `(() => {
		const w = document.documentElement.clientWidth, bad = [];
		const name = c => {
			const table = c.closest("table"), row = c.closest("tr");
			const head = table.querySelector("thead tr");
			const col = head && c.cellIndex >= 0 && head.cells[c.cellIndex] ? head.cells[c.cellIndex].textContent.trim() : "";
			return "#" + (table.id || "(table)") + " row " + (row ? row.rowIndex : "-") + " " + (col ? "'" + col + "' " : "") + JSON.stringify(c.textContent.trim().slice(0, 24));
		};
		const reachable = box => box.tabIndex >= 0 && (box.getAttribute("aria-label") || box.getAttribute("aria-labelledby")) &&
			[...box.querySelectorAll(".scroll-cue")].some(e => e.getBoundingClientRect().width > 0 && getComputedStyle(e).visibility !== "hidden");
		for (const c of document.querySelectorAll("#panel table th, #panel table td, #panel table caption")) {
			const r = c.getBoundingClientRect();
			if (r.width === 0 && r.height === 0) continue; // not shown
			if (c.scrollWidth > c.clientWidth + 1) bad.push(name(c) + ": its text is wider than the cell (" + c.scrollWidth + " > " + c.clientWidth + " px)");
			// The boxes that cut the cell; a scroll region the reader can
			// reach shows the rest.
			let reached = false, cut = null;
			for (let p = c.parentElement; p && p !== document.body && !reached && !cut; p = p.parentElement) {
				if (getComputedStyle(p).overflowX === "visible") continue;
				const b = p.getBoundingClientRect();
				if (r.left < b.left - 0.5 || r.right > b.right + 0.5) {
					if (reachable(p)) reached = true; else cut = p;
				}
			}
			if (cut) bad.push(name(c) + ": cut at " + Math.round(cut.getBoundingClientRect().right) + " by " + cut.tagName + "." + cut.className + " (cell " + Math.round(r.left) + ".." + Math.round(r.right) + ")");
			else if (!reached && (r.left < -0.5 || r.right > w + 0.5)) bad.push(name(c) + ": outside the viewport " + Math.round(r.left) + ".." + Math.round(r.right));
		}
		return bad; })()`)
}

// checkTables measures every table of the tab shown at 390 x 844 (and
// back at 1280 x 900): no cell clipped out of reach, and axe-core clean.
func checkTables(t *testing.T, ctx context.Context, where string, tables ...string) {
	t.Helper()
	step(t, ctx, where+" at 390 px", chromedp.EmulateViewport(390, 844), chromedp.Sleep(300*time.Millisecond))
	for _, id := range tables {
		if !value[bool](t, ctx, `!!document.querySelector("#panel `+id+`")`) {
			t.Errorf("%s: no table %s to measure", where, id)
		}
	}
	for _, c := range clippedCells(t, ctx) {
		t.Errorf("%s at 390 px: %s", where, c)
	}
	if scrolls, wide := overflow(t, ctx); scrolls || len(wide) > 0 {
		t.Errorf("%s at 390 px: page scrolls sideways %v; too wide: %v", where, scrolls, wide)
	}
	checkAxe(t, ctx, where+" at 390 px")
	step(t, ctx, where+": screenshot, back to 1280 px", screenshot("tables-390-"+where), chromedp.EmulateViewport(1280, 900), chromedp.Sleep(300*time.Millisecond))
	for _, c := range clippedCells(t, ctx) {
		t.Errorf("%s at 1280 px: %s", where, c)
	}
	checkAxe(t, ctx, where+" at 1280 px")
}

// TestBrowserTables390 visits every view with a table (the uploaded
// file's properties, the kept models, the predictions, Explain's atoms
// and diagram points, a cross-validation's metrics, folds and confusion
// matrices, Compare's methods) and measures each at 390 px wide: every
// cell is seen whole, or is in a scroll region the keyboard reaches and
// a visible cue announces.
func TestBrowserTables390(t *testing.T) {
	model := mutagLabelsModel(t)
	sdf := testenv.RDKitPath(t, first200)
	ctx, cancel := browserFor(t, 10*time.Minute)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()

	step(t, ctx, "MUTAG, then upload first_200.props.sdf: its 19 properties",
		append(openMUTAG(srv.URL+"/"),
			chromedp.SetUploadFiles(chromedp.CSS("#upload"), []string{sdf}),
			until(`document.querySelectorAll("#datafile-columns tbody tr").length === 19`))...)
	checkTables(t, ctx, "data", "#datafile-columns")

	step(t, ctx, "import a model",
		chromedp.Click(chromedp.CSS("#tab-models")),
		chromedp.SetUploadFiles(chromedp.CSS("#model-upload"), []string{model}),
		textContains("#model-dataset", "MUTAG"),
		chromedp.WaitVisible(chromedp.CSS("#model-list table")),
	)
	checkTables(t, ctx, "models", "#model-list table")

	step(t, ctx, "classify two nitro aromatics", classifyNitro())
	explainGraph(t, ctx, 1, "2-nitrofluorene", true)
	checkTables(t, ctx, "classify", "#predictions", "#explain-nodes", "#explain-points")

	stepWithin(t, ctx, 5*time.Minute, "a 2-fold cross-validation of 5 learning steps on MUTAG, structure only, keeping both models",
		chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.WaitEnabled(chromedp.CSS("#train-run")),
		chromedp.Click(chromedp.CSS("#train-mode-default")),
		until(`document.querySelector("#train-mode").dataset.mode === "default"`),
		setInput("train-folds", "2"),
		chromedp.Click(chromedp.CSS("#train-advanced summary")),
		until(`document.querySelector("#train-advanced").open`),
		setInput("train-iter", "5"),
		until(`document.querySelector("#train-folds").value === "2" && document.querySelector("#train-iter").value === "5"`),
		chromedp.Click(chromedp.CSS("#train-run")),
		chromedp.WaitVisible(chromedp.CSS("#train-ask")),
		chromedp.Click(chromedp.CSS("#train-both")),
		chromedp.WaitVisible(chromedp.CSS("#acc-baseline")),
		chromedp.WaitNotPresent(chromedp.CSS("#train-progress")),
		until(`document.querySelectorAll("#fold-table tbody tr").length === 2`),
	)
	checkTables(t, ctx, "train", "#train-metrics", "#fold-table", "table.confusion")

	var untick []chromedp.Action[chromedp.Void]
	for _, m := range compare.Names() {
		if m != compare.WL && m != compare.Majority {
			untick = append(untick, chromedp.Click(chromedp.CSS(`[id="method-`+m+`"]`)))
		}
	}
	step(t, ctx, "Compare: WL and majority", append([]chromedp.Action[chromedp.Void]{
		chromedp.Click(chromedp.CSS("#tab-compare")), chromedp.WaitEnabled(chromedp.CSS("#compare-run"))}, untick...)...)
	stepWithin(t, ctx, 3*time.Minute, "run them",
		chromedp.Click(chromedp.CSS("#compare-run")),
		until(`document.querySelectorAll("#compare-table tbody tr").length === 2 && !document.querySelector("#compare-progress")`),
	)
	checkTables(t, ctx, "compare", "#compare-table")
}
