package main

import (
	"context"
	"fmt"
	"math"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wkpi-web/core/compare"
	"wkpi-web/core/crossval"
	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/spec"
	"wkpi-web/core/tu"
)

// TestBrowserCompare: the Compare tab on MUTAG. A run with every method
// shows progress and stops on Cancel; a run of WKPI, WL and PI-linear (and
// majority, which always runs) fills the table and the chart with the
// accuracies core/compare gives natively on the same folds (the Train
// tab's defaults: Ricci, 10 folds, seed 1), and the paired tests against
// WKPI.
func TestBrowserCompare(t *testing.T) {
	ctx, cancel := browser(t)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()

	step(t, ctx, "load MUTAG and open the Compare tab", openMUTAG(srv.URL+"/",
		chromedp.Click(chromedp.CSS("#tab-compare")),
		chromedp.WaitEnabled(chromedp.CSS("#compare-run")),
	)...)
	step(t, ctx, "a run of every method shows progress and stops on Cancel",
		chromedp.Click(chromedp.CSS("#compare-run")),
		chromedp.WaitVisible(chromedp.CSS("#compare-progress")),
		chromedp.Click(chromedp.CSS("#compare-cancel")),
		textContains("#compare-error", "Canceled."),
		chromedp.WaitNotPresent(chromedp.CSS("#compare-progress")),
		chromedp.WaitEnabled(chromedp.CSS("#compare-run")),
	)
	keep := map[string]bool{compare.WKPI: true, compare.WL: true, compare.PILinear: true, compare.Majority: true}
	var untick []chromedp.Action[chromedp.Void]
	for _, m := range compare.Names() {
		if !keep[m] {
			untick = append(untick, chromedp.Click(chromedp.CSS(`[id="method-`+m+`"]`)))
		}
	}
	step(t, ctx, "untick all but WKPI, WL and PI-linear", untick...)
	stepWithin(t, ctx, 4*time.Minute, "run WKPI, WL, PI-linear and majority: table, tests and chart",
		chromedp.Click(chromedp.CSS("#compare-run")),
		until(`document.querySelectorAll("#compare-table tbody tr").length === 4 && !document.querySelector("#compare-progress") &&
			document.querySelector("#compare-table").dataset.paired === "true"`),
		chromedp.WaitVisible(chromedp.CSS("#compare-chart rect.bar")),
		chromedp.WaitVisible(chromedp.CSS("#majority-line")),
		screenshot("compare"),
	)
	got := value[map[string]float64](t, ctx, `Object.fromEntries([...document.querySelectorAll("#compare-table tbody tr")].map(r =>
		[r.dataset.method, Number(r.querySelector(".accuracy").dataset.value)]))`)
	checkAxe(t, ctx, "compare")
	step(t, ctx, "narrow the window to 390 px", chromedp.EmulateViewport(390, 844), chromedp.Sleep(300*time.Millisecond))
	if scrolls, wide := overflow(t, ctx); scrolls || len(wide) > 0 {
		t.Errorf("390 px, Compare tab: page scrolls sideways %v; too wide: %v", scrolls, wide)
	}
	line := value[float64](t, ctx, `Number(document.querySelector("#majority-line").dataset.value)`)
	wilcoxon := value[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#compare-table tbody tr")].map(r =>
		[r.dataset.method, r.cells[4].textContent]))`)
	aucWilcoxon := value[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#compare-table tbody tr")].map(r =>
		[r.dataset.method, r.cells[6].textContent]))`)

	ds, err := tu.ReadDir("../../data/MUTAG")
	if err != nil {
		t.Fatal(err)
	}
	// The page's defaults for molecules: the molecules preset, MUTAG's
	// codes read through its README's tables, WKPI with each fold's
	// node-label vocabulary.
	nodes, edges, err := tu.ReadLabelNames("../../data/MUTAG")
	if err != nil {
		t.Fatal(err)
	}
	u, err := eval.FromSpec(spec.Molecules())
	if err != nil {
		t.Fatal(err)
	}
	u = u.WithCodes(nodes, edges)
	native := context.Background()
	set, err := features.Compute(native, ds, u.Features, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := compare.NewData(ds, set)
	if err != nil {
		t.Fatal(err)
	}
	o := compare.DefaultOptions()
	o.WKPI, o.WKPIAuto = u.Config, u.Spec.Automatic()
	o.WKPIFeatures = func(train []int) (*eval.WKPI, error) {
		s, err := u.FeaturesFor(ds.Graphs, train, nodes)
		if err != nil {
			return nil, err
		}
		set, err := features.Compute(native, ds, s, nil)
		if err != nil {
			return nil, err
		}
		return eval.NewWKPI(set, ds.Labels, len(ds.Classes))
	}
	want, err := compare.Run(native, d, []string{compare.WKPI, compare.PILinear, compare.WL, compare.Majority}, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("table rows %v, want WKPI, PI-linear, WL and majority", got)
	}
	for _, m := range want.Methods {
		if math.Abs(got[m.Name]-m.Accuracy) > 1e-12 {
			t.Errorf("%s: page %v, core/compare %v", m.Name, got[m.Name], m.Accuracy)
		}
		shown := func(p *crossval.Paired) string { // the page's rounding of the native p-value
			switch {
			case p == nil:
				return ""
			case p.WilcoxonP < 0.001:
				return "< 0.001"
			}
			return fmt.Sprintf("%.3f", p.WilcoxonP)
		}
		if want := shown(m.Paired); wilcoxon[m.Name] != want {
			t.Errorf("%s: Wilcoxon p %q on the page, core/compare %q", m.Name, wilcoxon[m.Name], want)
		}
		if want := shown(m.PairedROCAUC); aucWilcoxon[m.Name] != want {
			t.Errorf("%s: ROC-AUC Wilcoxon p %q on the page, core/compare %q", m.Name, aucWilcoxon[m.Name], want)
		}
		if m.Name == compare.Majority && math.Abs(line-m.Accuracy) > 1e-12 {
			t.Errorf("majority line at %v, majority accuracy %v", line, m.Accuracy)
		}
	}
}
