package app

import (
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/spec"
	"wkpi-web/wasm/protocol"
)

// TestFieldCheck: what is typed in a field is checked by the settings
// spec's rules, with the folds also bounded by the dataset's size.
func TestFieldCheck(t *testing.T) {
	d := protocol.Training{Spec: spec.Defaults()}
	for _, tc := range []struct {
		name, text, msg string
		get             func(protocol.Training) float64
		v               float64
	}{
		{"sigma", "0", "Enter a number > 0.", nil, 0},
		{"sigma", "-1", "Enter a number > 0.", nil, 0},
		{"sigma", "", "Enter a number > 0.", nil, 0},
		{"sigma", " 0.5 ", "", func(t protocol.Training) float64 { return t.Sigma }, 0.5},
		{"sigma", "abc", "Enter a number > 0.", nil, 0},
		{"C", "1e-3", "", func(t protocol.Training) float64 { return t.C }, 0.001},
		{"m", "2.5", "Enter a whole number from 1 to 100.", nil, 0},
		{"m", "0", "Enter a whole number from 1 to 100.", nil, 0},
		{"folds", "1", "Enter a whole number from 2 to 100.", nil, 0},
		{"folds", "99", "At most 88 (the number of graphs).", nil, 0},
		{"folds", "88", "", func(t protocol.Training) float64 { return float64(t.Folds) }, 88},
		{"prior", "0", "", func(t protocol.Training) float64 { return t.Prior }, 0}, // the paper's objective
		{"tau", "-0.1", "Enter a number >= 0.", nil, 0},
		{"seed", "-7", "", func(t protocol.Training) float64 { return float64(t.Seed) }, -7},
	} {
		next, msg := checkField(d, tc.name, tc.text, 88)
		if msg != tc.msg || (msg == "" && tc.get(next) != tc.v) {
			t.Errorf("%s %q: %q, want %v %q", tc.name, tc.text, msg, tc.v, tc.msg)
		}
		if msg != "" && next.Spec != d.Spec {
			t.Errorf("%s %q: a refused value changed the form", tc.name, tc.text)
		}
	}
}

// selected returns the values a <select id=id> in html marks selected.
func selected(t *testing.T, html, id string) []string {
	t.Helper()
	i := strings.Index(html, `id="`+id+`"`)
	if i < 0 {
		t.Fatalf("no #%s in the form", id)
	}
	sel := html[i : i+strings.Index(html[i:], "</select>")]
	if n := strings.Count(sel, "<option>"); n > 0 {
		t.Errorf("#%s: %d options without a value (the browser would send their text)", id, n)
	}
	var chosen []string
	// go-app writes attributes in map order, and selected bare.
	for _, tag := range regexp.MustCompile(`<option[^>]*>`).FindAllString(sel, -1) {
		if regexp.MustCompile(`\sselected[\s>]`).MatchString(tag) {
			chosen = append(chosen, regexp.MustCompile(`value="([^"]*)"`).FindStringSubmatch(tag)[1])
		}
	}
	return chosen
}

// TestTrainFormSettings: the form shows the few common settings on top
// and every other setting of the spec under Advanced, in the spec's
// groups, each with its label and one-line help, and menus select the
// form's values.
func TestTrainFormSettings(t *testing.T) {
	s := &protocol.Summary{Name: "MUTAG", Graphs: 188}
	f := protocol.Training{Spec: spec.Defaults()}
	f.Extra, f.Raw, f.Objective, f.ChannelScales = "ricci,jaccard,hks,degree", true, "cka", true
	html := app.HTMLString(&TrainTab{Summary: s, Form: &f})
	adv := strings.Index(html, `id="train-advanced"`)
	if adv < 0 {
		t.Fatal("no Advanced section")
	}
	for name := range shownAbove {
		if name != "filtration" && name != "extra" && name != "labels" {
			if i := strings.Index(html, `id="`+fieldID(name)+`"`); i < 0 || i > adv {
				t.Errorf("%s is not above Advanced", name)
			}
		}
	}
	for _, sf := range spec.Fields() {
		if shownAbove[sf.Name] {
			continue
		}
		if cliOnly[sf.Name] {
			if strings.Contains(html, `id="`+fieldID(sf.Name)+`"`) {
				t.Errorf("%s is shown, but the page does not run it", sf.Name)
			}
			continue
		}
		i := strings.Index(html, `id="`+fieldID(sf.Name)+`"`)
		if i < adv {
			t.Errorf("%s is not under Advanced", sf.Name)
		}
		if !strings.Contains(html, sf.Help) && !strings.Contains(html, app.HTMLString(app.Text(sf.Help))) {
			t.Errorf("%s: no help text", sf.Name)
		}
	}
	for id, want := range map[string]string{"train-extra": "ricci,jaccard,hks,degree", "train-raw": "on", "train-objective": "cka", "train-channel-scales": "on", "train-select": "none", "train-filtration": "ricci"} {
		if got := selected(t, html, id); len(got) != 1 || got[0] != want {
			t.Errorf("#%s selects %v, want %q", id, got, want)
		}
	}
	for _, g := range []string{"descriptors", "images", "learning", "svm", "protocol", "scale"} {
		if !strings.Contains(html, `id="train-group-`+g+`"`) {
			t.Errorf("no group %s under Advanced", g)
		}
	}
	for extra, want := range map[string]string{"": "default", "none": "none"} {
		f := protocol.Training{Spec: spec.Defaults()}
		f.Extra = extra
		html := app.HTMLString(&TrainTab{Summary: s, Form: &f})
		if got := selected(t, html, "train-extra"); len(got) != 1 || got[0] != want {
			t.Errorf("Extra %q: #train-extra selects %v, want %q", extra, got, want)
		}
	}
	for _, tc := range []struct{ name, menu, want string }{{"raw", "on", "true"}, {"auto", "off", "false"}, {"select", "none", ""}, {"select", "cost", "cost"}, {"init", "kmeans", "kmeans"}} {
		sf, _ := spec.Lookup(tc.name)
		if got := settingValue(sf, tc.menu); got != tc.want {
			t.Errorf("%s menu %q stores %q, want %q", tc.name, tc.menu, got, tc.want)
		}
	}
	var f2 protocol.Training
	setExtra(&f2, "default")
	if f2.Extra != "" {
		t.Errorf(`choice "default" stores Extra %q, want ""`, f2.Extra)
	}
}

// TestDescribeSettings: the settings line of a run names what differs
// from a plain run.
func TestDescribeSettings(t *testing.T) {
	f := protocol.Training{Spec: spec.Defaults()}
	f.Extra, f.Raw, f.Objective, f.ChannelScales = "ricci,jaccard,hks,degree", true, "cka", true
	got := describeSettings(f)
	for _, want := range []string{"Extra descriptors: ricci, jaccard, hks, degree.", "Unnormalised images: graph size counts.", "Objective: kernel-target alignment.", "Block scales learned by alignment."} {
		if !strings.Contains(got, want) {
			t.Errorf("settings %q: no %q", got, want)
		}
	}
	d := protocol.Training{Spec: spec.Defaults()}
	if got := describeSettings(d); strings.Contains(got, "Extra") || strings.Contains(got, "Unnormalised") ||
		!strings.Contains(got, "Heat kernel signature and degree added (the default descriptor set).") ||
		!strings.Contains(got, "Images chosen per fold by inner CV") || !strings.Contains(got, "C chosen in every fold") {
		t.Errorf("default settings: %q", got)
	}
	fixed := d
	fixed.Auto, fixed.SVMChoice, fixed.C = false, false, 10
	if got := describeSettings(fixed); strings.Contains(got, "chosen per fold") || !strings.Contains(got, "C = 10.") {
		t.Errorf("fixed settings: %q", got)
	}
	fixed.Gauss = 1
	if got := describeSettings(fixed); !strings.Contains(got, "C = 10; SVM on the Gaussian of the WKPI distance") {
		t.Errorf("fixed Gaussian: %q", got)
	}
	paper := protocol.Training{Spec: spec.Paper()}
	if got := describeSettings(paper); !strings.Contains(got, "nested 10-fold CV over the paper's grid") {
		t.Errorf("paper: %q", got)
	}
}

// TestReplacePromptAndInvalidField: a run that would replace a kept model
// asks first; typed text that does not parse stays in its field; the
// settings line names the protocol.
func TestReplacePromptAndInvalidField(t *testing.T) {
	s := &protocol.Summary{Name: "MUTAG", Graphs: 188}
	d := protocol.Training{Spec: spec.Defaults()}
	html := app.HTMLString(&TrainTab{Summary: s, Form: &d, Replace: "MUTAG"})
	for _, id := range []string{"train-ask", "train-replace", "train-both", "train-ask-cancel"} {
		if !strings.Contains(html, `id="`+id+`"`) {
			t.Errorf("the replace prompt has no #%s", id)
		}
	}
	// Typed text that does not parse stays in the field with its reason,
	// and the run waits.
	html = app.HTMLString(&TrainTab{Summary: s, Form: &d, Text: map[string]string{"train-sigma": "-1"}})
	if !strings.Contains(html, `id="train-sigma-error"`) || !strings.Contains(html, "Enter a number &gt; 0.") || !strings.Contains(html, `value="-1"`) ||
		!strings.Contains(html, `id="train-invalid"`) {
		t.Error("an invalid sigma is not shown with its reason")
	}
	for _, tc := range []struct {
		grid, sel, want string
	}{
		{"", "", "m = 5, σ = 0.01; the SVM's kernel (WKPI, or the Gaussian of its distance) and C chosen in every fold"},
		{"paper", "", "chosen in every fold by a nested 10-fold CV over the paper's grid"},
		{"paper", "cost", "by the smallest training cost over the paper's grid, C = 100"},
	} {
		u := d
		u.Grid, u.Select, u.Inner = tc.grid, tc.sel, 10
		if got := describeSettings(u); !strings.Contains(got, tc.want) || !strings.HasPrefix(got, "Ollivier-Ricci curvature; channels ord0+ext0 and rel1+ext1; 40-row images, τ fitted; k-center start; prior λ 0.3, contrast μ 0.03") {
			t.Errorf("settings %q, want %q", got, tc.want)
		}
	}
}
