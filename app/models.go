package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// ModelsTab shows the current model, offers it for download and loads a
// model file in its place.
type ModelsTab struct {
	app.Compo
	Model    *protocol.Info
	Weight   []float64
	URL      string // object URL of the model's JSON, for the download link
	FileName string
	Loading  bool
	Error    string
	OnUpload func(files app.Value)
}

// Render lays out the model card and the import.
func (m *ModelsTab) Render() app.UI {
	return app.Div().Class("tab-body").Body(
		app.Section().Class("card").Body(
			app.H2().Text("Load a model"),
			app.Div().Class("dropzone").Body(
				app.Label().For("model-upload").Text("A model file saved from this page (JSON): "),
				app.Input().ID("model-upload").Type("file").Accept(".json,application/json").Disabled(m.Loading).
					OnChange(func(ctx app.Context, e app.Event) {
						files := ctx.JSSrc().Get("files")
						if m.OnUpload != nil && files.Truthy() && files.Length() > 0 {
							m.OnUpload(app.Window().Get("Array").Call("from", files))
						}
						ctx.JSSrc().Set("value", "")
					}),
			),
			app.If(m.Loading, func() app.UI { return app.P().Class("busy").Text("Checking the model…") }),
			app.If(m.Error != "", func() app.UI {
				return app.P().ID("model-error").Class("error").Attr("role", "alert").Text(m.Error)
			}),
		),
		app.If(m.Model == nil, func() app.UI {
			return app.Section().Class("card").Body(
				app.H2().Text("Current model"),
				app.P().ID("model-none").Text("No model yet: train one on the Train tab or load a file above."),
			)
		}).Else(func() app.UI { return m.card() }),
	)
}

func (m *ModelsTab) card() app.UI {
	i := m.Model
	return app.Div().Class("columns").Body(
		app.Section().Class("card").ID("model-card").Body(
			app.H2().Text("Current model"),
			app.Dl().Body(
				app.Dt().Text("Trained on"), app.Dd().ID("model-dataset").Text(i.Dataset),
				app.Dt().Text("Classes"), app.Dd().Text(strings.Join(i.Classes, ", ")),
				app.Dt().Text("Descriptor"), app.Dd().Text(i.Descriptor),
				app.Dt().Text("Weight function"), app.Dd().Text(fmt.Sprintf("%d Gaussians, %s start", i.M, i.Init)),
				app.Dt().Text("Kernel width σ, SVM C"), app.Dd().Text(fmt.Sprintf("%g, %g", i.Sigma, i.C)),
				app.Dt().Text("Support vectors"), app.Dd().Text(fmt.Sprint(i.Support)),
				app.Dt().Text("Image grid"), app.Dd().Text(fmt.Sprintf("%d × %d pixels", i.Grid.Rows, i.Grid.Cols)),
			),
			app.P().Class("muted").Text("Kept in this browser across visits."),
			app.If(m.URL != "", func() app.UI {
				return app.A().ID("model-download").Class("button").Href(m.URL).Attr("download", m.FileName).Text("Download " + m.FileName)
			}),
			&CostPlot{ID: "model-cost", Names: []string{"training on the whole dataset"}, Curves: [][]float64{i.Cost}},
		),
		app.Section().Class("card").Body(
			app.H2().Text("Learned weight function"),
			&HeatView{ID: "model-heat", Grid: i.Grid, Values: m.Weight, Caption: "The model's weight function."},
		),
	)
}
