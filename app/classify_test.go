package app

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

func TestPredictionsCSVAndScore(t *testing.T) {
	gs := []protocol.Graph{
		{File: "a, b.mol", Index: 0, Nodes: 3, Edges: 2, Label: "1", Decision: []float64{0.5}},
		{File: "T", Index: 1, Nodes: 4, Edges: 4, Label: "-1", Truth: "-1", Decision: []float64{-0.25}},
		{File: "T", Index: 2, Nodes: 4, Edges: 4, Label: "-1", Truth: "1", Decision: []float64{-1}},
	}
	rows, err := csv.NewReader(strings.NewReader(string(predictionsCSV(gs)))).ReadAll()
	if err != nil || len(rows) != 4 || rows[1][0] != "a, b.mol" || rows[2][5] != "-1" || rows[3][6] != "-1.0000" {
		t.Errorf("CSV %v (%v)", rows, err)
	}
	if right, labelled := score(gs); right != 1 || labelled != 2 {
		t.Errorf("score %d of %d, want 1 of 2", right, labelled)
	}
	html := app.HTMLString(&ClassifyTab{Model: &protocol.Info{Dataset: "MUTAG", Classes: []string{"-1", "1"}, Grid: protocol.Grid{Rows: 1, Cols: 1, Pixel: 1}},
		Weight: []float64{1}, Graphs: gs, CSV: "blob:c"})
	for _, want := range []string{"50.0 % (1 of 2 graphs)", "class -1, class 1", "atom and bond types", `href="blob:c"`, `aria-pressed="false"`} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the Classify tab", want)
		}
	}
}
