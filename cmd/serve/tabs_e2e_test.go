package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// checkTabURLs: the tab shown lives in the URL's fragment, so Back,
// Forward and links move between tabs.
func checkTabURLs(t *testing.T, ctx context.Context, url string) {
	// Tabs live in the URL.
	step(t, ctx, "Back and Forward move between tabs; a link opens its tab",
		chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.Click(chromedp.CSS("#tab-classify")),
		until(`location.hash === "#classify"`),
		until(`(history.back(), true)`),
		until(`location.hash === "#train" && document.querySelector("#tab-train").getAttribute("aria-selected") === "true"`),
		until(`(history.forward(), true)`),
		until(`document.querySelector("#tab-classify").getAttribute("aria-selected") === "true"`),
		chromedp.Navigate(url+"#models"),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		until(`document.querySelector("#tab-models").getAttribute("aria-selected") === "true"`),
		chromedp.Click(chromedp.CSS("#tab-data")),
	)
}

// TestPrerenderedHTML: the static page (what a browser shows before the
// wasm starts) has no disabled="false" (which means disabled) and no ARIA
// state without a value.
func TestPrerenderedHTML(t *testing.T) {
	page, err := os.ReadFile(filepath.Join(site, "index.html"))
	if err != nil {
		t.Fatalf("run make web first: %v", err)
	}
	html := string(page)
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`\s(disabled|selected|checked)="false"`),
		regexp.MustCompile(`\baria-[a-z]+(\s|>|/)`), // an aria attribute with no value
	} {
		if m := bad.FindAllString(html, 5); len(m) > 0 {
			t.Errorf("prerendered HTML has %q", m)
		}
	}
	if n := strings.Count(html, `aria-selected="true"`); n != 1 {
		t.Errorf("%d selected tabs in the prerendered HTML, want 1", n)
	}
	if !strings.Contains(html, "<main") || strings.Contains(html, `<main role="tabpanel"`) {
		t.Error("the prerendered page has no main landmark, or it is a tab panel")
	}
}

// tabNames are the page's tabs, in order.
var tabNames = []string{"data", "explore", "train", "compare", "classify", "models"}
