package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// ImageView draws a persistence image as a heat map: columns along birth,
// rows along persistence with row 0 (lowest persistence) at the bottom.
type ImageView struct {
	app.Compo
	Grid  protocol.Grid
	Image []float64 // Rows*Cols, row-major
}

// Render draws one rect per pixel in a view box of Cols x Rows units.
func (v *ImageView) Render() app.UI {
	g := v.Grid
	if g.Rows <= 0 || g.Cols <= 0 || len(v.Image) != g.Rows*g.Cols {
		return app.P().Class("image-view empty muted").Text("No image: the diagrams have no point off the diagonal.")
	}
	_, hi, ok := span(v.Image)
	if !ok || hi <= 0 {
		hi = 1
	}
	return app.Figure().Class("image-view").ID("pimage").Body(
		svg("svg").Attr("viewBox", fmt.Sprintf("0 0 %d %d", g.Cols, g.Rows)).
			Attr("preserveAspectRatio", "none").Attr("shape-rendering", "crispEdges").Attr("role", "img").
			Aria("label", fmt.Sprintf("Persistence image, %d by %d pixels", g.Rows, g.Cols)).Body(
			app.Range(v.Image).Slice(func(k int) app.UI {
				row, col := k/g.Cols, k%g.Cols
				return svg("rect").Attr("x", col).Attr("y", g.Rows-1-row).
					Attr("width", "1").Attr("height", "1").
					Attr("fill", colour(v.Image[k]/hi))
			}),
		),
		app.FigCaption().Text(fmt.Sprintf("Persistence image: birth %.3g to %.3g across, persistence %.3g to %.3g up; brighter is more mass.",
			g.MinX, g.MinX+float64(g.Cols)*g.Pixel, g.MinY, g.MinY+float64(g.Rows)*g.Pixel)),
	)
}
