package app

import (
	"fmt"
	"math"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

const svgNS = "http://www.w3.org/2000/svg"

// svg makes an SVG element; go-app needs the namespace on every element.
func svg(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

// num formats a coordinate compactly for SVG attributes.
func num(v float64) string { return fmt.Sprintf("%.4g", v) }

// viridis stops, sampled from matplotlib's colour map at 0, 0.25, ..., 1:
// perceptually uniform and readable by colour-blind users.
var viridis = [][3]float64{{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}

// colour maps t in [0,1] (clamped) to a CSS colour on the viridis scale.
func colour(t float64) string {
	if math.IsNaN(t) {
		return "#999"
	}
	t = math.Max(0, math.Min(1, t)) * float64(len(viridis)-1)
	i := int(math.Min(t, float64(len(viridis)-2)))
	f := t - float64(i)
	var c [3]int
	for k := range c {
		c[k] = int(math.Round(viridis[i][k]*(1-f) + viridis[i+1][k]*f))
	}
	return fmt.Sprintf("rgb(%d,%d,%d)", c[0], c[1], c[2])
}

// span returns the minimum and maximum of the finite values of v, and
// false when there are none.
func span(v []float64) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		if !math.IsInf(x, 0) && !math.IsNaN(x) {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	return lo, hi, lo <= hi
}
