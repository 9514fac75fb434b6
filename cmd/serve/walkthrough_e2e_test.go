package main

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wkpi-web/core/testenv"
)

// ligandsSDF writes the first n records of RDKit's first_200.props.sdf
// with an ACTIVITY property (their CLOGP) as a chemist's SD file of
// ligands would have it, and returns its path.
func ligandsSDF(t *testing.T, n int) string {
	t.Helper()
	data, err := os.ReadFile(testenv.RDKitPath(t, first200))
	if err != nil {
		t.Fatal(err)
	}
	clogp := regexp.MustCompile(`>  <CLOGP>  \(\d+\) *\n(\S+)\n`)
	var out strings.Builder
	for i, rec := range strings.SplitAfter(string(data), "$$$$\n")[:n] {
		m := clogp.FindStringSubmatch(rec)
		if m == nil {
			t.Fatalf("record %d has no CLOGP", i+1)
		}
		out.WriteString(strings.Replace(rec, "$$$$\n", fmt.Sprintf(">  <ACTIVITY>\n%s\n\n$$$$\n", m[1]), 1))
	}
	path := filepath.Join(t.TempDir(), "ligands.sdf")
	if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// shortCV runs a cross-validation of folds folds and iter learning steps
// from the Train tab, with the rest of the settings as the page proposes
// them, and waits for its results.
func shortCV(folds, iter int) []chromedp.Action[chromedp.Void] {
	return []chromedp.Action[chromedp.Void]{
		chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.WaitEnabled(chromedp.CSS("#train-run")),
		setInput("train-folds", strconv.Itoa(folds)),
		chromedp.Click(chromedp.CSS("#train-advanced summary")),
		until(`document.querySelector("#train-advanced").open`),
		setInput("train-iter", strconv.Itoa(iter)),
		until(fmt.Sprintf(`document.querySelector("#train-folds").value === "%d" && document.querySelector("#train-iter").value === "%d"`, folds, iter)),
		chromedp.Click(chromedp.CSS("#train-run")),
		chromedp.WaitVisible(chromedp.CSS("#acc-learned")),
		chromedp.WaitVisible(chromedp.CSS("#acc-baseline")),
		chromedp.WaitNotPresent(chromedp.CSS("#train-progress")),
	}
}

// classifyTyped classifies typed SMILES (text, n lines) on the Classify
// tab and waits for their n predictions.
func classifyTyped(text string, n int) []chromedp.Action[chromedp.Void] {
	return []chromedp.Action[chromedp.Void]{
		chromedp.Click(chromedp.CSS("#tab-classify")),
		chromedp.WaitVisible(chromedp.CSS("#classify-smiles")),
		typeSMILES(text),
		until(`!document.querySelector("#classify-run").disabled`),
		chromedp.Click(chromedp.CSS("#classify-run")),
		until(fmt.Sprintf(`document.querySelectorAll("#predictions tbody tr").length === %d`, n)),
	}
}

// TestWalkthrough follows a chemist's path through the page in one go:
// an SD file of ligands with an ACTIVITY property, cut at the threshold
// the page proposes; a short cross-validation and the final model; a
// typed SMILES classified (as `wkpi predict` does with the downloaded
// model) and explained; the model exported, deleted and imported again,
// and imported into a fresh browser, keeping its name and CV accuracy
// both times; then, offline, a reload and the same SMILES classified
// again.
func TestWalkthrough(t *testing.T) {
	sdf := ligandsSDF(t, 60)
	ctx, cancel := browserFor(t, 4*time.Minute)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()
	start := time.Now()

	step(t, ctx, "upload the SD file: ACTIVITY is the target, cut at its median",
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.SetUploadFiles(chromedp.CSS("#upload"), []string{sdf}),
		textContains("#datafile-what", "An SD file of 60 records"),
		until(`document.querySelector("#data-target").selectedOptions[0].textContent === "ACTIVITY" && document.querySelector("#data-threshold").value !== ""`),
		until(`!document.querySelector("#data-load").disabled`),
	)
	cut := value[string](t, ctx, `document.querySelector("#data-threshold").value`)
	step(t, ctx, "load it: 60 molecules in two classes",
		chromedp.Click(chromedp.CSS("#data-load")),
		textContains("#summary-graphs", "60 graphs"),
		textContains("#summary-classes", "2 classes"),
		textContains("#summary-target", "ACTIVITY, cut at "+cut),
	)
	stepWithin(t, ctx, time.Minute, "train: a 3-fold cross-validation of 10 learning steps and the final model",
		append(shortCV(3, 10), chromedp.WaitNotPresent(chromedp.CSS("#jobs")))...,
	)
	accuracy, err := strconv.ParseFloat(value[string](t, ctx, `document.querySelector("#acc-learned").dataset.value`), 64)
	if err != nil || accuracy < 0 || accuracy > 1 {
		t.Fatalf("learned accuracy %v (%v)", accuracy, err)
	}
	shown := fmt.Sprintf("%.1f %%", 100*accuracy)
	t.Logf("ligands, ACTIVITY cut at %s, 3 folds: learned accuracy %s", cut, shown)

	const smiles = "c1ccc(cc1)[N+](=O)[O-] nitrobenzene"
	step(t, ctx, "classify a typed SMILES",
		append(classifyTyped(smiles, 1), textContains("#classify-about", "ACTIVITY"))...,
	)
	before := rows(t, ctx)
	explainGraph(t, ctx, 0, "nitrobenzene", true)

	step(t, ctx, "the Models tab keeps the model with its CV accuracy",
		chromedp.Click(chromedp.CSS("#tab-models")),
		chromedp.WaitVisible(chromedp.CSS("#model-download")),
		textContains(`#model-list tr[data-name="ligands"] .model-accuracy`, shown),
	)
	modelJSON := value[string](t, ctx, `fetch(document.querySelector("#model-download").href).then(r => r.text())`)
	var file struct {
		Name       string               `json:"name"`
		Dataset    string               `json:"dataset"`
		Classes    []string             `json:"classes"`
		Settings   *struct{ Folds int } `json:"settings"`
		Evaluation *struct {
			Folds    int     `json:"folds"`
			Accuracy float64 `json:"accuracy"`
		} `json:"evaluation"`
	}
	if err := json.Unmarshal([]byte(modelJSON), &file); err != nil {
		t.Fatal(err)
	}
	if file.Name != "ligands" || file.Evaluation == nil || file.Evaluation.Folds != 3 || file.Evaluation.Accuracy != accuracy ||
		file.Settings == nil || file.Settings.Folds != 3 || strings.Join(file.Classes, ", ") != fmt.Sprintf("ACTIVITY < %s, ACTIVITY >= %s", cut, cut) {
		t.Errorf("the exported model file keeps name %q, classes %q, settings %+v, evaluation %+v; want ligands, the threshold's classes, 3 folds and accuracy %v",
			file.Name, file.Classes, file.Settings, file.Evaluation, accuracy)
	}
	modelFile := filepath.Join(t.TempDir(), "wkpi-ligands.json")
	if err := os.WriteFile(modelFile, []byte(modelJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	checkRows(t, before, wkpiPredict(t, modelFile, "typed.smi", smiles+"\n"), []string{"nitrobenzene"}, [2]string{file.Classes[0], file.Classes[1]})

	imported := []chromedp.Action[chromedp.Void]{
		chromedp.SetUploadFiles(chromedp.CSS("#model-upload"), []string{modelFile}),
		textContains("#status", `kept as "ligands"`),
		textContains(`#model-list tr[data-name="ligands"] .model-accuracy`, shown),
		textContains("#model-card h2", "Current model: ligands"),
	}
	step(t, ctx, "delete the model, import the exported file: its name and CV accuracy come back",
		append([]chromedp.Action[chromedp.Void]{
			chromedp.Click(chromedp.CSS(`#model-list tr[data-name="ligands"] .delete`)),
			chromedp.WaitVisible(chromedp.CSS("#model-none")),
		}, imported...)...,
	)

	fresh, closeFresh := browserFor(t, time.Minute)
	step(t, fresh, "a fresh browser imports the file: its name and CV accuracy",
		append([]chromedp.Action[chromedp.Void]{
			chromedp.Navigate(srv.URL + "/#models"),
			chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
			chromedp.WaitVisible(chromedp.CSS("#model-none")),
		}, imported...)...,
	)
	closeFresh()

	step(t, ctx, "the service worker has cached the site; the model is saved",
		until(`(async () => {
			for (const u of ["/", "/web/app.wasm", "/web/worker.js", "/web/worker.wasm", "/web/kernel.js", "/web/kernel.wasm", "/wasm_exec.js"]) if (!(await caches.match(u))) return false;
			return true; })()`),
		until(`new Promise((ok) => { const r = indexedDB.open("wkpi"); r.onsuccess = () => {
			try { const db = r.result, s = db.transaction(db.objectStoreNames[0]).objectStore(db.objectStoreNames[0]);
				const g = s.get("models"); g.onsuccess = () => ok(!!g.result && new TextDecoder().decode(g.result).includes('"name":"ligands"'));
				g.onerror = () => ok(false);
			} catch (e) { ok(false); } }; r.onerror = () => ok(false); })`),
	)
	srv.Close()
	step(t, ctx, "offline: reload and classify the SMILES again",
		append([]chromedp.Action[chromedp.Void]{
			chromedp.Reload(),
			chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
			chromedp.Click(chromedp.CSS("#tab-classify")),
			textContains("#panel h2", "with the model of ligands"),
		}, classifyTyped(smiles, 1)...)...,
	)
	if after := rows(t, ctx); len(after) != 1 || after[0] != before[0] {
		t.Errorf("offline after the reload: %+v, before: %+v", after, before)
	}
	t.Logf("BENCH walk-through: %.1f s", time.Since(start).Seconds())
}
