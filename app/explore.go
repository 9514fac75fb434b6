package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// Descriptors are the descriptor functions offered, with their labels.
var Descriptors = [][2]string{
	{"ricci", "Ollivier-Ricci curvature"},
	{"jaccard", "Jaccard index"},
	{"degree", "Degree"},
	{"hks", "Heat kernel signature"},
}

// ExploreTab shows one graph under one descriptor function: the graph
// coloured by it, its extended persistence diagrams and its image as the
// classifier sees it, one view per channel.
type ExploreTab struct {
	app.Compo
	Summary    *protocol.Summary
	Graph      int
	Descriptor string
	Drawing    *protocol.Drawing
	X, Y       []float64
	Values     []float64
	// Picture is RDKit's drawing of the graph when it is a molecule, its
	// atoms in the colours of Values (SVG text); "" otherwise.
	Picture string
	// Plain is RDKit's drawing of the molecule without colours, shown
	// while the values are computed; "" otherwise.
	Plain        string
	Explored     *protocol.Explored
	Image        []float64 // all channels, concatenated
	Running      bool
	Progress     string
	Error        string
	OnGraph      func(int)
	OnDescriptor func(string)
	OnCancel     func()
}

// Render lays out the controls and the three views.
func (t *ExploreTab) Render() app.UI {
	if t.Summary == nil {
		return app.Section().Class("card").Body(
			app.H2().Text("Explore"),
			app.P().Text("Load a dataset on the Data tab first."),
		)
	}
	current := t.Explored != nil && t.Explored.Graph == t.Graph && !t.Running
	return app.Div().Class("tab-body").Body(
		app.Section().Class("card controls").Body(
			&GraphPicker{ID: "explore", Graph: t.Graph, Count: t.Summary.Graphs, Names: t.Summary.Names, OnGraph: t.OnGraph},
			app.Div().Class("picker").Body(
				app.Label().For("descriptor").Text("Descriptor"),
				app.Select().ID("descriptor").
					OnChange(func(ctx app.Context, e app.Event) {
						if t.OnDescriptor != nil {
							t.OnDescriptor(ctx.JSSrc().Get("value").String())
						}
					}).Body(
					app.Range(Descriptors).Slice(func(i int) app.UI {
						return app.Option().Value(Descriptors[i][0]).Attr("selected", flag(Descriptors[i][0] == t.Descriptor)).Text(Descriptors[i][1])
					}),
				),
			),
			app.If(t.Running, func() app.UI {
				return app.Div().Class("row").Body(
					app.Span().ID("explore-progress").Class("busy").Text(t.Progress),
					app.Button().ID("explore-cancel").Class("small").Text("Cancel").
						OnClick(func(ctx app.Context, e app.Event) {
							if t.OnCancel != nil {
								t.OnCancel()
							}
						}),
				)
			}),
			app.If(t.Error != "", func() app.UI {
				return app.P().ID("explore-error").Class("error").Attr("role", "alert").Text(t.Error)
			}),
		),
		app.Div().Class("columns three").Body(
			app.Section().Class("card").Body(
				app.H2().Text("Graph"),
				app.If(current && t.Picture != "", func() app.UI {
					return moleculeView("explore-molecule", t.Picture,
						fmt.Sprintf("Graph %d coloured by %s (dark low, bright high), drawn by RDKit; the colours are lightened under the element symbols.", t.Graph, t.Descriptor))
				}).ElseIf(!current && t.Plain != "", func() app.UI {
					return moleculeView("explore-molecule", t.Plain, fmt.Sprintf("Graph %d drawn by RDKit.", t.Graph))
				}).ElseIf(current, func() app.UI {
					return &GraphView{Drawing: t.Drawing, X: t.X, Y: t.Y, Values: t.Values,
						Caption: fmt.Sprintf("Graph %d coloured by %s (dark low, bright high)", t.Graph, t.Descriptor)}
				}).Else(func() app.UI {
					return &GraphView{Drawing: t.Drawing, X: t.X, Y: t.Y}
				}),
			),
			app.Section().Class("card").Body(
				app.H2().Text("Persistence diagrams"),
				app.If(current, func() app.UI {
					return &DiagramView{Diagrams: t.Explored.Diagrams}
				}).Else(func() app.UI { return app.P().Class("muted").Text("Computing…") }),
			),
			app.Section().Class("card").Body(
				app.H2().Text("Persistence image"),
				app.If(current, t.images).Else(func() app.UI { return app.P().Class("muted").Text("Computing…") }),
			),
		),
	)
}

// images shows one ImageView per channel of the explored image, or the
// reason why the dataset has no image.
func (t *ExploreTab) images() app.UI {
	ex := t.Explored
	n := ex.Grid.Rows * ex.Grid.Cols
	return app.Div().Body(
		app.Range(ex.Channels).Slice(func(c int) app.UI {
			var img []float64
			if len(t.Image) == len(ex.Channels)*n {
				img = t.Image[c*n : (c+1)*n]
			}
			return app.Div().Class("channel").Body(
				app.H3().Text(channelTitle(ex.Channels[c])),
				&ImageView{ID: fmt.Sprintf("pimage-%d", c), Grid: ex.Grid, Image: img},
			)
		}),
		app.If(ex.ImageError != "", func() app.UI {
			return app.P().ID("image-error").Class("muted").Text("The dataset has no images to train on: " + ex.ImageError)
		}),
	)
}

// channelTitle names a channel such as "ord0+ext0" for people:
// "0-dimensional: Ord0 + Ext0".
func channelTitle(channel string) string {
	parts := strings.Split(channel, "+")
	dims := map[byte]bool{}
	for i, p := range parts {
		if p == "" {
			continue
		}
		dims[p[len(p)-1]] = true
		parts[i] = strings.ToUpper(p[:1]) + p[1:]
	}
	title := strings.Join(parts, " + ")
	if len(dims) == 1 {
		for d := range dims {
			return fmt.Sprintf("%c-dimensional: %s", d, title)
		}
	}
	return title
}
