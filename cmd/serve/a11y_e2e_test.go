package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axeDir holds package.json and package-lock.json of axe-core; npm ci
// installs it there (.ci/run does, and so does the test when npm is at hand).
const axeDir = "testdata/axe"

var axeOnce struct {
	sync.Once
	src []byte
	err error
}

// axeSource returns axe.min.js, installing axe-core with npm ci when it
// is missing; a missing axe fails under CI=true and skips otherwise.
func axeSource(t *testing.T) []byte {
	t.Helper()
	axeOnce.Do(func() {
		path := filepath.Join(axeDir, "node_modules", "axe-core", "axe.min.js")
		if _, err := os.Stat(path); err != nil {
			if npm, lerr := exec.LookPath("npm"); lerr == nil {
				out, err := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--prefix", axeDir).CombinedOutput()
				if err != nil {
					axeOnce.err = fmt.Errorf("npm ci in %s: %v\n%s", axeDir, err, out)
					return
				}
			}
		}
		axeOnce.src, axeOnce.err = os.ReadFile(path)
	})
	if axeOnce.err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the accessibility test needs axe-core (npm ci --prefix %s): %v", axeDir, axeOnce.err)
		}
		t.Skipf("SKIPPED ACCESSIBILITY TEST: no axe-core (%v)", axeOnce.err)
	}
	return axeOnce.src
}

type axeViolation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	Targets []string `json:"targets"`
}

// checkAxe runs axe-core on the page as it is and fails on any violation
// of serious or critical impact; it returns the count of all violations.
func checkAxe(t *testing.T, ctx context.Context, where string) int {
	t.Helper()
	src := axeSource(t)
	if !value[bool](t, ctx, `typeof window.axe === "object"`) {
		value[bool](t, ctx, string(src)+"\n;true")
	}
	vs := value[[]axeViolation](t, ctx, `axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v =>
		({id: v.id, impact: v.impact || "", help: v.help, targets: v.nodes.map(n => String(n.target))})))`)
	for _, v := range vs {
		if v.Impact == "serious" || v.Impact == "critical" {
			t.Errorf("axe on %s: %s violation %s (%s) at %v", where, v.Impact, v.ID, v.Help, v.Targets)
		} else {
			t.Logf("axe on %s: %s violation %s (%s) at %v", where, v.Impact, v.ID, v.Help, v.Targets)
		}
	}
	return len(vs)
}

// overflow lists the elements that stick out of a narrow viewport, and
// whether the page scrolls sideways.
func overflow(t *testing.T, ctx context.Context) (bool, []string) {
	type result struct {
		Scrolls bool     `json:"scrolls"`
		Wide    []string `json:"wide"`
	}
	r := value[result](t, ctx, `(() => {
		const w = document.documentElement.clientWidth, wide = [];
		for (const e of document.querySelectorAll("#main *, nav, footer, header")) {
			// Content inside a scrolling box (tables, the tab bar) may be wider.
			let inner = false;
			for (let p = e.parentElement; p; p = p.parentElement) {
				const o = getComputedStyle(p).overflowX;
				if (o === "auto" || o === "scroll") { inner = true; break; }
			}
			const r = e.getBoundingClientRect();
			if (!inner && r.width > 0 && (r.right > w + 0.5 || r.left < -0.5)) wide.push(e.tagName + (e.id ? "#" + e.id : "") + "." + e.className + " " + Math.round(r.left) + ".." + Math.round(r.right));
		}
		return {scrolls: document.documentElement.scrollWidth > w, wide: wide.slice(0, 10)}; })()`)
	return r.Scrolls, r.Wide
}

// checkEveryTab runs axe-core on every tab, and shows every tab at 390 px
// wide: nothing sticks out, the tab bar does not wrap.
func checkEveryTab(t *testing.T, ctx context.Context) {
	total := 0
	for _, tab := range tabNames {
		step(t, ctx, "show tab "+tab, chromedp.Click(chromedp.CSS("#tab-"+tab)),
			until(fmt.Sprintf(`document.querySelector("#tab-%s").getAttribute("aria-selected") === "true" && location.hash === "#%s"`, tab, tab)))
		total += checkAxe(t, ctx, tab)
	}
	t.Logf("AXE: %d violations of minor or moderate impact over the six tabs, none serious or critical", total)
	step(t, ctx, "narrow the window to 390 px", chromedp.EmulateViewport(390, 844))
	for _, tab := range tabNames {
		step(t, ctx, "390 px: tab "+tab, chromedp.Click(chromedp.CSS("#tab-"+tab)), chromedp.Sleep(300*time.Millisecond))
		if scrolls, wide := overflow(t, ctx); scrolls || len(wide) > 0 {
			t.Errorf("390 px, tab %s: page scrolls sideways %v; too wide: %v", tab, scrolls, wide)
		}
		if tab == "classify" {
			checkAxe(t, ctx, "classify at 390 px")
		}
	}
	if tabs := value[[]float64](t, ctx, `[...document.querySelectorAll(".tab")].map(b => b.getBoundingClientRect().top)`); len(tabs) > 0 {
		for _, top := range tabs {
			if top != tabs[0] {
				t.Errorf("390 px: the tab bar wraps (tops %v)", tabs)
				break
			}
		}
	}
	step(t, ctx, "screenshot at 390 px", screenshot("narrow-models"))
	step(t, ctx, "back to 1280 px", chromedp.EmulateViewport(1280, 900))

}
