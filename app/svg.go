package app

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"golang.org/x/image/bmp"
)

const svgNS = "http://www.w3.org/2000/svg"

// svg makes an SVG element; go-app needs the namespace on every element.
func svg(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

// num formats a coordinate compactly for SVG attributes.
func num(v float64) string { return fmt.Sprintf("%.4g", v) }

// viridis stops, sampled from matplotlib's colour map at 0, 0.25, ..., 1:
// perceptually uniform and readable by colour-blind users.
var viridis = [][3]float64{{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}

// missing is the colour of a NaN sample.
var missing = color.RGBA{153, 153, 153, 255}

// colour maps t in [0,1] (clamped) to a CSS colour on the viridis scale.
func colour(t float64) string { return css(viridisRGB(t)) }

func viridisRGB(t float64) color.RGBA {
	if math.IsNaN(t) {
		return missing
	}
	t = math.Max(0, math.Min(1, t)) * float64(len(viridis)-1)
	i := int(math.Min(t, float64(len(viridis)-2)))
	return blend(viridis[i], viridis[i+1], t-float64(i))
}

// blend mixes two RGB colours, f of the way from a to b.
func blend(a, b [3]float64, f float64) color.RGBA {
	var c [3]uint8
	for k := range c {
		c[k] = uint8(math.Round(a[k]*(1-f) + b[k]*f))
	}
	return color.RGBA{c[0], c[1], c[2], 255}
}

func css(c color.RGBA) string { return fmt.Sprintf("rgb(%d,%d,%d)", c.R, c.G, c.B) }

// raster draws rows x cols samples (row-major, row 0 at the bottom) as a
// BMP data URL, one pixel per sample: an SVG <image> of it costs the page
// one element where a <rect> per sample cost 1,600 per view and about
// 0.3 s of main-thread time for the Train tab's three heat maps
// (docs/benchmarks.md). BMP rather than PNG: a few kilobytes per view
// either way, and the page's binary is 20 KB of brotli lighter without
// image/png's compressor.
func raster(values []float64, rows, cols int, fill func(float64) color.RGBA) string {
	img := image.NewRGBA(image.Rect(0, 0, cols, rows))
	for k, v := range values {
		img.SetRGBA(k%cols, rows-1-k/cols, fill(v))
	}
	var buf bytes.Buffer
	if err := bmp.Encode(&buf, img); err != nil {
		return "" // an in-memory RGBA image always encodes
	}
	return "data:image/bmp;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

// pixels is the <image> element of a raster, inside an SVG whose view box
// is cols x rows units.
func pixels(values []float64, rows, cols int, fill func(float64) color.RGBA) app.HTMLElem {
	return svg("image").Class("pixels").Attr("href", raster(values, rows, cols, fill)).
		Attr("width", cols).Attr("height", rows).Attr("preserveAspectRatio", "none")
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
