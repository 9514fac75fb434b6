package app

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/spec"
	"wkpi-web/wasm/protocol"
)

// LabelModes are the Node labels choices: id and label.
var LabelModes = [][2]string{
	{"off", "Off (the paper)"},
	{"on", "On: atom types"},
}

// labelHelp is the one-line explanation under the Node labels choice.
const labelHelp = "on adds where each common node label (atom type) sits as further descriptors (the molecules preset has them: on molecules' activity data they bring the fingerprints' ROC-AUC, at twice the time); off adds none, as in the paper"

func labelMode(t protocol.Training) string {
	if t.Labels {
		return "on"
	}
	return "off"
}

// ExtraChoices are the descriptor sets offered beside the main
// descriptor, as Training.Extra and a label.
var ExtraChoices = [][2]string{
	{"default", "HKS, degree (default)"},
	{spec.MoleculesExtra, "Atoms and bonds"},
	{"none", "None (the paper)"},
	{"ricci,jaccard,hks,degree", "Ricci, Jaccard, HKS, degree"},
}

// extraChoices are ExtraChoices and current, a list of the user's own
// (typed on the command line, or kept with a model's settings), when it
// is none of them: the menu shows what the settings hold.
func extraChoices(current string) [][2]string {
	for _, c := range ExtraChoices {
		if c[0] == current {
			return ExtraChoices
		}
	}
	return append(slices.Clone(ExtraChoices), [2]string{current, strings.ReplaceAll(current, ",", ", ")})
}

// setExtra stores a descriptor-set choice: "default" is Training.Extra's
// empty value, the workers' default set (features.ExtraFor).
func setExtra(f *protocol.Training, v string) {
	if v == "default" {
		v = ""
	}
	f.Extra = v
}

// fieldID is the Train form's element id of a setting.
func fieldID(name string) string { return "train-" + name }

// checkField parses text as the value of setting name, as the command
// line's flag would, and checks it with spec.Validate's rule; the message
// says what is wrong ("" when the value is fine). graphs bounds the folds.
func checkField(t protocol.Training, name, text string, graphs int) (protocol.Training, string) {
	f, ok := spec.Lookup(name)
	if !ok {
		return t, "Unknown setting."
	}
	next := t
	if err := f.Set(&next.Spec, text); err != nil {
		return t, "Enter " + f.Allowed() + "."
	}
	var fe spec.Errors
	if errors.As(next.Validate(), &fe) {
		for _, e := range fe {
			if e.Field == name {
				return t, "Enter " + e.Want + "."
			}
		}
	}
	if (name == "folds" || name == "inner") && graphs > 0 && next.Folds > graphs {
		return t, fmt.Sprintf("At most %d (the number of graphs).", graphs)
	}
	return next, ""
}

// shownAbove are the settings the form shows outside "Advanced".
var shownAbove = map[string]bool{"filtration": true, "extra": true, "labels": true, "folds": true, "seed": true}

// cliOnly are settings the page does not offer: its report is of one
// cross-validation, so repeats stay with `wkpi eval -repeats`.
var cliOnly = map[string]bool{"repeats": true}

func label(choices [][2]string, id string) string {
	for _, c := range choices {
		if c[0] == id {
			return c[1]
		}
	}
	return id
}

// plainSettings says what a run did in words a chemist reads without the
// method's symbols; describeSettings gives every setting behind it.
func plainSettings(t protocol.Training) string {
	what := label(Descriptors, t.Descriptor)
	if t.Descriptor == "given" {
		what = "The graphs' own node values"
	}
	switch t.Extra {
	case "":
		if !t.Labels && t.Descriptor != "given" {
			what += ", heat kernel signature and degree"
		}
	case spec.NoExtra:
	default:
		what += ", " + strings.ReplaceAll(t.Extra, ",", ", ")
	}
	s := what + " read as persistence images"
	if t.Labels {
		s += ", with the atom types"
	}
	s += fmt.Sprintf("; a weight on the images learned from the training graphs (at most %d steps); "+
		"%d-fold cross-validation: each fold's graphs predicted by a model trained on the others", t.Iterations, t.Folds)
	switch {
	case t.Protocol() == "nested":
		s += ", with the method's sizes and the classifier's settings chosen inside each fold"
	case t.Protocol() == "cost":
		s += ", with the method's sizes chosen inside each fold"
	case t.ChoosesSVM():
		s += ", with the classifier's settings chosen inside each fold"
	}
	return s + "."
}

// describeSettings writes the settings a run used, in full.
func describeSettings(t protocol.Training) string {
	tau := "fitted"
	if t.Tau > 0 {
		tau = strconv.FormatFloat(t.Tau, 'g', -1, 64)
	}
	s := fmt.Sprintf("%s; channels %s; %d-row images, τ %s; %s start; prior λ %g, contrast μ %g; at most %d iterations; %d folds, seed %d; ",
		label(Descriptors, t.Descriptor), strings.ReplaceAll(t.Channels, ",", " and "), t.Rows, tau,
		label(Inits, t.Init), t.Prior, t.Contrast, t.Iterations, t.Folds, t.Seed)
	switch t.Protocol() {
	case "nested":
		s += fmt.Sprintf("m, σ and C chosen in every fold by a nested %d-fold CV over %s (the final model: m = %d, σ = %g, C = %g)", t.Inner, gridName(t.Grid), t.M, t.Sigma, t.C)
	case "cost":
		s += fmt.Sprintf("m and σ chosen in every fold by the smallest training cost over %s, C = %g (the final model: m = %d, σ = %g)", gridName(t.Grid), t.C, t.M, t.Sigma)
	default:
		if t.ChoosesSVM() {
			s += fmt.Sprintf("m = %d, σ = %g; the SVM's kernel (WKPI, or the Gaussian of its distance) and C chosen in every fold by inner CV of the unlearned kernel", t.M, t.Sigma)
			break
		}
		s += fmt.Sprintf("m = %d, σ = %g, C = %g", t.M, t.Sigma, t.C)
		if t.Gauss > 0 {
			s += "; SVM on the Gaussian of the WKPI distance"
		}
	}
	s += "."
	switch t.Extra {
	case "":
		if !t.Labels && t.Descriptor != "given" {
			s += " Heat kernel signature and degree added (the default descriptor set)."
		}
	case spec.NoExtra:
		s += " The descriptor alone."
	default:
		s += " Extra descriptors: " + strings.ReplaceAll(t.Extra, ",", ", ") + "."
	}
	switch {
	case t.Raw:
		s += " Unnormalised images: graph size counts."
	case t.Automatic():
		s += " Images chosen per fold by inner CV: unit norm, or size-aware (unnormalised, σ = 1) where clearly better."
	}
	if t.Objective == "cka" {
		s += " Objective: kernel-target alignment."
	}
	if t.ChannelScales {
		s += " Block scales learned by alignment."
	}
	if t.Labels {
		s += " Node labels on: atom types used."
	}
	return s
}

func gridName(g string) string {
	if g == "" || g == spec.GridPaper {
		return "the paper's grid"
	}
	return "the grid " + g
}

// flag is an attribute value that go-app writes as a bare attribute when
// true and leaves out when false (a bool false would be written "false",
// which HTML reads as present).
func flag(b bool) string {
	if b {
		return "true"
	}
	return ""
}

// menuValue is a setting's value as a menu option's value: go-app
// leaves an empty value attribute out and writes "true" bare (the browser
// would then send the label), so those two travel as words.
func menuValue(v string) string {
	switch v {
	case "":
		return "none"
	case "true":
		return "on"
	case "false":
		return "off"
	}
	return v
}

// settingValue is the inverse of menuValue for a field with choices.
func settingValue(sf spec.Field, v string) string {
	switch {
	case sf.IsBool():
		return strconv.FormatBool(v == "on")
	case v == "none" && !slices.Contains(sf.Choices, "none"):
		return ""
	}
	return v
}

func (t *TrainTab) form() app.UI {
	if t.Form == nil {
		return app.Section().Class("card").Body(app.P().Class("busy").Text("Starting a worker…"))
	}
	f := *t.Form
	set := func(change func(*protocol.Training, string)) func(app.Context, app.Event) {
		return func(ctx app.Context, e app.Event) {
			// The settings as they are now, not as this render saw them:
			// go-app keeps an element's first handler while its code is
			// the same, so a value captured here would undo the changes
			// made since (a mode switched, then a menu chosen).
			next := *t.Form
			change(&next, ctx.JSSrc().Get("value").String())
			if t.OnForm != nil {
				t.OnForm(next)
			}
		}
	}
	choice := func(id, name, help string, choices [][2]string, current string, change func(*protocol.Training, string)) app.UI {
		return app.Div().Class("field wide").Body(
			app.Label().For(id).Text(name),
			app.Select().ID(id).Attr("disabled", flag(t.Running)).Aria("describedby", id+"-help").OnChange(set(change)).Body(
				app.Range(choices).Slice(func(i int) app.UI {
					return app.Option().Value(choices[i][0]).Attr("selected", flag(choices[i][0] == current)).Text(choices[i][1])
				}),
			),
			app.Span().ID(id+"-help").Class("field-help").Text(help),
		)
	}
	// setting is the control of one spec field: a menu for a switch or a
	// fixed set of values, a text box otherwise (numbers checked as typed).
	setting := func(sf spec.Field) app.UI {
		id := fieldID(sf.Name)
		current := sf.Get(&f.Spec)
		values := sf.Choices
		if sf.IsBool() {
			values = []string{"true", "false"}
		}
		if len(values) > 0 {
			choices := make([][2]string, len(values))
			for i, v := range values {
				choices[i] = [2]string{menuValue(v), menuValue(v)}
			}
			return choice(id, sf.Label, sf.Help, choices, menuValue(current), func(next *protocol.Training, v string) {
				sf.Set(&next.Spec, settingValue(sf, v))
			})
		}
		text, bad := t.Text[id]
		msg := ""
		if bad {
			_, msg = checkField(f, sf.Name, text, t.Summary.Graphs)
		} else {
			text = current
		}
		input := app.Input().ID(id).Type("text").Attr("inputmode", inputMode(sf)).Value(text).
			Attr("disabled", flag(t.Running)).Aria("describedby", id+"-help").
			OnInput(func(ctx app.Context, e app.Event) {
				if t.OnField != nil {
					t.OnField(sf.Name, ctx.JSSrc().Get("value").String())
				}
			})
		if msg != "" {
			input = input.Aria("invalid", "true").Aria("describedby", id+"-error")
		}
		return app.Div().Class("field").Body(
			app.Label().For(id).Text(sf.Label),
			input,
			app.If(msg != "", func() app.UI {
				return app.Span().ID(id + "-error").Class("field-error").Text(msg)
			}).Else(func() app.UI {
				return app.Span().ID(id + "-help").Class("field-help").Text(sf.Help)
			}),
		)
	}
	var groups []app.UI
	for _, g := range spec.Groups() {
		var controls []app.UI
		for _, sf := range spec.Fields() {
			if sf.Group == g && !shownAbove[sf.Name] && !cliOnly[sf.Name] {
				controls = append(controls, setting(sf))
			}
		}
		if len(controls) > 0 {
			groups = append(groups, app.FieldSet().Class("settings-group").ID("train-group-"+string(g)).Body(
				app.Legend().Text(g.Title()),
				app.Div().Class("form-grid").Body(controls...),
			))
		}
	}
	common := func(name string) app.UI {
		sf, _ := spec.Lookup(name)
		return setting(sf)
	}
	invalid := len(t.Text) > 0
	return app.Section().Class("card").ID("train-form").Body(
		app.H2().Text("Train and evaluate on "+t.Summary.Name),
		&TrainMode{Molecules: t.Summary.Molecules, AtomTypes: t.Summary.AtomTypes, Form: f, Disabled: t.Running, OnMode: t.OnMode},
		app.Div().Class("form-grid").Body(
			choice("train-filtration", "Descriptor", "the function on the nodes that persistence sweeps", Descriptors, f.Descriptor, func(f *protocol.Training, v string) { f.Descriptor = v }),
			choice("train-extra", "Further descriptors", "descriptors added to the first, each with its own images", extraChoices(cmp.Or(f.Extra, "default")), cmp.Or(f.Extra, "default"), setExtra),
			choice("train-labels", "Node labels", labelHelp, LabelModes, labelMode(f), func(f *protocol.Training, v string) { f.Labels = v == "on" }),
			common("folds"),
			common("seed"),
		),
		app.Details().ID("train-advanced").Body(
			app.Summary().Text("Advanced: every setting, in the groups of wkpi help"),
			app.Div().Body(groups...),
		),
		app.Div().Class("row").Body(
			app.Button().ID("train-run").Text("Run cross-validation").Attr("disabled", flag(t.Running || invalid)).
				OnClick(func(ctx app.Context, e app.Event) {
					if t.OnRun != nil {
						t.OnRun()
					}
				}),
			app.Button().ID("train-paper").Class("secondary").Text("Paper settings").Attr("disabled", flag(t.Running)).
				Title("The paper's protocol: one descriptor, unit images, m, σ and C by nested CV over its grid (slow)").
				OnClick(func(ctx app.Context, e app.Event) {
					if t.OnPreset != nil {
						t.OnPreset("paper")
					}
				}),
			app.Button().ID("train-size").Class("secondary").Text("Size-aware settings").Attr("disabled", flag(t.Running)).
				Title("Unnormalised images, HKS and degree added, σ = 1: graph size counts").
				OnClick(func(ctx app.Context, e app.Event) {
					if t.OnPreset != nil {
						t.OnPreset("size-aware")
					}
				}),
			app.Button().ID("train-reset").Class("secondary").Text("Reset to defaults").Attr("disabled", flag(t.Running)).
				Title("The data's default: the molecules preset for molecules, structure only for other graphs").
				OnClick(func(ctx app.Context, e app.Event) {
					if t.OnPreset != nil {
						t.OnPreset("default")
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
		app.If(t.Replace != "", func() app.UI {
			answer := func(a string) func(app.Context, app.Event) {
				return func(app.Context, app.Event) {
					if t.OnAnswer != nil {
						t.OnAnswer(a)
					}
				}
			}
			return app.Div().ID("train-ask").Class("ask").Attr("role", "group").Aria("labelledby", "train-ask-text").Body(
				app.P().ID("train-ask-text").Text(fmt.Sprintf("A model named %q is kept already. The run ends by training a new model on the whole dataset: replace %q with it, or keep both?", t.Replace, t.Replace)),
				app.Div().Class("row").Body(
					app.Button().ID("train-replace").Text("Replace it").OnClick(answer("replace")),
					app.Button().ID("train-both").Class("secondary").Text("Keep both").OnClick(answer("both")),
					app.Button().ID("train-ask-cancel").Class("secondary").Text("Do not run").OnClick(answer("cancel")),
				),
			)
		}),
		app.If(invalid, func() app.UI {
			return app.P().ID("train-invalid").Class("field-error").Text("Correct the fields marked above to run.")
		}),
		app.If(t.Running, func() app.UI {
			return app.Div().ID("train-progress").Body(
				app.Progress().Max(1).Value(fmt.Sprintf("%.3f", t.Fraction)).Aria("label", "Training progress"),
				app.P().Class("busy").Body(
					app.Span().ID("train-stage").Text(t.Progress),
					app.Span().ID("train-eta").Class("muted").Text(" "+t.ETA),
				),
				app.If(t.Workers > 0, func() app.UI {
					return app.P().ID("train-workers").Class("muted").Text(workersLine(t.Workers))
				}),
			)
		}),
		app.If(t.Error != "", func() app.UI {
			return app.P().ID("train-error").Class("error").Attr("role", "alert").Text(t.Error)
		}),
	)
}

// workersLine says how the run is spread over the page's Web Workers.
func workersLine(n int) string {
	if n == 1 {
		return "Running on 1 Web Worker: this browser reports one processor core."
	}
	return fmt.Sprintf("Running on %d Web Workers, one per processor core the browser reports (at most %d: each holds its own copy of the dataset's features in memory).", n, MaxWorkers)
}

// inputMode is the keyboard a phone shows for a setting.
func inputMode(f spec.Field) string {
	switch f.Ref(&spec.Spec{}).(type) {
	case *int, *int64:
		return "numeric"
	case *float64:
		return "decimal"
	}
	return "text"
}
