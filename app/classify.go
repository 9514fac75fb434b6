package app

import (
	"encoding/csv"
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// graphFormats are the file types Classify accepts.
const graphFormats = ".mol,.sdf,.sd,.txt,.edges,.edgelist,.csv,.el,.graphml,.xml,.json,.zip"

// ClassifyTab classifies uploaded graphs with the current model and shows,
// for the chosen graph, its diagram points over the learned weight function.
type ClassifyTab struct {
	app.Compo
	Model    *protocol.Info
	Weight   []float64 // the model's heat map
	Running  bool
	Error    string
	Graphs   []protocol.Graph
	Chosen   int
	CSV      string // object URL of the predictions as CSV, for download
	OnUpload func(files app.Value)
	OnChoose func(int)
}

// Render lays out the upload, the predictions and the chosen graph.
func (c *ClassifyTab) Render() app.UI {
	if c.Model == nil {
		return app.Section().Class("card").Body(
			app.H2().Text("Classify"),
			app.P().ID("classify-nomodel").Text("No model yet: train one on the Train tab, or load a model file on the Models tab."),
		)
	}
	upload := func(files app.Value) {
		if c.OnUpload != nil && files.Truthy() && files.Length() > 0 {
			c.OnUpload(app.Window().Get("Array").Call("from", files))
		}
	}
	return app.Div().Class("tab-body").Body(
		app.Section().Class("card").Body(
			app.H2().Text("Classify graphs with the model of "+c.Model.Dataset),
			app.P().ID("classify-about").Body(
				app.Strong().ID("classify-mode").Text(modeLine(c.Model.Mode)),
				app.Text(fmt.Sprintf(" Its classes are %s, the labels of %s's graph label file; %s's files do not say what they mean.",
					classList(c.Model.Classes), c.Model.Dataset, c.Model.Dataset)),
			),
			app.Div().ID("classify-drop").Class("dropzone").
				OnDragOver(func(ctx app.Context, e app.Event) { e.PreventDefault() }).
				OnDrop(func(ctx app.Context, e app.Event) {
					e.PreventDefault()
					upload(e.Get("dataTransfer").Get("files"))
				}).Body(
				app.Label().For("classify-upload").Text("Graph files (MOL/SDF, edge list, GraphML, JSON, or a TU set): drop them here or choose them: "),
				app.Input().ID("classify-upload").Type("file").Multiple(true).Accept(graphFormats).Attr("disabled", flag(c.Running)).
					OnChange(func(ctx app.Context, e app.Event) {
						upload(ctx.JSSrc().Get("files"))
						ctx.JSSrc().Set("value", "") // the same file may be chosen again
					}),
			),
			app.If(c.Running, func() app.UI { return app.P().ID("classify-busy").Class("busy").Text("Classifying…") }),
			app.If(c.Error != "", func() app.UI {
				return app.P().ID("classify-error").Class("error").Attr("role", "alert").Text(c.Error)
			}),
		),
		app.If(len(c.Graphs) > 0, func() app.UI { return c.results() }),
	)
}

func (c *ClassifyTab) results() app.UI {
	chosen := min(max(c.Chosen, 0), len(c.Graphs)-1)
	g := c.Graphs[chosen]
	right, labelled := score(c.Graphs)
	return app.Div().Class("columns").Body(
		app.Section().Class("card").Body(
			app.H2().Text("Predictions"),
			app.If(labelled > 0, func() app.UI {
				return app.P().ID("classify-accuracy").Class("accuracy-line").DataSet("value", float64(right)/float64(labelled)).Text(
					fmt.Sprintf("Accuracy against the upload's own labels: %.1f %% (%d of %d graphs).", 100*float64(right)/float64(labelled), right, labelled))
			}),
			scroller("Predictions table").Body(
				app.Table().ID("predictions").Body(
					app.THead().Body(app.Tr().Body(
						app.Th().Text("File"), app.Th().Text("Graph"), app.Th().Text("Nodes"), app.Th().Text("Edges"),
						app.Th().Text("Predicted"),
						app.If(labelled > 0, func() app.UI { return app.Th().Text("Label") }),
						app.Th().Text("Decision values"),
					)),
					app.TBody().Body(
						app.Range(c.Graphs).Slice(func(i int) app.UI {
							g := c.Graphs[i]
							choose := func(ctx app.Context, e app.Event) {
								if c.OnChoose != nil {
									c.OnChoose(i)
								}
							}
							cls := "pick"
							if i == chosen {
								cls = "pick chosen"
							}
							// The file cell is a button, so the keyboard reaches every row.
							return app.Tr().Class(cls).OnClick(choose).Body(
								app.Td().Body(app.Button().Class("link").Aria("pressed", fmt.Sprint(i == chosen)).
									Title("Show its diagram").Text(g.File)),
								app.Td().Text(fmt.Sprint(g.Index)),
								app.Td().Text(fmt.Sprint(g.Nodes)), app.Td().Text(fmt.Sprint(g.Edges)),
								app.Td().Class("predicted").Text(className(g.Label)),
								app.If(labelled > 0, func() app.UI { return app.Td().Class("truth").Text(className(g.Truth)) }),
								app.Td().Class("decision").Text(decisions(g.Decision)),
							)
						}),
					),
				),
			),
			app.P().Class("muted").Text("A positive decision value votes for the first class of its pair: "+pairs(c.Model.Classes)+". Choose a file to see its diagram."),
			app.If(c.CSV != "", func() app.UI {
				return app.A().ID("classify-csv").Class("button").Href(c.CSV).Attr("download", "predictions.csv").Text("Download the predictions (CSV)")
			}),
		),
		app.Section().Class("card").Body(
			app.H2().Text(fmt.Sprintf("%s, graph %d: predicted %s", g.File, g.Index, className(g.Label))),
			&HeatView{ID: "classify-heat", Grid: c.Model.Grid, Values: c.Weight, Points: g.Points,
				Caption: "The learned weight function with this graph's diagram points."},
		),
	)
}

// modeLine says what a model of mode (protocol.Info.Mode) looks at.
func modeLine(mode string) string {
	if mode == "node labels" {
		return "Mode: node labels: atom types used. The model sees the structure of a graph and where each of its commonest node labels (atom types) sits; bond types are ignored. " +
			"Molfiles need a model trained with the dataset's code table (the \"Node labels\" table of its README.txt, which the demo datasets include)."
	}
	return "Mode: structure only: atom and bond types ignored. The model sees the structure of a graph only (node and edge labels are ignored), so two molecules of the same shape get the same class."
}

// className names a class for people: "class -1".
func className(label string) string {
	if label == "" {
		return ""
	}
	return "class " + label
}

func classList(classes []string) string {
	s := make([]string, len(classes))
	for i, c := range classes {
		s[i] = className(c)
	}
	return strings.Join(s, ", ")
}

// score counts the graphs whose own label is known and, of those, the
// ones predicted right.
func score(graphs []protocol.Graph) (right, labelled int) {
	for _, g := range graphs {
		if g.Truth != "" {
			labelled++
			if g.Truth == g.Label {
				right++
			}
		}
	}
	return right, labelled
}

// predictionsCSV writes the predictions as CSV: one row per graph.
func predictionsCSV(graphs []protocol.Graph) []byte {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write([]string{"file", "graph", "nodes", "edges", "predicted", "label", "decision_values"})
	for _, g := range graphs {
		w.Write([]string{g.File, fmt.Sprint(g.Index), fmt.Sprint(g.Nodes), fmt.Sprint(g.Edges), g.Label, g.Truth, decisions(g.Decision)})
	}
	w.Flush()
	return []byte(b.String())
}

func decisions(d []float64) string {
	s := make([]string, len(d))
	for i, v := range d {
		s[i] = fmt.Sprintf("%+.4f", v)
	}
	return strings.Join(s, " ")
}

// pairs lists the one-against-one class pairs in the SVM's order.
func pairs(classes []string) string {
	var s []string
	for i := range classes {
		for j := i + 1; j < len(classes); j++ {
			s = append(s, classes[i]+" vs "+classes[j])
		}
	}
	return strings.Join(s, ", ")
}
