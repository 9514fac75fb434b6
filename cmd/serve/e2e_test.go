package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const chromium = "/usr/bin/chromium"

// site is build/web relative to this package's folder.
const site = "../../build/web"

// browser starts headless Chromium with a fresh profile; it skips (fails
// under CI=true) when Chromium is missing.
func browser(t *testing.T) (context.Context, context.CancelFunc) {
	t.Helper()
	return browserFor(t, 6*time.Minute)
}

// browserFor is browser with a deadline of limit for the whole session.
func browserFor(t *testing.T, limit time.Duration) (context.Context, context.CancelFunc) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(site, "web", "app.wasm")); err != nil {
		t.Fatalf("no site at %s: run make web first (%v)", site, err)
	}
	if _, err := exec.LookPath(chromium); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("browser tests need %s: %v", chromium, err)
		}
		t.Skipf("SKIPPED BROWSER TESTS: %s not found", chromium)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.WindowSize(1280, 900),
	}
	// One deadline for the whole browser session, set before the browser
	// starts so that it bounds the test and not one step.
	tctx, cancelT := context.WithTimeout(context.Background(), limit)
	actx, cancelA := chromedp.NewExecAllocator(tctx, opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
	log := &consoleLog{}
	messages := chromedp.Console(ctx) // subscribed from here on
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			log.add(m.String())
		}
	}()
	return context.WithValue(ctx, consoleKey{}, log), func() { cancelB(); cancelA(); cancelT() }
}

// consoleKey is the context key of the page's consoleLog.
type consoleKey struct{}

// consoleLog keeps the last lines the page wrote to its console: a failing
// step shows them, as a panic of the page's Go program only shows there.
type consoleLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *consoleLog) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.lines) == 40 {
		l.lines = l.lines[1:]
	}
	l.lines = append(l.lines, line)
}

// consoleOf returns the console lines kept for the browser of ctx.
func consoleOf(ctx context.Context) string {
	l, ok := ctx.Value(consoleKey{}).(*consoleLog)
	if !ok {
		return ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// step runs actions with a per-step deadline, naming the step on failure.
func step(t *testing.T, ctx context.Context, name string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	stepWithin(t, ctx, 40*time.Second, name, actions...)
}

// stepWithin is step with a deadline of its own, for long computations.
func stepWithin(t *testing.T, ctx context.Context, limit time.Duration, name string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	start := time.Now()
	if err := chromedp.Do(sctx, actions...); err != nil {
		body, _ := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS("body")))
		body = body[:min(len(body), 2000)]
		t.Fatalf("%s: %v\npage text:\n%s\npage console (last lines):\n%s", name, err, body, consoleOf(ctx))
	}
	t.Logf("%s: %v", name, time.Since(start).Round(time.Millisecond))
}

// openMUTAG loads the app from url, opens the MUTAG demo dataset, then
// takes the given actions (usually: open a tab).
func openMUTAG(url string, then ...chromedp.Action[chromedp.Void]) []chromedp.Action[chromedp.Void] {
	return append([]chromedp.Action[chromedp.Void]{
		chromedp.Navigate(url),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.WaitEnabled(chromedp.CSS("#demo-MUTAG")),
		chromedp.Click(chromedp.CSS("#demo-MUTAG")),
		textContains("#summary-graphs", "188 graphs"),
	}, then...)
}

// textContains waits until the element's text contains want.
func textContains(sel, want string) chromedp.Action[chromedp.Void] {
	return until(fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !!e && e.textContent.includes(%q); })()`, sel, want))
}

// until waits until a JS expression (which may return a promise) is true.
func until(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for {
			ok, err := chromedp.Evaluate[bool](expr, chromedp.EvalAwaitPromise)(ctx, t)
			if err == nil && ok {
				return nil
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("waiting for %s: %w (last error %v)", expr, ctx.Err(), err)
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
}

func screenshot(name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		png, err := chromedp.FullScreenshot(100)(ctx, t) // quality 100 means PNG
		if err != nil {
			return err
		}
		dir := "../../artifacts"
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	})
}

// writeTU writes a TU dataset's files into dir and returns their paths.
func writeTU(t *testing.T, dir, name string, a, indicator, labels string) []string {
	t.Helper()
	var paths []string
	for suffix, text := range map[string]string{"A": a, "graph_indicator": indicator, "graph_labels": labels} {
		p := filepath.Join(dir, name+"_"+suffix+".txt")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// bigDataset is graph 0 with 1000 nodes (a cycle with chords), whose force
// layout keeps a worker busy long enough to click around meanwhile.
func bigDataset(t *testing.T) []string {
	const n = 1000
	var a, ind strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&a, "%d, %d\n%d, %d\n", i, i%n+1, i, (i+36)%n+1)
		ind.WriteString("1\n")
	}
	a.WriteString("1001, 1002\n")
	ind.WriteString("2\n2\n")
	return writeTU(t, t.TempDir(), "BIG", a.String(), ind.String(), "1\n2\n")
}

func TestBrowser(t *testing.T) {
	ctx, cancel := browser(t)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()
	url := srv.URL + "/"

	start := time.Now()
	step(t, ctx, "load the page",
		chromedp.Navigate(url),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.WaitEnabled(chromedp.CSS("#demo-MUTAG")),
	)
	t.Logf("first load to an interactive page: %v", time.Since(start).Round(time.Millisecond))

	step(t, ctx, "choose MUTAG: 188 graphs, 2 classes",
		chromedp.Click(chromedp.CSS("#demo-MUTAG")),
		textContains("#summary-graphs", "188 graphs"),
		textContains("#summary-classes", "2 classes"),
		textContains("#summary-classes", "-1 × 63"),
		// A molecule: its layout, then RDKit's drawing.
		chromedp.WaitVisible(chromedp.CSS(".graph-view svg circle, .molecule-view svg")),
		screenshot("data"),
	)

	step(t, ctx, "the keyboard moves between tabs (arrow keys, Home, End)",
		until(`(() => { const t = document.querySelector("#tab-data"); t.focus();
			return t.dispatchEvent(new KeyboardEvent("keydown", {key: "End", bubbles: true})); })()`),
		until(`document.activeElement && document.activeElement.id === "tab-models" &&
			document.activeElement.getAttribute("aria-selected") === "true"`),
		until(`document.activeElement.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}))`),
		until(`document.activeElement.id === "tab-data" && document.querySelector("#tab-data").tabIndex === 0 &&
			document.querySelector("#tab-models").tabIndex === -1`),
	)

	step(t, ctx, "Explore graph 0 with Ricci",
		chromedp.Click(chromedp.CSS("#tab-explore")),
		chromedp.WaitVisible(chromedp.CSS("#diagram svg")),
		until(`document.querySelector("#descriptor").value === "ricci" && document.querySelector("#explore-graph").value === "0"`),
		// MUTAG graph 0 has 17 nodes, 19 edges, one component: 1 Ext0 point
		// and 19 - 17 + 1 = 3 cycles, whatever the function.
		textContains("#diagram .legend", "Ext0 (1)"),
		textContains("#diagram .legend", "Ext1 (3)"),
		// Both channels of the training image: graph 0 has 0-dim (Ext0) and
		// 1-dim (Ext1) points, so neither is empty.
		chromedp.WaitVisible(chromedp.CSS("#pimage-0 svg image")),
		chromedp.WaitVisible(chromedp.CSS("#pimage-1 svg image")),
		textContains("#panel", "0-dimensional: Ord0 + Ext0"),
		textContains("#panel", "1-dimensional: Rel1 + Ext1"),
		textContains("#pimage-0 figcaption", "grid used for training"),
		screenshot("explore"),
	)

	step(t, ctx, "Explore another descriptor",
		until(`(() => { const s = document.querySelector("#descriptor"); s.value = "hks";
			return s.dispatchEvent(new Event("change", {bubbles: true})); })()`),
		textContains("#panel", "Graph 0 coloured by hks"),
		chromedp.WaitVisible(chromedp.CSS("#diagram svg")),
		textContains("#diagram .legend", "Ext1 (3)"),
	)

	trainAndClassify(t, ctx)
	// With MUTAG loaded, a 10-fold CV done and its model trained:
	checkTrainForm(t, ctx)
	checkClassifyLabelled(t, ctx)
	checkStackedSpots(t, ctx)
	checkEveryTab(t, ctx)
	checkTabURLs(t, ctx, url)
	benchmarkWorker(t, ctx)

	step(t, ctx, "the page answers clicks while a worker runs a job",
		chromedp.Click(chromedp.CSS("#tab-data")),
		chromedp.SetUploadFiles(chromedp.CSS("#upload"), bigDataset(t)),
		textContains("#summary-graphs", "2 graphs"),
		chromedp.WaitVisible(chromedp.CSS("#jobs")), // the 1000-node layout is running
		chromedp.Click(chromedp.CSS("#tab-train")),
		// Both true at once: the click was handled while the job still ran.
		until(`document.querySelector("#tab-train").getAttribute("aria-selected") === "true" && !!document.querySelector("#jobs")`),
		chromedp.Click(chromedp.CSS("#tab-data")),
		chromedp.WaitNotPresent(chromedp.CSS("#jobs")),
		chromedp.WaitVisible(chromedp.CSS(".graph-view svg circle")),
	)

	step(t, ctx, "cancel a running job; the worker is replaced and the app goes on",
		// HKS diagonalises the 1000-node Laplacian: seconds of work.
		chromedp.Click(chromedp.CSS("#tab-explore")),
		chromedp.WaitVisible(chromedp.CSS("#diagram svg")),
		until(`(() => { const s = document.querySelector("#descriptor"); s.value = "hks";
			return s.dispatchEvent(new Event("change", {bubbles: true})); })()`),
		chromedp.Click(chromedp.CSS("#explore-cancel")),
		textContains("#explore-error", "Canceled."),
		until(`(() => { const s = document.querySelector("#descriptor"); s.value = "degree";
			return s.dispatchEvent(new Event("change", {bubbles: true})); })()`),
		textContains("#panel", "Graph 0 coloured by degree"),
		chromedp.WaitVisible(chromedp.CSS("#diagram svg")),
		chromedp.Click(chromedp.CSS("#tab-data")),
	)

	step(t, ctx, "drop files on the drop zone (blank lines and spaces as users' files have them)",
		// A triangle and an edge, dropped as three TU files.
		until(`(() => {
			const dt = new DataTransfer();
			dt.items.add(new File(["\n1, 2\n\n2, 3\n 3, 1 \n\n4, 5\n\n"], "DROP_A.txt"));
			dt.items.add(new File(["\r\n1\n1\n\n1\n2\n2\n"], "DROP_graph_indicator.txt"));
			dt.items.add(new File(["\na\n\nb\n"], "DROP_graph_labels.txt"));
			document.querySelector("#dropzone").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
			return true; })()`),
		textContains("#summary", "DROP"),
		textContains("#summary-graphs", "2 graphs"),
		textContains("#summary-classes", "a × 1"),
	)

	dir := t.TempDir()
	bad := writeTU(t, dir, "BAD", "1, 2\n2, x1\n", "1\n1\n", "1\n")
	step(t, ctx, "a malformed upload shows a readable error and the app stays usable",
		chromedp.SetUploadFiles(chromedp.CSS("#upload"), bad),
		textContains("#load-error", "BAD_A.txt"),
		textContains("#load-error", "line 2"),
		screenshot("error"),
		chromedp.Click(chromedp.CSS("#demo-PTC_MR")),
		textContains("#summary-graphs", "344 graphs"),
		chromedp.WaitNotPresent(chromedp.CSS("#load-error")),
		chromedp.Click(chromedp.CSS("#demo-MUTAG")),
		textContains("#summary-graphs", "188 graphs"),
	)

	// A sparse file: the page must refuse it from its size, before reading.
	huge := filepath.Join(dir, "HUGE_A.txt")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 513<<20); err != nil {
		t.Fatal(err)
	}
	step(t, ctx, "an upload over the size limit is refused with a readable error",
		chromedp.SetUploadFiles(chromedp.CSS("#upload"), []string{huge}),
		textContains("#load-error", "HUGE_A.txt"),
		textContains("#load-error", "512 MiB"),
		chromedp.Click(chromedp.CSS("#demo-MUTAG")),
		textContains("#summary-graphs", "188 graphs"),
		chromedp.WaitNotPresent(chromedp.CSS("#load-error")),
	)

	step(t, ctx, "the service worker has cached the app, the worker and the demos",
		until(`(async () => {
			const want = ["/", "/web/app.wasm", "/web/worker.js", "/web/worker.wasm", "/web/kernel.js", "/web/kernel.wasm", "/wasm_exec.js", "/web/datasets/PTC_MR.zip", "/web/datasets/MUTAG.zip"];
			for (const u of want) if (!(await caches.match(u))) return false;
			return true; })()`),
		// The saved dataset reaches IndexedDB asynchronously.
		until(`new Promise((ok) => { const r = indexedDB.open("wkpi"); r.onsuccess = () => {
			const g = r.result.transaction("datasets").objectStore("datasets").get("current");
			g.onsuccess = () => ok(!!g.result && g.result.key === "demo:MUTAG"); g.onerror = () => ok(false); };
			r.onerror = () => ok(false); })`),
	)

	srv.Close()
	step(t, ctx, "offline: reload, the saved dataset and the cached demos still work",
		chromedp.Reload(),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		textContains("#summary-graphs", "188 graphs"),
		chromedp.Click(chromedp.CSS("#demo-PTC_MR")),
		textContains("#summary-graphs", "344 graphs"),
		chromedp.Click(chromedp.CSS("#tab-explore")),
		chromedp.WaitVisible(chromedp.CSS("#diagram svg")),
		screenshot("offline"),
	)
}

// TestSiteIsLocal checks that the manifest and the service worker name only
// local files: one remote URL makes the offline install fail.
func TestSiteIsLocal(t *testing.T) {
	manifest, err := os.ReadFile(filepath.Join(site, "manifest.webmanifest"))
	if err != nil {
		t.Fatalf("run make web first: %v", err)
	}
	var m struct {
		Icons []struct{ Src string } `json:"icons"`
	}
	if err := json.Unmarshal(manifest, &m); err != nil || len(m.Icons) == 0 {
		t.Fatalf("manifest: %v, %d icons", err, len(m.Icons))
	}
	for _, i := range m.Icons {
		if !strings.HasPrefix(i.Src, "/") {
			t.Errorf("manifest icon %q is not local", i.Src)
		}
	}
	sw, err := os.ReadFile(filepath.Join(site, "app-worker.js"))
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(sw), "const resourcesToCache = ")
	list, _, _ = strings.Cut(list, ";")
	var cached []string
	if err := json.Unmarshal([]byte(list), &cached); !ok || err != nil {
		t.Fatalf("no resource list in app-worker.js: %v", err)
	}
	// The Web Worker's files are cached when the first job fetches them
	// (cmd/static's lazy files); the rest at install.
	_, lazyList, ok := strings.Cut(string(sw), "const lazyResources = ")
	lazyList, _, _ = strings.Cut(lazyList, ";")
	var lazy []string
	if err := json.Unmarshal([]byte(lazyList), &lazy); !ok || err != nil || !slices.Equal(lazy, []string{"/web/worker.js", "/web/worker.wasm", "/web/classifier.wasm", "/web/kernel.js", "/web/kernel.wasm"}) {
		t.Errorf("lazily cached: %v (%v), want the worker's scripts and wasm", lazy, err)
	}
	want := map[string]bool{"/web/app.wasm": true, "/wasm_exec.js": true,
		"/web/datasets/MUTAG.zip": true, "/web/datasets/PTC_MR.zip": true, "/web/icon.svg": true}
	for _, c := range cached {
		if !strings.HasPrefix(c, "/") {
			t.Errorf("service worker caches remote %q", c)
		}
		if _, err := os.Stat(filepath.Join(site, filepath.FromSlash(c))); c != "/" && err != nil {
			t.Errorf("service worker caches %q, which the site lacks", c)
		}
		delete(want, c)
	}
	if len(want) > 0 {
		t.Errorf("not cached for offline use: %v", want)
	}
}
