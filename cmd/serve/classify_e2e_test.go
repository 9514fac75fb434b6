package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// checkClassifyLabelled classifies MUTAG's own TU files with the model
// trained on them: the page scores them against their labels, exports
// the predictions as CSV, and the keyboard reaches every row.
func checkClassifyLabelled(t *testing.T, ctx context.Context) {
	mutag, err := filepath.Abs("../../data/MUTAG")
	if err != nil {
		t.Fatal(err)
	}
	var tuFiles []string
	for _, s := range []string{"A", "graph_indicator", "graph_labels"} {
		tuFiles = append(tuFiles, filepath.Join(mutag, "MUTAG_"+s+".txt"))
	}

	// A labelled upload is scored; predictions export as CSV.
	step(t, ctx, "Classify MUTAG's own TU files: accuracy against their labels, class names, CSV",
		chromedp.Click(chromedp.CSS("#tab-classify")),
		textContains("#classify-about", "atom and bond types"),
		textContains("#classify-about", "class -1, class 1"),
		chromedp.SetUploadFiles(chromedp.CSS("#classify-upload"), tuFiles),
		until(`document.querySelectorAll("#predictions tbody tr").length === 188`),
		chromedp.WaitVisible(chromedp.CSS("#classify-accuracy")),
		chromedp.WaitVisible(chromedp.CSS("#classify-csv")),
	)
	acc := value[[]string](t, ctx, `[document.querySelector("#classify-accuracy").dataset.value,
		...[...document.querySelectorAll("#predictions tbody tr")].map(r => r.querySelector(".predicted").textContent + "|" + r.querySelector(".truth").textContent)]`)
	right := 0
	for _, row := range acc[1:] {
		pred, truth, _ := strings.Cut(row, "|")
		if !strings.HasPrefix(pred, "class ") || !strings.HasPrefix(truth, "class ") {
			t.Fatalf("row %q: want class names", row)
		}
		if pred == truth {
			right++
		}
	}
	if shown, _ := strconv.ParseFloat(acc[0], 64); fmt.Sprintf("%.6f", shown) != fmt.Sprintf("%.6f", float64(right)/188) || right < 150 {
		t.Errorf("accuracy shown %s; the rows give %d of 188 (the model was trained on these graphs)", acc[0], right)
	}
	text := value[string](t, ctx, `fetch(document.querySelector("#classify-csv").href).then(r => r.text())`)
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(rows) != 189 || strings.Join(rows[0], ",") != "name,file,graph,nodes,edges,predicted,label,decision_values" || rows[1][1] != "MUTAG" {
		t.Errorf("CSV export: %v, %d rows, first %v", err, len(rows), rows[:min(2, len(rows))])
	}

	// The keyboard reaches every prediction.
	step(t, ctx, "the keyboard chooses a prediction row",
		until(`(() => { const b = document.querySelector("#predictions tbody tr:nth-child(3) button"); b.focus();
			return document.activeElement === b; })()`),
		chromedp.KeyEvent("\r"),
		textContains("#panel", "MUTAG, graph 2: predicted"),
		until(`document.querySelector("#predictions tbody tr:nth-child(3) button").getAttribute("aria-pressed") === "true"`),
	)

}
