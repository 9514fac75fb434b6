package app

import (
	"fmt"
	"slices"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

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
	Form     *protocol.Training // the settings shown; nil before the page mounts
	Running  bool
	Progress string  // stage text
	Fraction float64 // of the whole run, in [0, 1]
	ETA      string
	Workers  int // the Web Workers the run is spread over
	Error    string
	Folds    []protocol.Fold  // finished folds, in order of index
	Tally    Tally            // of Folds, while the others run
	Report   *protocol.Report // merged, once every fold finished
	// Test is the paired test of learned against initial weight function
	// over the folds, from the worker that merged them.
	Test   *protocol.PairedTest
	Model  *protocol.Info
	Before []float64
	After  []float64
	// Text holds what the user typed in number fields that do not parse
	// or are out of range, by field id; the run waits until it is empty.
	Text map[string]string
	// Used is the settings of the run shown, in full; Restored says it
	// ran in an earlier visit.
	Used     *protocol.Training
	Restored bool
	// Replace names the kept model a new run would replace: the tab asks
	// whether to replace it or keep both, and OnAnswer gets "replace",
	// "both" or "cancel".
	Replace  string
	OnAnswer func(string)
	OnForm   func(protocol.Training)
	OnField  func(id, text string)
	OnPreset func(name string) // a spec.Presets name
	OnMode   func(name string) // a Modes name (TrainMode)
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

func (t *TrainTab) results() app.UI {
	var names []string
	var curves [][]float64
	var stops []string
	for _, f := range t.Folds {
		names = append(names, fmt.Sprintf("fold %d", f.Index+1))
		curves = append(curves, f.Trace.Cost)
		stops = append(stops, stopReason(f.Trace.Converged, f.Trace.Iterations, f.Trace.Cost))
	}
	rate, largest := majority(t.Summary.Classes)
	return app.Div().Class("columns").Body(
		app.Section().Class("card").ID("train-result").Body(
			app.H2().Text("Accuracy"),
			app.If(t.Used != nil, func() app.UI {
				prefix := "What was done: "
				if t.Restored {
					prefix = "Results of the last run, from an earlier visit. What was done: "
				}
				return app.Div().ID("train-settings").Class("muted").Body(
					app.P().ID("train-settings-plain").Text(prefix+plainSettings(*t.Used)),
					app.Details().ID("train-settings-details").Body(
						app.Summary().Text("Details: every setting, with the method's symbols"),
						app.P().Text(describeSettings(*t.Used)),
					),
				)
			}),
			app.If(t.Model != nil, func() app.UI {
				return app.P().ID("train-model-mode").DataSet("mode", t.Model.Mode).Text(modeLine(t.Model.Mode))
			}),
			app.If(t.Report != nil, func() app.UI {
				r := t.Report
				return app.Div().Body(
					app.Dl().Body(
						app.Dt().Text("Learned weight function"),
						app.Dd().Body(accuracy("acc-learned", r.Learned)),
						app.Dt().Text("Initial weight function (baseline)"),
						app.Dd().Body(accuracy("acc-baseline", r.Baseline)),
						app.Dt().Text("Always the largest class"),
						app.Dd().ID("acc-majority").DataSet("value", rate).Text(fmt.Sprintf("%.1f %% (class %s)", 100*rate, largest)),
					),
					app.Table().ID("train-metrics").Body(
						app.Caption().Text("The metrics unbalanced classes call for, mean ± std over the folds"),
						app.THead().Body(app.Tr().Body(
							app.Th().Scope("col").Text("Weight function"),
							app.Th().Scope("col").Text("ROC-AUC"),
							app.Th().Scope("col").Text("Balanced accuracy"),
							app.Th().Scope("col").Text("Macro F1"),
						)),
						app.TBody().Body(
							metricsRow("metrics-learned", "Learned", r.Learned),
							metricsRow("metrics-baseline", "Initial", r.Baseline),
						),
					),
					app.If(t.Test != nil, func() app.UI {
						return app.P().ID("train-verdict").DataSet("p", t.Test.TP).Text(verdict(*t.Test, r.Learned.Accuracy, rate, largest))
					}),
					app.If(r.Protocol == "auto", func() app.UI {
						return app.P().ID("train-choice").Text(choiceSummary(r.Folds))
					}),
				)
			}).Else(func() app.UI {
				s := t.Tally
				return app.P().ID("train-tally").Class("muted").DataSet("done", s.Done).Text(
					fmt.Sprintf("%d of %d folds: learned %.1f %%, baseline %.1f %% so far…", s.Done, s.Total, 100*s.Learned, 100*s.Baseline))
			}),
			scroller("Fold table").Body(foldTable(t.Folds, t.Used != nil && (t.Used.Searches() || t.Used.ChoosesSVM()))),
			app.If(t.Report != nil, func() app.UI {
				return scroller("Confusion matrices").Class("columns").Body(
					confusion("confusion-learned", "Learned", t.Report.Learned.Confusion, t.Summary.Classes),
					confusion("confusion-baseline", "Baseline", t.Report.Baseline.Confusion, t.Summary.Classes),
				)
			}),
		),
		app.Section().Class("card").Body(
			app.H2().Text("Learning cost per fold"),
			&CostPlot{ID: "cost-plot", Names: names, Curves: curves, Stops: stops},
		),
	)
}

// metricsRow shows a result's ROC-AUC, balanced accuracy and macro F1;
// data-auc keeps the raw mean ROC-AUC.
func metricsRow(id, name string, r protocol.Result) app.UI {
	auc := ""
	if r.ROCAUC.Mean != nil {
		auc = fmt.Sprint(*r.ROCAUC.Mean)
	}
	return app.Tr().ID(id).DataSet("auc", auc).Body(
		app.Th().Scope("row").Text(name),
		app.Td().Text(summaryText(r.ROCAUC, 1, "%.3f ± %.3f")),
		app.Td().Text(summaryText(r.BalancedAccuracy, 100, "%.1f ± %.1f %%")),
		app.Td().Text(summaryText(r.F1Macro, 1, "%.3f ± %.3f")),
	)
}

// summaryText writes a metric over the folds, scaled, or says why it has
// none; folds without it (one class in their test set) are counted.
func summaryText(s protocol.MetricSummary, scale float64, format string) string {
	if s.Mean == nil || s.Std == nil {
		return "none (every test fold has one class)"
	}
	text := fmt.Sprintf(format, scale**s.Mean, scale**s.Std)
	switch {
	case s.Undefined == 1:
		text += " (1 fold of one class left out)"
	case s.Undefined > 1:
		text += fmt.Sprintf(" (%d folds of one class left out)", s.Undefined)
	}
	return text
}

// accuracy shows mean ± std in percent; data-value keeps the raw mean.
func accuracy(id string, r protocol.Result) app.UI {
	return app.Span().ID(id).Class("accuracy").DataSet("value", r.Accuracy).
		Text(fmt.Sprintf("%.1f ± %.1f %%", 100*r.Accuracy, 100*r.Std))
}

// foldTable lists the folds; chosen adds the setting each fold chose (by
// a search over a grid, or the SVM's kernel and C by inner CV).
func foldTable(folds []protocol.Fold, chosen bool) app.UI {
	return app.Table().ID("fold-table").Class("stack").Body(
		app.THead().Body(app.Tr().Body(
			app.Th().Text("Fold"), app.Th().Text("Learned"), app.Th().Text("Baseline"),
			app.Th().Text("Learned − baseline"),
			app.If(chosen, func() app.UI { return app.Th().Text("Chosen") }),
			app.Th().Text("Learning stopped"),
		)),
		app.TBody().Body(
			app.Range(folds).Slice(func(i int) app.UI {
				f := folds[i]
				return app.Tr().Body(
					app.Td().DataSet("label", "Fold").Text(fmt.Sprint(f.Index+1)),
					app.Td().DataSet("label", "Learned").Text(fmt.Sprintf("%.1f %%", 100*f.Accuracy)),
					app.Td().DataSet("label", "Baseline").Text(fmt.Sprintf("%.1f %%", 100*f.Baseline)),
					app.Td().Class("diff").DataSet("label", "Learned − baseline").Text(fmt.Sprintf("%+.1f", 100*(f.Accuracy-f.Baseline))),
					app.If(chosen, func() app.UI {
						text := fmt.Sprintf("m %d, σ %g, C %g", f.Config.Learn.M, f.Config.Sigma, f.Config.C)
						if f.Config.Gauss > 0 {
							text += ", Gaussian"
						}
						return app.Td().DataSet("label", "Chosen").Text(text)
					}),
					app.Td().DataSet("label", "Learning stopped").Text(stopReason(f.Trace.Converged, f.Trace.Iterations, nil)),
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
			app.Th().Attr("scope", "col").Text("true \\ predicted"),
			app.Range(m).Slice(func(j int) app.UI { return app.Th().Attr("scope", "col").Text(label(j)) }),
		)),
		app.TBody().Body(
			app.Range(m).Slice(func(i int) app.UI {
				return app.Tr().Body(
					app.Th().Attr("scope", "row").Text(label(i)),
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
	// Before and after share one colour scale, so that their colours
	// compare; the difference has its own, symmetric about 0.
	_, top, _ := span(append(slices.Clone(t.Before), t.After...))
	var diff []float64
	if len(t.Before) == len(t.After) {
		diff = make([]float64, len(t.After))
		for i := range diff {
			diff[i] = t.After[i] - t.Before[i]
		}
	}
	m := t.Model
	return app.Div().Class("tab-body").Body(
		app.Div().Class("columns three").Body(
			app.Section().Class("card").Body(
				app.H2().Text("Weight function before learning"),
				&HeatView{ID: "heat-before", Grid: m.Grid, Values: t.Before, Max: top, Centres: m.Before,
					Caption: fmt.Sprintf("Initial %s mixture of %d Gaussians on all of %s; same colour scale as after learning.", label(Inits, m.Init), m.M, m.Dataset)},
			),
			app.Section().Class("card").Body(
				app.H2().Text("Weight function after learning"),
				&HeatView{ID: "heat-after", Grid: m.Grid, Values: t.After, Max: top, Centres: m.Centres,
					Caption: fmt.Sprintf("Learned on all of %s (the model Classify uses); learning stopped: %s.", m.Dataset, stopReason(m.Converged, m.Iterations, m.Cost))},
			),
			app.Section().Class("card").Body(
				app.H2().Text("What learning changed"),
				&HeatView{ID: "heat-diff", Grid: m.Grid, Values: diff, Diverging: true, Centres: m.Centres,
					Caption: "After minus before: red where learning added weight, blue where it took weight away."},
			),
		),
	)
}

// choiceSummary says what the automatic choice of images picked over a
// run's folds (protocol.Fold.Candidate: 1 is size-aware).
func choiceSummary(folds []protocol.Fold) string {
	sized := 0
	for _, f := range folds {
		sized += f.Candidate
	}
	return fmt.Sprintf("Images chosen by inner CV on each fold's training graphs: size-aware (unnormalised, σ = 1) in %d of %d folds, unit norm in the rest.", sized, len(folds))
}
