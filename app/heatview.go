package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// HeatView draws a weight function sampled on a grid of the (birth,
// persistence) plane, as in the figures of Zhao and Wang (2019), with
// optional diagram points on top.
type HeatView struct {
	app.Compo
	ID      string
	Grid    protocol.Grid
	Values  []float64    // Rows*Cols, row-major, row 0 at the lowest persistence
	Points  [][2]float64 // (birth, persistence) points to mark, if any
	Caption string
}

// Render draws one rect per sample in a view box of Cols x Rows units and
// a white-ringed dot per point inside the grid.
func (v *HeatView) Render() app.UI {
	g := v.Grid
	if g.Rows <= 0 || g.Cols <= 0 || !(g.Pixel > 0) || len(v.Values) != g.Rows*g.Cols {
		return app.P().ID(v.ID).Class("heat-view empty muted").Text("No weight function to show yet.")
	}
	_, hi, ok := span(v.Values)
	if !ok || hi <= 0 {
		hi = 1
	}
	// Points in view-box units; those off the grid are counted, not drawn.
	var xs, ys []float64
	for _, p := range v.Points {
		x, y := (p[0]-g.MinX)/g.Pixel, float64(g.Rows)-(p[1]-g.MinY)/g.Pixel
		if x >= 0 && x <= float64(g.Cols) && y >= 0 && y <= float64(g.Rows) {
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	r := 0.012 * float64(max(g.Rows, g.Cols))
	caption := fmt.Sprintf("%s Birth %.3g to %.3g across, persistence %.3g to %.3g up; brighter is more weight (scaled to its maximum, %.3g).",
		v.Caption, g.MinX, g.MinX+float64(g.Cols)*g.Pixel, g.MinY, g.MinY+float64(g.Rows)*g.Pixel, hi)
	if len(v.Points) > 0 {
		caption += fmt.Sprintf(" Dots: the graph's %d diagram points", len(v.Points))
		if off := len(v.Points) - len(xs); off > 0 {
			caption += fmt.Sprintf(" (%d outside the grid, not drawn)", off)
		}
		caption += "."
	}
	return app.Figure().Class("heat-view").ID(v.ID).Body(
		svg("svg").Attr("viewBox", fmt.Sprintf("0 0 %d %d", g.Cols, g.Rows)).
			Attr("preserveAspectRatio", "none").Attr("role", "img").
			Aria("label", fmt.Sprintf("Weight function heat map, %d by %d samples", g.Rows, g.Cols)).Body(
			svg("g").Attr("shape-rendering", "crispEdges").Body(
				app.Range(v.Values).Slice(func(k int) app.UI {
					return svg("rect").Attr("x", k%g.Cols).Attr("y", g.Rows-1-k/g.Cols).
						Attr("width", "1").Attr("height", "1").Attr("fill", colour(v.Values[k]/hi))
				}),
			),
			svg("g").Class("points").Body(
				app.Range(xs).Slice(func(i int) app.UI {
					return svg("circle").Attr("cx", num(xs[i])).Attr("cy", num(ys[i])).Attr("r", num(r))
				}),
			),
		),
		app.FigCaption().Text(caption),
	)
}
