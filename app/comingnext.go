package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// ComingNext stands in for a tab whose feature is not built yet.
type ComingNext struct {
	app.Compo
	Title, What string
}

// Render says what the tab will do.
func (c *ComingNext) Render() app.UI {
	return app.Section().Class("card").Body(
		app.H2().Text(c.Title),
		app.P().Text("Coming next: "+c.What),
	)
}
