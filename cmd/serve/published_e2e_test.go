package main

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// buildPublished runs cmd/static -hash -models for the sub-path into a
// new folder, as `make dist MODELS=...` does (brotli quality 1 for speed).
func buildPublished(t *testing.T, version string, models ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "site")
	cmd := exec.Command("go", "run", "../static", "-out", out, "-wasm", filepath.Join(site, "web"),
		"-public", "../../public", "-data", "../../data", "-version", version,
		"-prefix", distPrefix, "-hash", "-brotli", "1", "-models", strings.Join(models, " "))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cmd/static: %v\n%s", err, b)
	}
	return out
}

// tabInView checks that tab id, selected, lies within the viewport,
// waiting a moment for the page to scroll the tab bar.
func tabInView(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	rect := fmt.Sprintf(`(() => { const r = document.querySelector("#tab-%s").getBoundingClientRect();
		return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
			width: document.documentElement.clientWidth, height: innerHeight}; })()`, id)
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	err := chromedp.Do(sctx, until(fmt.Sprintf(`document.querySelector("#tab-%s").getAttribute("aria-selected") === "true" &&
		(({left, right, top, bottom, width, height}) => left >= 0 && top >= 0 && right <= width && bottom <= height)(%s)`, id, rect)))
	if err != nil {
		t.Errorf("the selected tab %s is not in view: %v", id, value[map[string]float64](t, ctx, rect))
	}
}

// TestDistPublished: a published classifier (cmd/static -models with a
// model from wkpi train), served under a sub-path by a plain file server.
// The first visit opens on Classify with the bundled model, which the
// Models tab holds; on a phone (360 and 390 px) the selected tab is
// scrolled into view on opening and as the tab changes; then offline, a link #classify?smiles=... classifies with it from the
// service worker's cache, as wkpi predict does.
func TestDistPublished(t *testing.T) {
	model := mutagModel(t)
	ctx, cancel := browser(t)
	defer cancel()
	out := buildPublished(t, "published-a", model)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	srv := serveOn(t, addr, plainStatic(out))
	base := "http://" + addr + distPrefix + "/"

	step(t, ctx, "first visit: the site opens on Classify with its own model",
		chromedp.Navigate(base),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		until(`document.querySelector("#tab-classify").getAttribute("aria-selected") === "true"`),
		textContains("#panel h2", "with the model of MUTAG"),
		chromedp.WaitVisible(chromedp.CSS("#classify-smiles")),
		screenshot("published"),
	)
	step(t, ctx, "the Models tab holds the site's model, current",
		chromedp.Click(chromedp.CSS("#tab-models")),
		textContains("#model-list", "mutag"),
		textContains("#model-card h2", "Current model: mutag"),
		textContains("#model-dataset", "MUTAG"),
	)
	step(t, ctx, "the service worker has cached the model (hashed, under the prefix) and the page kept it",
		until(`(async () => { const names = await caches.keys(); if (names.length !== 1) return false;
			const urls = (await (await caches.open(names[0])).keys()).map((r) => new URL(r.url).pathname);
			return urls.some((u) => u.startsWith("`+distPrefix+`/web/models/mutag.") && /\.[0-9a-f]{12}\.json$/.test(u)); })()`),
		// The page keeps its models in IndexedDB as UTF-8 JSON (wasm/app).
		until(`new Promise((ok) => { const r = indexedDB.open("wkpi"); r.onsuccess = () => {
			try { const db = r.result, s = db.transaction(db.objectStoreNames[0]).objectStore(db.objectStoreNames[0]);
				const g = s.get("models"); g.onsuccess = () => ok(!!g.result && new TextDecoder().decode(g.result).includes('"name":"mutag"'));
				g.onerror = () => ok(false);
			} catch (e) { ok(false); } }; r.onerror = () => ok(false); })`),
	)

	// On a phone the tab bar scrolls sideways. The selected tab is scrolled
	// into view as the site opens on Classify (which 360 px cuts off) and
	// as the URL changes the tab (chromedp's Click would scroll it itself).
	for _, width := range []int64{360, 390} {
		step(t, ctx, fmt.Sprintf("%d px: the site opens on Classify", width),
			chromedp.EmulateViewport(width, 844),
			chromedp.Navigate(base),
			chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
			until(`document.querySelector("#tab-classify").getAttribute("aria-selected") === "true"`),
			textContains("#panel h2", "with the model of MUTAG"),
			screenshot(fmt.Sprintf("published-%d", width)),
		)
		tabInView(t, ctx, "classify")
	}
	for _, tab := range []string{"models", "data", "classify"} {
		step(t, ctx, "390 px: #"+tab+" selects its tab", until(fmt.Sprintf(`(location.hash = %q) !== ""`, tab)))
		tabInView(t, ctx, tab)
	}
	step(t, ctx, "back to 1280 px", chromedp.EmulateViewport(1280, 900))

	want := wkpiPredict(t, model, "link.smi", "c1ccc(cc1)[N+](=O)[O-]\nCCO ethanol\n")
	link := base + "#classify?smiles=" + url.QueryEscape("c1ccc(cc1)[N+](=O)[O-]") + "&smiles=" + url.PathEscape("CCO ethanol")
	srv.Close()
	step(t, ctx, "offline: a link with SMILES classifies them with the bundled model",
		chromedp.Navigate("about:blank"),
		chromedp.Navigate(link),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		until(`document.querySelector("#tab-classify").getAttribute("aria-selected") === "true"`),
		until(`document.querySelector("#classify-smiles").value === "c1ccc(cc1)[N+](=O)[O-]\nCCO ethanol"`),
		until(`document.querySelectorAll("#predictions tbody tr").length === 2`),
		textContains("#panel h2", "with the model of MUTAG"),
		screenshot("published-offline"),
	)
	checkRows(t, rows(t, ctx), want, []string{"c1ccc(cc1)[N+](=O)[O-]", "ethanol"}, mutagClasses)
	if errText := value[string](t, ctx, `(document.querySelector("#classify-error")?.textContent ?? "") + (document.querySelector("#model-error")?.textContent ?? "")`); errText != "" {
		t.Errorf("offline: %s", errText)
	}
}
