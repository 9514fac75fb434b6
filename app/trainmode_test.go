package app

import (
	stdhtml "html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/spec"
	"wkpi-web/wasm/protocol"
)

// nci1 are NCI1's commonest atom types, as the Load summary gives them
// (wasm/jobs TestLoadSummaryMolecules).
var nci1 = []string{"3", "1", "2", "4", "5", "7"}

// TestSettingsMode: the page names the mode of a setting as the pipeline
// does (eval.FromSpec, then features.Settings.Mode), which the page does
// not link.
func TestSettingsMode(t *testing.T) {
	pipeline := map[string]string{
		features.ModeStructure: spec.PresetDefault,
		features.ModeMolecules: spec.PresetMolecules, features.ModeMoleculesLabels: spec.PresetMolecules,
		features.ModeAtomTypes: modeAtomTypes, features.ModeAtomTypesLabels: modeAtomTypes,
		features.ModeLabels: modeLabels,
	}
	for _, tc := range []struct {
		name   string
		change func(*spec.Spec)
		want   string
	}{
		{"defaults", func(*spec.Spec) {}, spec.PresetDefault},
		{"molecules preset", func(s *spec.Spec) { *s = spec.Molecules() }, spec.PresetMolecules},
		{"paper", func(s *spec.Spec) { *s = spec.Paper() }, spec.PresetDefault},
		{"no further descriptor", func(s *spec.Spec) { s.Extra = spec.NoExtra }, spec.PresetDefault},
		{"structural list", func(s *spec.Spec) { s.Extra = "ricci,jaccard,hks@0.5,degree" }, spec.PresetDefault},
		{"bond orders alone", func(s *spec.Spec) { s.Extra = "bonds" }, spec.PresetMolecules},
		{"electronegativity", func(s *spec.Spec) { s.Extra = "hks,en" }, spec.PresetMolecules},
		{"degree of the carbon atoms", func(s *spec.Spec) { s.Extra = "degree:C" }, spec.PresetMolecules},
		{"node labels", func(s *spec.Spec) { s.Labels = true }, modeLabels},
		{"molecules without node labels", func(s *spec.Spec) { *s = spec.Molecules(); s.Labels = false }, spec.PresetMolecules},
		{"atom-types preset", func(s *spec.Spec) { *s = spec.AtomTypes(nci1) }, modeAtomTypes},
		{"atom types without node labels", func(s *spec.Spec) { *s = spec.AtomTypes(nci1); s.Labels = false }, modeAtomTypes},
		{"heat of a group of atom types", func(s *spec.Spec) { s.Extra = "hks:#1+#2" }, modeAtomTypes},
		{"atom types beside bond orders", func(s *spec.Spec) { s.Extra = "degree:#3,bonds" }, spec.PresetMolecules},
		{"atom types beside bond orders, node labels", func(s *spec.Spec) { s.Extra, s.Labels = "degree:#3,bonds", true }, spec.PresetMolecules},
	} {
		f := protocol.Training{Spec: spec.Defaults()}
		tc.change(&f.Spec)
		u, err := eval.FromSpec(f.Spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if f.Labels {
			u.Features.Labels = &features.Labels{} // FeaturesFor fits the vocabulary per fold
		}
		mode := u.Features.Mode()
		if got := settingsMode(f); got != tc.want || got != pipeline[mode] {
			t.Errorf("%s: mode %q, want %q (the pipeline's %q)", tc.name, got, tc.want, mode)
		}
	}
}

// TestWithMode: the switch changes the further descriptors, node labels
// (their groups, time and atom types), tail cut and automatic choice of images to its
// preset's and keeps every other setting; atom types need the data's
// types.
func TestWithMode(t *testing.T) {
	f := protocol.Training{Spec: spec.Defaults()}
	f.Folds, f.Sigma, f.Labels = 5, 0.5, true
	withPreset := func(p spec.Spec) spec.Spec {
		s := f.Spec
		s.Extra, s.Labels, s.Auto = p.Extra, p.Labels, p.Auto
		s.LabelGroups, s.LabelTime, s.LabelBonding, s.TailCut = p.LabelGroups, p.LabelTime, p.LabelBonding, p.TailCut
		return s
	}
	mol := withMode(f, spec.PresetMolecules, nil)
	atoms := withMode(f, modeAtomTypes, nci1)
	for _, tc := range []struct {
		name string
		got  protocol.Training
		want spec.Spec
	}{
		{"molecules", mol, withPreset(spec.Molecules())},
		{"structure only after molecules", withMode(mol, spec.PresetDefault, nil), withPreset(spec.Defaults())},
		{"atom types", atoms, withPreset(spec.AtomTypes(nci1))},
		{"structure only after atom types", withMode(atoms, spec.PresetDefault, nci1), withPreset(spec.Defaults())},
		{"atom types without types", withMode(f, modeAtomTypes, nil), f.Spec},
		{"an unknown mode", withMode(f, "nonsense", nci1), f.Spec},
	} {
		if tc.got.Spec != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, tc.got.Spec, tc.want)
		}
	}
	if atoms.Extra != "hks,degree,degree:#3,degree:~#1,degree:~#2,degree:~#4,degree:~#5,degree:~#7" || !atoms.Labels || atoms.Auto || atoms.Folds != 5 || atoms.Sigma != 0.5 {
		t.Errorf("atom types on NCI1: %+v, want the atom-types descriptors of docs/method.md with node labels, unit images, 5 folds, sigma 0.5", atoms.Spec)
	}
}

// TestTrainModeRender: molecules and atom-typed graphs get the sentence
// of their mode and a labelled radio pair, the mode that reads their
// atoms and structure only, with the mode's radio checked (none in
// node-label mode); other graphs get the sentence alone.
func TestTrainModeRender(t *testing.T) {
	mol := protocol.Training{Spec: spec.Molecules()}
	bare := mol
	bare.Labels = false
	with := func(change func(*spec.Spec)) protocol.Training {
		s := spec.Defaults()
		change(&s)
		return protocol.Training{Spec: s}
	}
	inputs := regexp.MustCompile(`<input[^>]*>`)
	for _, tc := range []struct {
		name      string
		molecules bool
		types     []string
		form      protocol.Training
		text      string
		checked   string // the radio checked, "" for none
	}{
		{"molecules preset", true, nil, mol, "Molecules: atoms, bonds and aromatic rings are used: bond orders of the whole molecule, of its carbon skeleton and of its N and O atoms, and the atoms' electronegativity, beside the structure. Node labels add the heat of the commonest atom types' indicators: elements, with N and O told by their bonds and hydrogens (amide, amine with or without H, pyridine or azole; carbonyl, S=O or N=O, alcohol or acid hydroxyl, ether).", spec.PresetMolecules},
		{"molecules without node labels", true, nil, bare, "atoms' electronegativity, beside the structure.</p>", spec.PresetMolecules},
		{"structure only", true, nil, withMode(mol, spec.PresetDefault, nil), "Structure only: atom and bond types ignored", spec.PresetDefault},
		{"own list", true, nil, with(func(s *spec.Spec) { s.Extra = "hks,bonds:C" }),
			"Molecules: atoms and bonds are used by the further descriptors hks, bonds:C.", spec.PresetMolecules},
		{"node labels", true, nil, with(func(s *spec.Spec) { s.Labels = true }), "Node labels: atom types are used, bond types ignored.", ""},
		{"atom types", false, nci1, protocol.Training{Spec: spec.AtomTypes(nci1)},
			"Atom types: no table names the node labels' codes, so they are taken as atom types: the degree on the subgraph of the commonest type and on the bonds around the next ones, and the heat of the commonest types' indicators, are used beside the structure.", modeAtomTypes},
		{"atom types of an own list", false, nci1, with(func(s *spec.Spec) { s.Extra = "hks:#3,degree:~#1" }),
			"Atom types: the node labels' codes are taken as atom types by the further descriptors hks:#3, degree:~#1.", modeAtomTypes},
		{"atom-typed, structure only", false, nci1, protocol.Training{Spec: spec.Defaults()}, "Structure only: atom types (the node labels' codes) ignored", spec.PresetDefault},
		{"atom-typed, node labels", false, nci1, with(func(s *spec.Spec) { s.Labels = true }), "Node labels: atom types are used, bond types ignored.", ""},
		{"not molecules", false, nil, protocol.Training{Spec: spec.Defaults()}, "Structure only: these graphs are not molecules", ""},
	} {
		html := app.HTMLString(&TrainMode{Molecules: tc.molecules, AtomTypes: tc.types, Form: tc.form})
		if !strings.Contains(stdhtml.UnescapeString(html), tc.text) {
			t.Errorf("%s: no %q in %s", tc.name, tc.text, html)
		}
		var radios, on []string
		for _, tag := range inputs.FindAllString(html, -1) {
			if !strings.Contains(tag, `type="radio"`) {
				continue
			}
			value := regexp.MustCompile(`value="([^"]*)"`).FindStringSubmatch(tag)[1]
			radios = append(radios, value)
			if regexp.MustCompile(`\schecked[\s>]`).MatchString(tag) {
				on = append(on, value)
			}
		}
		var want []string
		switch {
		case tc.molecules:
			want = []string{spec.PresetMolecules, spec.PresetDefault}
		case tc.types != nil:
			want = []string{modeAtomTypes, spec.PresetDefault}
		}
		if !slices.Equal(radios, want) || strings.Join(on, " ") != tc.checked {
			t.Errorf("%s: radios %q, checked %q; want %q, %q", tc.name, radios, on, want, tc.checked)
		}
		for _, name := range want {
			id := "train-mode-" + name
			if !regexp.MustCompile(`<label[^>]*for="` + id + `"[^>]*>\s*<input[^>]*id="` + id + `"[^>]*>\s*` + Modes[name] + `\s*</label>`).MatchString(html) {
				t.Errorf("%s: the %s radio has no label %q", tc.name, name, Modes[name])
			}
		}
	}
}

// TestStartSettings: a dataset loaded puts its preset in the Train form
// until the user changes a setting (molecules for molecules, default for
// other graphs, atom-typed ones too); a mode chosen with the switch holds
// for later data whose switch offers it; settings the user changed stay,
// leaving molecules mode for graphs that are not molecules and atom
// types for graphs without them; Reset goes back to the data's default.
func TestStartSettings(t *testing.T) {
	b := newFakeBackend()
	r, e := mount(t, b)
	loaded := 0
	load := func(name string, molecules bool, types ...string) {
		t.Helper()
		r.act(func(ctx app.Context) { r.load(ctx, "demo:"+name) })
		e.ConsumeAll()
		loads := b.of(protocol.Load)
		loads[loaded].h.Done(protocol.Response{Summary: &protocol.Summary{Name: name, Graphs: 20, Molecules: molecules, AtomTypes: types}})
		loaded++
		e.ConsumeAll()
	}
	form := func() spec.Spec { return r.train.form.Spec }
	mol, def := spec.Molecules(), spec.Defaults()

	load("MUTAG", true)
	if form() != mol {
		t.Fatalf("MUTAG: the form holds %+v, want the molecules preset", form())
	}
	load("PROTEINS", false)
	if form() != def {
		t.Fatalf("PROTEINS: the form holds %+v, want the defaults", form())
	}
	load("PTC_MR", true)
	r.setMode(spec.PresetDefault)
	if form() != def || r.train.edited {
		t.Fatalf("switched to structure only: %+v, edited %v", form(), r.train.edited)
	}
	load("MUTAG", true)
	if form() != def {
		t.Fatalf("MUTAG after choosing structure only: %+v", form())
	}
	r.setMode(spec.PresetMolecules)
	r.setField("folds", "5")
	load("PTC_MR", true)
	want := mol
	want.Folds = 5
	if form() != want || !r.train.edited {
		t.Fatalf("PTC_MR after a change: %+v, want the molecules preset with 5 folds", form())
	}
	load("PROTEINS", false)
	want = def
	want.Folds = 5
	if form() != want {
		t.Fatalf("PROTEINS after a change: %+v, want structure only with 5 folds", form())
	}
	load("MUTAG", true)
	r.preset(spec.PresetDefault)
	if form() != mol || r.train.edited || r.train.mode != "" {
		t.Fatalf("reset on MUTAG: %+v, edited %v, mode %q", form(), r.train.edited, r.train.mode)
	}
	if html := app.HTMLString(r.trainTab()); !strings.Contains(html, `id="train-mode"`) || !strings.Contains(html, "Molecules: atoms, bonds") {
		t.Errorf("the Train tab does not show the mode: %s", html)
	}

	// Atom types: NCI1-like data, whose atoms are typed by codes.
	nci109 := []string{"3", "1", "2", "4", "5", "6"}
	atoms := spec.AtomTypes(nci1)
	r.setMode(spec.PresetMolecules)
	load("NCI1", false, nci1...)
	if form() != def {
		t.Fatalf("NCI1 after choosing molecules: %+v, want structure only", form())
	}
	if html := stdhtml.UnescapeString(app.HTMLString(r.trainTab())); !strings.Contains(html, `id="train-mode-atom-types"`) || !strings.Contains(html, "Structure only: atom types") {
		t.Errorf("the Train tab on NCI1 offers no atom types: %s", html)
	}
	r.setMode(modeAtomTypes)
	if form() != atoms || r.train.edited {
		t.Fatalf("switched to atom types: %+v, edited %v; want %+v", form(), r.train.edited, atoms)
	}
	load("NCI109", false, nci109...)
	if form() != spec.AtomTypes(nci109) {
		t.Fatalf("NCI109 after choosing atom types: %+v, want its own atom types", form())
	}
	load("MUTAG", true)
	if form() != mol {
		t.Fatalf("MUTAG after choosing atom types: %+v, want the molecules preset", form())
	}
	load("NCI1", false, nci1...)
	if form() != atoms {
		t.Fatalf("NCI1 again: %+v, want atom types", form())
	}
	r.setField("folds", "5")
	load("PROTEINS", false)
	want = def
	want.Folds = 5
	if form() != want {
		t.Fatalf("PROTEINS after a change in atom types: %+v, want structure only with 5 folds", form())
	}
	load("NCI1", false, nci1...)
	if form() != want {
		t.Fatalf("NCI1 after a change: %+v, want the settings as they were", form())
	}
	r.setMode(modeAtomTypes)
	load("MUTAG", true)
	if form() != want {
		t.Fatalf("MUTAG after a change in atom types: %+v, want structure only with 5 folds", form())
	}
	load("NCI1", false, nci1...)
	r.setMode(modeAtomTypes)
	r.preset(spec.PresetDefault)
	if form() != def || r.train.edited || r.train.mode != "" {
		t.Fatalf("reset on NCI1: %+v, edited %v, mode %q", form(), r.train.edited, r.train.mode)
	}
}
