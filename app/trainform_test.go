package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

func TestFieldCheck(t *testing.T) {
	for _, tc := range []struct {
		id, text, msg string
		v             float64
	}{
		{"train-sigma", "0", "Must be more than 0.", 0},
		{"train-sigma", "-1", "Must be more than 0.", 0},
		{"train-sigma", "", "Enter a number.", 0},
		{"train-sigma", " 0.5 ", "", 0.5},
		{"train-sigma", "abc", `"abc" is not a number.`, 0},
		{"train-C", "1e-3", "", 0.001},
		{"train-m", "2.5", "Enter a whole number.", 0},
		{"train-m", "0", "Must be at least 1.", 0},
		{"train-folds", "1", "Must be at least 2.", 0},
		{"train-folds", "189", "At most 188 (the number of graphs).", 0},
		{"train-folds", "188", "", 188},
		{"train-prior", "0", "", 0}, // the paper's objective
		{"train-tau", "-0.1", "Must be at least 0.", 0},
		{"train-seed", "-7", "", -7},
	} {
		f, ok := fieldByID(tc.id)
		if !ok {
			t.Fatalf("no field %s", tc.id)
		}
		v, msg := f.check(tc.text, 188)
		if msg != tc.msg || (msg == "" && v != tc.v) {
			t.Errorf("%s %q: %v %q, want %v %q", tc.id, tc.text, v, msg, tc.v, tc.msg)
		}
	}
	// Every field reads back what it stores.
	var tr protocol.Training
	for i, f := range numFields {
		f.set(&tr, float64(i+2))
		if got := f.get(&tr); got != float64(i+2) {
			t.Errorf("%s stores %d, reads %v", f.id, i+2, got)
		}
	}
}

// TestReplacePromptAndInvalidField: a run that would replace a kept model
// asks first; typed text that does not parse stays in its field; the
// settings line names the protocol.
func TestReplacePromptAndInvalidField(t *testing.T) {
	s := &protocol.Summary{Name: "MUTAG", Graphs: 188}
	d := protocol.Training{Descriptor: "ricci", Init: "kcenter", M: 5, Sigma: 0.01, C: 100, Folds: 10, Seed: 1, Channels: "ord0+ext0,rel1+ext1", Rows: 40, Iterations: 2000, Prior: ptr(0.3), Contrast: ptr(0.03)}
	html := app.HTMLString(&TrainTab{Summary: s, Form: &d, Replace: "MUTAG"})
	for _, id := range []string{"train-ask", "train-replace", "train-both", "train-ask-cancel"} {
		if !strings.Contains(html, `id="`+id+`"`) {
			t.Errorf("the replace prompt has no #%s", id)
		}
	}
	// Typed text that does not parse stays in the field with its reason,
	// and the run waits.
	html = app.HTMLString(&TrainTab{Summary: s, Form: &d, Text: map[string]string{"train-sigma": "-1"}})
	if !strings.Contains(html, `id="train-sigma-error"`) || !strings.Contains(html, "Must be more than 0.") || !strings.Contains(html, `value="-1"`) ||
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
