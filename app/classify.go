package app

import (
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// smilesExample is the text area's placeholder: what a line looks like.
const smilesExample = "c1ccc(cc1)[N+](=O)[O-] nitrobenzene\nCCO ethanol"

// ClassifyTab classifies typed SMILES or uploaded graphs with the current
// model and shows, for the chosen graph, its diagram points over the
// learned weight function.
type ClassifyTab struct {
	app.Compo
	Model   *protocol.Info
	Weight  []float64 // the model's heat map
	Waiting string    // what the page waits for before a model is current: "" when nothing
	Running bool
	Error   string
	SMILES  string // the text area's content
	Graphs  []protocol.Graph
	Chosen  int
	CSV     string // object URL of the predictions as CSV, for download
	// Explaining says the chosen graph's explanation is being computed,
	// ExplainError why it could not be; Explanation shows it, nil when
	// there is none.
	Explaining   bool
	ExplainError string
	Explanation  *ExplainView
	// OnSMILES gets the text area's content as it changes; OnClassify
	// asks for it to be classified; OnExplain asks for the chosen graph's
	// explanation.
	OnSMILES   func(string)
	OnClassify func()
	OnUpload   func(files app.Value)
	OnChoose   func(int)
	OnExplain  func()
}

// Render lays out the input, the predictions and the chosen graph.
func (c *ClassifyTab) Render() app.UI {
	ready := c.Model != nil && !c.Running
	return app.Div().Class("tab-body").Body(
		app.Section().Class("card").Body(
			app.If(c.Model == nil, func() app.UI {
				if c.Waiting != "" {
					return app.Div().Body(
						app.H2().Text("Classify molecules"),
						app.P().ID("classify-waiting").Class("busy").Text(c.Waiting),
					)
				}
				return app.Div().Body(
					app.H2().Text("Classify"),
					app.P().ID("classify-nomodel").Text("No model yet: train one on the Train tab, or load a model file on the Models tab."),
				)
			}).Else(func() app.UI {
				return app.Div().Body(
					app.H2().Text("Classify molecules with the model of "+c.Model.Dataset),
					app.P().ID("classify-about").Body(
						app.Strong().ID("classify-mode").Text(modeLine(c.Model.Mode)),
						app.Text(" "+aboutClasses(c.Model)),
					),
				)
			}),
			c.smilesForm(ready),
			app.If(c.Model != nil, func() app.UI { return c.dropzone() }),
			app.If(c.Running, func() app.UI { return app.P().ID("classify-busy").Class("busy").Text("Classifying…") }),
			app.If(c.Error != "", func() app.UI {
				return app.P().ID("classify-error").Class("error").Attr("role", "alert").Text(c.Error)
			}),
		),
		app.If(len(c.Graphs) > 0 && c.Model != nil, func() app.UI { return c.results() }),
	)
}

// smilesForm is the text area for typed or pasted SMILES and its button.
func (c *ClassifyTab) smilesForm(ready bool) app.UI {
	return app.Form().ID("classify-smiles-form").Class("smiles-form").
		OnSubmit(func(ctx app.Context, e app.Event) {
			e.PreventDefault()
			// go-app keeps the handler of the first render (same code,
			// same handler), so the state is read now, not captured.
			if c.Model != nil && !c.Running && c.OnClassify != nil {
				c.OnClassify()
			}
		}).Body(
		app.Label().For("classify-smiles").Text("SMILES, one per line, each optionally followed by a space and a name:"),
		app.Textarea().ID("classify-smiles").Rows(4).Placeholder(smilesExample).
			Attr("spellcheck", "false").Attr("autocapitalize", "off").Attr("autocomplete", "off").
			Text(c.SMILES).
			OnInput(func(ctx app.Context, e app.Event) {
				if c.OnSMILES != nil {
					c.OnSMILES(ctx.JSSrc().Get("value").String())
				}
			}),
		app.Div().Class("row").Body(
			app.Button().ID("classify-run").Type("submit").Text("Classify").
				Attr("disabled", flag(!ready || strings.TrimSpace(c.SMILES) == "")),
		),
	)
}

// dropzone takes graph files, dropped or chosen.
func (c *ClassifyTab) dropzone() app.UI {
	upload := func(files app.Value) {
		if c.OnUpload != nil && files.Truthy() && files.Length() > 0 {
			c.OnUpload(app.Window().Get("Array").Call("from", files))
		}
	}
	return app.Div().ID("classify-drop").Class("dropzone").
		OnDragOver(func(ctx app.Context, e app.Event) { e.PreventDefault() }).
		OnDrop(func(ctx app.Context, e app.Event) {
			e.PreventDefault()
			upload(e.Get("dataTransfer").Get("files"))
		}).Body(
		app.Label().For("classify-upload").Text("Or files: SMILES (.smi, or a .csv or .tsv table with a smiles column), MOL/SDF, edge list, GraphML, JSON, or a TU set: drop them here or choose them: "),
		app.Input().ID("classify-upload").Type("file").Multiple(true).Accept(protocol.GraphAccept).Attr("disabled", flag(c.Running)).
			OnChange(func(ctx app.Context, e app.Event) {
				upload(ctx.JSSrc().Get("files"))
				ctx.JSSrc().Set("value", "") // the same file may be chosen again
			}),
	)
}

func (c *ClassifyTab) results() app.UI {
	chosen := min(max(c.Chosen, 0), len(c.Graphs)-1)
	g := c.Graphs[chosen]
	right, labelled := score(c.Graphs)
	classes := c.Model.Classes
	counts := countClasses(c.Graphs, classes)
	return app.Div().Body(
		app.Section().Class("card").ID("classify-results").Body(
			app.H2().Text("Predictions"),
			app.P().ID("classify-counts").Body(
				app.Text(fmt.Sprintf("%d %s: ", len(c.Graphs), plural(len(c.Graphs), "prediction", "predictions"))),
				app.Range(counts).Slice(func(i int) app.UI {
					n := counts[i]
					sep := ", "
					if i == len(counts)-1 {
						sep = "."
					}
					return app.Span().Body(
						app.Span().Class("count").DataSet("class", n.Label).DataSet("count", n.Count).
							Text(fmt.Sprintf("%s for %d", className(n.Label), n.Count)),
						app.Text(sep),
					)
				}),
			),
			app.If(labelled > 0, func() app.UI {
				return app.P().ID("classify-accuracy").Class("accuracy-line").DataSet("value", float64(right)/float64(labelled)).Text(
					fmt.Sprintf("Accuracy against the upload's own labels: %.1f %% (%d of %d graphs).", 100*float64(right)/float64(labelled), right, labelled))
			}),
			scroller("Predictions table").Body(
				app.Table().ID("predictions").Class("stack").Body(
					app.THead().Body(app.Tr().Body(
						app.Th().Text("Name"), app.Th().Text("Predicted"), app.Th().Text("Decision"),
						app.If(labelled > 0, func() app.UI { return app.Th().Text("Label") }),
						app.Th().Text("Nodes"), app.Th().Text("Edges"), app.Th().Text("File"), app.Th().Text("Graph"),
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
							// The name cell is a button, so the keyboard reaches every row.
							return app.Tr().Class(cls).OnClick(choose).Body(
								app.Td().Class("name").DataSet("label", "Name").Body(app.Button().Class("link").Aria("pressed", fmt.Sprint(i == chosen)).
									Title("Show its diagram").Text(displayName(g))),
								app.Td().Class("predicted").DataSet("label", "Predicted").Text(className(g.Label)),
								app.Td().Class("decision").DataSet("label", "Decision").DataSet("values", decisions(g.Decision)).Text(decisionWords(g.Decision, classes)),
								app.If(labelled > 0, func() app.UI { return app.Td().Class("truth").DataSet("label", "Label").Text(className(g.Truth)) }),
								app.Td().DataSet("label", "Nodes").Text(fmt.Sprint(g.Nodes)), app.Td().DataSet("label", "Edges").Text(fmt.Sprint(g.Edges)),
								app.Td().Class("file").DataSet("label", "File").Text(g.File), app.Td().DataSet("label", "Graph").Text(fmt.Sprint(g.Index)),
							)
						}),
					),
				),
			),
			app.P().ID("classify-decision-help").Class("muted").Text(decisionHelp(classes)+" Choose a name to see its diagram."),
			app.If(c.CSV != "", func() app.UI {
				return app.A().ID("classify-csv").Class("button").Href(c.CSV).Attr("download", "predictions.csv").Text("Download the predictions (CSV)")
			}),
		),
		app.Div().Class("columns").Body(
			app.Section().Class("card").ID("classify-chosen").Body(
				app.H2().Text(fmt.Sprintf("%s: predicted %s", displayName(g), className(g.Label))),
				app.Dl().Body(
					app.Dt().Text("Decision"), app.Dd().Text(decisionWords(g.Decision, classes)),
					app.Dt().Text("File"), app.Dd().Text(fmt.Sprintf("%s, graph %d", g.File, g.Index)),
					app.Dt().Text("Size"), app.Dd().Text(fmt.Sprintf("%d nodes, %d edges", g.Nodes, g.Edges)),
					app.Dt().Text("Diagram points"), app.Dd().Text(fmt.Sprint(len(g.Points))),
				),
				app.Div().Class("row").Body(
					app.Button().ID("classify-explain").Text("Explain").Attr("disabled", flag(c.Explaining)).
						Title("Which atoms, bonds and diagram points decided its class").
						OnClick(func(ctx app.Context, e app.Event) {
							if c.OnExplain != nil {
								c.OnExplain()
							}
						}),
					app.If(c.Explaining, func() app.UI { return app.Span().ID("explain-busy").Class("busy").Text("Explaining…") }),
				),
				app.If(c.ExplainError != "", func() app.UI {
					return app.P().ID("explain-error").Class("error").Attr("role", "alert").Text(c.ExplainError)
				}),
			),
			app.Section().Class("card").Body(
				app.H2().Text("Its diagram over the learned weight"),
				&HeatView{ID: "classify-heat", Grid: c.Model.Grid, Values: c.Weight, Points: g.Points,
					Caption: "The learned weight function with this graph's diagram points."},
			),
		),
		app.If(c.Explanation != nil, func() app.UI { return c.Explanation }),
	)
}

// displayName is what the predictions call a graph: its name in its
// file, else its file and place there ("MUTAG, graph 2").
func displayName(g protocol.Graph) string {
	if g.Name != "" {
		return g.Name
	}
	return fmt.Sprintf("%s, graph %d", g.File, g.Index)
}

// countClasses counts the predictions of each of the model's classes, in
// the model's order; a label the model does not list (none should) comes
// after them.
func countClasses(graphs []protocol.Graph, classes []string) []protocol.Class {
	out := make([]protocol.Class, len(classes))
	for i, c := range classes {
		out[i].Label = c
	}
	for _, g := range graphs {
		i := slices.IndexFunc(out, func(c protocol.Class) bool { return c.Label == g.Label })
		if i < 0 {
			out = append(out, protocol.Class{Label: g.Label})
			i = len(out) - 1
		}
		out[i].Count++
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// classPairs lists the one-against-one class pairs in the SVM's order,
// the order of the decision values.
func classPairs(classes []string) [][2]string {
	var out [][2]string
	for i := range classes {
		for j := i + 1; j < len(classes); j++ {
			out = append(out, [2]string{classes[i], classes[j]})
		}
	}
	return out
}

// decisionWords says what decision values mean: "+0.57: towards class -1"
// with two classes, one such phrase per pair with more. A value votes for
// the first class of its pair when positive, for the second when
// negative; beyond ±1 it lies outside the SVM's margin ("clearly").
func decisionWords(d []float64, classes []string) string {
	pairs := classPairs(classes)
	if len(pairs) != len(d) {
		return decisions(d) // not this model's decisions; say the numbers only
	}
	s := make([]string, len(d))
	for k, v := range d {
		class := pairs[k][0]
		if v < 0 {
			class = pairs[k][1]
		}
		var w string
		switch a := math.Abs(v); {
		case v == 0:
			w = "0: undecided"
		case a >= 1:
			w = fmt.Sprintf("%+.2f: clearly %s", v, className(class))
		default:
			w = fmt.Sprintf("%+.2f: towards %s", v, className(class))
		}
		if len(pairs) > 1 {
			w += fmt.Sprintf(" (%s vs %s)", pairs[k][0], pairs[k][1])
		}
		s[k] = w
	}
	return strings.Join(s, "; ")
}

// decisionHelp explains the decision values in words.
func decisionHelp(classes []string) string {
	if len(classes) == 2 {
		return fmt.Sprintf("The decision value is the SVM's score for the pair %s: positive means %s, negative %s. Near 0 the model hesitates; beyond ±1 (\"clearly\") the graph lies outside the SVM's margin, on its class's side.",
			pairs(classes), className(classes[0]), className(classes[1]))
	}
	return "Each decision value is the SVM's score for one pair of classes: positive votes for the first class of the pair, negative for the second (" +
		pairs(classes) + "); the class with the most votes is predicted. Near 0 the model hesitates; beyond ±1 (\"clearly\") the graph lies outside the SVM's margin."
}

// modeLine says what a model of mode (protocol.Info.Mode) looks at.
func modeLine(mode string) string {
	const (
		molecules = "its bond orders and aromatic rings, its carbon skeleton, the bonds around its nitrogen, oxygen and halogen atoms and its atoms' electronegativity"
		atomTypes = "the subgraph of its commonest atom type and the bonds around the next ones"
		labels    = "where each of its commonest node labels (atom types) sits"
		codes     = "Molfiles need a model trained with the dataset's code table (the \"Node labels\" table of its README.txt, which the demo datasets include)."
	)
	switch mode {
	case "molecules":
		return "Mode: molecules: atoms and bonds used. The model sees the structure of a molecule, " + molecules + "."
	case "molecules and node labels":
		return "Mode: molecules and node labels: atoms, bonds and atom types used. The model sees the structure of a molecule, " + molecules + ", and " + labels + "."
	case "atom types":
		return "Mode: atom types: node labels used as atom types, bond types ignored. The model sees the structure of a graph and " + atomTypes + "."
	case "atom types and node labels":
		return "Mode: atom types and node labels: node labels used as atom types, bond types ignored. The model sees the structure of a graph, " + atomTypes + ", and " + labels + "."
	case "node labels":
		return "Mode: node labels: atom types used. The model sees the structure of a graph and " + labels + "; bond types are ignored. " + codes
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

// aboutClasses says what a model's classes are: a threshold's classes
// name their target and cut ("pAct < 6.44"), a molecule file's classes
// are the values of its target column, a bundled TU dataset's are the
// labels of its graph label file, which does not say what they mean.
func aboutClasses(m *protocol.Info) string {
	list := classList(m.Classes)
	switch {
	case cutPair(m.Classes):
		return fmt.Sprintf("Its classes are %s.", list)
	case m.Target != "":
		return fmt.Sprintf("Its classes are the values of %s in %s's file: %s.", m.Target, m.Dataset, list)
	case slices.Contains(Demos, m.Dataset):
		return fmt.Sprintf("Its classes are %s, the labels of %s's graph label file; %s's files do not say what they mean.", list, m.Dataset, m.Dataset)
	}
	return fmt.Sprintf("Its classes are %s, as the data it was trained on (%s) names them.", list, m.Dataset)
}

// cutPair reports whether classes are the two classes of a threshold,
// "T < X" and "T >= X" (core/dataset.CutClasses).
func cutPair(classes []string) bool {
	if len(classes) != 2 {
		return false
	}
	t, x, ok := strings.Cut(classes[0], " < ")
	return ok && t != "" && classes[1] == t+" >= "+x
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

// predictionsCSV writes the predictions as CSV: one row per graph, led
// by its name in its file ("" when the file names nothing).
func predictionsCSV(graphs []protocol.Graph) []byte {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write([]string{"name", "file", "graph", "nodes", "edges", "predicted", "label", "decision_values"})
	for _, g := range graphs {
		w.Write([]string{g.Name, g.File, fmt.Sprint(g.Index), fmt.Sprint(g.Nodes), fmt.Sprint(g.Edges), g.Label, g.Truth, decisions(g.Decision)})
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
	for _, p := range classPairs(classes) {
		s = append(s, p[0]+" vs "+p[1])
	}
	return strings.Join(s, ", ")
}
