package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// ModelsTab lists the kept models, shows the current one (the one
// Classify uses), offers it for download and loads model files.
type ModelsTab struct {
	app.Compo
	Kept     []Kept
	Name     string // of the current model
	Model    *protocol.Info
	Weight   []float64
	Bytes    int    // size of the current model's file
	URL      string // object URL of the model's JSON, for the download link
	FileName string
	Loading  bool
	// Restoring says the models of earlier visits are still loading.
	Restoring bool
	Error     string
	OnUpload  func(files app.Value)
	OnUse     func(name string)
	OnDelete  func(name string)
}

// loadingModels is what the page says while the models of earlier visits
// load and the current one is not known yet.
const loadingModels = "Loading your models…"

// Kept is one kept model as the list shows it.
type Kept struct {
	Name     string
	Info     *protocol.Info
	Accuracy float64 // mean CV accuracy, 0 when unknown
	Bytes    int     // size of the model file, as kept in this browser
	URL      string
	Current  bool
}

// Render lays out the model card and the import.
func (m *ModelsTab) Render() app.UI {
	return app.Div().Class("tab-body").Body(
		app.Section().Class("card").Body(
			app.H2().Text("Load a model"),
			app.Div().Class("dropzone").Body(
				app.Label().For("model-upload").Text("A model file saved from this page (JSON): "),
				app.Input().ID("model-upload").Type("file").Accept(".json,application/json").Attr("disabled", flag(m.Loading)).
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
		app.If(len(m.Kept) > 0, func() app.UI { return m.list() }),
		app.If(m.Model == nil, func() app.UI {
			if m.Restoring {
				return app.Section().Class("card").Body(
					app.H2().Text("Current model"),
					app.P().ID("model-restoring").Class("busy").Text(loadingModels),
				)
			}
			return app.Section().Class("card").Body(
				app.H2().Text("Current model"),
				app.P().ID("model-none").Text("No model yet: train one on the Train tab or load a file above."),
			)
		}).Else(func() app.UI { return m.card() }),
	)
}

// list shows every kept model with its dataset, settings and accuracy.
func (m *ModelsTab) list() app.UI {
	return app.Section().Class("card").ID("model-list").Body(
		app.H2().Text("Kept models"),
		scroller("Kept models").Body(app.Table().Class("stack").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Text("Name"), app.Th().Text("Dataset"), app.Th().Text("Settings"), app.Th().Text("CV accuracy"), app.Th().Text("Size"), app.Th().Text("Actions"),
			)),
			app.TBody().Body(
				app.Range(m.Kept).Slice(func(i int) app.UI {
					k := m.Kept[i]
					acc := "not known"
					if k.Accuracy > 0 {
						acc = fmt.Sprintf("%.1f %%", 100*k.Accuracy)
					}
					return app.Tr().DataSet("name", k.Name).Body(
						app.Td().Class("model-name").DataSet("label", "Name").Text(k.Name),
						app.Td().DataSet("label", "Dataset").Text(k.Info.Dataset),
						app.Td().DataSet("label", "Settings").Text(fmt.Sprintf("%s, m %d, σ %g, C %g", descriptorSet(k.Info), k.Info.M, k.Info.Sigma, k.Info.C)),
						app.Td().Class("model-accuracy").DataSet("label", "CV accuracy").Text(acc),
						app.Td().Class("model-size").DataSet("label", "Size").Text(sizeLabel(k.Bytes)),
						app.Td().Class("actions").DataSet("label", "Actions").Body(
							app.If(k.Current, func() app.UI { return app.Span().Class("pill").Text("in use") }).Else(func() app.UI {
								return app.Button().Class("small secondary use").Text("Use").Aria("label", "Use "+k.Name).
									OnClick(func(app.Context, app.Event) {
										if m.OnUse != nil {
											m.OnUse(k.Name)
										}
									})
							}),
							app.Button().Class("small secondary delete").Text("Delete").Aria("label", "Delete "+k.Name).
								OnClick(func(app.Context, app.Event) {
									if m.OnDelete != nil {
										m.OnDelete(k.Name)
									}
								}),
						),
					)
				}),
			),
		)),
		app.P().Class("muted").Text("Kept in this browser across visits."),
	)
}

func (m *ModelsTab) card() app.UI {
	i := m.Model
	return app.Div().Class("columns").Body(
		app.Section().Class("card").ID("model-card").Body(
			app.H2().Text("Current model: "+m.Name),
			app.Dl().Body(
				app.Dt().Text("Trained on"), app.Dd().ID("model-dataset").Text(i.Dataset),
				app.Dt().Text("Classes"), app.Dd().Text(strings.Join(i.Classes, ", ")),
				app.Dt().Text("Descriptor"), app.Dd().Text(descriptorSet(i)),
				app.Dt().Text("Images"), app.Dd().ID("model-images").Text(imagesLabel(i.Raw)),
				app.Dt().Text("Weight function"), app.Dd().Text(fmt.Sprintf("%d Gaussians, %s start", i.M, label(Inits, i.Init))),
				app.Dt().Text("Kernel width σ, SVM C"), app.Dd().Text(fmt.Sprintf("%g, %g", i.Sigma, i.C)),
				app.Dt().Text("SVM kernel"), app.Dd().ID("model-svm").Text(svmKernelLabel(i.GaussWidth)),
				app.Dt().Text("Support vectors"), app.Dd().Text(fmt.Sprint(i.Support)),
				app.Dt().Text("Image grid"), app.Dd().Text(fmt.Sprintf("%d × %d pixels", i.Grid.Rows, i.Grid.Cols)),
				app.Dt().Text("File size"), app.Dd().ID("model-size").Text(sizeLabel(m.Bytes)),
			),
			app.If(m.URL != "", func() app.UI {
				return app.A().ID("model-download").Class("button").Href(m.URL).Attr("download", m.FileName).Text("Download " + m.FileName)
			}),
			&CostPlot{ID: "model-cost", Names: []string{"training on the whole dataset"}, Curves: [][]float64{i.Cost},
				Stops: []string{stopReason(i.Converged, i.Iterations, i.Cost)}},
		),
		app.Section().Class("card").Body(
			app.H2().Text("Learned weight function"),
			&HeatView{ID: "model-heat", Grid: i.Grid, Values: m.Weight, Centres: i.Centres, Caption: "The model's weight function."},
		),
	)
}

// sizeLabel says how big a model file of n bytes is, in decimal units as
// file managers show them.
func sizeLabel(n int) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}

// imagesLabel says how a model's images are scaled.
func imagesLabel(raw bool) string {
	if raw {
		return "unnormalised: graph size counts (size-aware)"
	}
	return "unit norm"
}

// descriptorSet names a model's descriptor and its extra ones, if any.
func descriptorSet(i *protocol.Info) string {
	if i.Extra == "" {
		return label(Descriptors, i.Descriptor)
	}
	return label(Descriptors, i.Descriptor) + " + " + strings.ReplaceAll(i.Extra, ",", ", ")
}

// svmKernelLabel names a model's SVM kernel (protocol.Info.GaussWidth).
func svmKernelLabel(width float64) string {
	if width > 0 {
		return fmt.Sprintf("Gaussian of the WKPI distance, width %.3g", width)
	}
	return "the WKPI kernel"
}
