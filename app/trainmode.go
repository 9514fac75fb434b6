package app

import (
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/spec"
	"wkpi-web/wasm/protocol"
)

// The modes settingsMode names that are not spec.Presets names.
const (
	modeLabels    = "labels"     // node labels
	modeAtomTypes = "atom-types" // spec.AtomTypes: codes taken as atom types
)

// Modes are the modes TrainMode switches between, by name (spec.Presets
// names and modeAtomTypes), and their labels.
var Modes = map[string]string{
	spec.PresetMolecules: "Molecules",
	modeAtomTypes:        "Atom types",
	spec.PresetDefault:   "Structure only",
}

// TrainMode says in plain words what the Train tab's settings look at,
// and for data whose atoms it can read switches in one click between the
// mode that reads them (atomMode) and structure only.
type TrainMode struct {
	app.Compo
	// Molecules says the data are molecules (protocol.Summary.Molecules);
	// AtomTypes are their atom types when integer codes that no table
	// names type the atoms (protocol.Summary.AtomTypes). Other graphs
	// have no atoms to read, and get no switch.
	Molecules bool
	AtomTypes []string
	Form      protocol.Training // the settings shown
	Disabled  bool              // while a run goes on
	OnMode    func(name string) // a Modes name
}

// Render lays out the sentence and, for data whose atoms it can read,
// the switch.
func (t *TrainMode) Render() app.UI {
	mode := settingsMode(t.Form)
	text := modeText(t.Form, t.Molecules, t.AtomTypes)
	atoms := atomMode(t.Molecules, t.AtomTypes)
	if atoms == "" {
		return app.P().ID("train-mode").DataSet("mode", mode).Text(text)
	}
	names := []string{atoms, spec.PresetDefault}
	return app.FieldSet().ID("train-mode").Class("settings-group").DataSet("mode", mode).Aria("describedby", "train-mode-text").Body(
		app.Legend().Text("Mode"),
		app.Div().Class("row").Body(
			app.Range(names).Slice(func(i int) app.UI {
				name := names[i]
				id := "train-mode-" + name
				return app.Label().For(id).Body(
					app.Input().Type("radio").ID(id).Name("train-mode").Value(name).
						Checked(mode == name).Disabled(t.Disabled).
						OnChange(func(ctx app.Context, e app.Event) {
							if t.OnMode != nil {
								t.OnMode(name)
							}
						}),
					app.Text(" "+Modes[name]),
				)
			}),
		),
		app.P().ID("train-mode-text").Class("field-help").Text(text),
	)
}

// atomMode names the mode that reads the atoms of the data, which the
// switch offers beside structure only: molecules for molecules, atom
// types for atoms typed by codes (protocol.Summary.AtomTypes), "" for
// other graphs.
func atomMode(molecules bool, types []string) string {
	switch {
	case molecules:
		return spec.PresetMolecules
	case len(types) > 0:
		return modeAtomTypes
	}
	return ""
}

// settingsMode names what settings f look at, as features.Settings.Mode
// does: spec.PresetMolecules when a further descriptor reads atoms and
// bonds, modeAtomTypes when one reads atom types given as node labels
// (node labels or not: both presets have them), modeLabels in node-label
// mode, spec.PresetDefault (structure only) otherwise.
func settingsMode(f protocol.Training) string {
	molecular := anyDescriptor(f.Extra, spec.Descriptor.Molecular)
	switch {
	case molecular:
		return spec.PresetMolecules
	case anyDescriptor(f.Extra, spec.Descriptor.LabelGroup):
		return modeAtomTypes
	case f.Labels:
		return modeLabels
	}
	return spec.PresetDefault
}

// anyDescriptor says whether a descriptor of the list extra has property
// is (spec.Descriptor.Molecular, LabelGroup); a list that does not parse
// has none.
func anyDescriptor(extra string, is func(spec.Descriptor) bool) bool {
	list, err := spec.ParseDescriptors(extra)
	return err == nil && slices.ContainsFunc(list, is)
}

// modeText says in plain words what settings f look at; molecules and
// types say what the data's atoms are (protocol.Summary).
func modeText(f protocol.Training, molecules bool, types []string) string {
	extra := strings.ReplaceAll(f.Extra, ",", ", ")
	switch settingsMode(f) {
	case modeLabels:
		return "Node labels: atom types are used, bond types ignored."
	case spec.PresetMolecules:
		text := "Molecules: atoms and bonds are used by the further descriptors " + extra + "."
		if f.Extra == spec.MoleculesExtra {
			text = "Molecules: atoms, bonds and aromatic rings are used: bond orders of the whole molecule, of its carbon skeleton and of its N and O atoms, and the atoms' electronegativity, beside the structure."
		}
		switch {
		case f.Labels && f.LabelBonding:
			text += " Node labels add the heat of the commonest atom types' indicators: elements, with N and O told by their bonds and hydrogens (amide, amine with or without H, pyridine or azole; carbonyl, S=O or N=O, alcohol or acid hydroxyl, ether)."
		case f.Labels:
			text += " Node labels add the heat of the commonest elements' indicators."
		}
		return text
	case modeAtomTypes:
		if f.Labels && f.Extra == spec.AtomTypes(types).Extra {
			return "Atom types: no table names the node labels' codes, so they are taken as atom types: the degree on the subgraph of the commonest type and on the bonds around the next ones, and the heat of the commonest types' indicators, are used beside the structure."
		}
		text := "Atom types: the node labels' codes are taken as atom types by the further descriptors " + extra + "."
		if f.Labels {
			text += " Node labels add the heat of the commonest types' indicators."
		}
		return text
	}
	switch atomMode(molecules, types) {
	case spec.PresetMolecules:
		return "Structure only: atom and bond types ignored; two molecules of the same shape look the same."
	case modeAtomTypes:
		return "Structure only: atom types (the node labels' codes) ignored; two graphs of the same shape look the same."
	}
	return "Structure only: these graphs are not molecules (no atom and bond types), so their structure alone is used."
}

// withMode returns f in mode name (a Modes name) for data whose atom
// types are types: that mode's preset's further descriptors, node labels
// (their groups, diffusion time and atom types), tail cut and automatic choice of
// images (the molecules and atom-types presets fix unit images), every
// other setting as it was. Atom types need
// types; without them f stays as it is.
func withMode(f protocol.Training, name string, types []string) protocol.Training {
	var s spec.Spec
	switch p, ok := spec.Presets()[name]; {
	case name == modeAtomTypes && len(types) > 0:
		s = spec.AtomTypes(types)
	case ok:
		s = p()
	default:
		return f
	}
	f.Extra, f.Labels, f.Auto = s.Extra, s.Labels, s.Auto
	f.LabelGroups, f.LabelTime, f.LabelBonding, f.TailCut = s.LabelGroups, s.LabelTime, s.LabelBonding, s.TailCut
	return f
}
