package app

import (
	"fmt"
	"image/color"
	"math"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// GraphView draws a graph from a worker-computed layout, its nodes
// coloured by Fills, else by Values, else by node label.
type GraphView struct {
	app.Compo
	Drawing *protocol.Drawing
	X, Y    []float64 // layout in [0,1]^2
	Values  []float64 // optional, one per node
	// Fills and Strokes are optional CSS colours, one per node and one per
	// edge (in Drawing.Edges' order), as the Explain view colours scores.
	// They are inline styles, so a copy of the drawing keeps them.
	Fills, Strokes []string
	// Numbers writes each node's number (from 0) beside it.
	Numbers bool
	Caption string
}

// labelPalette colours node labels (Okabe-Ito, colour-blind safe).
var labelPalette = []string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"}

// Render draws the graph in a 100x100 view box.
func (v *GraphView) Render() app.UI {
	d := v.Drawing
	if d == nil || len(v.X) != d.N || len(v.Y) != d.N {
		return app.Div().Class("graph-view empty").Text("Drawing…")
	}
	scale := valueScale(v.Values)
	colourOf := func(i int) string {
		if len(v.Fills) == d.N {
			return v.Fills[i]
		}
		if len(v.Values) == d.N {
			return css(scale(v.Values[i]))
		}
		return labelColour(d.Labels, i)
	}
	// Nodes shrink as the graph grows so that they do not cover each other.
	r := math.Max(0.6, math.Min(2.5, 12/math.Sqrt(float64(max(d.N, 1)))))
	title := v.Caption
	if title == "" {
		title = fmt.Sprintf("Graph %d (class %s): %d nodes, %d edges", d.Graph, d.Class, d.N, len(d.Edges))
	}
	return app.Figure().Class("graph-view").Body(
		svg("svg").Attr("viewBox", "0 0 100 100").Attr("role", "img").Aria("label", title).Body(
			app.Range(d.Edges).Slice(func(i int) app.UI {
				e := d.Edges[i]
				line := svg("line").Class("edge").
					Attr("x1", num(100*v.X[e[0]])).Attr("y1", num(100*v.Y[e[0]])).
					Attr("x2", num(100*v.X[e[1]])).Attr("y2", num(100*v.Y[e[1]]))
				if len(v.Strokes) == len(d.Edges) {
					// Wide enough for its colour to show; the edge's ends
					// are the nodes' outlines.
					line.Style("stroke", v.Strokes[i]).Style("stroke-width", num(r))
				}
				return line
			}),
			app.Range(v.X).Slice(func(i int) app.UI {
				node := svg("circle").Class("node").
					Attr("cx", num(100*v.X[i])).Attr("cy", num(100*v.Y[i])).Attr("r", num(r)).
					Attr("fill", colourOf(i))
				if len(v.Fills) == d.N {
					// Scores near 0 are white: an outline keeps them seen.
					node.Style("stroke", "#1b2733").Style("stroke-width", num(r/5))
				}
				return node.Body(svg("title").Text(nodeTitle(d, v.Values, i)))
			}),
			app.If(v.Numbers, func() app.UI {
				return svg("g").Class("numbers").Body(app.Range(v.X).Slice(func(i int) app.UI {
					return svg("text").Attr("x", num(100*v.X[i]+r)).Attr("y", num(100*v.Y[i]-r)).Text(fmt.Sprint(i))
				}))
			}),
		),
		app.FigCaption().Text(title),
	)
}

// valueScale colours values on the viridis scale from the smallest of
// values (dark) to their largest (bright); all equal, in its middle.
func valueScale(values []float64) func(float64) color.RGBA {
	lo, hi, _ := span(values)
	return func(x float64) color.RGBA {
		if hi > lo {
			return viridisRGB((x - lo) / (hi - lo))
		}
		return viridisRGB(0.5)
	}
}

func labelColour(labels []string, i int) string {
	if labels == nil {
		return labelPalette[0]
	}
	h := 0
	for _, c := range labels[i] {
		h = h*31 + int(c)
	}
	return labelPalette[(h%len(labelPalette)+len(labelPalette))%len(labelPalette)]
}

func nodeTitle(d *protocol.Drawing, values []float64, i int) string {
	s := fmt.Sprintf("node %d", i)
	if d.Labels != nil {
		s += ", label " + d.Labels[i]
	}
	if len(values) == d.N {
		s += fmt.Sprintf(", value %.4g", values[i])
	}
	return s
}
