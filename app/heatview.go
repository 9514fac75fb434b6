package app

import (
	"fmt"
	"image/color"
	"math"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// HeatView draws a weight function sampled on a grid of the (birth,
// persistence) plane, as in the figures of Zhao and Wang (2019), with
// axes, a colour bar, and optionally diagram points and Gaussian centres
// on top.
type HeatView struct {
	app.Compo
	ID      string
	Grid    protocol.Grid
	Values  []float64    // Rows*Cols, row-major, row 0 at the lowest persistence
	Points  [][2]float64 // (birth, persistence) points to mark, if any
	Centres [][2]float64 // (birth, persistence) Gaussian centres to mark, if any
	// Max is the top of the colour scale, shared by views that are to be
	// compared; 0 takes the view's own maximum.
	Max float64
	// Diverging draws signed values (a difference) from blue (-Max)
	// through white (0) to red (+Max).
	Diverging bool
	Caption   string
}

// Plot area of the outer view box (100 x 100): room for the axes.
const (
	heatLeft, heatTop, heatSize = 18.0, 3.0, 79.0
)

// Render draws one pixel per sample in an inner view box of Cols x Rows
// units, placed in an outer view box with the axes.
func (v *HeatView) Render() app.UI {
	g := v.Grid
	if g.Rows <= 0 || g.Cols <= 0 || !(g.Pixel > 0) || len(v.Values) != g.Rows*g.Cols {
		return app.P().ID(v.ID).Class("heat-view empty muted").Text("No weight function to show yet.")
	}
	hi := v.Max
	if !(hi > 0) {
		lo, top, ok := span(v.Values)
		hi = top
		if v.Diverging {
			hi = math.Max(math.Abs(lo), math.Abs(top))
		}
		if !ok || !(hi > 0) {
			hi = 1
		}
	}
	fill := func(x float64) color.RGBA { return viridisRGB(x / hi) }
	lowLabel := "0"
	if v.Diverging {
		fill = func(x float64) color.RGBA { return divergingRGB(x / hi) }
		lowLabel = fmt.Sprintf("%.3g", -hi)
	}
	// Points in grid units; those off the grid are counted, not drawn,
	// and points on the same spot are drawn once with their number.
	inGrid := func(p [2]float64) (float64, float64, bool) {
		x, y := (p[0]-g.MinX)/g.Pixel, float64(g.Rows)-(p[1]-g.MinY)/g.Pixel
		return x, y, x >= 0 && x <= float64(g.Cols) && y >= 0 && y <= float64(g.Rows)
	}
	var in, centres [][2]float64
	for _, p := range v.Points {
		if x, y, ok := inGrid(p); ok {
			in = append(in, [2]float64{x, y})
		}
	}
	for _, c := range v.Centres {
		if x, y, ok := inGrid(c); ok {
			centres = append(centres, [2]float64{x, y})
		}
	}
	spots := stack(in, func(p [2]float64) (float64, float64) { return p[0], p[1] })
	r := 0.012 * float64(max(g.Rows, g.Cols))
	maxX, maxY := g.MinX+float64(g.Cols)*g.Pixel, g.MinY+float64(g.Rows)*g.Pixel
	caption := v.Caption
	if len(v.Points) > 0 {
		caption += fmt.Sprintf(" Dots: the graph's %d diagram points", len(v.Points))
		if off := len(v.Points) - len(in); off > 0 {
			caption += fmt.Sprintf(" (%d outside the grid, not drawn)", off)
		}
		caption += "; a number counts the points on one spot."
	}
	if len(v.Centres) > 0 {
		caption += fmt.Sprintf(" Crosses: the %d Gaussian centres.", len(v.Centres))
	}
	// The plot is square whatever the grid's shape, as the images are.
	w, h := heatSize, heatSize
	class := "heat-view"
	if v.Diverging {
		class += " diverging"
	}
	return app.Figure().Class(class).ID(v.ID).DataSet("max", hi).Body(
		svg("svg").Attr("viewBox", "0 0 100 100").Attr("role", "img").
			Aria("label", fmt.Sprintf("Weight function heat map, %d by %d samples, birth %.3g to %.3g, persistence %.3g to %.3g",
				g.Rows, g.Cols, g.MinX, maxX, g.MinY, maxY)).Body(
			svg("svg").Attr("x", num(heatLeft)).Attr("y", num(heatTop)).Attr("width", num(w)).Attr("height", num(h)).
				Attr("viewBox", fmt.Sprintf("0 0 %d %d", g.Cols, g.Rows)).Attr("preserveAspectRatio", "none").Body(
				pixels(v.Values, g.Rows, g.Cols, fill),
				svg("g").Class("centres").Body(
					app.Range(centres).Slice(func(i int) app.UI {
						c := centres[i]
						d := 2 * r
						return svg("path").Attr("d", fmt.Sprintf("M%s %sL%s %sM%s %sL%s %s",
							num(c[0]-d), num(c[1]-d), num(c[0]+d), num(c[1]+d), num(c[0]-d), num(c[1]+d), num(c[0]+d), num(c[1]-d))).
							Attr("stroke-width", num(r/1.5))
					}),
				),
				svg("g").Class("points").Body(
					app.Range(spots).Slice(func(i int) app.UI {
						sp := spots[i]
						return svg("g").Class("spot").DataSet("count", sp.n).Body(
							svg("circle").Attr("cx", num(sp.x)).Attr("cy", num(sp.y)).Attr("r", num(r)),
							app.If(sp.n > 1, func() app.UI {
								return svg("text").Class("count").Attr("x", num(sp.x+1.5*r)).Attr("y", num(sp.y-r)).
									Attr("font-size", num(3*r)).Text(fmt.Sprint(sp.n))
							}),
						)
					}),
				),
			),
			svg("g").Class("axes").Body(
				svg("text").Class("tick").Attr("x", num(heatLeft)).Attr("y", num(heatTop+h+5)).Text(fmt.Sprintf("%.3g", g.MinX)),
				svg("text").Class("tick").Attr("x", num(heatLeft+w)).Attr("y", num(heatTop+h+5)).Attr("text-anchor", "end").Text(fmt.Sprintf("%.3g", maxX)),
				svg("text").Class("axis").Attr("x", num(heatLeft+w/2)).Attr("y", num(heatTop+h+10)).Attr("text-anchor", "middle").Text("birth"),
				svg("text").Class("tick").Attr("x", num(heatLeft-1)).Attr("y", num(heatTop+h)).Attr("text-anchor", "end").Text(fmt.Sprintf("%.3g", g.MinY)),
				svg("text").Class("tick").Attr("x", num(heatLeft-1)).Attr("y", num(heatTop+4)).Attr("text-anchor", "end").Text(fmt.Sprintf("%.3g", maxY)),
				svg("text").Class("axis").Attr("x", "3").Attr("y", num(heatTop+h/2)).Attr("text-anchor", "middle").
					Attr("transform", fmt.Sprintf("rotate(-90 3 %s)", num(heatTop+h/2))).Text("persistence"),
			),
		),
		app.Div().Class("colour-bar").Body(
			app.Span().Class("bar-end").Text(lowLabel),
			app.Span().Class("bar").Aria("hidden", "true").Style("background", gradient(v.Diverging)),
			app.Span().Class("bar-end").Text(fmt.Sprintf("%.3g", hi)),
		),
		app.FigCaption().Text(caption),
	)
}

// gradient is the colour scale as a CSS linear gradient.
func gradient(div bool) string {
	stops := ""
	for i := range 5 {
		t := float64(i) / 4
		c := colour(t)
		if div {
			c = css(divergingRGB(2*t - 1))
		}
		stops += ", " + c
	}
	return "linear-gradient(to right" + stops + ")"
}

// divergingRGB maps t in [-1, 1] (clamped) from blue through white to red
// (ColorBrewer RdBu ends), for signed values such as a difference.
func divergingRGB(t float64) color.RGBA {
	if math.IsNaN(t) {
		return missing
	}
	t = math.Max(-1, math.Min(1, t))
	end := [3]float64{178, 24, 43} // red
	if t < 0 {
		end, t = [3]float64{33, 102, 172}, -t // blue
	}
	return blend([3]float64{255, 255, 255}, end, t)
}
