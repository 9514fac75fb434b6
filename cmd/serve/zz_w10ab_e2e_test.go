package main

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestW10AB(t *testing.T) {
	ctx, cancel := browser(t)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()
	step(t, ctx, "load", chromedp.Navigate(srv.URL+"/"), chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.WaitEnabled(chromedp.CSS("#demo-MUTAG")), chromedp.Click(chromedp.CSS("#demo-MUTAG")),
		textContains("#summary-graphs", "188 graphs"), chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.WaitEnabled(chromedp.CSS("#train-run")), chromedp.WaitNotPresent(chromedp.CSS("#jobs")))
	for i := 0; i < 3; i++ {
		start := time.Now()
		stepWithin(t, ctx, 3*time.Minute, "cv", chromedp.Click(chromedp.CSS("#train-run")),
			until(`(() => { const b = document.querySelector("#train-replace"); if (b) b.click(); return true; })()`),
			chromedp.WaitVisible(chromedp.CSS("#train-progress")),
			chromedp.WaitNotPresent(chromedp.CSS("#train-progress")), chromedp.WaitVisible(chromedp.CSS("#acc-baseline")))
		t.Logf("AB %.1f s", time.Since(start).Seconds())
	}
}
