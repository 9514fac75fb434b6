package app

import (
	"fmt"
	"math"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// DiagramView draws the four extended persistence diagrams in one plane
// (birth across, death up) with the diagonal, one colour and mark each.
type DiagramView struct {
	app.Compo
	Diagrams protocol.Diagrams
}

type series struct {
	name, class, colour string
	points              []protocol.Point
}

// Render draws a 100x100 plot with margins for the axes.
func (v *DiagramView) Render() app.UI {
	all := []series{
		{"Ord0", "ord0", "#0072B2", v.Diagrams.Ord0},
		{"Ext0", "ext0", "#009E73", v.Diagrams.Ext0},
		{"Rel1", "rel1", "#E69F00", v.Diagrams.Rel1},
		{"Ext1", "ext1", "#CC79A7", v.Diagrams.Ext1},
	}
	var coords []float64
	for _, s := range all {
		for _, p := range s.points {
			coords = append(coords, p.Birth, p.Death)
		}
	}
	lo, hi, ok := span(coords)
	if !ok {
		lo, hi = 0, 1
	}
	if hi-lo < 1e-9 {
		lo, hi = lo-0.5, hi+0.5
	}
	pad := 0.05 * (hi - lo)
	lo, hi = lo-pad, hi+pad
	// Plot area: x in [12, 96], y in [4, 88] (SVG y grows downwards).
	px := func(b float64) float64 { return 12 + 84*(b-lo)/(hi-lo) }
	py := func(d float64) float64 { return 88 - 84*(d-lo)/(hi-lo) }
	total := 0
	spots := make([][]spot, len(all))
	var tags []tag
	for i, s := range all {
		total += len(s.points)
		spots[i] = stack(s.points, func(p protocol.Point) (float64, float64) { return px(p.Birth), py(p.Death) })
		for _, sp := range spots[i] {
			if sp.n > 1 {
				tags = append(tags, tag{x: sp.x, y: sp.y, r: 1.8, text: fmt.Sprint(sp.n)})
			}
		}
	}
	// Counts are placed together, so that no two cover each other, and
	// inside the plot, so that none is cut at its edge.
	places, _ := placeTags(tags, diagramLabelSize, box{12, 4, 96, 88})
	counts := make([][]placed, len(all)) // each series' own, in order
	for i := range all {
		for _, sp := range spots[i] {
			if sp.n > 1 {
				if places[0].ok {
					counts[i] = append(counts[i], places[0])
				}
				places = places[1:]
			}
		}
	}
	return app.Figure().Class("diagram-view").ID("diagram").Body(
		svg("svg").Attr("viewBox", "0 0 100 100").Attr("role", "img").
			Aria("label", fmt.Sprintf("Extended persistence diagram with %d points", total)).Body(
			svg("rect").Class("plot-bg").Attr("x", "12").Attr("y", "4").Attr("width", "84").Attr("height", "84"),
			svg("line").Class("diagonal").
				Attr("x1", num(px(lo))).Attr("y1", num(py(lo))).Attr("x2", num(px(hi))).Attr("y2", num(py(hi))),
			svg("text").Class("axis").Attr("x", "54").Attr("y", "97").Attr("text-anchor", "middle").Text("birth"),
			svg("text").Class("axis").Attr("x", "4").Attr("y", "46").Attr("text-anchor", "middle").
				Attr("transform", "rotate(-90 4 46)").Text("death"),
			svg("text").Class("tick").Attr("x", "12").Attr("y", "93").Text(fmt.Sprintf("%.3g", lo)),
			svg("text").Class("tick").Attr("x", "96").Attr("y", "93").Attr("text-anchor", "end").Text(fmt.Sprintf("%.3g", hi)),
			app.Range(all).Slice(func(i int) app.UI {
				s := all[i]
				return svg("g").Class("series "+s.class).Body(
					app.Range(spots[i]).Slice(func(j int) app.UI {
						sp := spots[i][j]
						p := s.points[sp.first]
						title := fmt.Sprintf("%s (%.4g, %.4g)", s.name, p.Birth, p.Death)
						if sp.n > 1 {
							title += fmt.Sprintf(" × %d", sp.n)
						}
						return svg("g").Class("spot").DataSet("count", sp.n).Body(
							mark(i, sp.x, sp.y, s.colour).Body(svg("title").Text(title)),
						)
					}),
					app.Range(counts[i]).Slice(func(j int) app.UI { return tagText(counts[i][j], "count", diagramLabelSize) }),
				)
			}),
		),
		app.If(total == 0, func() app.UI {
			return app.P().Class("muted").Text("Every point lies on the diagonal (zero persistence), so none is shown: the function is constant on each connected component of this graph.")
		}),
		app.FigCaption().Class("legend").Body(
			app.Range(all).Slice(func(i int) app.UI {
				s := all[i]
				return app.Span().Class("key").Body(
					svg("svg").Attr("viewBox", "0 0 10 10").Attr("width", "12").Attr("height", "12").Aria("hidden", "true").Body(mark(i, 5, 5, s.colour)),
					app.Text(fmt.Sprintf(" %s (%d)", s.name, len(s.points))),
				)
			}),
		),
	)
}

// diagramLabelSize is the font size of the counts, in the view box's
// units.
const diagramLabelSize = 3.2

// spot is one place of a plot holding n points, the first of them
// points[first], all of them points[members[k]].
type spot struct {
	x, y     float64
	n, first int
	members  []int
}

// stack groups points that fall on the same place of a plot (at the
// precision num writes coordinates), so that a place with several points
// can say how many it holds.
func stack[P any](points []P, at func(P) (float64, float64)) []spot {
	var out []spot
	where := map[[2]string]int{}
	for i, p := range points {
		x, y := at(p)
		key := [2]string{num(x), num(y)}
		if k, ok := where[key]; ok {
			out[k].n++
			out[k].members = append(out[k].members, i)
			continue
		}
		where[key] = len(out)
		out = append(out, spot{x: x, y: y, n: 1, first: i, members: []int{i}})
	}
	return out
}

// mark draws series i's symbol at (x, y): circle, square, triangle, diamond,
// so the series differ by shape as well as by colour.
func mark(i int, x, y float64, fill string) app.HTMLElem {
	const r = 1.8
	switch i {
	case 0:
		return svg("circle").Attr("cx", num(x)).Attr("cy", num(y)).Attr("r", num(r)).Attr("fill", fill)
	case 1:
		return svg("rect").Attr("x", num(x-r)).Attr("y", num(y-r)).Attr("width", num(2*r)).Attr("height", num(2*r)).Attr("fill", fill)
	case 2:
		h := r * math.Sqrt(3)
		return svg("polygon").Attr("points", fmt.Sprintf("%s,%s %s,%s %s,%s",
			num(x), num(y-r*1.2), num(x-h/1.5), num(y+r*0.9), num(x+h/1.5), num(y+r*0.9))).Attr("fill", fill)
	default:
		return svg("polygon").Attr("points", fmt.Sprintf("%s,%s %s,%s %s,%s %s,%s",
			num(x), num(y-r*1.3), num(x+r*1.3), num(y), num(x), num(y+r*1.3), num(x-r*1.3), num(y))).Attr("fill", fill)
	}
}
