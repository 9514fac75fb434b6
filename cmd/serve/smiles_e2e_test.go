package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wkpi-web/core/testenv"
)

// onceModel is a MUTAG model file that the test binary trains once, on
// first use.
type onceModel struct {
	once sync.Once
	file string
	err  error
}

var quickModel, labelsModel onceModel

// get returns the model of `wkpi train -data MUTAG -iter 20` with the extra
// flags, saved as name, training it on the first call (seconds).
func (m *onceModel) get(t *testing.T, name string, extra ...string) string {
	t.Helper()
	m.once.Do(func() {
		dir, err := os.MkdirTemp("", "serve-model")
		if err != nil {
			m.err = err
			return
		}
		m.file = filepath.Join(dir, name)
		args := append([]string{"run", "../wkpi", "train", "-data", "../../data/MUTAG", "-out", m.file, "-iter", "20"}, extra...)
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			m.err = fmt.Errorf("wkpi train: %v (run make data)\n%s", err, out)
		}
	})
	if m.err != nil {
		t.Fatal(m.err)
	}
	return m.file
}

// mutagModel returns the model of `wkpi train -data MUTAG -iter 20`.
func mutagModel(t *testing.T) string { return quickModel.get(t, "mutag.json") }

// wkpiPredict runs `wkpi predict -json` on a file holding text.
func wkpiPredict(t *testing.T, model, name, text string) []testenv.Prediction {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return testenv.WkpiPredict(t, model, file)
}

// typeSMILES replaces the text of the SMILES box as typing does.
func typeSMILES(text string) chromedp.Action[chromedp.Void] {
	return until(fmt.Sprintf(`(() => { const a = document.querySelector("#classify-smiles"); a.value = %q;
		return a.dispatchEvent(new Event("input", {bubbles: true})); })()`, text))
}

// row is one row of the predictions table as the page shows it.
type row struct {
	Name      string `json:"name"`
	Predicted string `json:"predicted"`
	Words     string `json:"words"`
	Values    string `json:"values"`
}

func rows(t *testing.T, ctx context.Context) []row {
	return value[[]row](t, ctx, `[...document.querySelectorAll("#predictions tbody tr")].map(r => ({name: r.querySelector(".name").textContent,
		predicted: r.querySelector(".predicted").textContent, words: r.querySelector(".decision").textContent,
		values: r.querySelector(".decision").dataset.values}))`)
}

// mutagClasses are MUTAG's class names in the order of the model's
// decision value.
var mutagClasses = [2]string{"-1", "1"}

// typedSMILES are MUTAG-like nitro aromatics and others, as a user types
// them: a name after most, none after one.
const typedSMILES = "c1ccc(cc1)[N+](=O)[O-] nitrobenzene\n" +
	"O=[N+]([O-])c1ccc2c(c1)Cc1ccccc1-2 2-nitrofluorene\n" +
	"Nc1ccccc1\n" +
	"c1ccc2cc3ccccc3cc2c1 anthracene"

// checkRows compares the table with `wkpi predict` on the same lines:
// names (a SMILES without one named by itself), classes, decision values
// (to the 4 decimals shown) and the words that say what they mean; a
// positive decision value points towards classes[0], a negative one
// towards classes[1].
func checkRows(t *testing.T, got []row, want []testenv.Prediction, names []string, classes [2]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, wkpi predict gives %d", len(got), len(want))
	}
	for i, r := range got {
		w := want[i]
		d, err := strconv.ParseFloat(r.Values, 64)
		class := classes[0]
		if d < 0 {
			class = classes[1]
		}
		if r.Name != names[i] || r.Predicted != "class "+w.Class || err != nil || math.Abs(d-w.Decision[0]) > 5e-5 ||
			!strings.HasPrefix(r.Words, fmt.Sprintf("%+.2f: ", w.Decision[0])) || !strings.HasSuffix(r.Words, "class "+class) {
			t.Errorf("row %d: %+v; wkpi predict %+v, name %q", i, r, w, names[i])
		}
	}
}

// TestBrowserClassifySMILES: typed SMILES and SMILES files on the Classify
// tab with a model file from wkpi train: names, classes, counts, decision
// words as wkpi predict, the CSV export, a bad line, a link that fills the
// box, accessibility, 1280 and 390 px.
func TestBrowserClassifySMILES(t *testing.T) {
	model := mutagModel(t)
	ctx, cancel := browser(t)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()
	want := wkpiPredict(t, model, "typed.smi", typedSMILES)

	step(t, ctx, "load the page and import a model from wkpi train",
		chromedp.Navigate(srv.URL+"/#models"),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.SetUploadFiles(chromedp.CSS("#model-upload"), []string{model}),
		textContains("#model-dataset", "MUTAG"),
	)
	step(t, ctx, "Classify: type SMILES, one with a name per line",
		chromedp.Click(chromedp.CSS("#tab-classify")),
		chromedp.WaitVisible(chromedp.CSS("#classify-smiles")),
		until(`document.querySelector("#classify-run").disabled`),
		typeSMILES(typedSMILES),
		until(`!document.querySelector("#classify-run").disabled`),
		chromedp.Click(chromedp.CSS("#classify-run")),
		until(`document.querySelectorAll("#predictions tbody tr").length === 4`),
		chromedp.WaitVisible(chromedp.CSS("#classify-heat .points circle")),
		screenshot("classify-smiles"),
	)
	checkRows(t, rows(t, ctx), want, []string{"nitrobenzene", "2-nitrofluorene", "Nc1ccccc1", "anthracene"}, mutagClasses)
	counts := map[string]int{}
	for _, w := range want {
		counts[w.Class]++
	}
	wantCounts := fmt.Sprintf("4 predictions: class -1 for %d, class 1 for %d.", counts["-1"], counts["1"])
	if got := value[string](t, ctx, `document.querySelector("#classify-counts").textContent.replace(/\s+/g, " ").replace(/ ([,.])/g, "$1").trim()`); got != wantCounts {
		t.Errorf("counts %q, want %q", got, wantCounts)
	}
	if help := value[string](t, ctx, `document.querySelector("#classify-decision-help").textContent`); !strings.Contains(help, "positive means class -1, negative class 1") {
		t.Errorf("no words for the decision values: %q", help)
	}
	step(t, ctx, "the chosen molecule's card names it", textContains("#classify-chosen h2", "nitrobenzene: predicted class "+want[0].Class))

	text := value[string](t, ctx, `fetch(document.querySelector("#classify-csv").href).then(r => r.text())`)
	csvRows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(csvRows) != 5 || csvRows[0][0] != "name" || csvRows[1][0] != "nitrobenzene" || csvRows[3][0] != "Nc1ccccc1" || csvRows[1][1] != "typed.smi" {
		t.Errorf("CSV export: %v, %q", err, csvRows)
	}

	checkAxe(t, ctx, "Classify with typed SMILES")
	// 1280 px: the whole table, decision words included, fits its card.
	if fits := value[bool](t, ctx, `(() => { const s = document.querySelector("#predictions").parentElement;
		const d = document.querySelector("#predictions tbody tr .decision").getBoundingClientRect();
		return s.scrollWidth <= s.clientWidth && d.right <= s.getBoundingClientRect().right; })()`); !fits {
		t.Error("1280 px: the decision column is cut off")
	}
	step(t, ctx, "390 px", chromedp.EmulateViewport(390, 844), chromedp.Sleep(300*time.Millisecond), screenshot("narrow-classify-smiles"))
	if scrolls, wide := overflow(t, ctx); scrolls || len(wide) > 0 {
		t.Errorf("390 px: page scrolls sideways %v; too wide: %v", scrolls, wide)
	}
	if visible := value[[]bool](t, ctx, `[...document.querySelectorAll("#predictions tbody tr")].map(r => {
		const w = document.documentElement.clientWidth, s = document.querySelector("#predictions").parentElement.getBoundingClientRect();
		return [r.querySelector(".name"), r.querySelector(".predicted")].every(c => { const b = c.getBoundingClientRect();
			return b.left >= 0 && b.right <= Math.min(w, s.right) + 0.5; }); })`); len(visible) != 4 || strings.Contains(fmt.Sprint(visible), "false") {
		t.Errorf("390 px: name and predicted class not both in view without scrolling sideways: %v", visible)
	}
	checkAxe(t, ctx, "Classify with typed SMILES at 390 px")
	step(t, ctx, "back to 1280 px", chromedp.EmulateViewport(1280, 900))

	step(t, ctx, "a bad SMILES is refused with its line and character; the predictions stay",
		typeSMILES("CCO ethanol\nC1CC ring"),
		chromedp.Click(chromedp.CSS("#classify-run")),
		textContains("#classify-error", "typed.smi line 2"),
		textContains("#classify-error", `SMILES "C1CC": character 2`),
		textContains("#classify-error", "earlier predictions"),
		until(`document.querySelectorAll("#predictions tbody tr").length === 4`),
	)

	dir := t.TempDir()
	smi, table := filepath.Join(dir, "mols.smi"), filepath.Join(dir, "mols.csv")
	if err := os.WriteFile(smi, []byte(typedSMILES+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(table, []byte("ID,SMILES\nm1,c1ccc(cc1)[N+](=O)[O-]\nm2,CCO\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if accept := value[string](t, ctx, `document.querySelector("#classify-upload").accept`); !strings.Contains(accept, ".smi") || !strings.Contains(accept, ".csv") || !strings.Contains(accept, ".tsv") {
		t.Errorf("the file picker accepts %q", accept)
	}
	step(t, ctx, "SMILES files: a .smi and a table, named by their files",
		chromedp.SetUploadFiles(chromedp.CSS("#classify-upload"), []string{smi, table}),
		until(`document.querySelectorAll("#predictions tbody tr").length === 6`),
		chromedp.WaitNotPresent(chromedp.CSS("#classify-error")),
	)
	got := rows(t, ctx)
	checkRows(t, got[:4], want, []string{"nitrobenzene", "2-nitrofluorene", "line 3", "anthracene"}, mutagClasses)
	if got[4].Name != "m1" || got[5].Name != "m2" || got[4].Values != got[0].Values {
		t.Errorf("the table's rows: %+v", got[4:])
	}

	link := srv.URL + "/#classify?smiles=" + url.QueryEscape("c1ccc(cc1)[N+](=O)[O-]") + "&smiles=" + url.PathEscape("CCO ethanol")
	step(t, ctx, "a link fills the SMILES box and classifies it",
		chromedp.Navigate("about:blank"),
		chromedp.Navigate(link),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		until(`document.querySelector("#tab-classify").getAttribute("aria-selected") === "true"`),
		until(`document.querySelector("#classify-smiles").value === "c1ccc(cc1)[N+](=O)[O-]\nCCO ethanol"`),
		until(`document.querySelectorAll("#predictions tbody tr").length === 2`),
	)
	got = rows(t, ctx)
	if got[0].Name != "c1ccc(cc1)[N+](=O)[O-]" || got[0].Values != rows(t, ctx)[0].Values || got[1].Name != "ethanol" ||
		!strings.HasPrefix(got[0].Words, fmt.Sprintf("%+.2f", want[0].Decision[0])) {
		t.Errorf("after the link: %+v", got)
	}
}
