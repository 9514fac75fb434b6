package app

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// HeatView draws a weight function sampled on a grid of the (birth,
// persistence) plane, as in the figures of Zhao and Wang (2019), with
// axes, a colour bar, and optionally diagram points and Gaussian centres
// on top.
type HeatView struct {
	app.Compo
	ID     string
	Grid   protocol.Grid
	Values []float64    // Rows*Cols, row-major, row 0 at the lowest persistence
	Points [][2]float64 // (birth, persistence) points to mark, if any
	// Scores, one per point if any, size each spot's mark by the |sum| of
	// its points' scores and colour it by its sign (red positive, blue
	// negative); Ranks, one per point if any, label the points ranked
	// (#1, #2, ...; 0 is unranked).
	Scores  []float64
	Ranks   []int
	Centres [][2]float64 // (birth, persistence) Gaussian centres to mark, if any
	// Max is the top of the colour scale, shared by views that are to be
	// compared; 0 takes the view's own maximum.
	Max float64
	// Diverging draws signed values (a difference) from blue (-Max)
	// through white (0) to red (+Max).
	Diverging bool
	// Title names what the map shows, for screen readers: "Weight
	// function" when empty.
	Title   string
	Caption string
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
	// The plot is square whatever the grid's shape, as the images are.
	w, h := heatSize, heatSize
	// Gaussian centres in grid units; those off the grid are not drawn.
	inGrid := func(p [2]float64) (float64, float64, bool) {
		x, y := (p[0]-g.MinX)/g.Pixel, float64(g.Rows)-(p[1]-g.MinY)/g.Pixel
		return x, y, x >= 0 && x <= float64(g.Cols) && y >= 0 && y <= float64(g.Rows)
	}
	var centres [][2]float64
	for _, c := range v.Centres {
		if x, y, ok := inGrid(c); ok {
			centres = append(centres, [2]float64{x, y})
		}
	}
	r := 0.012 * float64(max(g.Rows, g.Cols)) // of the centres' crosses, in grid units
	// Points in the outer view box, so that their marks and labels are not
	// cut at the grid's edge; those off the grid are counted, not drawn.
	var in []int
	for i, p := range v.Points {
		if _, _, ok := inGrid(p); ok {
			in = append(in, i)
		}
	}
	spots := stack(in, func(i int) (float64, float64) {
		x, y, _ := inGrid(v.Points[i])
		return heatLeft + x*w/float64(g.Cols), heatTop + y*h/float64(g.Rows)
	})
	dots := v.dots(spots, in)
	places, unlabelled := placeTags(tagsOf(dots), heatLabelSize, box{heatLeft, heatTop, heatLeft + w, heatTop + h})
	var labels []placed
	for _, p := range places {
		if p.ok {
			labels = append(labels, p)
		}
	}
	maxX, maxY := g.MinX+float64(g.Cols)*g.Pixel, g.MinY+float64(g.Rows)*g.Pixel
	caption := v.Caption
	if len(v.Points) > 0 {
		caption += fmt.Sprintf(" Dots: the graph's %d diagram points", len(v.Points))
		if off := len(v.Points) - len(in); off > 0 {
			caption += fmt.Sprintf(" (%d outside the grid, not drawn)", off)
		}
		if len(v.Scores) == len(v.Points) {
			caption += ", their area by the size of their score, red for positive, blue for negative"
		}
		if len(v.Ranks) == len(v.Points) {
			caption += "; #1, #2, ... rank them by it"
		}
		caption += "; a number counts the points on one spot."
		if unlabelled > 0 {
			caption += fmt.Sprintf(" %d labels do not fit among the others and are left out.", unlabelled)
		}
	}
	if len(v.Centres) > 0 {
		caption += fmt.Sprintf(" Crosses: the %d Gaussian centres.", len(v.Centres))
	}
	title := v.Title
	if title == "" {
		title = "Weight function"
	}
	class := "heat-view"
	if v.Diverging {
		class += " diverging"
	}
	return app.Figure().Class(class).ID(v.ID).DataSet("max", hi).Body(
		svg("svg").Attr("viewBox", "0 0 100 100").Attr("role", "img").
			Aria("label", fmt.Sprintf("%s heat map, %d by %d samples, birth %.3g to %.3g, persistence %.3g to %.3g",
				title, g.Rows, g.Cols, g.MinX, maxX, g.MinY, maxY)).Body(
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
			),
			svg("g").Class("points").Body(
				app.Range(dots).Slice(func(i int) app.UI {
					d := dots[i]
					c := svg("circle").Attr("cx", num(d.x)).Attr("cy", num(d.y)).Attr("r", num(d.r))
					if d.fill != "" {
						c.Style("fill", d.fill)
					}
					return svg("g").Class("spot").DataSet("count", d.n).Body(c)
				}),
				app.Range(labels).Slice(func(i int) app.UI { return tagText(labels[i], "count", heatLabelSize) }),
			),
			svg("g").Class("axes").Body(
				svg("text").Class("tick").Attr("x", num(heatLeft)).Attr("y", num(heatTop+h+5)).Text(fmt.Sprintf("%.3g", g.MinX)),
				svg("text").Class("tick").Attr("x", num(heatLeft+w)).Attr("y", num(heatTop+h+5)).Attr("text-anchor", "end").Text(fmt.Sprintf("%.3g", maxX)),
				svg("text").Class("axis").Attr("x", num(heatLeft+w/2)).Attr("y", num(heatTop+h+10)).Attr("text-anchor", "middle").Text("birth"),
				svg("text").Class("tick").Attr("x", num(heatLeft-1)).Attr("y", num(heatTop+h)).Attr("text-anchor", "end").Text(fmt.Sprintf("%.3g", g.MinY)),
				svg("text").Class("tick").Attr("x", num(heatLeft-1)).Attr("y", num(heatTop+4)).Attr("text-anchor", "end").Text(fmt.Sprintf("%.3g", maxY)),
				// Rotated, the label's glyphs rise towards x = 0: at x = 4 none is cut.
				svg("text").Class("axis").Attr("x", "4").Attr("y", num(heatTop+h/2)).Attr("text-anchor", "middle").
					Attr("transform", fmt.Sprintf("rotate(-90 4 %s)", num(heatTop+h/2))).Text("persistence"),
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

// heatLabelSize is the font size of the labels of the points, in the
// view box's units.
const heatLabelSize = 3.2

// dot is the mark of a spot of points: place, radius, fill ("" leaves it
// to the stylesheet) and label ("" for none).
type dot struct {
	x, y, r     float64
	n, rank     int // points, and the best rank among them (0: none)
	fill, label string
}

// dots makes the marks of spots, whose members index in, the points on
// the grid: with Scores, sized by the |sum| of their points' scores and
// coloured by its sign; labelled with their points' Ranks and, when
// several points share a spot, their number.
func (v *HeatView) dots(spots []spot, in []int) []dot {
	scored, ranked := len(v.Scores) == len(v.Points), len(v.Ranks) == len(v.Points)
	out := make([]dot, len(spots))
	sums := make([]float64, len(spots))
	top := 0.0
	for k, sp := range spots {
		d := dot{x: sp.x, y: sp.y, r: 0.95, n: sp.n}
		var sum float64
		var ranks []string
		for _, m := range sp.members {
			i := in[m]
			if scored {
				sum += v.Scores[i]
			}
			if ranked && v.Ranks[i] > 0 {
				ranks = append(ranks, fmt.Sprintf("#%d", v.Ranks[i]))
				if d.rank == 0 || v.Ranks[i] < d.rank {
					d.rank = v.Ranks[i]
				}
			}
		}
		d.label = strings.Join(ranks, " ")
		if sp.n > 1 {
			if d.label != "" {
				d.label += " ×"
			}
			d.label += fmt.Sprint(sp.n)
		}
		if scored {
			d.fill = css(divergingRGB(sign(sum)))
			sums[k], top = sum, math.Max(top, math.Abs(sum))
		}
		out[k] = d
	}
	if scored && top > 0 {
		for k := range out {
			// The area grows with |score|, up to a radius of 3.2.
			out[k].r = 0.8 + 2.4*math.Sqrt(math.Abs(sums[k])/top)
		}
	}
	return out
}

func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// tagsOf lists the labels of dots to place: ranked ones by rank, then
// the others by their number of points, most first.
func tagsOf(dots []dot) []tag {
	var with []dot
	for _, d := range dots {
		if d.label != "" {
			with = append(with, d)
		}
	}
	slices.SortStableFunc(with, func(a, b dot) int {
		ra, rb := a.rank, b.rank
		if ra == 0 {
			ra = math.MaxInt
		}
		if rb == 0 {
			rb = math.MaxInt
		}
		if ra != rb {
			return cmp.Compare(ra, rb)
		}
		return cmp.Compare(b.n, a.n)
	})
	tags := make([]tag, len(with))
	for i, d := range with {
		tags[i] = tag{x: d.x, y: d.y, r: d.r, text: d.label}
	}
	return tags
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
