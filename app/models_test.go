package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// TestModelsList: every kept model is listed with its accuracy, the
// current one marked.
func TestModelsList(t *testing.T) {
	info := &protocol.Info{Dataset: "MUTAG", Descriptor: "ricci", M: 5, Sigma: 0.01, C: 100, Classes: []string{"-1", "1"}}
	html := app.HTMLString(&ModelsTab{Kept: []Kept{{Name: "MUTAG", Info: info, Accuracy: 0.867, Current: true}, {Name: "MUTAG (2)", Info: info}},
		Name: "MUTAG", Model: info})
	rows := 0
	for _, tr := range elems(html, "tr") {
		if tr["data-name"] != "" {
			rows++
		}
	}
	for _, want := range []string{"86.7 %", "not known", "in use", `aria-label="Use MUTAG (2)"`, "Ollivier-Ricci curvature, m 5, σ 0.01, C 100", "Current model: MUTAG"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the model list", want)
		}
	}
	if rows != 2 {
		t.Errorf("%d kept models listed, want 2", rows)
	}
}
