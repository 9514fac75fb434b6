package app

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/color"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"golang.org/x/image/bmp"

	"wkpi-web/wasm/protocol"
)

// elems returns the attributes of every <tag> element in html, in order;
// go-app writes attributes in map order, so tests must not rely on it. A
// bare attribute (go-app writes "true" so: disabled) has the value "".
func elems(html, tag string) []map[string]string {
	var out []map[string]string
	attr := regexp.MustCompile(`([a-zA-Z0-9-]+)(?:="([^"]*)")?`)
	for _, m := range regexp.MustCompile(`<`+tag+`\b([^>]*)>`).FindAllStringSubmatch(html, -1) {
		a := map[string]string{}
		for _, kv := range attr.FindAllStringSubmatch(m[1], -1) {
			a[kv[1]] = kv[2]
		}
		out = append(out, a)
	}
	return out
}

// rasterPixels decodes the BMP of the first <image> in html and returns
// its pixels' CSS colours in sample order (row-major, row 0 at the bottom),
// or nil when there is no image.
func rasterPixels(t *testing.T, html string) []string {
	t.Helper()
	im := elems(html, "image")
	if len(im) == 0 {
		return nil
	}
	data, ok := strings.CutPrefix(im[0]["href"], "data:image/bmp;base64,")
	if !ok {
		t.Fatalf("image href %.40q is not a BMP data URL", im[0]["href"])
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		t.Fatal(err)
	}
	img, err := bmp.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	r := img.Bounds()
	if fmt.Sprint(r.Dx()) != im[0]["width"] || fmt.Sprint(r.Dy()) != im[0]["height"] {
		t.Errorf("BMP %v drawn as %s x %s", r, im[0]["width"], im[0]["height"])
	}
	var out []string
	for row := range r.Dy() {
		for col := range r.Dx() {
			c := color.RGBAModel.Convert(img.At(col, r.Dy()-1-row)).(color.RGBA)
			out = append(out, fmt.Sprintf("rgb(%d,%d,%d)", c.R, c.G, c.B))
		}
	}
	return out
}

func TestDiagramViewMarksAndLegend(t *testing.T) {
	d := protocol.Diagrams{
		Ord0: []protocol.Point{{Birth: 0, Death: 1}, {Birth: 0, Death: 2}},
		Ext0: []protocol.Point{{Birth: 0, Death: 3}},
		Rel1: []protocol.Point{{Birth: 3, Death: 1}},
		Ext1: []protocol.Point{{Birth: 3, Death: 2}, {Birth: 2, Death: 1}, {Birth: 2.5, Death: 2}},
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
	html := app.HTMLString(&ImageView{ID: "im", Grid: g, Image: img})
	px := rasterPixels(t, html)
	if len(px) != 6 {
		t.Fatalf("%d pixels drawn, want 6", len(px))
	}
	for k, c := range px {
		if want := colour(img[k] / 4); c != want {
			t.Errorf("pixel %d: %s, want %s", k, c, want)
		}
	}
	if f := elems(html, "figure"); len(f) != 1 || f[0]["id"] != "im" {
		t.Errorf("figures %v, want one with id im", f)
	}
	// The grid's extent: birth from MinX over Cols pixels, persistence from
	// MinY over Rows pixels.
	g = protocol.Grid{MinX: -1, MinY: 0.5, Pixel: 0.25, Rows: 2, Cols: 3}
	if html := app.HTMLString(&ImageView{Grid: g, Image: img}); !strings.Contains(html, "birth -1 to -0.25 across, persistence 0.5 to 1 up") {
		t.Errorf("caption does not give the grid's extent: %s", html)
	}
	for name, bad := range map[string][]float64{"ragged": img[:5], "all zero": make([]float64, 6)} {
		html := app.HTMLString(&ImageView{ID: "im", Grid: g, Image: bad})
		if !strings.Contains(html, "No image") || len(elems(html, "image")) != 0 || !strings.Contains(html, `id="im"`) {
			t.Errorf("%s image: %s, want the No image message with the view's id", name, html)
		}
	}
}

func TestExploreTabChannels(t *testing.T) {
	g := protocol.Grid{MinX: 0, MinY: 0, Pixel: 0.5, Rows: 2, Cols: 2}
	tab := &ExploreTab{
		Summary: &protocol.Summary{Graphs: 3}, Graph: 1, Descriptor: "degree",
		Explored: &protocol.Explored{Graph: 1, Grid: g, Channels: []string{"ord0+ext0", "rel1+ext1"}},
		// Channel 0 has mass; channel 1 is all zero.
		Image: []float64{0, 1, 0.5, 0, 0, 0, 0, 0},
	}
	html := app.HTMLString(tab)
	for _, want := range []string{"0-dimensional: Ord0 + Ext0", "1-dimensional: Rel1 + Ext1", "grid used for training", "birth 0 to 1 across, persistence 0 to 1 up"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the Explore tab", want)
		}
	}
	var figs []map[string]string
	for _, f := range elems(html, "figure") {
		if f["class"] == "image-view" {
			figs = append(figs, f)
		}
	}
	if len(figs) != 1 || figs[0]["id"] != "pimage-0" {
		t.Fatalf("figures %v, want only pimage-0", figs)
	}
	// The channel's own 4 pixels, with its peak at the top of the scale.
	fig := html[strings.Index(html, `id="pimage-0"`):]
	fig = fig[:strings.Index(fig, "</figure>")]
	if px := rasterPixels(t, fig); len(px) != 4 || px[1] != colour(1) || px[2] != colour(0.5) {
		t.Errorf("pixels %v", px)
	}
	if p := elems(html, "p"); !slices.ContainsFunc(p, func(a map[string]string) bool { return a["id"] == "pimage-1" }) ||
		strings.Count(html, "No image") != 1 {
		t.Errorf("the empty channel pimage-1 does not say No image: %s", html)
	}

	// A dataset without features: diagrams, no images, and the reason.
	tab.Explored = &protocol.Explored{Graph: 1, Channels: tab.Explored.Channels, ImageError: "no finite diagram point"}
	tab.Image = nil
	html = app.HTMLString(tab)
	if strings.Count(html, "No image") != 2 || !strings.Contains(html, "no images to train on: no finite diagram point") {
		t.Errorf("without features: %s", html)
	}
}

func TestChannelTitle(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ord0+ext0", "0-dimensional: Ord0 + Ext0"},
		{"rel1+ext1", "1-dimensional: Rel1 + Ext1"},
		{"ext1", "1-dimensional: Ext1"},
		{"ord0+ext1", "Ord0 + Ext1"},
	} {
		if got := channelTitle(tc.in); got != tc.want {
			t.Errorf("channelTitle(%q) = %q, want %q", tc.in, got, tc.want)
		}
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
	v := &DiagramView{Diagrams: protocol.Diagrams{Ext0: []protocol.Point{{Birth: 0, Death: 1}}}}
	fmt.Println(strings.Contains(app.HTMLString(v), "Ext0 (1)"))
	// Output: true
}

// TestStackedPoints: MUTAG graph 0's Rel1 has five points on three spots;
// each spot is drawn once and says how many points it holds.
func TestStackedPoints(t *testing.T) {
	d := protocol.Diagrams{Rel1: []protocol.Point{{Birth: 1, Death: 0}, {Birth: 1, Death: 0}, {Birth: 1, Death: 0}, {Birth: 2, Death: 0.5}, {Birth: 0.5, Death: 0}}}
	html := app.HTMLString(&DiagramView{Diagrams: d})
	spots := 0
	counts := map[string]int{}
	for _, g := range elems(html, "g") {
		if g["class"] == "spot" {
			spots++
			counts[g["data-count"]]++
		}
	}
	if spots != 3 || counts["3"] != 1 || counts["1"] != 2 {
		t.Errorf("%d spots with counts %v; want 3 spots, one of 3 points", spots, counts)
	}
	if !strings.Contains(html, "Rel1 (5)") || !strings.Contains(html, "× 3") || strings.Count(html, `class="count"`) != 1 {
		t.Error("the stacked spot has no count label, or the legend lost points")
	}
	g := protocol.Grid{MinX: 0, MinY: 0, Pixel: 1, Rows: 2, Cols: 2}
	html = app.HTMLString(&HeatView{Grid: g, Values: []float64{1, 2, 3, 4}, Points: [][2]float64{{1, 1}, {1, 1}, {0.5, 0.5}}})
	if n := len(elems(html, "circle")); n != 2 || !strings.Contains(html, ">2</text>") {
		t.Errorf("heat view: %d circles, want 2 with a count of 2", n)
	}
}

func TestCurveColoursDiffer(t *testing.T) {
	for n := 1; n <= 30; n++ {
		seen := map[string]bool{}
		for i := range n {
			seen[curveColour(i, n)] = true
		}
		if len(seen) != n {
			t.Errorf("%d curves get %d colours", n, len(seen))
		}
	}
	if got := stopReason(true, 12, []float64{2, 1.5}); got != "converged after 12, cost -25 %" {
		t.Errorf("stop reason %q", got)
	}
	if got := stopReason(false, 2000, nil); got != "iteration cap (2000)" {
		t.Errorf("stop reason %q", got)
	}
}

func TestHeatViewScaleAxesCentres(t *testing.T) {
	g := protocol.Grid{MinX: 0, MinY: 0, Pixel: 1, Rows: 2, Cols: 2}
	// A shared maximum of 8: the value 4 is half way up the scale.
	html := app.HTMLString(&HeatView{Grid: g, Values: []float64{0, 1, 2, 4}, Max: 8, Centres: [][2]float64{{1, 1}, {5, 5}}})
	px := rasterPixels(t, html)
	if len(px) != 4 || px[3] != colour(0.5) {
		t.Errorf("samples %v: want 4 with the last at half the shared scale", px)
	}
	if !strings.Contains(html, `data-max="8"`) || !strings.Contains(html, ">birth<") || !strings.Contains(html, ">persistence<") ||
		!strings.Contains(html, "colour-bar") || strings.Count(html, "<path") != 1 || !strings.Contains(html, "Crosses: the 2 Gaussian centres.") {
		t.Error("no shared scale, axes, colour bar, or not one centre cross (the other lies off the grid), or the caption does not count the centres")
	}
	// A difference: -2 is the bottom of the scale, +2 its top, 0 white.
	html = app.HTMLString(&HeatView{Grid: g, Values: []float64{-2, 0, 1, 2}, Diverging: true})
	px = rasterPixels(t, html)
	if len(px) != 4 || px[0] != "rgb(33,102,172)" || px[1] != "rgb(255,255,255)" || px[3] != "rgb(178,24,43)" {
		t.Errorf("difference colours %v", px)
	}
}
