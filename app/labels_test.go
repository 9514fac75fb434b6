package app

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// TestPlaceTags: crowded labels are placed inside the plot, none over
// another; one at the plot's right edge goes to the left of its mark.
func TestPlaceTags(t *testing.T) {
	bounds := box{10, 10, 90, 90}
	rng := rand.New(rand.NewPCG(1, 2))
	var tags []tag
	for i := range 40 {
		tags = append(tags, tag{x: 10 + 80*rng.Float64(), y: 10 + 80*rng.Float64(), r: 1, text: fmt.Sprintf("#%d ×%d", i, i)})
	}
	tags = append(tags, tag{x: 89, y: 50, r: 1, text: "12"})
	places, left := placeTags(tags, 3.2, bounds)
	var boxes []box
	for i, p := range places {
		if !p.ok {
			continue
		}
		b := textBox(p.x, p.y, 3.2, p.text)
		if !b.inside(bounds) {
			t.Errorf("label %d %+v outside the plot", i, b)
		}
		for j, o := range boxes {
			if b.overlaps(o) {
				t.Errorf("labels %d and %d overlap", i, j)
			}
		}
		boxes = append(boxes, b)
	}
	if left > 5 || len(boxes)+left != len(tags) {
		t.Errorf("%d labels left out of %d, %d placed", left, len(tags), len(boxes))
	}
	if last := places[len(places)-1]; !last.ok || last.x+emWidth*3.2*2 > 88 {
		t.Errorf("the label at the right edge: %+v", last)
	}
}

// TestHeatViewScoredPoints: with scores, a spot's mark is as large as
// the |sum| of its points' scores allows and red or blue by its sign;
// ranked points are labelled #1, #2, ..., with the count of a shared spot.
func TestHeatViewScoredPoints(t *testing.T) {
	g := protocol.Grid{MinX: 0, MinY: 0, Pixel: 1, Rows: 4, Cols: 4}
	html := app.HTMLString(&HeatView{Grid: g, Values: make([]float64, 16), Diverging: true,
		Points: [][2]float64{{1, 1}, {1, 1}, {3, 3}, {2, 0.5}},
		Scores: []float64{-0.5, 0.1, 0.2, 0}, Ranks: []int{1, 0, 2, 0}})
	circles := elems(html, "circle")
	if len(circles) != 3 || circles[0]["r"] != "3.2" || !strings.Contains(circles[0]["style"], "rgb(33,102,172)") ||
		!strings.Contains(circles[1]["style"], "rgb(178,24,43)") || circles[2]["r"] != "0.8" {
		t.Errorf("marks %v: want the spot of -0.4 largest and blue, +0.2 red, 0 smallest", circles)
	}
	if !strings.Contains(html, ">#1 ×2</text>") || !strings.Contains(html, ">#2</text>") || strings.Count(html, `class="count"`) != 2 {
		t.Errorf("labels: %s", html)
	}
}
