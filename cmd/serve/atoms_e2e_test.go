package main

import (
	"fmt"
	"math"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserExplainAtomNumbers: the Explain view's drawing of
// 2-nitrofluorene (16 atoms) writes every atom's number, from 0 as the
// tables and wkpi explain count, beside that atom (the number nearest to
// RDKit's highlight of atom i reads i); focusing a row of the atoms table
// (from the keyboard, Tab to the next) marks its atom in the drawing, and
// focusing or pointing at an atom of the drawing marks its row.
func TestBrowserExplainAtomNumbers(t *testing.T) {
	model := mutagLabelsModel(t)
	ctx, cancel := browserFor(t, 4*time.Minute)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()
	step(t, ctx, "import a model, classify two nitro aromatics",
		chromedp.Navigate(srv.URL+"/#models"),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.SetUploadFiles(chromedp.CSS("#model-upload"), []string{model}),
		textContains("#model-dataset", "MUTAG"),
		classifyNitro(),
	)
	explainGraph(t, ctx, 1, "2-nitrofluorene", true)

	// The numbers RDKit writes, each with the atom whose highlight is
	// nearest to it.
	type note struct {
		Text    string `json:"text"`
		Nearest int    `json:"nearest"`
	}
	notes := value[[]note](t, ctx, `(() => {
		const svg = document.querySelector("#explain .molecule svg");
		const atoms = [...svg.querySelectorAll("ellipse[class^=atom-]")].map(e => {
			const b = e.getBoundingClientRect();
			return {atom: Number(e.getAttribute("class").slice(5)), x: b.x + b.width / 2, y: b.y + b.height / 2};
		});
		// RDKit writes a number of several digits as one text per digit,
		// one after the other on a line.
		const groups = [];
		for (const n of svg.querySelectorAll("text.note")) {
			const last = groups[groups.length - 1], b = n.getBoundingClientRect();
			if (last && Math.abs(last.b.y - b.y) < 0.5 && b.x >= last.b.right - 0.5 && b.x - last.b.right < b.width) {
				last.text += n.textContent.trim();
				last.b = {x: last.b.x, y: last.b.y, right: b.right, width: b.right - last.b.x, height: b.height};
			} else {
				groups.push({text: n.textContent.trim(), b: {x: b.x, y: b.y, right: b.right, width: b.width, height: b.height}});
			}
		}
		return groups.map(g => {
			const x = g.b.x + g.b.width / 2, y = g.b.y + g.b.height / 2;
			let best = null;
			for (const a of atoms) {
				const d = Math.hypot(a.x - x, a.y - y);
				if (!best || d < best.d) best = {d, atom: a.atom};
			}
			return {text: g.text, nearest: best ? best.atom : -1};
		});
	})()`)
	var numbers []string
	for _, n := range notes {
		numbers = append(numbers, n.Text)
		if n.Text != fmt.Sprint(n.Nearest) {
			t.Errorf("the number %q is drawn nearest to atom %d", n.Text, n.Nearest)
		}
	}
	rows := value[[]string](t, ctx, `[...document.querySelectorAll("#explain-nodes tbody tr")].map(r => r.cells[0].textContent)`)
	if len(notes) != 16 || len(rows) == 0 {
		t.Fatalf("drawing numbers %q (want 0..15), table atoms %q", numbers, rows)
	}
	for _, a := range rows {
		if !slices.Contains(numbers, a) {
			t.Errorf("the table lists atom %s; the drawing numbers %q", a, numbers)
		}
	}

	// marked is the atom marked in the drawing and the one in the table
	// (-1: none), and the atom with focus.
	type marked struct {
		Ring  []int `json:"ring"`
		Row   []int `json:"row"`
		Focus int   `json:"focus"`
	}
	state := func() marked {
		return value[marked](t, ctx, `(() => {
			const ids = sel => [...document.querySelectorAll(sel)].map(e => Number(e.dataset.atom));
			const f = document.activeElement;
			return {ring: ids("#explain .atom-mark.linked"), row: ids("#explain-nodes tr.linked"),
				focus: f && f.dataset.atom !== undefined ? Number(f.dataset.atom) : -1};
		})()`)
	}
	want := func(what string, atom int) {
		t.Helper()
		var got marked
		deadline := time.Now().Add(5 * time.Second)
		for {
			got = state()
			if fmt.Sprint(got.Ring) == fmt.Sprintf("[%d]", atom) && fmt.Sprint(got.Row) == fmt.Sprintf("[%d]", atom) || time.Now().After(deadline) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if fmt.Sprint(got.Ring) != fmt.Sprintf("[%d]", atom) || fmt.Sprint(got.Row) != fmt.Sprintf("[%d]", atom) {
			t.Errorf("%s: atom marked in the drawing %v, row marked %v; want atom %d in both", what, got.Ring, got.Row, atom)
		}
	}
	first, second := atoi(t, rows[0]), atoi(t, rows[1])
	step(t, ctx, "the pointer off the drawing; focus the table's first row", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1, 1), until(`(document.querySelector("#explain-nodes tbody tr").focus(), true)`))
	want("the first row focused", first)
	step(t, ctx, "Tab to the second row", chromedp.KeyEvent(kb.Tab))
	if f := state().Focus; f != second {
		t.Errorf("Tab from the first row focused atom %d, want the second row's %d", f, second)
	}
	want("the second row reached by Tab", second)
	focusRing := fmt.Sprintf(`(document.querySelector("#explain .atom-mark[data-atom='%d']").focus(), true)`, first)
	step(t, ctx, "focus the first row's atom in the drawing", until(focusRing))
	want("its atom focused in the drawing", first)
	checkAxe(t, ctx, "Explain with an atom focused")

	// The pointer on an atom of the drawing marks its row too.
	at := value[[]float64](t, ctx, fmt.Sprintf(`(() => { document.activeElement.blur();
		const b = document.querySelector("#explain .atom-mark[data-atom='%d']").getBoundingClientRect();
		return [b.x + b.width / 2, b.y + b.height / 2]; })()`, second))
	step(t, ctx, "point at the second row's atom", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, at[0], at[1]))
	want("the pointer on its atom", second)
	if math.IsNaN(at[0]) {
		t.Fatal("no atom to point at")
	}
	step(t, ctx, "screenshot", screenshot("explain-atom-numbers"))
}

// classifyNitro classifies nitrobenzene and 2-nitrofluorene, typed on
// the Classify tab, with the model in use.
func classifyNitro() chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.Click(chromedp.CSS("#tab-classify")),
		chromedp.WaitVisible(chromedp.CSS("#classify-smiles")),
		typeSMILES("c1ccc(cc1)[N+](=O)[O-] nitrobenzene\nO=[N+]([O-])c1ccc2c(c1)Cc1ccccc1-2 2-nitrofluorene"),
		until(`!document.querySelector("#classify-run").disabled`),
		chromedp.Click(chromedp.CSS("#classify-run")),
		until(`document.querySelectorAll("#predictions tbody tr").length === 2`),
	)
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var i int
	if _, err := fmt.Sscan(s, &i); err != nil {
		t.Fatalf("atom %q: %v", s, err)
	}
	return i
}
