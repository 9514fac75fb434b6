package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/eval"
	"wkpi-web/wasm/protocol"
)

// Inits are the initialisations of the weight function offered.
var Inits = [][2]string{{"kcenter", "k-center"}, {"kmeans", "k-means"}, {"random", "random"}}

// TrainTab sets up a cross-validation, follows it and shows its result:
// accuracy of the learned and of the initial weight function, per fold
// and pooled, the cost curves, and the weight function before and after
// learning on the whole dataset.
type TrainTab struct {
	app.Compo
	Summary  *protocol.Summary
	Form     *protocol.Training // nil until the worker sent the defaults
	Running  bool
	Progress string  // stage text
	Fraction float64 // of the whole run, in [0, 1]
	ETA      string
	Error    string
	Folds    []eval.Fold  // finished folds, in order of index
	Tally    Tally        // of Folds, while the others run
	Report   *eval.Report // merged, once every fold finished
	Model    *protocol.Info
	Before   []float64
	After    []float64
	OnForm   func(protocol.Training)
	OnRun    func()
	OnCancel func()
}

// Tally is the running result of a cross-validation: Done of Total folds
// finished, and the mean accuracy over those of the learned and of the
// initial weight function.
type Tally struct {
	Done, Total       int
	Learned, Baseline float64
}

// Render lays out the form, the progress and the results.
func (t *TrainTab) Render() app.UI {
	if t.Summary == nil {
		return app.Section().Class("card").Body(
			app.H2().Text("Train and evaluate"),
			app.P().Text("Load a dataset on the Data tab first."),
		)
	}
	return app.Div().Class("tab-body").Body(
		t.form(),
		app.If(len(t.Folds) > 0 || t.Report != nil, func() app.UI { return t.results() }),
		app.If(t.Model != nil || t.Running, func() app.UI { return t.weights() }),
	)
}

func (t *TrainTab) form() app.UI {
	if t.Form == nil {
		return app.Section().Class("card").Body(app.P().Class("busy").Text("Starting a worker…"))
	}
	f := *t.Form
	set := func(change func(*protocol.Training, string)) func(app.Context, app.Event) {
		return func(ctx app.Context, e app.Event) {
			next := f
			change(&next, ctx.JSSrc().Get("value").String())
			if t.OnForm != nil {
				t.OnForm(next)
			}
		}
	}
	atof := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	atoi := func(s string) int { v, _ := strconv.Atoi(s); return v }
	number := func(id, label, help string, value any, step string, change func(*protocol.Training, string)) app.UI {
		return app.Div().Class("field").Body(
			app.Label().For(id).Text(label),
			app.Input().ID(id).Type("number").Attr("step", step).Min(0).Value(value).Title(help).Disabled(t.Running).OnChange(set(change)),
		)
	}
	return app.Section().Class("card").ID("train-form").Body(
		app.H2().Text("Train and evaluate on "+t.Summary.Name),
		app.Div().Class("form-grid").Body(
			app.Div().Class("field").Body(
				app.Label().For("train-descriptor").Text("Descriptor"),
				app.Select().ID("train-descriptor").Disabled(t.Running).OnChange(set(func(f *protocol.Training, v string) { f.Descriptor = v })).Body(
					app.Range(Descriptors).Slice(func(i int) app.UI {
						return app.Option().Value(Descriptors[i][0]).Selected(Descriptors[i][0] == f.Descriptor).Text(Descriptors[i][1])
					}),
				),
			),
			app.Div().Class("field").Body(
				app.Label().For("train-init").Text("Initialisation"),
				app.Select().ID("train-init").Disabled(t.Running).OnChange(set(func(f *protocol.Training, v string) { f.Init = v })).Body(
					app.Range(Inits).Slice(func(i int) app.UI {
						return app.Option().Value(Inits[i][0]).Selected(Inits[i][0] == f.Init).Text(Inits[i][1])
					}),
				),
			),
			number("train-m", "Components m", "Gaussians in the weight function", f.M, "1", func(f *protocol.Training, v string) { f.M = atoi(v) }),
			number("train-sigma", "Kernel width σ", "width of the WKPI kernel", strconv.FormatFloat(f.Sigma, 'g', -1, 64), "any", func(f *protocol.Training, v string) { f.Sigma = atof(v) }),
			number("train-C", "SVM C", "soft-margin penalty of the SVM", strconv.FormatFloat(f.C, 'g', -1, 64), "any", func(f *protocol.Training, v string) { f.C = atof(v) }),
			number("train-folds", "Folds", "stratified cross-validation folds", f.Folds, "1", func(f *protocol.Training, v string) { f.Folds = atoi(v) }),
		),
		app.Div().Class("row").Body(
			app.Button().ID("train-run").Text("Run cross-validation").Disabled(t.Running).
				OnClick(func(ctx app.Context, e app.Event) {
					if t.OnRun != nil {
						t.OnRun()
					}
				}),
			app.If(t.Running, func() app.UI {
				return app.Button().ID("train-cancel").Text("Cancel").OnClick(func(ctx app.Context, e app.Event) {
					if t.OnCancel != nil {
						t.OnCancel()
					}
				})
			}),
		),
		app.If(t.Running, func() app.UI {
			return app.Div().ID("train-progress").Body(
				app.Progress().Max(1).Value(fmt.Sprintf("%.3f", t.Fraction)).Aria("label", "Training progress"),
				app.P().Class("busy").Body(
					app.Span().ID("train-stage").Text(t.Progress),
					app.Span().ID("train-eta").Class("muted").Text(" "+t.ETA),
				),
			)
		}),
		app.If(t.Error != "", func() app.UI {
			return app.P().ID("train-error").Class("error").Attr("role", "alert").Text(t.Error)
		}),
	)
}

func (t *TrainTab) results() app.UI {
	var names []string
	var curves [][]float64
	for _, f := range t.Folds {
		names = append(names, fmt.Sprintf("fold %d", f.Index+1))
		curves = append(curves, f.Trace.Cost)
	}
	return app.Div().Class("columns").Body(
		app.Section().Class("card").ID("train-result").Body(
			app.H2().Text("Accuracy"),
			app.If(t.Report != nil, func() app.UI {
				r := t.Report
				return app.Dl().Body(
					app.Dt().Text("Learned weight function"),
					app.Dd().Body(accuracy("acc-learned", r.Learned)),
					app.Dt().Text("Initial weight function (baseline)"),
					app.Dd().Body(accuracy("acc-baseline", r.Baseline)),
				)
			}).Else(func() app.UI {
				s := t.Tally
				return app.P().ID("train-tally").Class("muted").DataSet("done", s.Done).Text(
					fmt.Sprintf("%d of %d folds: learned %.1f %%, baseline %.1f %% so far…", s.Done, s.Total, 100*s.Learned, 100*s.Baseline))
			}),
			foldTable(t.Folds),
			app.If(t.Report != nil, func() app.UI {
				return app.Div().Class("columns").Body(
					confusion("confusion-learned", "Learned", t.Report.Learned.Confusion, t.Summary.Classes),
					confusion("confusion-baseline", "Baseline", t.Report.Baseline.Confusion, t.Summary.Classes),
				)
			}),
		),
		app.Section().Class("card").Body(
			app.H2().Text("Learning cost per fold"),
			&CostPlot{ID: "cost-plot", Names: names, Curves: curves},
		),
	)
}

// accuracy shows mean ± std in percent; data-value keeps the raw mean.
func accuracy(id string, r eval.Result) app.UI {
	return app.Span().ID(id).Class("accuracy").DataSet("value", r.Accuracy).
		Text(fmt.Sprintf("%.1f ± %.1f %%", 100*r.Accuracy, 100*r.Std))
}

func foldTable(folds []eval.Fold) app.UI {
	return app.Table().ID("fold-table").Body(
		app.THead().Body(app.Tr().Body(
			app.Th().Text("Fold"), app.Th().Text("Learned"), app.Th().Text("Baseline"), app.Th().Text("Iterations"),
		)),
		app.TBody().Body(
			app.Range(folds).Slice(func(i int) app.UI {
				f := folds[i]
				return app.Tr().Body(
					app.Td().Text(fmt.Sprint(f.Index+1)),
					app.Td().Text(fmt.Sprintf("%.1f %%", 100*f.Accuracy)),
					app.Td().Text(fmt.Sprintf("%.1f %%", 100*f.Baseline)),
					app.Td().Text(fmt.Sprint(f.Trace.Iterations)),
				)
			}),
		),
	)
}

// confusion draws a confusion matrix, true classes down, predicted across.
func confusion(id, title string, m [][]int, classes []protocol.Class) app.UI {
	label := func(i int) string {
		if i < len(classes) {
			return classes[i].Label
		}
		return fmt.Sprint(i)
	}
	return app.Table().ID(id).Class("confusion").Body(
		app.Caption().Text(title+": true class down, predicted across"),
		app.THead().Body(app.Tr().Body(
			app.Th(),
			app.Range(m).Slice(func(j int) app.UI { return app.Th().Text(label(j)) }),
		)),
		app.TBody().Body(
			app.Range(m).Slice(func(i int) app.UI {
				return app.Tr().Body(
					app.Th().Text(label(i)),
					app.Range(m[i]).Slice(func(j int) app.UI {
						c := "cell"
						if i == j {
							c = "cell hit"
						}
						return app.Td().Class(c).Text(fmt.Sprint(m[i][j]))
					}),
				)
			}),
		),
	)
}

func (t *TrainTab) weights() app.UI {
	if t.Model == nil {
		return app.Section().Class("card").Body(
			app.H2().Text("Weight function"),
			app.P().Class("muted").Text("The final model is trained on the whole dataset after the folds; its weight function appears here."),
		)
	}
	return app.Div().Class("columns").Body(
		app.Section().Class("card").Body(
			app.H2().Text("Weight function before learning"),
			&HeatView{ID: "heat-before", Grid: t.Model.Grid, Values: t.Before,
				Caption: fmt.Sprintf("Initial %s mixture of %d Gaussians on all of %s.", t.Model.Init, t.Model.M, t.Model.Dataset)},
		),
		app.Section().Class("card").Body(
			app.H2().Text("Weight function after learning"),
			&HeatView{ID: "heat-after", Grid: t.Model.Grid, Values: t.After,
				Caption: fmt.Sprintf("Learned on all of %s (the model Classify uses).", t.Model.Dataset)},
		),
	)
}
