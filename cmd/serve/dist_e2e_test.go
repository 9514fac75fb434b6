package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wkpi-web/core/testenv"
)

// distPrefix is the sub-path TestDistSubPath serves the site under, as
// GitHub Pages does for a project site.
const distPrefix = "/wkpi-web"

// buildDist runs cmd/static -hash for the sub-path into a new folder, from
// the wasm binaries of `make web`. Brotli quality 1 keeps it quick; the
// names, the app's environment and the service worker are those of `make dist`.
func buildDist(t *testing.T, version string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "site")
	cmd := exec.Command("go", "run", "../static", "-out", out, "-wasm", filepath.Join(site, "web"),
		"-public", "../../public", "-data", "../../data", "-version", version,
		"-prefix", distPrefix, "-hash", "-brotli", "1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cmd/static: %v\n%s", err, b)
	}
	return out
}

// countingWriter counts the body bytes a server sends.
type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (w countingWriter) Write(b []byte) (int, error) {
	w.n.Add(int64(len(b)))
	return w.ResponseWriter.Write(b)
}

// serveOn serves h on addr (reusing the address of a closed server, so the
// origin and thus the service worker stay the same) until the test ends.
func serveOn(t *testing.T, addr string, h http.Handler) *http.Server {
	t.Helper()
	var l net.Listener
	var err error
	for range 50 { // the closed server's port may take a moment to free
		if l, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return srv
}

// plainStatic is a plain static file server for root under distPrefix: no
// precompressed files, no fallback, what a simple host does.
func plainStatic(root string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(distPrefix+"/", http.StripPrefix(distPrefix, http.FileServer(http.Dir(root))))
	return mux
}

// TestDistSubPath serves a dist build under /wkpi-web/ with a plain file
// server and runs the smoke test: load, a demo dataset, one training, an
// offline reload, then a new build that the service worker picks up.
func TestDistSubPath(t *testing.T) {
	ctx, cancel := browser(t)
	defer cancel()
	siteA, siteB := buildDist(t, "dist-a"), buildDist(t, "dist-b")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	srv := serveOn(t, addr, plainStatic(siteA))
	url := "http://" + addr + distPrefix + "/"

	step(t, ctx, "load the page under the sub-path",
		chromedp.Navigate(url),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.WaitEnabled(chromedp.CSS("#demo-MUTAG")),
	)
	step(t, ctx, "a demo dataset (hashed zip, its URL from the app's environment)",
		chromedp.Click(chromedp.CSS("#demo-MUTAG")),
		textContains("#summary-graphs", "188 graphs"),
		chromedp.WaitVisible(chromedp.CSS(".graph-view svg circle")),
	)
	step(t, ctx, "Train tab: the defaults arrive from a worker (hashed worker script and wasm)",
		chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.WaitEnabled(chromedp.CSS("#train-run")),
	)
	// Timed without other clicks in between (TestBrowser's figure includes
	// its Explore jobs during the run), 3 s after the page loaded as when
	// a user chose the dataset first; the workers' warm-up (jobs.Warm) has
	// run by then: docs/benchmarks.md.
	step(t, ctx, "a user's pause before Run", chromedp.Sleep(3*time.Second))
	// The page times itself: from the click to the first DOM state with the
	// results, the final model's heat map and no progress bar (Go's polling
	// would add up to its interval).
	start := time.Now()
	stepWithin(t, ctx, 4*time.Minute, "one training: a 10-fold CV with the defaults",
		until(`(() => { const done = () => !!document.querySelector("#acc-baseline") &&
				!!document.querySelector("#heat-after svg image") && !document.querySelector("#train-progress");
			window.benchObserver = new MutationObserver(() => { if (window.benchEnd === undefined && done()) window.benchEnd = performance.now(); });
			window.benchObserver.observe(document.body, {subtree: true, childList: true, attributes: true});
			window.benchStart = performance.now(); document.querySelector("#train-run").click(); return true; })()`),
		chromedp.WaitVisible(chromedp.CSS("#acc-baseline")),
		chromedp.WaitVisible(chromedp.CSS("#heat-after svg image")),
		chromedp.WaitNotPresent(chromedp.CSS("#train-progress")),
		until(`window.benchEnd !== undefined`),
	)
	inPage := value[float64](t, ctx, `(window.benchObserver.disconnect(), (window.benchEnd - window.benchStart) / 1000)`)
	t.Logf("BENCH dist: 10-fold CV + final model on MUTAG, from the click, nothing else running: %.2f s in the page (%.2f s seen from Go)", inPage, time.Since(start).Seconds())
	native := nativeTrainTab(t)
	t.Logf("BENCH dist: the same natively right after (wkpi eval + wkpi train): %.2f s; browser / native %.2fx", native, inPage/native)
	// Everything the service worker lists must be in its cache, under the
	// prefixed, hashed URLs.
	cached := `(async () => {
		const names = await caches.keys();
		if (names.length !== 1 || names[0] !== "app-%s") return false;
		const c = await caches.open(names[0]);
		const urls = (await c.keys()).map((r) => new URL(r.url).pathname);
		const want = ["%[2]s/", "%[2]s/app.js", "%[2]s/wasm_exec.js"];
		return want.every((u) => urls.includes(u)) &&
			["/web/app.", "/web/worker.", "/web/datasets/MUTAG.", "/web/datasets/PTC_MR."].every((p) =>
				urls.some((u) => u.startsWith("%[2]s" + p) && /\.[0-9a-f]{12}\.[a-z]+$/.test(u)));
	})()`
	step(t, ctx, "the service worker has cached the hashed files under the prefix",
		until(fmt.Sprintf(cached, "dist-a", distPrefix)),
	)

	srv.Close()
	step(t, ctx, "offline: reload, a demo and a worker job still work",
		chromedp.Reload(),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.Click(chromedp.CSS("#tab-data")),
		chromedp.WaitEnabled(chromedp.CSS("#demo-PTC_MR")),
		chromedp.Click(chromedp.CSS("#demo-PTC_MR")),
		textContains("#summary-graphs", "344 graphs"),
		chromedp.Click(chromedp.CSS("#tab-explore")),
		chromedp.WaitVisible(chromedp.CSS("#diagram svg")),
	)

	serveOn(t, addr, plainStatic(siteB))
	step(t, ctx, "a new build is deployed: the service worker installs it and drops the old cache",
		until(`navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true, () => false)`),
		until(fmt.Sprintf(cached, "dist-b", distPrefix)),
		chromedp.Reload(),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		until(`fetch("app.js").then((r) => r.text()).then((t) => t.includes("dist-b"))`),
		chromedp.Click(chromedp.CSS("#tab-data")),
		chromedp.WaitEnabled(chromedp.CSS("#demo-MUTAG")),
		chromedp.Click(chromedp.CSS("#demo-MUTAG")),
		textContains("#summary-graphs", "188 graphs"),
	)
}

// TestDistFirstVisit loads dist/ (make dist) from the development server,
// which sends the brotli copies, in a fresh browser, and reports what a
// first visit costs: bytes on the wire until the service worker has cached
// everything, and the time to an interactive page.
func TestDistFirstVisit(t *testing.T) {
	const dist = "../../dist"
	if _, err := os.Stat(filepath.Join(dist, "index.html")); err != nil {
		t.Fatalf("no dist: run make dist first (%v)", err)
	}
	ctx, cancel := browser(t)
	defer cancel()
	var sent atomic.Int64
	h := Handler(dist)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	serveOn(t, addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(countingWriter{w, &sent}, r)
	}))

	step(t, ctx, "first visit to dist/",
		chromedp.Navigate("http://"+addr+"/"),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.WaitEnabled(chromedp.CSS("#demo-MUTAG")),
	)
	tti := value[float64](t, ctx, `performance.now()`)
	atTTI := sent.Load()
	page := value[float64](t, ctx, `performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource"))
		.reduce((s, e) => s + e.transferSize, 0)`)
	wasm := value[[]string](t, ctx, `performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm"))
		.map((e) => e.name.split("/").pop() + " " + e.encodedBodySize + " of " + e.decodedBodySize)`)
	sw, err := os.ReadFile(filepath.Join(dist, "app-worker.js"))
	if err != nil {
		t.Fatal(err)
	}
	_, list, _ := strings.Cut(string(sw), "const resourcesToCache = ")
	list, _, _ = strings.Cut(list, ";")
	var precached []string
	if err := json.Unmarshal([]byte(list), &precached); err != nil || len(precached) < 10 {
		t.Fatalf("app-worker.js's resourcesToCache: %v, %v", precached, err)
	}
	step(t, ctx, "the service worker has cached the site",
		until(fmt.Sprintf(`caches.keys().then((k) => k.length === 1).then(async (ok) => ok &&
			(await (await caches.open((await caches.keys())[0])).keys()).length >= %d)`, len(precached))),
	)
	total := sent.Load()
	t.Logf("BENCH dist first visit: interactive after %.0f ms; the page fetched %.2f MB (wasm on the wire: %v); the server had sent %.2f MB by then (the service worker caches meanwhile), %.2f MB in all once the service worker had cached the site",
		tti, page/1e6, wasm, float64(atTTI)/1e6, float64(total)/1e6)
	if len(wasm) == 0 {
		t.Errorf("no wasm among the page's resources")
	}
	// The Web Worker's wasm waits for the first job (cmd/static's lazy
	// files): the first visit fits in 2.5 MB.
	if total > 2_500_000 {
		t.Errorf("the first visit sent %.2f MB, over 2.5 MB", float64(total)/1e6)
	}
}

// nativeTrainTab times what the Train tab's default run does, natively:
// `wkpi eval` and `wkpi train` of MUTAG with the defaults, one after the
// other (the browser's figure is compared with it in one run:
// docs/benchmarks.md).
func nativeTrainTab(t *testing.T) float64 {
	t.Helper()
	wkpi, data := testenv.BuildWkpi(t), filepath.Join(testenv.RepoRoot(t), "data", "MUTAG")
	start := time.Now()
	for _, args := range [][]string{
		{"eval", "-data", data, "-progress", "off"},
		{"train", "-data", data, "-progress", "off", "-out", filepath.Join(t.TempDir(), "mutag.json")},
	} {
		if out, err := exec.Command(wkpi, args...).CombinedOutput(); err != nil {
			t.Fatalf("wkpi %s: %v\n%s", args[0], err, out)
		}
	}
	return time.Since(start).Seconds()
}
