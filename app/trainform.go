package app

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// Channel choices offered, as Training.Channels and a label.
var ChannelChoices = [][2]string{
	{"ord0+ext0,rel1+ext1", "Two: 0- and 1-dimensional points"},
	{"ord0+ext0+rel1+ext1", "One: all points together"},
}

// LabelModes are the Node labels choices: id and label.
var LabelModes = [][2]string{
	{"off", "Off: structure only (the paper)"},
	{"on", "On: atom types used"},
}

// labelHelp is the one-line explanation under the Node labels choice.
const labelHelp = "On adds, for each of the commonest node labels (atom types) of the training graphs, the heat diffusion of where that label sits as a further descriptor; off ignores labels, as the paper does."

func labelMode(t protocol.Training) string {
	if t.Labels {
		return "on"
	}
	return "off"
}

// ExtraChoices are the descriptor sets offered beside the main
// descriptor, as Training.Extra and a label (docs/accuracy.md, issue 8).
var ExtraChoices = [][2]string{
	{"default", "Add HKS and degree (default)"},
	{"none", "None: the descriptor alone (the paper)"},
	{"ricci,jaccard,hks,degree", "Add Ricci, Jaccard, HKS and degree"},
}

// setExtra stores a descriptor-set choice: "default" is Training.Extra's
// empty value, the workers' default set (features.ExtraFor).
func setExtra(f *protocol.Training, v string) {
	if v == "default" {
		v = ""
	}
	f.Extra = v
}

// ImageChoices say whether images are normalised (Training.Raw) or
// chosen automatically (neither Raw nor Fixed).
var ImageChoices = [][2]string{
	{"auto", "Automatic: unit or size-aware"},
	{"unit", "Unit norm (the authors' code)"},
	{"raw", "Unnormalised: graph size counts"},
}

// imagesOf is a Training's ImageChoices id.
func imagesOf(t protocol.Training) string {
	switch {
	case t.Raw:
		return "raw"
	case t.Fixed:
		return "unit"
	}
	return "auto"
}

// setImages stores an ImageChoices id.
func setImages(f *protocol.Training, v string) {
	f.Raw, f.Fixed = v == "raw", v == "unit"
}

// SVMChoices say how the SVM's kernel and C are set (Training.FixedSVM,
// Training.Gauss): chosen in every fold, or fixed.
var SVMChoices = [][2]string{
	{"auto", "Chosen per fold: kernel and C"},
	{"wkpi", "Fixed: WKPI kernel, C below"},
	{"gauss", "Fixed: Gaussian of the distance"},
}

// svmOf is a Training's SVMChoices id.
func svmOf(t protocol.Training) string {
	switch {
	case !t.FixedSVM:
		return "auto"
	case t.Gauss > 0:
		return "gauss"
	}
	return "wkpi"
}

// setSVM stores an SVMChoices id; the fixed Gaussian is at the median
// heuristic (scale 1).
func setSVM(f *protocol.Training, v string) {
	f.FixedSVM, f.Gauss = v != "auto", 0
	if v == "gauss" {
		f.Gauss = 1
	}
}

// Objectives are the learning's objectives: Training.Objective and label.
var Objectives = [][2]string{
	{"tc", "Total cost TC (the paper)"},
	{"cka", "Kernel-target alignment (CKA)"},
}

// ScaleChoices say whether per-block scales are learned (Training.ChannelScales).
var ScaleChoices = [][2]string{
	{"off", "Equal"},
	{"on", "Learned by alignment"},
}

func onOff(b bool, on, off string) string {
	if b {
		return on
	}
	return off
}

// Protocols are the ways a CV chooses its settings: id and label.
var Protocols = [][2]string{
	{"fixed", "Fixed: the settings above"},
	{"nested", "Paper grid, nested CV (slow)"},
	{"cost", "Paper grid, smallest training cost"},
}

// numField is one number of the Train form: how to show, check and store it.
type numField struct {
	id, label, help string
	integer         bool
	min             float64 // smallest allowed value
	strict          bool    // min itself is not allowed
	get             func(*protocol.Training) float64
	set             func(*protocol.Training, float64)
}

func ptr(v float64) *float64 { return &v }

// deref is *p, or 0 when p is nil.
func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// numFields are the Train form's numbers, in display order.
var numFields = []numField{
	{id: "train-m", label: "Components m", help: "Gaussians in the weight function", integer: true, min: 1,
		get: func(t *protocol.Training) float64 { return float64(t.M) }, set: func(t *protocol.Training, v float64) { t.M = int(v) }},
	{id: "train-sigma", label: "Kernel width σ", help: "width of the WKPI kernel", min: 0, strict: true,
		get: func(t *protocol.Training) float64 { return t.Sigma }, set: func(t *protocol.Training, v float64) { t.Sigma = v }},
	{id: "train-C", label: "SVM C", help: "soft-margin penalty of the SVM", min: 0, strict: true,
		get: func(t *protocol.Training) float64 { return t.C }, set: func(t *protocol.Training, v float64) { t.C = v }},
	{id: "train-folds", label: "Folds", help: "stratified cross-validation folds", integer: true, min: 2,
		get: func(t *protocol.Training) float64 { return float64(t.Folds) }, set: func(t *protocol.Training, v float64) { t.Folds = int(v) }},
	{id: "train-rows", label: "Image rows", help: "rows of the persistence images", integer: true, min: 2,
		get: func(t *protocol.Training) float64 { return float64(t.Rows) }, set: func(t *protocol.Training, v float64) { t.Rows = int(v) }},
	{id: "train-tau", label: "Image width τ (0: fitted)", help: "width of the images' Gaussians; 0 fits one to the grid", min: 0,
		get: func(t *protocol.Training) float64 { return t.Tau }, set: func(t *protocol.Training, v float64) { t.Tau = v }},
	{id: "train-iterations", label: "Iterations (at most)", help: "cap on the learning's iterations", integer: true, min: 1,
		get: func(t *protocol.Training) float64 { return float64(t.Iterations) }, set: func(t *protocol.Training, v float64) { t.Iterations = int(v) }},
	{id: "train-prior", label: "Prior weight λ", help: "anchors the mixture at its start; 0 is the paper's objective", min: 0,
		get: func(t *protocol.Training) float64 { return deref(t.Prior) }, set: func(t *protocol.Training, v float64) { t.Prior = ptr(v) }},
	{id: "train-contrast", label: "Contrast weight μ", help: "keeps the kernel's pairwise distances apart; 0 is the paper's objective", min: 0,
		get: func(t *protocol.Training) float64 { return deref(t.Contrast) }, set: func(t *protocol.Training, v float64) { t.Contrast = ptr(v) }},
	{id: "train-seed", label: "Seed", help: "splits the folds and starts the learning", integer: true, min: math.Inf(-1),
		get: func(t *protocol.Training) float64 { return float64(t.Seed) }, set: func(t *protocol.Training, v float64) { t.Seed = int64(v) }},
	{id: "train-inner", label: "Inner folds", help: "folds of the nested CV that picks the grid cell", integer: true, min: 2,
		get: func(t *protocol.Training) float64 { return float64(t.Inner) }, set: func(t *protocol.Training, v float64) { t.Inner = int(v) }},
}

func fieldByID(id string) (numField, bool) {
	for _, f := range numFields {
		if f.id == id {
			return f, true
		}
	}
	return numField{}, false
}

// check parses text as field f's value; the message says what is wrong
// ("" when the value is fine). graphs bounds the folds.
func (f numField) check(text string, graphs int) (float64, string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return 0, "Enter a number."
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Sprintf("%q is not a number.", text)
	}
	switch {
	case f.integer && v != math.Trunc(v):
		return 0, "Enter a whole number."
	case f.strict && v <= f.min:
		return 0, fmt.Sprintf("Must be more than %g.", f.min)
	case v < f.min:
		return 0, fmt.Sprintf("Must be at least %g.", f.min)
	case (f.id == "train-folds" || f.id == "train-inner") && graphs > 0 && v > float64(graphs):
		return 0, fmt.Sprintf("At most %d (the number of graphs).", graphs)
	}
	return v, ""
}

// protocolOf names t's protocol as in Protocols.
func protocolOf(t protocol.Training) string {
	switch {
	case t.Grid == "paper" && t.Select == "cost":
		return "cost"
	case t.Grid == "paper":
		return "nested"
	}
	return "fixed"
}

func setProtocol(t *protocol.Training, p string) {
	t.Grid, t.Select = "", ""
	switch p {
	case "nested":
		t.Grid = "paper"
	case "cost":
		t.Grid, t.Select = "paper", "cost"
	}
}

func label(choices [][2]string, id string) string {
	for _, c := range choices {
		if c[0] == id {
			return c[1]
		}
	}
	return id
}

// describeSettings writes the settings a run used, in full.
func describeSettings(t protocol.Training) string {
	tau := "fitted"
	if t.Tau > 0 {
		tau = strconv.FormatFloat(t.Tau, 'g', -1, 64)
	}
	s := fmt.Sprintf("%s; channels %s; %d-row images, τ %s; %s start; prior λ %g, contrast μ %g; at most %d iterations; %d folds, seed %d; ",
		label(Descriptors, t.Descriptor), strings.ReplaceAll(t.Channels, ",", " and "), t.Rows, tau,
		label(Inits, t.Init), deref(t.Prior), deref(t.Contrast), t.Iterations, t.Folds, t.Seed)
	switch protocolOf(t) {
	case "nested":
		s += fmt.Sprintf("m, σ and C chosen in every fold by a nested %d-fold CV over the paper's grid (the final model: m = %d, σ = %g, C = %g)", t.Inner, t.M, t.Sigma, t.C)
	case "cost":
		s += fmt.Sprintf("m and σ chosen in every fold by the smallest training cost over the paper's grid, C = %g (the final model: m = %d, σ = %g)", t.C, t.M, t.Sigma)
	case "fixed":
		if !t.FixedSVM {
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
	case "none":
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

// flag is an attribute value that go-app writes as a bare attribute when
// true and leaves out when false (a bool false would be written "false",
// which HTML reads as present).
func flag(b bool) string {
	if b {
		return "true"
	}
	return ""
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
	choice := func(id, name string, choices [][2]string, current string, change func(*protocol.Training, string)) app.UI {
		return app.Div().Class("field wide").Body(
			app.Label().For(id).Text(name),
			app.Select().ID(id).Attr("disabled", flag(t.Running)).OnChange(set(change)).Body(
				app.Range(choices).Slice(func(i int) app.UI {
					return app.Option().Value(choices[i][0]).Attr("selected", flag(choices[i][0] == current)).Text(choices[i][1])
				}),
			),
		)
	}
	proto := protocolOf(f)
	number := func(n numField) app.UI {
		text, bad := t.Text[n.id]
		msg := ""
		if bad {
			_, msg = n.check(text, t.Summary.Graphs)
		} else {
			text = strconv.FormatFloat(n.get(&f), 'g', -1, 64)
		}
		step := "any"
		if n.integer {
			step = "1"
		}
		input := app.Input().ID(n.id).Type("number").Attr("step", step).Value(text).Title(n.help).
			Attr("disabled", flag(t.Running)).Aria("describedby", n.id+"-help").
			OnInput(func(ctx app.Context, e app.Event) {
				if t.OnField != nil {
					t.OnField(n.id, ctx.JSSrc().Get("value").String())
				}
			})
		if msg != "" {
			input = input.Aria("invalid", "true").Aria("describedby", n.id+"-error")
		}
		return app.Div().Class("field").Body(
			app.Label().For(n.id).Text(n.label),
			input,
			app.If(msg != "", func() app.UI {
				return app.Span().ID(n.id + "-error").Class("field-error").Text(msg)
			}).Else(func() app.UI {
				return app.Span().ID(n.id + "-help").Class("field-help").Text(n.help)
			}),
		)
	}
	var fixed, shared []app.UI
	for _, n := range numFields {
		switch {
		case n.id == "train-C":
			// A fixed SVM's C, or the cost protocol's; otherwise chosen.
			if (proto == "fixed" && f.FixedSVM) || proto == "cost" {
				fixed = append(fixed, number(n))
			}
		case n.id == "train-m" || n.id == "train-sigma":
			if proto == "fixed" {
				fixed = append(fixed, number(n))
			}
		case n.id == "train-inner":
			if proto == "nested" {
				shared = append(shared, number(n))
			}
		default:
			shared = append(shared, number(n))
		}
	}
	invalid := len(t.Text) > 0
	return app.Section().Class("card").ID("train-form").Body(
		app.H2().Text("Train and evaluate on "+t.Summary.Name),
		app.Div().Class("form-grid").Body(
			choice("train-descriptor", "Descriptor", Descriptors, f.Descriptor, func(f *protocol.Training, v string) { f.Descriptor = v }),
			choice("train-channels", "Image channels", ChannelChoices, f.Channels, func(f *protocol.Training, v string) { f.Channels = v }),
			choice("train-init", "Initialisation", Inits, f.Init, func(f *protocol.Training, v string) { f.Init = v }),
			choice("train-protocol", "How m, σ and C are chosen", Protocols, proto, setProtocol),
			choice("train-extra", "Descriptor set", ExtraChoices, cmp.Or(f.Extra, "default"), setExtra),
			choice("train-images", "Images", ImageChoices, imagesOf(f), setImages),
			app.If(proto == "fixed", func() app.UI {
				return choice("train-svm", "SVM kernel and C", SVMChoices, svmOf(f), setSVM)
			}),
			choice("train-objective", "Learning objective", Objectives, onOff(f.Objective == "cka", "cka", "tc"), func(f *protocol.Training, v string) { f.Objective = v }),
			choice("train-scales", "Scales of the image blocks", ScaleChoices, onOff(f.ChannelScales, "on", "off"), func(f *protocol.Training, v string) { f.ChannelScales = v == "on" }),
			app.Div().Class("field wide").Body(
				app.Label().For("train-labels").Text("Node labels"),
				app.Select().ID("train-labels").Attr("disabled", flag(t.Running)).Aria("describedby", "train-labels-help").
					OnChange(set(func(f *protocol.Training, v string) { f.Labels = v == "on" })).Body(
					app.Range(LabelModes).Slice(func(i int) app.UI {
						return app.Option().Value(LabelModes[i][0]).Attr("selected", flag(LabelModes[i][0] == labelMode(f))).Text(LabelModes[i][1])
					}),
				),
				app.Span().ID("train-labels-help").Class("field-help").Text(labelHelp),
			),
		),
		app.Div().Class("form-grid").Body(fixed...),
		app.Div().Class("form-grid").Body(shared...),
		app.Div().Class("row").Body(
			app.Button().ID("train-run").Text("Run cross-validation").Attr("disabled", flag(t.Running || invalid)).
				OnClick(func(ctx app.Context, e app.Event) {
					if t.OnRun != nil {
						t.OnRun()
					}
				}),
			app.Button().ID("train-paper").Class("secondary").Text("Paper settings").Attr("disabled", flag(t.Running)).
				OnClick(func(ctx app.Context, e app.Event) {
					if t.OnPreset != nil {
						t.OnPreset("paper")
					}
				}),
			app.Button().ID("train-size").Class("secondary").Text("Size-aware settings").Attr("disabled", flag(t.Running)).
				Title("Unnormalised images, HKS and degree added, σ = 1: better on MUTAG and PROTEINS, the majority class on PTC_MR (docs/accuracy.md)").
				OnClick(func(ctx app.Context, e app.Event) {
					if t.OnPreset != nil {
						t.OnPreset("size")
					}
				}),
			app.Button().ID("train-reset").Class("secondary").Text("Reset to defaults").Attr("disabled", flag(t.Running)).
				OnClick(func(ctx app.Context, e app.Event) {
					if t.OnPreset != nil {
						t.OnPreset("defaults")
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
			)
		}),
		app.If(t.Error != "", func() app.UI {
			return app.P().ID("train-error").Class("error").Attr("role", "alert").Text(t.Error)
		}),
	)
}
