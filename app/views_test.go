package app

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/persistence"
	"wkpi-web/wasm/protocol"
)

// elems returns the attributes of every <tag> element in html, in order;
// go-app writes attributes in map order, so tests must not rely on it.
func elems(html, tag string) []map[string]string {
	var out []map[string]string
	attr := regexp.MustCompile(`([a-zA-Z0-9-]+)="([^"]*)"`)
	for _, m := range regexp.MustCompile(`<`+tag+`\b([^>]*)>`).FindAllStringSubmatch(html, -1) {
		a := map[string]string{}
		for _, kv := range attr.FindAllStringSubmatch(m[1], -1) {
			a[kv[1]] = kv[2]
		}
		out = append(out, a)
	}
	return out
}

func TestDiagramViewMarksAndLegend(t *testing.T) {
	d := persistence.Diagrams{
		Ord0: []persistence.Point{{Birth: 0, Death: 1}, {Birth: 0, Death: 2}},
		Ext0: []persistence.Point{{Birth: 0, Death: 3}},
		Rel1: []persistence.Point{{Birth: 3, Death: 1}},
		Ext1: []persistence.Point{{Birth: 3, Death: 2}, {Birth: 2, Death: 1}, {Birth: 2.5, Death: 2}},
	}
	html := app.HTMLString(&DiagramView{Diagrams: d})
	for _, tc := range []struct {
		class string
		marks int
	}{{"ord0", 2}, {"ext0", 1}, {"rel1", 1}, {"ext1", 3}} {
		// Each series is a <g> of its marks; count the marks' tooltips.
		if got := strings.Count(html, "<title>"+strings.ToUpper(tc.class[:1])+tc.class[1:]); got != tc.marks {
			t.Errorf("%s: %d marks, want %d", tc.class, got, tc.marks)
		}
	}
	for _, want := range []string{"Ord0 (2)", "Ext0 (1)", "Rel1 (1)", "Ext1 (3)", "with 7 points"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the diagram", want)
		}
	}
	// The diagonal runs from the padded minimum to the padded maximum: the
	// points span [0,3], padded by 5% on each side, so the corners map to
	// (12, 88) and (96, 4).
	var diag map[string]string
	for _, l := range elems(html, "line") {
		if l["class"] == "diagonal" {
			diag = l
		}
	}
	if diag["x1"] != "12" || diag["y1"] != "88" || diag["x2"] != "96" || diag["y2"] != "4" {
		t.Errorf("diagonal %v, want from (12, 88) to (96, 4)", diag)
	}
}

func TestImageViewLayout(t *testing.T) {
	// 2 rows x 3 cols; row 0 (lowest persistence) must be drawn at the
	// bottom (y = 1), and the brightest pixel gets the top of the scale.
	g := protocol.Grid{Rows: 2, Cols: 3, Pixel: 1}
	img := []float64{0, 0, 4, 0, 0, 0}
	html := app.HTMLString(&ImageView{Grid: g, Image: img})
	rects := elems(html, "rect")
	if len(rects) != 6 {
		t.Fatalf("%d pixels drawn, want 6", len(rects))
	}
	for k, r := range rects {
		want := map[string]string{"x": fmt.Sprint(k % 3), "y": fmt.Sprint(1 - k/3), "width": "1", "height": "1", "fill": colour(img[k] / 4)}
		if fmt.Sprint(r) != fmt.Sprint(want) {
			t.Errorf("pixel %d: %v, want %v", k, r, want)
		}
	}
	if !strings.Contains(app.HTMLString(&ImageView{Grid: g, Image: img[:5]}), "No image") {
		t.Fatal("a ragged image was drawn")
	}
}

func TestColourScale(t *testing.T) {
	for _, tc := range []struct {
		t    float64
		want string
	}{
		{-1, "rgb(68,1,84)"}, {0, "rgb(68,1,84)"}, {0.125, "rgb(64,42,112)"}, // halfway between the first two stops
		{1, "rgb(253,231,37)"}, {2, "rgb(253,231,37)"},
	} {
		if got := colour(tc.t); got != tc.want {
			t.Errorf("colour(%v) = %s, want %s", tc.t, got, tc.want)
		}
	}
}

func TestDataTabSummary(t *testing.T) {
	s := &protocol.Summary{Name: "MUTAG", Graphs: 188, Classes: []protocol.Class{{Label: "-1", Count: 63}, {Label: "1", Count: 125}},
		Nodes: protocol.Stats{Total: 3371, Min: 10, Max: 28, Mean: 17.93}}
	html := app.HTMLString(&DataTab{Summary: s, Error: "MUTAG_A.txt line 3: bad"})
	for _, want := range []string{"188 graphs", "2 classes", "-1 × 63", "1 × 125", "3371 in all; 17.9 per graph (10 to 28)", `role="alert"`, "MUTAG_A.txt line 3: bad"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the Data tab", want)
		}
	}
}

func Example() {
	// Components render to HTML natively too, which is how cmd/static
	// prerenders the page.
	v := &DiagramView{Diagrams: persistence.Diagrams{Ext0: []persistence.Point{{Birth: 0, Death: 1}}}}
	fmt.Println(strings.Contains(app.HTMLString(v), "Ext0 (1)"))
	// Output: true
}
