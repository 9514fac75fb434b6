package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// CompareTab picks methods of the baseline comparison, follows their
// jobs and shows the table and a bar chart of the accuracies.
type CompareTab struct {
	app.Compo
	Summary  *protocol.Summary
	Off      map[string]bool // unticked methods
	Ready    bool            // the Train tab's settings (folds, seed) have arrived
	Running  bool
	Fraction float64
	Stages   []string
	Results  []protocol.CompareMethod
	Paired   bool
	Error    string
	OnToggle func(name string)
	OnRun    func()
	OnCancel func()
}

// Render lays out the picker, the progress and the results.
func (t *CompareTab) Render() app.UI {
	if t.Summary == nil {
		return app.Section().Class("card").Body(
			app.H2().Text("Compare with baselines"),
			app.P().Text("Load a dataset on the Data tab first."),
		)
	}
	names := protocol.Methods()
	return app.Div().Class("tab-body").Body(
		app.Section().Class("card").ID("compare-form").Body(
			app.H2().Text("Compare with baselines"),
			app.P().Class("muted").Text("Every method on the same stratified folds (the Train tab's descriptor, folds and seed); each baseline's widths and C chosen by inner cross-validation on the training folds. The same as `wkpi compare`."),
			app.Div().Class("row").Body(
				app.Range(names).Slice(func(i int) app.UI {
					n := names[i]
					return app.Label().Body(
						app.Input().Type("checkbox").ID("method-"+n).Checked(!t.Off[n]).Disabled(t.Running || n == protocol.MethodMajority).
							OnChange(func(ctx app.Context, e app.Event) { t.OnToggle(n) }),
						app.Text(" "+n),
					)
				}),
			),
			app.Div().Class("row").Body(
				app.Button().ID("compare-run").Text("Run comparison").Disabled(t.Running || !t.Ready).
					OnClick(func(ctx app.Context, e app.Event) { t.OnRun() }),
				app.If(t.Running, func() app.UI {
					return app.Button().ID("compare-cancel").Class("secondary").Text("Cancel").
						OnClick(func(ctx app.Context, e app.Event) { t.OnCancel() })
				}),
			),
			app.If(t.Running, func() app.UI {
				return app.Div().Body(
					app.Progress().ID("compare-progress").Max(1).Value(t.Fraction),
					app.Range(t.Stages).Slice(func(i int) app.UI { return app.P().Class("muted").Text(t.Stages[i]) }),
				)
			}),
			app.If(t.Error != "", func() app.UI { return app.P().ID("compare-error").Class("error").Text(t.Error) }),
		),
		app.If(len(t.Results) > 0, func() app.UI {
			// One above the other: the table's seven columns need the width.
			return app.Div().Body(
				app.Section().Class("card").Body(app.H2().Text("Accuracy"), app.Div().Class("scroll").TabIndex(0).Aria("label", "Comparison table").Attr("role", "region").Body(t.table())),
				app.Section().Class("card").Body(app.H2().Text("Chart"), t.chart()),
			)
		}),
	)
}

// table lists the methods: accuracy ± std, ROC-AUC ± std, time and,
// once paired, the tests against WKPI (of accuracy; of ROC-AUC). data-value keeps the raw mean
// accuracy.
func (t *CompareTab) table() app.UI {
	return app.Table().ID("compare-table").Class("stack").DataSet("paired", t.Paired).Body(
		app.THead().Body(app.Tr().Body(
			app.Th().Text("Method"), app.Th().Text("Accuracy"), app.Th().Text("ROC-AUC"), app.Th().Text("Seconds"),
			app.Th().Text("Wilcoxon p vs WKPI"), app.Th().Text("Paired t p"), app.Th().Text("ROC-AUC: Wilcoxon p vs WKPI"),
		)),
		app.TBody().Body(
			app.Range(t.Results).Slice(func(i int) app.UI {
				m := t.Results[i]
				wp, tp, aucP := "", "", ""
				if m.Paired != nil {
					wp, tp = pValue(m.Paired.WilcoxonP), pValue(m.Paired.TP)
				}
				if m.PairedROCAUC != nil {
					aucP = pValue(m.PairedROCAUC.WilcoxonP)
				}
				return app.Tr().DataSet("method", m.Name).Body(
					app.Th().Attr("scope", "row").DataSet("label", "Method").Text(m.Name),
					app.Td().Class("accuracy").DataSet("label", "Accuracy").DataSet("value", m.Accuracy).Text(fmt.Sprintf("%.1f ± %.1f %%", 100*m.Accuracy, 100*m.Std)),
					app.Td().Class("auc").DataSet("label", "ROC-AUC").Text(summaryText(protocol.MetricSummary{Mean: m.ROCAUC, Std: m.ROCAUCStd}, 1, "%.3f ± %.3f")),
					app.Td().DataSet("label", "Seconds").Text(fmt.Sprintf("%.1f", m.Seconds)),
					app.Td().DataSet("label", "Wilcoxon p vs WKPI").Text(wp),
					app.Td().DataSet("label", "Paired t p").Text(tp),
					app.Td().DataSet("label", "ROC-AUC: Wilcoxon p vs WKPI").Text(aucP),
				)
			}),
		),
	)
}

// chart draws a bar per method (mean accuracy, error bar ± one std) and
// a dashed line at the majority-class rate.
func (t *CompareTab) chart() app.UI {
	const w, h, left, top, bottom = 400.0, 220.0, 30.0, 8.0, 60.0
	n := float64(len(t.Results))
	bw := (w - left) / n
	y := func(acc float64) float64 { return top + (h-bottom-top)*(1-acc) }
	var parts []app.UI
	for _, tick := range []float64{0, 0.25, 0.5, 0.75, 1} {
		parts = append(parts,
			svg("line").Attr("x1", left).Attr("x2", w).Attr("y1", num(y(tick))).Attr("y2", num(y(tick))).Attr("stroke", "#ddd"),
			svg("text").Attr("x", 0).Attr("y", num(y(tick)+3)).Attr("font-size", 9).Text(fmt.Sprintf("%.0f%%", 100*tick)))
	}
	for i, m := range t.Results {
		x := left + float64(i)*bw
		parts = append(parts,
			svg("rect").Class("bar").DataSet("method", m.Name).Attr("x", num(x+bw*0.15)).Attr("width", num(bw*0.7)).
				Attr("y", num(y(m.Accuracy))).Attr("height", num(y(0)-y(m.Accuracy))).Attr("fill", colour(float64(i)/max(1, n-1))),
			svg("line").Attr("x1", num(x+bw/2)).Attr("x2", num(x+bw/2)).
				Attr("y1", num(y(min(1, m.Accuracy+m.Std)))).Attr("y2", num(y(max(0, m.Accuracy-m.Std)))).Attr("stroke", "#000"),
			svg("text").Attr("font-size", 9).Attr("transform", fmt.Sprintf("translate(%s,%s) rotate(45)", num(x+bw/3), num(h-bottom+10))).Text(m.Name),
		)
		if m.Name == protocol.MethodMajority {
			parts = append(parts, svg("line").ID("majority-line").DataSet("value", m.Accuracy).
				Attr("x1", left).Attr("x2", w).Attr("y1", num(y(m.Accuracy))).Attr("y2", num(y(m.Accuracy))).
				Attr("stroke", "#c00").Attr("stroke-dasharray", "4 3"))
		}
	}
	return app.Figure().Body(
		svg("svg").ID("compare-chart").Attr("viewBox", fmt.Sprintf("0 0 %g %g", w, h)).Attr("role", "img").
			Aria("label", "Mean accuracy per method with ± one standard deviation; the dashed line is the majority-class rate").Body(parts...),
		app.FigCaption().Text("Mean accuracy over the folds, ± one standard deviation; dashed: always predicting the largest class."),
	)
}

// pValue shows a p-value to three decimals, and the smallest ones as a
// bound: "0.000" would read as certainty.
func pValue(p float64) string {
	if p < 0.001 {
		return "< 0.001"
	}
	return fmt.Sprintf("%.3f", p)
}
