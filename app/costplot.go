package app

import (
	"fmt"
	"math"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// okabeIto are colour-blind safe colours for the first curves.
var okabeIto = []string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000"}

// curveColour gives curve i of n a colour no other curve has: Okabe-Ito
// while they last, then hues spread evenly around the colour wheel.
func curveColour(i, n int) string {
	if n <= len(okabeIto) {
		return okabeIto[i]
	}
	return fmt.Sprintf("hsl(%d,70%%,%d%%)", 360*i/n, 35+10*(i%2))
}

// stopReason says why a learning stopped and, given its cost curve, by
// how much the cost changed.
func stopReason(converged bool, iterations int, cost []float64) string {
	s := fmt.Sprintf("iteration cap (%d)", iterations)
	if converged {
		s = fmt.Sprintf("converged after %d", iterations)
	}
	if len(cost) > 1 && cost[0] != 0 {
		s += fmt.Sprintf(", cost %+.2g %%", 100*(cost[len(cost)-1]-cost[0])/math.Abs(cost[0]))
	}
	return s
}

// CostPlot draws learning cost curves, one polyline per curve, on shared
// axes: iteration across, cost up.
type CostPlot struct {
	app.Compo
	ID     string
	Names  []string    // one per curve, for the legend and tooltips
	Curves [][]float64 // cost after each iteration, Cost[0] at the start
	Stops  []string    // why each curve stopped (stopReason), if known
}

// Render maps every curve into a 100x60 plot with room for the axes.
func (c *CostPlot) Render() app.UI {
	var all []float64
	iters := 1
	for _, cv := range c.Curves {
		all = append(all, cv...)
		iters = max(iters, len(cv)-1)
	}
	lo, hi, ok := span(all)
	if !ok {
		return app.P().ID(c.ID).Class("cost-plot empty muted").Text("No cost curve yet.")
	}
	if hi-lo < 1e-12 {
		lo, hi = lo-0.5, hi+0.5
	}
	// Plot area: x in [14, 98], y in [4, 50].
	px := func(i int) float64 { return 14 + 84*float64(i)/float64(iters) }
	py := func(v float64) float64 { return 50 - 46*(v-lo)/(hi-lo) }
	return app.Figure().Class("cost-plot").ID(c.ID).Body(
		svg("svg").Attr("viewBox", "0 0 100 60").Attr("role", "img").
			Aria("label", fmt.Sprintf("Learning cost of %d runs over up to %d iterations", len(c.Curves), iters)).Body(
			svg("rect").Class("plot-bg").Attr("x", "14").Attr("y", "4").Attr("width", "84").Attr("height", "46"),
			svg("text").Class("tick").Attr("x", "13").Attr("y", "6").Attr("text-anchor", "end").Text(fmt.Sprintf("%.4g", hi)),
			svg("text").Class("tick").Attr("x", "13").Attr("y", "50").Attr("text-anchor", "end").Text(fmt.Sprintf("%.4g", lo)),
			svg("text").Class("tick").Attr("x", "14").Attr("y", "55").Text("0"),
			svg("text").Class("tick").Attr("x", "98").Attr("y", "55").Attr("text-anchor", "end").Text(fmt.Sprint(iters)),
			svg("text").Class("axis").Attr("x", "56").Attr("y", "59").Attr("text-anchor", "middle").Text("iteration"),
			svg("text").Class("axis").Attr("x", "3").Attr("y", "27").Attr("text-anchor", "middle").
				Attr("transform", "rotate(-90 3 27)").Text("cost"),
			app.Range(c.Curves).Slice(func(i int) app.UI {
				pts := make([]string, len(c.Curves[i]))
				for k, v := range c.Curves[i] {
					pts[k] = num(px(k)) + "," + num(py(v))
				}
				return svg("polyline").Class("curve").Attr("points", strings.Join(pts, " ")).
					Attr("stroke", curveColour(i, len(c.Curves))).Body(svg("title").Text(c.name(i)))
			}),
		),
		app.FigCaption().Class("legend").Body(
			app.Range(c.Names).Slice(func(i int) app.UI {
				text := c.Names[i]
				if i < len(c.Stops) {
					text += ": " + c.Stops[i]
				}
				return app.Span().Class("key").Style("border-left", "1em solid "+curveColour(i, len(c.Names))).
					Style("padding-left", ".3em").Text(text)
			}),
		),
	)
}

func (c *CostPlot) name(i int) string {
	if i < len(c.Names) {
		return c.Names[i]
	}
	return fmt.Sprintf("curve %d", i+1)
}
