package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/spec"
	"wkpi-web/wasm/protocol"
)

// modeLabels is settingsMode's name of the node-label mode.
const modeLabels = "labels"

// Modes are the two modes TrainMode switches between, as spec.Presets
// names and labels.
var Modes = [][2]string{
	{spec.PresetMolecules, "Molecules"},
	{spec.PresetDefault, "Structure only"},
}

// TrainMode says in plain words what the Train tab's settings look at,
// and for molecules switches in one click between the molecules preset's
// descriptors (atoms and bonds) and structure only.
type TrainMode struct {
	app.Compo
	// Molecules says the data are molecules (protocol.Summary.Molecules);
	// other graphs have no atoms and bonds, and get no switch.
	Molecules bool
	Form      protocol.Training // the settings shown
	Disabled  bool              // while a run goes on
	OnMode    func(name string) // a Modes name
}

// Render lays out the sentence and, for molecules, the switch.
func (t *TrainMode) Render() app.UI {
	mode := settingsMode(t.Form)
	text := modeText(t.Form, t.Molecules)
	if !t.Molecules {
		return app.P().ID("train-mode").DataSet("mode", mode).Text(text)
	}
	return app.FieldSet().ID("train-mode").Class("settings-group").DataSet("mode", mode).Aria("describedby", "train-mode-text").Body(
		app.Legend().Text("Mode"),
		app.Div().Class("row").Body(
			app.Range(Modes).Slice(func(i int) app.UI {
				name, label := Modes[i][0], Modes[i][1]
				id := "train-mode-" + name
				return app.Label().For(id).Body(
					app.Input().Type("radio").ID(id).Name("train-mode").Value(name).
						Checked(mode == name).Disabled(t.Disabled).
						OnChange(func(ctx app.Context, e app.Event) {
							if t.OnMode != nil {
								t.OnMode(name)
							}
						}),
					app.Text(" "+label),
				)
			}),
		),
		app.P().ID("train-mode-text").Class("field-help").Text(text),
	)
}

// settingsMode names what settings f look at: spec.PresetMolecules when
// a further descriptor reads atoms and bonds, modeLabels in node-label
// mode, spec.PresetDefault (structure only) otherwise. Node labels come
// first, as in features.Settings.Mode.
func settingsMode(f protocol.Training) string {
	switch {
	case f.Labels:
		return modeLabels
	case molecular(f.Extra):
		return spec.PresetMolecules
	}
	return spec.PresetDefault
}

// molecular says whether a list of further descriptors reads atoms and
// bonds (spec.Descriptor.Molecular).
func molecular(extra string) bool {
	list, err := spec.ParseDescriptors(extra)
	if err != nil {
		return false
	}
	for _, d := range list {
		if d.Molecular() {
			return true
		}
	}
	return false
}

// modeText says in plain words what settings f look at; molecules says
// whether the data are molecules.
func modeText(f protocol.Training, molecules bool) string {
	switch settingsMode(f) {
	case modeLabels:
		if molecular(f.Extra) {
			return "Node labels: atom types are used, and the further descriptors " + strings.ReplaceAll(f.Extra, ",", ", ") + " read atoms and bonds."
		}
		return "Node labels: atom types are used, bond types ignored."
	case spec.PresetMolecules:
		if f.Extra == spec.MoleculesExtra {
			return "Molecules: atoms, bonds and aromatic rings are used: bond orders of the whole molecule, of its carbon skeleton and of its N and O atoms, and the atoms' electronegativity, beside the structure."
		}
		return "Molecules: atoms and bonds are used by the further descriptors " + strings.ReplaceAll(f.Extra, ",", ", ") + "."
	}
	if !molecules {
		return "Structure only: these graphs are not molecules (no atom and bond types), so their structure alone is used."
	}
	return "Structure only: atom and bond types ignored; two molecules of the same shape look the same."
}

// withMode returns f in mode name (a Modes name): that preset's further
// descriptors, node labels and automatic choice of images (the molecules
// preset fixes unit images), every other setting as it was.
func withMode(f protocol.Training, name string) protocol.Training {
	p, ok := spec.Presets()[name]
	if !ok {
		return f
	}
	s := p()
	f.Extra, f.Labels, f.Auto = s.Extra, s.Labels, s.Auto
	return f
}
