package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"wkpi-web/core/testenv"
	"wkpi-web/wasm/protocol"
)

// onEveryPage runs script in every document the page loads from now on,
// before the page's own scripts: it sees a reload from its first moment.
func onEveryPage(script string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return err
	})
}

// watchModels records, from a document's start, every heading of the
// tab panel and every model the Models tab marks "in use" (window.seen),
// and whether it said "No model yet"; once the Classify button is
// enabled it types nothing but clicks it at once (window.clicked holds
// the heading then). The text area is filled as soon as the page's Go
// program listens (the loader gone).
const watchModels = `(() => {
	window.seen = {headings: [], inUse: [], noModel: false, clicked: null};
	const s = window.seen;
	const look = () => {
		const h = document.querySelector("#panel h2");
		if (h && s.headings.at(-1) !== h.textContent) s.headings.push(h.textContent);
		for (const p of document.querySelectorAll("#model-list .pill")) {
			const name = p.closest("tr").dataset.name;
			if (s.inUse.at(-1) !== name) s.inUse.push(name);
		}
		if (document.querySelector("#model-none")) s.noModel = true;
		const ta = document.querySelector("#classify-smiles");
		if (ta && !document.querySelector("#app-wasm-loader") && ta.value === "" && window.classifyText) {
			ta.value = window.classifyText;
			ta.dispatchEvent(new Event("input", {bubbles: true}));
		}
		const b = document.querySelector("#classify-run");
		if (b && !b.disabled && s.clicked === null && window.classifyText) {
			s.clicked = h ? h.textContent : "";
			b.click();
		}
	};
	new MutationObserver(look).observe(document, {childList: true, subtree: true, attributes: true, characterData: true});
})()`

// trainFast writes a model of dataset, quickly trained by wkpi (a few
// learning steps, a fixed SVM) with extra flags, to dir/file.
func trainFast(t *testing.T, wkpi, dir, dataset, file string, flags ...string) string {
	t.Helper()
	out := filepath.Join(dir, file)
	args := append([]string{"train", "-data", filepath.Join(testenv.RepoRoot(t), "data", dataset), "-iter", "3", "-svm-choice=false", "-auto=false",
		"-extra", "none", "-progress", "off", "-out", out}, flags...)
	if msg, err := exec.Command(wkpi, args...).CombinedOutput(); err != nil {
		t.Fatalf("wkpi %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return out
}

// TestModelsAfterReload keeps three models, the current one last, reloads
// and clicks Classify as soon as the page lets it: the click gets its
// predictions, and while the models load the page shows one state
// ("Loading your models…"), never another model as current, on the
// Classify tab and on the Models tab. The first model is a file that
// keeps its name and cross-validation, loaded in this fresh profile: the
// Models tab shows both.
func TestModelsAfterReload(t *testing.T) {
	ctx, cancel := browserFor(t, 4*time.Minute)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()

	wkpi, dir := testenv.BuildWkpi(t), t.TempDir()
	first := trainFast(t, wkpi, dir, "MUTAG", "mutag.json")
	data, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	// As the page writes it when a run's cross-validation ends.
	if err := os.WriteFile(first, protocol.WithEvaluation(data, "MUTAG rings", protocol.Evaluation{Folds: 10, Accuracy: 0.8125, Std: 0.05}), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{first, trainFast(t, wkpi, dir, "MUTAG", "mutag-20.json", "-rows", "20"), trainFast(t, wkpi, dir, "PTC_MR", "ptc.json")}
	names := []string{"MUTAG rings", "MUTAG", "PTC_MR"}

	step(t, ctx, "open the Models tab", chromedp.Navigate(srv.URL+"/#models"), chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.WaitVisible(chromedp.CSS("#model-upload")))
	for i, f := range files {
		step(t, ctx, "load model file "+filepath.Base(f),
			chromedp.SetUploadFiles(chromedp.CSS("#model-upload"), []string{f}),
			textContains("#status", fmt.Sprintf("kept as %q", names[i])),
		)
	}
	step(t, ctx, "the file's name and CV accuracy are shown; the others' accuracy is not known",
		until(`[...document.querySelectorAll("#model-list tbody tr")].map(r => r.dataset.name + "=" + r.querySelector(".model-accuracy").textContent).join(";")
			=== "MUTAG rings=81.2 %;MUTAG=not known;PTC_MR=not known"`),
		textContains("#model-card h2", "Current model: PTC_MR"),
		// Saved for the next visit: three models, PTC_MR current.
		until(`new Promise((ok) => { const r = indexedDB.open("wkpi"); r.onsuccess = () => {
			try { const db = r.result, s = db.transaction(db.objectStoreNames[0]).objectStore(db.objectStoreNames[0]);
				const m = s.get("models"), c = s.get("current-model");
				c.onsuccess = () => { const text = m.result ? new TextDecoder().decode(m.result) : "";
					ok(["MUTAG rings", "MUTAG", "PTC_MR"].every(n => text.includes('"name":"' + n + '"')) && !!c.result && new TextDecoder().decode(c.result) === "PTC_MR"); };
				c.onerror = () => ok(false);
			} catch (e) { ok(false); } }; r.onerror = () => ok(false); })`),
		onEveryPage(watchModels),
	)

	stepWithin(t, ctx, time.Minute, "reload on the Models tab: one state until PTC_MR is in use",
		chromedp.Reload(),
		until(`!!window.seen && (window.seen.inUse.length > 0) && document.querySelectorAll("#model-list tbody tr").length === 3`),
	)
	if seen := value[map[string]any](t, ctx, `window.seen`); fmt.Sprint(seen["inUse"]) != "[PTC_MR]" || seen["noModel"] != false {
		t.Errorf("while the models loaded the Models tab showed in use %v and 'No model yet' %v; want only PTC_MR, and no 'No model yet'", seen["inUse"], seen["noModel"])
	}

	step(t, ctx, "to the Classify tab, to be seen from a reload's start", until(`(location.hash = "classify") !== ""`),
		textContains("#panel h2", "Classify"),
		onEveryPage(`window.classifyText = "c1ccc(cc1)[N+](=O)[O-] nitrobenzene\nCCO ethanol";`),
	)
	stepWithin(t, ctx, time.Minute, "reload and click Classify as early as the page allows: the click gets its predictions",
		chromedp.Reload(),
		until(`!!window.seen && window.seen.clicked !== null`),
		until(`document.querySelectorAll("#predictions tbody tr").length === 2`),
	)
	seen := value[map[string]any](t, ctx, `window.seen`)
	t.Logf("headings while loading: %q; clicked under %q", seen["headings"], seen["clicked"])
	for _, h := range seen["headings"].([]any) {
		if s := h.(string); strings.HasPrefix(s, "Classify") && s != "Classify molecules" && s != "Classify molecules with the model of PTC_MR" {
			t.Errorf("while the models loaded the Classify tab said %q; want only 'Classify molecules' (loading) and the current model, PTC_MR (headings %q)", s, seen["headings"])
		}
	}
	if c := seen["clicked"].(string); c != "Classify molecules with the model of PTC_MR" {
		t.Errorf("the Classify button was enabled under %q", c)
	}
	if text := value[string](t, ctx, `document.querySelector("#panel h2").textContent`); text != "Classify molecules with the model of PTC_MR" {
		t.Errorf("after loading: %q", text)
	}
	checkAxe(t, ctx, "Classify after a reload")
}
