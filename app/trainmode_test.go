package app

import (
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/spec"
	"wkpi-web/wasm/protocol"
)

// TestSettingsMode: the page names the mode of a setting as the pipeline
// does (eval.FromSpec, then features.Settings.Mode), which the page does
// not link.
func TestSettingsMode(t *testing.T) {
	pipeline := map[string]string{features.ModeStructure: spec.PresetDefault, features.ModeMolecules: spec.PresetMolecules, features.ModeLabels: modeLabels}
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
		{"node labels over molecules", func(s *spec.Spec) { *s = spec.Molecules(); s.Labels = true }, modeLabels},
	} {
		f := protocol.Training{Spec: spec.Defaults()}
		tc.change(&f.Spec)
		u, err := eval.FromSpec(f.Spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		mode := u.Features.Mode()
		if f.Labels {
			mode = features.ModeLabels // FeaturesFor adds the vocabulary per fold
		}
		if got := settingsMode(f); got != tc.want || got != pipeline[mode] {
			t.Errorf("%s: mode %q, want %q (the pipeline's %q)", tc.name, got, tc.want, mode)
		}
	}
}

// TestWithMode: the switch changes the further descriptors, node labels
// and automatic choice of images to its preset's and keeps every other
// setting.
func TestWithMode(t *testing.T) {
	f := protocol.Training{Spec: spec.Defaults()}
	f.Folds, f.Sigma, f.Labels = 5, 0.5, true
	m := withMode(f, spec.PresetMolecules)
	want := f
	want.Extra, want.Labels, want.Auto = spec.MoleculesExtra, false, false
	if m.Spec != want.Spec {
		t.Errorf("molecules: %+v, want %+v", m.Spec, want.Spec)
	}
	s := withMode(m, spec.PresetDefault)
	want.Extra, want.Auto = spec.Defaults().Extra, true
	if s.Spec != want.Spec {
		t.Errorf("structure only: %+v, want %+v", s.Spec, want.Spec)
	}
	if withMode(f, "nonsense").Spec != f.Spec {
		t.Error("an unknown mode changed the settings")
	}
}

// TestTrainModeRender: molecules get the sentence of their mode and a
// labelled radio pair with the mode's radio checked (none in node-label
// mode); other graphs get the sentence alone.
func TestTrainModeRender(t *testing.T) {
	mol := protocol.Training{Spec: spec.Molecules()}
	labels := mol
	labels.Labels = true
	inputs := regexp.MustCompile(`<input[^>]*>`)
	for _, tc := range []struct {
		name      string
		molecules bool
		form      protocol.Training
		text      string
		checked   string // the radio checked, "" for none
	}{
		{"molecules preset", true, mol, "Molecules: atoms, bonds and aromatic rings are used", spec.PresetMolecules},
		{"structure only", true, withMode(mol, spec.PresetDefault), "Structure only: atom and bond types ignored", spec.PresetDefault},
		{"own list", true, protocol.Training{Spec: func() spec.Spec { s := spec.Defaults(); s.Extra = "hks,bonds:C"; return s }()},
			"Molecules: atoms and bonds are used by the further descriptors hks, bonds:C.", spec.PresetMolecules},
		{"node labels", true, protocol.Training{Spec: func() spec.Spec { s := spec.Defaults(); s.Labels = true; return s }()}, "Node labels: atom types are used, bond types ignored.", ""},
		{"node labels and molecules", true, labels, "Node labels: atom types are used, and the further descriptors " + strings.ReplaceAll(spec.MoleculesExtra, ",", ", ") + " read atoms and bonds.", ""},
		{"not molecules", false, protocol.Training{Spec: spec.Defaults()}, "Structure only: these graphs are not molecules", ""},
	} {
		html := app.HTMLString(&TrainMode{Molecules: tc.molecules, Form: tc.form})
		if !strings.Contains(html, tc.text) {
			t.Errorf("%s: no %q in %s", tc.name, tc.text, html)
		}
		radios := 0
		var on []string
		for _, tag := range inputs.FindAllString(html, -1) {
			if !strings.Contains(tag, `type="radio"`) {
				continue
			}
			radios++
			if regexp.MustCompile(`\schecked[\s>]`).MatchString(tag) {
				on = append(on, regexp.MustCompile(`value="([^"]*)"`).FindStringSubmatch(tag)[1])
			}
		}
		want := 0
		if tc.molecules {
			want = 2
		}
		if radios != want || strings.Join(on, " ") != tc.checked {
			t.Errorf("%s: %d radios, checked %q; want %d, %q", tc.name, radios, on, want, tc.checked)
		}
		for _, m := range Modes {
			if tc.molecules && !regexp.MustCompile(`<label[^>]*for="train-mode-`+m[0]+`"`).MatchString(html) {
				t.Errorf("%s: the %s radio has no label", tc.name, m[0])
			}
		}
	}
}

// TestStartSettings: a dataset loaded puts its preset in the Train form
// until the user changes a setting (molecules for molecules, default for
// other graphs); a mode chosen with the switch holds for later molecules;
// settings the user changed stay, leaving molecules mode for graphs that
// are not molecules; Reset goes back to the data's default.
func TestStartSettings(t *testing.T) {
	b := newFakeBackend()
	r, e := mount(t, b)
	loaded := 0
	load := func(name string, molecules bool) {
		t.Helper()
		r.act(func(ctx app.Context) { r.load(ctx, "demo:"+name) })
		e.ConsumeAll()
		loads := b.of(protocol.Load)
		loads[loaded].h.Done(protocol.Response{Summary: &protocol.Summary{Name: name, Graphs: 20, Molecules: molecules}})
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
}
