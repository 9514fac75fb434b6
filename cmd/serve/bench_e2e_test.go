package main

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserBench runs a 10-fold CV of a TU dataset with the defaults in
// the browser, split over two Web Workers as the Train tab splits it, and
// logs the time and each worker's memory (figures in
// docs/benchmarks.md). It takes minutes, so it runs only when
// WKPI_BROWSER_BENCH names the dataset (a folder under data/):
//
//	WKPI_BROWSER_BENCH=PROTEINS go test -v -run TestBrowserBench -timeout 60m ./cmd/serve
//	WKPI_BROWSER_BENCH=NCI1 go test -v -run TestBrowserBench -timeout 60m ./cmd/serve
func TestBrowserBench(t *testing.T) {
	name := os.Getenv("WKPI_BROWSER_BENCH")
	if name == "" {
		t.Skip("a benchmark of several minutes: set WKPI_BROWSER_BENCH to a dataset (PROTEINS, NCI1) to run it")
	}
	data := zipDir(t, filepath.Join("../../data", name))
	mux := http.NewServeMux()
	mux.Handle("/", Handler(site))
	mux.HandleFunc("/bench/data.zip", func(w http.ResponseWriter, r *http.Request) { w.Write(data) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx, cancel := browserFor(t, 50*time.Minute)
	defer cancel()
	step(t, ctx, "open the app", chromedp.Navigate(srv.URL), chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")))
	type part struct {
		Seconds float64 `json:"seconds"`
		Memory  float64 `json:"memory"`
		Folds   int     `json:"folds"`
		Error   string  `json:"error"`
	}
	var parts []part
	stepWithin(t, ctx, 45*time.Minute, name+" 10-fold CV on two workers", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		var err error
		parts, err = chromedp.Evaluate[[]part](fmt.Sprintf(`(async () => {
			const name = %q;
			const zip = await (await fetch("/bench/data.zip")).arrayBuffer();
			const t0 = performance.now();
			const run = (only) => new Promise((ok) => {
				const w = new Worker("/web/worker.js");
				w.onmessage = (e) => {
					const h = JSON.parse(e.data.h);
					if (h.event === "progress" || h.event === "partial") return;
					w.terminate();
					ok({seconds: (performance.now() - t0) / 1000, memory: h.memory || 0,
						folds: h.cv ? h.cv.report.folds.length : 0, error: h.error || ""});
				};
				const req = {id: 1, kind: "cv", dataset: name, files: [{name: name + ".zip"}], training: {only}};
				const b = zip.slice(0);
				w.postMessage({h: JSON.stringify(req), b: [b]}, [b]);
			});
			return Promise.all([run([0, 2, 4, 6, 8]), run([1, 3, 5, 7, 9])]); })()`, name), chromedp.EvalAwaitPromise)(ctx, tg)
		return err
	}))
	for i, p := range parts {
		if p.Error != "" || p.Folds != 5 {
			t.Errorf("worker %d: %d folds, error %q", i, p.Folds, p.Error)
		}
		t.Logf("BENCH browser %s 10-fold CV, worker %d (5 folds): done after %.0f s, worker memory %.0f MB", name, i, p.Seconds, p.Memory/1e6)
	}
}

// zipDir zips the files of dir (a TU dataset) in memory.
func zipDir(t *testing.T, dir string) []byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no dataset files in %s (run make data): %v", dir, err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := zw.Create(filepath.Base(name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(fmt.Errorf("zipping %s: %w", dir, err))
	}
	return buf.Bytes()
}
