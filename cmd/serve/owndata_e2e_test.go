package main

import (
	"encoding/csv"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wkpi-web/core/dataset"
	"wkpi-web/core/graph"
	"wkpi-web/core/testenv"
)

// first200 is RDKit's SD sample of 200 NCI molecules with many numeric
// properties (testenv.RDKitPath; datasets are never committed).
const first200 = "Data/NCI/first_200.props.sdf"

// chooseText picks the entry labelled text in menu id, as a user would.
func chooseText(id, text string) chromedp.Action[chromedp.Void] {
	return until(fmt.Sprintf(`(() => { const s = document.querySelector("#%s");
		const o = s && [...s.options].find(o => o.textContent === %q); if (!o) return false;
		s.value = o.value; s.dispatchEvent(new Event("change", {bubbles: true}));
		return s.options[s.selectedIndex].textContent === %[2]q; })()`, id, text))
}

// classCounts are the class labels and counts of ds, as the Data tab's
// summary writes them.
func classCounts(ds *graph.Dataset) []string {
	n := make([]int, len(ds.Classes))
	for _, l := range ds.Labels {
		n[l]++
	}
	var out []string
	for i, c := range ds.Classes {
		out = append(out, fmt.Sprintf("%s × %d", c, n[i]))
	}
	return out
}

// TestBrowserOwnData: the Data tab trains on the user's molecules (issue
// 20). RDKit's first_200.props.sdf is inspected by a worker: its
// properties are listed; a numeric property gets its median as the
// threshold, the classes are counted as a threshold is typed, and the
// load gives the classes and names core/dataset reads; a short
// cross-validation runs on it, shows ROC-AUC, and its final model
// classifies typed SMILES as `wkpi predict` does with the downloaded
// model, the predictions exported as CSV. A table with a bad SMILES lists the row
// and loads the good rows on request, the dataset before staying loaded
// meanwhile; reloaded, the page reads the saved table with the same
// choices. axe-core on the new states, and no sideways scroll at 390 px.
func TestBrowserOwnData(t *testing.T) {
	sdf := testenv.RDKitPath(t, first200)
	data, err := os.ReadFile(sdf)
	if err != nil {
		t.Fatal(err)
	}
	// The oracle: core/dataset on the same bytes.
	in, err := dataset.Inspect(filepath.Base(first200), data, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var median float64
	for _, c := range in.Columns {
		if c.Name == "AMW" {
			median = c.Median
		}
	}
	cut := strconv.FormatFloat(median, 'g', -1, 64)
	read := func(x float64) *graph.Dataset {
		ds, _, err := dataset.Parse(filepath.Base(first200), data, dataset.Options{Target: "AMW", Threshold: &x})
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	ds, at300 := read(median), read(300)

	ctx, cancel := browserFor(t, 12*time.Minute)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()

	step(t, ctx, "load the page and MUTAG",
		openMUTAG(srv.URL+"/")...)
	step(t, ctx, "upload first_200.props.sdf: a worker lists its 19 properties with examples",
		chromedp.SetUploadFiles(chromedp.CSS("#upload"), []string{sdf}),
		textContains("#datafile-what", "An SD file of 200 records"),
		until(`document.querySelectorAll("#datafile-columns tbody tr").length === 19`),
		textContains(`#datafile-columns tr[data-column="AMW"]`, "numbers, median "+cut),
		textContains(`#datafile-columns tr[data-column="AMW"]`, "122.12344"),
		textContains(`#datafile-columns tr[data-column="ISM"]`, "text"),
		textContains("#data-classes", "Pick the target"),
		until(`document.querySelector("#data-load").disabled`),
		// MUTAG is still the dataset until the file loads.
		textContains("#summary-graphs", "188 graphs"),
	)
	checkAxe(t, ctx, "data: a file inspected")
	step(t, ctx, "pick AMW: the median is the threshold, the classes counted",
		chooseText("data-target", "AMW"),
		until(`document.querySelector("#data-target").selectedOptions[0].textContent === "AMW"`),
		until(fmt.Sprintf(`document.querySelector("#data-threshold").value === %q`, cut)),
		textContains("#data-classes", fmt.Sprintf("Classes AMW < %s: %d and AMW >= %s: %d.", cut, countOf(ds, 0), cut, countOf(ds, 1))),
		until(`!document.querySelector("#data-load").disabled`),
	)
	step(t, ctx, "the counts follow the threshold as it is typed",
		setInput("data-threshold", "300"),
		textContains("#data-classes", fmt.Sprintf("Classes AMW < 300: %d and AMW >= 300: %d.", countOf(at300, 0), countOf(at300, 1))),
		setInput("data-threshold", "3x"),
		textContains("#data-classes", `The threshold "3x" is not a number.`),
		until(`document.querySelector("#data-load").disabled && document.querySelector("#data-threshold").getAttribute("aria-invalid") !== null`),
		setInput("data-threshold", "1"),
		textContains("#data-classes", "The threshold leaves one class"),
		setInput("data-threshold", cut),
		until(`!document.querySelector("#data-load").disabled`),
	)
	want := classCounts(ds)
	step(t, ctx, "load: the two classes with their counts, the file and the graphs' names",
		chromedp.Click(chromedp.CSS("#data-load")),
		textContains("#summary-graphs", "200 graphs"),
		textContains("#summary-classes", "2 classes"),
		textContains("#summary-classes", want[0]),
		textContains("#summary-classes", want[1]),
		textContains("#summary-source", "first_200.props.sdf: an SD file of 200 records"),
		textContains("#summary-target", "AMW, cut at "+cut),
		textContains("#data-graph-name", ds.Names[0]),
		// A molecule: its layout, then RDKit's drawing.
		chromedp.WaitVisible(chromedp.CSS(".graph-view svg circle, .molecule-view svg")),
		// The menu still shows the target loaded.
		until(`document.querySelector("#data-target").selectedOptions[0].textContent === "AMW"`),
		screenshot("owndata"),
	)
	checkAxe(t, ctx, "data: a file loaded")
	step(t, ctx, "390 px: the Data tab with the file's columns", chromedp.EmulateViewport(390, 844), chromedp.Sleep(300*time.Millisecond))
	if scrolls, wide := overflow(t, ctx); scrolls || len(wide) > 0 {
		t.Errorf("390 px, Data tab with a file: page scrolls sideways %v; too wide: %v", scrolls, wide)
	}
	checkAxe(t, ctx, "data: a file loaded, at 390 px")
	step(t, ctx, "390 px screenshot, back to 1280 px", screenshot("owndata-narrow"), chromedp.EmulateViewport(1280, 900))
	step(t, ctx, "Explore names the graph",
		chromedp.Click(chromedp.CSS("#tab-explore")),
		textContains("#explore-graph-name", ds.Names[0]),
		chromedp.WaitVisible(chromedp.CSS("#diagram svg")),
	)
	stepWithin(t, ctx, 6*time.Minute, "a 3-fold cross-validation of 20 learning steps on the molecules",
		append(shortCV(3, 20), until(`document.querySelectorAll("#fold-table tbody tr").length === 3`))...,
	)
	acc := value[string](t, ctx, `document.querySelector("#acc-learned").dataset.value`)
	if a, err := strconv.ParseFloat(acc, 64); err != nil || a < 0 || a > 1 {
		t.Errorf("learned accuracy %q", acc)
	}
	t.Logf("first_200.props.sdf, AMW cut at %s, 3 folds, 20 steps: learned accuracy %s (%s)", cut, acc,
		value[string](t, ctx, `document.querySelector("#acc-learned").textContent`))
	// ROC-AUC from the folds' decision values is shown beside accuracy.
	auc := value[string](t, ctx, `document.querySelector("#metrics-learned").dataset.auc`)
	if a, err := strconv.ParseFloat(auc, 64); err != nil || a < 0 || a > 1 {
		t.Errorf("learned ROC-AUC %q, want a number in [0, 1]", auc)
	}
	t.Logf("first_200.props.sdf: learned ROC-AUC %s", auc)

	// The final model classifies typed SMILES as `wkpi predict` does with
	// the model the Models tab downloads, and the predictions export.
	step(t, ctx, "the Models tab holds the model trained on the molecules",
		chromedp.Click(chromedp.CSS("#tab-models")),
		textContains("#model-dataset", "first_200.props"),
		chromedp.WaitVisible(chromedp.CSS("#model-download")),
	)
	modelFile := filepath.Join(t.TempDir(), "first200.json")
	if err := os.WriteFile(modelFile, []byte(value[string](t, ctx, `fetch(document.querySelector("#model-download").href).then(r => r.text())`)), 0o644); err != nil {
		t.Fatal(err)
	}
	cli := wkpiPredict(t, modelFile, "typed.smi", typedSMILES)
	step(t, ctx, "Classify: typed SMILES with the molecules' model",
		append(classifyTyped(typedSMILES, 4),
			// The classes say what they mean: AMW under or over the cut.
			textContains("#classify-about", fmt.Sprintf("Its classes are class AMW < %s, class AMW >= %s.", cut, cut)),
			until(`!document.querySelector("#classify-about").textContent.includes("do not say what they mean")`),
		)...,
	)
	checkRows(t, rows(t, ctx), cli, []string{"nitrobenzene", "2-nitrofluorene", "Nc1ccccc1", "anthracene"}, [2]string{ds.Classes[0], ds.Classes[1]})
	exported := value[string](t, ctx, `fetch(document.querySelector("#classify-csv").href).then(r => r.text())`)
	table, err := csv.NewReader(strings.NewReader(exported)).ReadAll()
	if err != nil || len(table) != 5 || table[0][0] != "name" || table[2][0] != "2-nitrofluorene" || !slices.Contains(table[2], cli[1].Class) {
		t.Errorf("CSV export: %v, %q; wkpi predict %+v", err, table, cli)
	}

	// A table with one bad SMILES (row 3).
	csv := filepath.Join(t.TempDir(), "mols.csv")
	rows := "name,smiles,class\n"
	for i, s := range []string{"CCO", "c1ccccc1O", "C1CC", "CC(=O)O", "c1ccncc1", "CCN", "OCCO", "CCCl", "c1ccccc1N", "CC=O", "CCCC", "C#N"} {
		rows += fmt.Sprintf("mol%d,%s,%s\n", i+1, s, []string{"active", "inactive"}[i%2])
	}
	if err := os.WriteFile(csv, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	step(t, ctx, "a table with a bad SMILES: the inspection says so",
		chromedp.Click(chromedp.CSS("#tab-data")),
		chromedp.SetUploadFiles(chromedp.CSS("#upload"), []string{csv}),
		textContains("#datafile-what", "A CSV table of 12 rows; the names come from name. Molecules that cannot be read: 1 of the 12 rows; Load lists it."),
		until(`document.querySelector("#data-smiles").selectedOptions[0].textContent === "smiles" &&
			document.querySelector("#data-target").selectedOptions[0].textContent === "class"`),
		textContains("#data-classes", "Each of the 2 different values of class is a class."),
	)
	step(t, ctx, "Load lists the bad row and offers the good ones; nothing loaded",
		chromedp.Click(chromedp.CSS("#data-load")),
		textContains("#bad-rows", "1 of the 12 rows of mols.csv cannot be read, so nothing was loaded:"),
		textContains("#bad-rows li", `row 3 (line 4): SMILES "C1CC": character 2: ring bond 1 is never closed`),
		textContains("#load-good", "Load the 11 good rows"),
		textContains("#bad-rows", "The dataset first_200.props is still loaded."),
		textContains("#summary-graphs", "200 graphs"),
	)
	checkAxe(t, ctx, "data: bad rows")
	step(t, ctx, "390 px: the bad rows", chromedp.EmulateViewport(390, 844), chromedp.Sleep(300*time.Millisecond))
	if scrolls, wide := overflow(t, ctx); scrolls || len(wide) > 0 {
		t.Errorf("390 px, Data tab with bad rows: page scrolls sideways %v; too wide: %v", scrolls, wide)
	}
	step(t, ctx, "load the 11 good rows: the row left out is listed in the summary",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Click(chromedp.CSS("#load-good")),
		textContains("#summary-graphs", "11 graphs"),
		textContains("#summary-classes", "active × 5"),
		textContains("#summary-classes", "inactive × 6"),
		textContains("#summary-skipped", "1 of the 12 rows, which cannot be read:"),
		textContains("#summary-skipped", "row 3 (line 4)"),
		chromedp.WaitNotPresent(chromedp.CSS("#bad-rows")),
		textContains("#data-graph-name", "mol1"),
	)
	step(t, ctx, "reload: the saved table loads again with its choices",
		// The dataset reaches IndexedDB asynchronously.
		until(`new Promise((ok) => { const r = indexedDB.open("wkpi"); r.onsuccess = () => {
			const g = r.result.transaction("datasets").objectStore("datasets").get("current");
			g.onsuccess = () => ok(!!g.result && g.result.key.includes("mols.csv") && g.result.key.includes('"skipBad":true'));
			g.onerror = () => ok(false); }; r.onerror = () => ok(false); })`),
		chromedp.Reload(),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		textContains("#summary-graphs", "11 graphs"),
		textContains("#summary-target", "class"),
		textContains("#summary-skipped", "1 of the 12 rows"),
	)

	// A PNG named x.sdf is not an SD file of one unreadable record.
	png, err := os.ReadFile("../../core/graphfile/testdata/icon.png")
	if err != nil {
		t.Fatal(err)
	}
	notSD := filepath.Join(t.TempDir(), "x.sdf")
	if err := os.WriteFile(notSD, png, 0o644); err != nil {
		t.Fatal(err)
	}
	step(t, ctx, "a PNG named x.sdf: not an SD file, and what one is",
		chromedp.SetUploadFiles(chromedp.CSS("#upload"), []string{notSD}),
		textContains("#load-error", "x.sdf: this is not an SD file: it is a PNG image; an SD file is text: molfile records"),
		until(`!document.querySelector("#datafile") && !document.querySelector("#load-error").textContent.includes("Could not read")`),
		textContains("#summary-graphs", "11 graphs"),
	)
}

// countOf is how many graphs of ds are in class c.
func countOf(ds *graph.Dataset, c int) int {
	n := 0
	for _, l := range ds.Labels {
		if l == c {
			n++
		}
	}
	return n
}
