package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wkpi-web/core/testenv"
)

// TestTrainTabTable times the Train tab's default run (10-fold CV and the
// final model) on a SMILES table of the first n molecules of RDKit's
// ChEMBL series, thresholded at the median the page proposes, and then,
// in the same run, `wkpi eval` + `wkpi train` with the same data and
// settings natively, and `wkpi eval -model`, which trains the model in
// the folds' passes as the page does; it checks that page and CLI give
// the same accuracy and logs the ratios (the goal: 3x; figures in
// docs/benchmarks.md). It takes minutes, so it runs only when
// WKPI_TRAIN_TABLE gives n:
//
//	WKPI_TRAIN_TABLE=1017 go test -v -run TestTrainTabTable -timeout 60m ./cmd/serve
func TestTrainTabTable(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("WKPI_TRAIN_TABLE"))
	if err != nil || n < 20 {
		t.Skip("a benchmark of minutes: set WKPI_TRAIN_TABLE to a number of molecules (20 to 1017) to run it")
	}
	table := filepath.Join(t.TempDir(), "chembl.csv")
	if err := os.WriteFile(table, []byte(testenv.ChEMBLTable(t, n)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := browserFor(t, 50*time.Minute)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()
	step(t, ctx, "upload the table: act is the target, cut at its median",
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.SetUploadFiles(chromedp.CSS("#upload"), []string{table}),
		chooseText("data-target", "act"),
		until(`document.querySelector("#data-threshold").value !== "" && !document.querySelector("#data-load").disabled`),
	)
	cut := value[string](t, ctx, `document.querySelector("#data-threshold").value`)
	step(t, ctx, "load it",
		chromedp.Click(chromedp.CSS("#data-load")),
		textContains("#summary-graphs", fmt.Sprintf("%d graphs", n)),
	)
	trainTabBench(t, ctx, fmt.Sprintf("%d molecules cut at %s", n, cut), "-data", table, "-target", "act", "-threshold", cut)
}

// TestTrainTabTU is TestTrainTabTable for a TU dataset uploaded as its
// files, against `wkpi eval -data data/NAME` + `wkpi train` (the goal for
// PROTEINS: 3x). WKPI_TRAIN_DATA names the folder under data/:
//
//	WKPI_TRAIN_DATA=PROTEINS go test -v -run TestTrainTabTU -timeout 60m ./cmd/serve
func TestTrainTabTU(t *testing.T) {
	name := os.Getenv("WKPI_TRAIN_DATA")
	if name == "" {
		t.Skip("a benchmark of minutes: set WKPI_TRAIN_DATA to a TU dataset under data/ (PROTEINS) to run it")
	}
	dir := testenv.Dataset(t, name)
	files, err := filepath.Glob(filepath.Join(dir, name+"_*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no TU files in %s: %v", dir, err)
	}
	ctx, cancel := browserFor(t, 50*time.Minute)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()
	step(t, ctx, "upload "+name+"'s files",
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.SetUploadFiles(chromedp.CSS("#upload"), files),
		textContains("#summary", name),
	)
	trainTabBench(t, ctx, name, "-data", dir)
}

// trainTabBench runs the Train tab's default run on the loaded dataset,
// then `wkpi eval` and `wkpi train`, then `wkpi eval -model` with data
// (the flags that name the same dataset), checks the accuracy is the same
// and logs the times and ratios.
func trainTabBench(t *testing.T, ctx context.Context, what string, data ...string) {
	t.Helper()
	step(t, ctx, "open the Train tab",
		chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.WaitEnabled(chromedp.CSS("#train-run")),
	)
	start := time.Now()
	stepWithin(t, ctx, 45*time.Minute, "the Train tab's default run: 10-fold CV and the final model",
		chromedp.Click(chromedp.CSS("#train-run")),
		chromedp.WaitVisible(chromedp.CSS("#acc-learned")),
		chromedp.WaitNotPresent(chromedp.CSS("#train-progress")),
		chromedp.WaitNotPresent(chromedp.CSS("#jobs")),
	)
	inPage := time.Since(start).Seconds()
	shown, err := strconv.ParseFloat(value[string](t, ctx, `document.querySelector("#acc-learned").dataset.value`), 64)
	if err != nil {
		t.Fatal(err)
	}

	wkpi := testenv.BuildWkpi(t)
	run := func(args ...string) []byte {
		t.Helper()
		out, err := exec.Command(wkpi, append(append(args[:1:1], data...), append(args[1:], "-progress", "off")...)...).Output()
		if err != nil {
			t.Fatalf("wkpi %s: %v", strings.Join(args, " "), err)
		}
		return out
	}
	start = time.Now()
	out := run("eval")
	run("train", "-out", filepath.Join(t.TempDir(), "m.json"))
	native := time.Since(start).Seconds()
	// The page trains its model in the folds' passes, as `wkpi eval
	// -model` does: the same work natively.
	start = time.Now()
	run("eval", "-model", filepath.Join(t.TempDir(), "m.json"))
	merged := time.Since(start).Seconds()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var line struct {
		Accuracy float64 `json:"accuracy_mean"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &line); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%.4f", shown) != fmt.Sprintf("%.4f", line.Accuracy) {
		t.Errorf("the Train tab shows accuracy %.4f, wkpi eval %.4f", shown, line.Accuracy)
	}
	t.Logf("BENCH Train tab, %s: %.1f s in the page, %.1f s natively (wkpi eval + wkpi train, right after), %.1f s for wkpi eval -model; browser / native %.1fx and %.1fx; accuracy %.4f both",
		what, inPage, native, merged, inPage/native, inPage/merged, shown)
}
