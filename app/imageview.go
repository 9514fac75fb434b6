package app

import (
	"fmt"
	"image/color"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// ImageView draws one channel of a persistence image as a heat map:
// columns along birth, rows along persistence with row 0 (lowest
// persistence) at the bottom. Colours are scaled to the channel's own
// peak, so a faint channel still shows its shape.
type ImageView struct {
	app.Compo
	ID    string // of the figure, or of the "No image" message
	Grid  protocol.Grid
	Image []float64 // Rows*Cols, row-major
}

// Render draws the image in a view box of Cols x Rows units.
func (v *ImageView) Render() app.UI {
	g := v.Grid
	_, hi, ok := span(v.Image)
	// An image is non-negative: a peak of 0 means no point off the diagonal.
	if g.Rows <= 0 || g.Cols <= 0 || len(v.Image) != g.Rows*g.Cols || !ok || !(hi > 0) {
		return app.P().ID(v.ID).Class("image-view empty muted").Text("No image: the diagrams have no point off the diagonal.")
	}
	return app.Figure().Class("image-view").ID(v.ID).Body(
		svg("svg").Attr("viewBox", fmt.Sprintf("0 0 %d %d", g.Cols, g.Rows)).
			Attr("preserveAspectRatio", "none").Attr("role", "img").
			Aria("label", fmt.Sprintf("Persistence image, %d by %d pixels", g.Rows, g.Cols)).Body(
			pixels(v.Image, g.Rows, g.Cols, func(x float64) color.RGBA { return viridisRGB(x / hi) }),
		),
		app.FigCaption().Text(fmt.Sprintf("On the dataset's grid used for training: birth %.3g to %.3g across, persistence %.3g to %.3g up; brighter is more mass.",
			g.MinX, g.MinX+float64(g.Cols)*g.Pixel, g.MinY, g.MinY+float64(g.Rows)*g.Pixel)),
	)
}
