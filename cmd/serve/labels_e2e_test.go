package main

import (
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserNodeLabels: the Train form's Node labels choice (off by
// default) trains MUTAG in node-label mode; the result and the Classify
// tab say which mode the model uses, and a molfile's element symbols map
// to MUTAG's codes through the demo's README table (wasm/jobs tests the
// error when a dataset has none).
func TestBrowserNodeLabels(t *testing.T) {
	ctx, cancel := browser(t)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()
	mol, err := filepath.Abs(filepath.Join("testdata", "nitrobenzene.mol"))
	if err != nil {
		t.Fatal(err)
	}

	// Node labels join the structure alone here: the Mode switch first
	// leaves the molecules preset that MUTAG starts from.
	step(t, ctx, "load MUTAG; structure only; the Train form offers Node labels, off", openMUTAG(srv.URL+"/",
		chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.WaitEnabled(chromedp.CSS("#train-run")),
		chromedp.Click(chromedp.CSS("#train-mode-default")),
		until(`document.querySelector("#train-mode").dataset.mode === "default" && document.querySelector("#train-labels").value === "off"`),
		textContains("#train-labels-help", "atom type"),
	)...)
	stepWithin(t, ctx, time.Minute, "a 3-fold CV with node labels on ends with the mode in its settings",
		until(`(() => { const s = document.querySelector("#train-labels"); s.value = "on";
			return s.dispatchEvent(new Event("change", {bubbles: true})); })()`),
		until(`document.querySelector("#train-labels").value === "on" && document.querySelector("#train-mode").dataset.mode === "labels"`),
		textContains("#train-mode-text", "Node labels: atom types are used, bond types ignored."),
		setInput("train-folds", "3"),
		chromedp.Click(chromedp.CSS("#train-run")),
		chromedp.WaitVisible(chromedp.CSS("#acc-baseline")),
		chromedp.WaitNotPresent(chromedp.CSS("#train-progress")),
		textContains("#train-settings", "Node labels on: atom types used."),
	)
	step(t, ctx, "Classify names the mode; a molfile's elements map through the README's code table",
		chromedp.Click(chromedp.CSS("#tab-classify")),
		textContains("#classify-mode", "node labels: atom types used"),
		chromedp.SetUploadFiles(chromedp.CSS("#classify-upload"), []string{mol}),
		until(`document.querySelectorAll("#predictions tbody tr").length === 1`),
	)
	if errText := value[string](t, ctx, `document.querySelector("#classify-error")?.textContent ?? ""`); errText != "" {
		t.Errorf("classifying a molfile with a node-label model: %s", errText)
	}
}
