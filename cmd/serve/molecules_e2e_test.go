package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wkpi-web/core/tu"
)

// drawnAtoms reads RDKit's drawing in sel: how many atoms it has (the
// atom-i classes of its bonds and labels) and the label written for each
// labelled atom (its texts joined: "N" then "+" is "N+").
func drawnAtoms(t *testing.T, ctx context.Context, sel string) (int, map[int]string) {
	t.Helper()
	type drawn struct {
		Atoms  int               `json:"atoms"`
		Labels map[string]string `json:"labels"`
	}
	d := value[drawn](t, ctx, fmt.Sprintf(`(() => {
		const svg = document.querySelector(%q), atoms = new Set(), labels = {};
		for (const e of svg.querySelectorAll("[class*=atom-]"))
			for (const m of e.getAttribute("class").matchAll(/atom-(\d+)/g)) atoms.add(m[1]);
		for (const e of svg.querySelectorAll("text[class^=atom-]")) {
			const i = e.getAttribute("class").slice(5);
			labels[i] = (labels[i] || "") + e.textContent.trim();
		}
		return {atoms: atoms.size, labels};
	})()`, sel))
	labels := map[int]string{}
	for k, v := range d.Labels {
		var i int
		fmt.Sscan(k, &i)
		labels[i] = v
	}
	return d.Atoms, labels
}

// checkElements compares RDKit's labels with a graph's elements: every
// atom but carbon is labelled, each label is its atom's symbol with any
// hydrogens and charge ("HO", "NH2", "N+").
func checkElements(t *testing.T, where string, n int, labels map[int]string, elements []string) {
	t.Helper()
	if n != len(elements) {
		t.Errorf("%s: RDKit drew %d atoms, the graph has %d", where, n, len(elements))
	}
	for i, e := range elements {
		l, ok := labels[i]
		if e != "C" && !ok || ok && hydrogens.ReplaceAllString(l, "") != e {
			t.Errorf("%s: atom %d (%s) is labelled %q in the drawing (labels %v)", where, i, e, l, labels)
		}
	}
}

// hydrogens matches what RDKit writes beside an element symbol: its
// hydrogens (H, H2) and its charge.
var hydrogens = regexp.MustCompile(`H[0-9]*|[+-][0-9]*`)

// TestBrowserDataMolecules: the Data and Explore tabs draw molecules with
// RDKit, loaded on first use and then kept for offline use: MUTAG's graph
// 0 (its codes read through its README: the elements checked against
// core/tu's reading of the README by hand, 0 C, 1 N, 2 O), and an
// uploaded SMILES table (nitrobenzene's N+ and O, O- on atoms 6, 7, 8);
// PROTEINS, which is not molecules, is drawn from its layout as before.
// Offline, a reload draws the restored table's molecule from the cache.
func TestBrowserDataMolecules(t *testing.T) {
	mutag, err := tu.ReadDir("../../data/MUTAG")
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]string{"0": "C", "1": "N", "2": "O", "3": "F", "4": "I", "5": "Cl", "6": "Br"}
	var elements []string
	for _, l := range mutag.Graphs[0].NodeLabels {
		elements = append(elements, codes[l])
	}
	dir := t.TempDir()
	table := filepath.Join(dir, "nitro.csv")
	if err := os.WriteFile(table, []byte("smiles,activity\nc1ccc(cc1)[N+](=O)[O-],a\nClc1ccccc1,b\nCCO,a\nOc1ccccc1,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	proteins := filepath.Join(dir, "PROTEINS.zip")
	if err := os.WriteFile(proteins, zipDir(t, "../../data/PROTEINS"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := browserFor(t, 6*time.Minute)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()

	step(t, ctx, "MUTAG: the Data tab draws graph 0 with RDKit", append(openMUTAG(srv.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#data-molecule svg text")))...)
	n, labels := drawnAtoms(t, ctx, "#data-molecule svg")
	checkElements(t, "MUTAG graph 0", n, labels, elements)
	if c := value[int](t, ctx, `document.querySelectorAll("#panel .graph-view circle").length`); c != 0 {
		t.Errorf("MUTAG graph 0 also drawn as %d dots", c)
	}
	checkAxe(t, ctx, "the Data tab with a molecule")
	step(t, ctx, "Explore: the molecule, each atom in the colour of its value",
		chromedp.Click(chromedp.CSS("#tab-explore")),
		until(`document.querySelectorAll("#explore-molecule svg ellipse").length > 0`))
	if e := value[int](t, ctx, `new Set([...document.querySelectorAll("#explore-molecule svg ellipse")].map(e => e.getAttribute("class"))).size`); e != len(elements) {
		t.Errorf("Explore: %d atoms coloured, the graph has %d", e, len(elements))
	}
	step(t, ctx, "screenshot", screenshot("explore-molecule"))

	step(t, ctx, "PROTEINS: drawn from its layout",
		chromedp.Click(chromedp.CSS("#tab-data")),
		chromedp.SetUploadFiles(chromedp.CSS("#upload"), []string{proteins}),
		textContains("#summary-graphs", "1113 graphs"),
		chromedp.WaitVisible(chromedp.CSS("#panel .graph-view circle")),
		chromedp.Sleep(time.Second))
	if m := value[int](t, ctx, `document.querySelectorAll("#panel .molecule-view").length`); m != 0 {
		t.Error("PROTEINS drawn as a molecule")
	}

	step(t, ctx, "a SMILES table: load it; graph 0 drawn by RDKit",
		chromedp.SetUploadFiles(chromedp.CSS("#upload"), []string{table}),
		chromedp.WaitEnabled(chromedp.CSS("#data-load")),
		chromedp.Click(chromedp.CSS("#data-load")),
		textContains("#summary-graphs", "4 graphs"),
		chromedp.WaitVisible(chromedp.CSS("#data-molecule svg text")))
	n, labels = drawnAtoms(t, ctx, "#data-molecule svg")
	checkElements(t, "nitrobenzene", n, labels, []string{"C", "C", "C", "C", "C", "C", "N", "O", "O"})
	if labels[6] != "N+" || labels[8] != "O-" {
		t.Errorf("nitrobenzene's charges: atom 6 %q, atom 8 %q; want N+ and O-", labels[6], labels[8])
	}
	step(t, ctx, "RDKit is in the service worker's cache",
		until(`Promise.all(["/web/rdkit.js", "/web/rdkit/RDKit_minimal.js", "/web/rdkit/RDKit_minimal.wasm"].map(u => caches.match(u))).then(rs => rs.every(r => !!r))`))
	srv.Close()
	step(t, ctx, "offline: reload; the table is restored and its molecule drawn",
		chromedp.Reload(),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		textContains("#summary-graphs", "4 graphs"),
		chromedp.WaitVisible(chromedp.CSS("#data-molecule svg text")))
}
