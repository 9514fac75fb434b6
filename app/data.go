package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// DataTab chooses the dataset (bundled demo, the user's molecule file,
// TU files or zip) and shows its summary and a drawing of any graph.
type DataTab struct {
	app.Compo
	// File is the molecule file given last, with its choices; nil when
	// there is none.
	File    *DataFile
	Summary *protocol.Summary
	Loading string
	Error   string
	Graph   int
	Drawing *protocol.Drawing
	X, Y    []float64
	// Picture is RDKit's drawing of the graph when it is a molecule (SVG
	// text), "" otherwise.
	Picture   string
	DrawError string
	OnDemo    func(name string)
	OnUpload  func(files app.Value) // a JS array of File
	OnGraph   func(int)
}

// Render lays out the chooser, the summary and the graph view.
func (d *DataTab) Render() app.UI {
	upload := func(files app.Value) {
		// Copy the FileList now: a drop's list empties after the event.
		if d.OnUpload != nil && files.Truthy() && files.Length() > 0 {
			d.OnUpload(app.Window().Get("Array").Call("from", files))
		}
	}
	return app.Div().Class("tab-body").Body(
		app.Section().Class("card").Body(
			app.H2().Text("Dataset"),
			app.Div().Class("row").Body(
				app.Range(Demos).Slice(func(i int) app.UI {
					name := Demos[i]
					return app.Button().ID("demo-"+name).Text(name).Attr("disabled", flag(d.Loading != "")).
						OnClick(func(ctx app.Context, e app.Event) {
							if d.OnDemo != nil {
								d.OnDemo(name)
							}
						})
				}),
			),
			app.Div().ID("dropzone").Class("dropzone").
				OnDragOver(func(ctx app.Context, e app.Event) { e.PreventDefault() }).
				OnDrop(func(ctx app.Context, e app.Event) {
					e.PreventDefault()
					upload(e.Get("dataTransfer").Get("files"))
				}).Body(
				app.Label().For("upload").Text("Your own data: drop a file here, or choose it: "),
				app.Input().ID("upload").Type("file").Multiple(true).Accept(protocol.UploadAccept).
					Aria("describedby", "upload-help").
					OnChange(func(ctx app.Context, e app.Event) { upload(ctx.JSSrc().Get("files")) }),
				app.Ul().ID("upload-help").Class("field-help").Body(
					app.Li().Text("molecules with a class or a measurement: a table of SMILES (.csv, .tsv), an SD file with properties (.sdf, .sd) or a GraphML file of graphs with a graph-level class (.graphml, .xml); you then pick the columns"),
					app.Li().Text("a TU dataset: its files (DS_A.txt, DS_graph_indicator.txt, DS_graph_labels.txt, optional label files) or its zip"),
					app.Li().Text("neurons: a zip of SWC files with a labels.csv (file,label)"),
				),
			),
			app.If(d.Loading != "", func() app.UI {
				return app.P().ID("loading").Class("busy").Text("Loading " + d.Loading + "…")
			}),
			app.If(d.Error != "", func() app.UI {
				return app.P().ID("load-error").Class("error").Attr("role", "alert").Text(d.Error)
			}),
		),
		app.If(d.File != nil, func() app.UI { return d.File }),
		app.If(d.Summary != nil, func() app.UI { return d.summary() }),
	)
}

func (d *DataTab) summary() app.UI {
	s := d.Summary
	yes := map[bool]string{true: "yes", false: "no"}
	sizes := func(st protocol.Stats) string {
		return fmt.Sprintf("%d in all; %.1f per graph (%d to %d)", st.Total, st.Mean, st.Min, st.Max)
	}
	return app.Div().Class("columns").Body(
		app.Section().Class("card").ID("summary").Body(
			app.H2().Text(s.Name),
			app.Dl().Body(
				// A <div> may group a <dt> and its <dd> in a <dl>.
				app.If(s.Source != nil, func() app.UI { return sourceFile(s.Source) }),
				app.If(s.Source != nil, func() app.UI { return sourceTarget(s.Source) }),
				app.If(s.Source != nil && s.Source.Skipped != nil, func() app.UI { return sourceSkipped(s.Source.Skipped) }),
				app.Dt().Text("Graphs"), app.Dd().ID("summary-graphs").Text(protocol.Count(s.Graphs, "graphs")),
				app.Dt().Text("Classes"), app.Dd().ID("summary-classes").Body(
					app.Text(fmt.Sprintf("%d classes: ", len(s.Classes))),
					app.Range(s.Classes).Slice(func(i int) app.UI {
						return app.Span().Class("pill").Text(fmt.Sprintf("%s × %d", s.Classes[i].Label, s.Classes[i].Count))
					}),
				),
				app.Dt().Text("Nodes"), app.Dd().Text(sizes(s.Nodes)),
				app.Dt().Text("Edges"), app.Dd().Text(sizes(s.Edges)),
				app.Dt().Text("Node labels"), app.Dd().Text(yes[s.NodeLabels]),
				app.Dt().Text("Edge labels"), app.Dd().Text(yes[s.EdgeLabels]),
				app.Dt().Text("Disconnected graphs"), app.Dd().Text(fmt.Sprint(s.Disconnected)),
				app.Dt().Text("Isolated nodes"), app.Dd().Text(fmt.Sprint(s.IsolatedNodes)),
			),
		),
		app.Section().Class("card").Body(
			app.H2().Text("Graph"),
			&GraphPicker{ID: "data", Graph: d.Graph, Count: s.Graphs, Names: s.Names, OnGraph: d.OnGraph},
			app.If(d.DrawError != "", func() app.UI {
				return app.P().Class("error").Attr("role", "alert").Text(d.DrawError)
			}).ElseIf(d.Picture != "", func() app.UI {
				return moleculeView("data-molecule", d.Picture, "Drawn by RDKit as chemists draw it: element symbols, charges and bond orders.")
			}).Else(func() app.UI {
				return &GraphView{Drawing: d.Drawing, X: d.X, Y: d.Y}
			}),
		),
	)
}

// moleculeView shows RDKit's drawing of a molecule with a caption.
func moleculeView(id, picture, caption string) app.UI {
	return app.Figure().ID(id).Class("molecule-view").Body(
		app.Div().Class("molecule").Body(app.Raw(picture)),
		app.FigCaption().Text(caption),
	)
}

// sourceFile names the molecule file a dataset was read from.
func sourceFile(src *protocol.DataSource) app.UI {
	file := fmt.Sprintf("%s: %s of %s", src.File, protocol.FormatName(src.Format), protocol.Count(src.Records, protocol.Unit(src.Format)))
	if src.Options.SMILES != "" {
		file += fmt.Sprintf(", the SMILES from the column %q", src.Options.SMILES)
	}
	return app.Div().Class("dl-group").Body(app.Dt().Text("File"), app.Dd().ID("summary-source").Text(file))
}

// sourceTarget says what the classes are: a column's values, or its
// values cut at a threshold.
func sourceTarget(src *protocol.DataSource) app.UI {
	classes := src.Options.Target
	if t := src.Options.Threshold; t != nil {
		classes += ", cut at " + strconv.FormatFloat(*t, 'g', -1, 64)
	}
	return app.Div().Class("dl-group").Body(app.Dt().Text("Classes from"), app.Dd().ID("summary-target").Text(classes))
}

// sourceSkipped lists the records left out as unreadable.
func sourceSkipped(b *protocol.BadRecords) app.UI {
	return app.Div().Class("dl-group").Body(
		app.Dt().Text("Left out"),
		app.Dd().ID("summary-skipped").Body(
			app.Text(capitalise(b.Which())+", which cannot be read:"),
			badList(b),
		),
	)
}
