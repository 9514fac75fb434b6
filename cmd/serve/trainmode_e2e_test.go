package main

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"wkpi-web/core/spec"
)

// TestBrowserMoleculesMode: MUTAG, whose README names its atoms and
// bonds, opens the Train tab in molecules mode (the molecules preset),
// which says so in words; the Mode switch goes to structure only from the
// keyboard, and the settings a run sends to the workers follow it: the
// run's settings line and its model's mode. The choice holds for the
// next dataset of molecules; a run in molecules mode reports mode
// "molecules and node labels".
func TestBrowserMoleculesMode(t *testing.T) {
	ctx, cancel := browser(t)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()
	molecules := fmt.Sprintf(`document.querySelector("#train-mode").dataset.mode === "molecules" && document.querySelector("#train-mode-molecules").checked &&
		!document.querySelector("#train-mode-default").checked && document.querySelector("#train-extra").value === %q`, spec.MoleculesExtra)
	structure := `document.querySelector("#train-mode").dataset.mode === "default" && document.querySelector("#train-mode-default").checked &&
		!document.querySelector("#train-mode-molecules").checked && document.querySelector("#train-extra").value === "default"`
	// run is a 3-fold CV and the final model, which ends with the
	// model's mode shown beside the run's settings.
	run := func(name string, then ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		stepWithin(t, ctx, 3*time.Minute, name, append([]chromedp.Action[chromedp.Void]{
			chromedp.Click(chromedp.CSS("#train-run")),
			// A model of the dataset is kept from an earlier run: replace it.
			until(`(() => { const b = document.querySelector("#train-replace"); if (b) b.click(); return !!document.querySelector("#train-progress"); })()`),
			chromedp.WaitVisible(chromedp.CSS("#acc-baseline")),
			chromedp.WaitVisible(chromedp.CSS("#train-model-mode")),
			chromedp.WaitNotPresent(chromedp.CSS("#train-progress")),
		}, then...)...)
	}

	step(t, ctx, "MUTAG: the Train tab opens in molecules mode and says so", openMUTAG(srv.URL+"/",
		chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.WaitEnabled(chromedp.CSS("#train-run")),
		until(molecules),
		textContains("#train-mode legend", "Mode"),
		textContains("#train-mode-text", "Molecules: atoms, bonds and aromatic rings are used"),
		textContains(`label[for="train-mode-default"]`, "Structure only"),
		screenshot("train-mode"),
	)...)
	checkAxe(t, ctx, "the Train tab in molecules mode")

	step(t, ctx, "the keyboard switches to structure only",
		chromedp.Focus(chromedp.CSS("#train-mode-molecules")),
		chromedp.KeyEvent(kb.ArrowRight),
		until(structure),
		textContains("#train-mode-text", "Structure only: atom and bond types ignored"),
	)
	checkAxe(t, ctx, "the Train tab in structure only")
	step(t, ctx, "3 folds", setInput("train-folds", "3"), until(`document.querySelector("#train-folds").value === "3"`))
	run("a run of structure only sends the default descriptors and trains a model of structure only",
		textContains("#train-settings", "Heat kernel signature and degree added (the default descriptor set)."),
		until(`document.querySelector("#train-model-mode").dataset.mode === "structure only"`),
		textContains("#train-model-mode", "Mode: structure only: atom and bond types ignored."),
	)

	step(t, ctx, "PTC_MR: molecules too, and the structure only chosen holds",
		chromedp.Click(chromedp.CSS("#tab-data")),
		chromedp.Click(chromedp.CSS("#demo-PTC_MR")),
		textContains("#summary-graphs", "344 graphs"),
		chromedp.Click(chromedp.CSS("#tab-train")),
		until(structure),
	)
	step(t, ctx, "back on MUTAG, a click switches to molecules",
		chromedp.Click(chromedp.CSS("#tab-data")),
		chromedp.Click(chromedp.CSS("#demo-MUTAG")),
		textContains("#summary-graphs", "188 graphs"),
		chromedp.Click(chromedp.CSS("#tab-train")),
		until(structure),
		chromedp.Click(chromedp.CSS(`label[for="train-mode-molecules"]`)),
		until(molecules),
		setInput("train-folds", "3"),
		until(`document.querySelector("#train-folds").value === "3"`),
	)
	// Node-label runs have a planned bar too: record what it says.
	step(t, ctx, "watch the bar's text", until(`(() => { window.etas = [];
		new MutationObserver(() => {
			const e = document.querySelector("#train-eta")?.textContent ?? "";
			if (e && window.etas.at(-1) !== e) window.etas.push(e);
		}).observe(document.body, {childList: true, subtree: true, characterData: true});
		return true; })()`))
	run("a run in molecules mode sends the molecules preset's descriptors and node labels and reports its mode",
		textContains("#train-settings", "Extra descriptors: "+strings.ReplaceAll(spec.MoleculesExtra, ",", ", ")+"."),
		until(`document.querySelector("#train-model-mode").dataset.mode === "molecules and node labels"`),
		textContains("#train-model-mode", "Mode: molecules and node labels: atoms, bonds and atom types used."),
		screenshot("train-molecules"),
	)
	checkAxe(t, ctx, "the Train tab after a run in molecules mode")
	etas := value[[]string](t, ctx, `window.etas`)
	// While the run goes, not only as its jobs end (a bar of the jobs'
	// counters alone moves once a job: 3 shares at most here).
	shares := map[int]bool{}
	for _, e := range etas {
		var done int
		if _, err := fmt.Sscanf(strings.TrimSpace(e), "%d %% done, about ", &done); err == nil && done > 0 && done < 100 {
			shares[done] = true
		}
	}
	if len(shares) < 5 {
		t.Errorf("the bar of a run with node labels said %q: %d shares done with a time left, want the work planned (5 or more)", etas, len(shares))
	}
}

// TestBrowserAtomTypes: NCI1, whose atoms are typed by integer codes that
// no table names, opens the Train tab in structure only (as `wkpi eval`
// without -preset), which says so in words; its Mode switch offers atom
// types instead of molecules, and a click on "Atom types" puts in the
// atom-types preset, as `wkpi eval -preset molecules` takes it: its
// further descriptors for NCI1's commonest types (3, 1, 2, 4, 5, 7:
// `sort NCI1_node_labels.txt | uniq -c | sort -rn`) and node labels on.
// The arrow keys go back to structure only. No run: an NCI1
// cross-validation takes minutes.
func TestBrowserAtomTypes(t *testing.T) {
	nci1 := filepath.Join(t.TempDir(), "NCI1.zip")
	if err := os.WriteFile(nci1, zipDir(t, "../../data/NCI1"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := browser(t)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()
	structure := `document.querySelector("#train-mode").dataset.mode === "default" && document.querySelector("#train-mode-default").checked &&
		!document.querySelector("#train-mode-atom-types").checked && !document.querySelector("#train-mode-molecules") &&
		document.querySelector("#train-extra").value === "default" && document.querySelector("#train-labels").value === "off"`
	atomTypes := fmt.Sprintf(`document.querySelector("#train-mode").dataset.mode === "atom-types" && document.querySelector("#train-mode-atom-types").checked &&
		!document.querySelector("#train-mode-default").checked && document.querySelector("#train-extra").value === %q &&
		document.querySelector("#train-labels").value === "on"`, spec.AtomTypes([]string{"3", "1", "2", "4", "5", "7"}).Extra)

	stepWithin(t, ctx, 2*time.Minute, "NCI1: upload its files",
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.SetUploadFiles(chromedp.CSS("#upload"), []string{nci1}),
		textContains("#summary-graphs", "4110 graphs"),
	)
	step(t, ctx, "the Train tab opens in structure only and says so",
		chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.WaitEnabled(chromedp.CSS("#train-run")),
		until(structure),
		textContains("#train-mode legend", "Mode"),
		textContains("#train-mode-text", "Structure only: atom types (the node labels' codes) ignored"),
		textContains(`label[for="train-mode-atom-types"]`, "Atom types"),
		textContains(`label[for="train-mode-default"]`, "Structure only"),
	)
	checkAxe(t, ctx, "the Train tab on NCI1 in structure only")

	step(t, ctx, "a click switches to atom types",
		chromedp.Click(chromedp.CSS(`label[for="train-mode-atom-types"]`)),
		until(atomTypes),
		textContains("#train-mode-text", "Atom types: no table names the node labels' codes, so they are taken as atom types"),
		screenshot("train-atom-types"),
	)
	checkAxe(t, ctx, "the Train tab on NCI1 in atom types")

	step(t, ctx, "the keyboard goes back to structure only",
		chromedp.Focus(chromedp.CSS("#train-mode-atom-types")),
		chromedp.KeyEvent(kb.ArrowRight),
		until(structure),
	)
}
