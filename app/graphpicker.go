package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// GraphPicker chooses a graph by index, with previous/next buttons.
type GraphPicker struct {
	app.Compo
	ID    string // prefix for element ids, unique on the page
	Graph int
	Count int
	// Names are the graphs' names, shown beside the number; nil when the
	// dataset has none.
	Names   []string
	OnGraph func(int)
}

// Render draws a labelled number input between two buttons.
func (p *GraphPicker) Render() app.UI {
	pick := func(i int) {
		if i >= 0 && i < p.Count && p.OnGraph != nil {
			p.OnGraph(i)
		}
	}
	return app.Div().Class("picker").Body(
		app.Label().For(p.ID+"-graph").Text("Graph"),
		app.Button().Class("small").Aria("label", "Previous graph").Attr("disabled", flag(p.Graph <= 0)).Text("‹").
			OnClick(func(ctx app.Context, e app.Event) { pick(p.Graph - 1) }),
		app.Input().ID(p.ID+"-graph").Type("number").Min(0).Max(p.Count-1).Value(p.Graph).
			OnChange(func(ctx app.Context, e app.Event) {
				if i, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil {
					pick(i)
				}
			}),
		app.Button().Class("small").Aria("label", "Next graph").Attr("disabled", flag(p.Graph >= p.Count-1)).Text("›").
			OnClick(func(ctx app.Context, e app.Event) { pick(p.Graph + 1) }),
		app.Span().Class("muted").Text(fmt.Sprintf("of 0..%d", p.Count-1)),
		app.If(p.Graph >= 0 && p.Graph < len(p.Names), func() app.UI {
			return app.Span().ID(p.ID + "-graph-name").Class("graph-name").Text(p.Names[p.Graph])
		}),
	)
}
