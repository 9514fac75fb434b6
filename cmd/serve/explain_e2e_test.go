package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"wkpi-web/wasm/protocol"
)

// mutagLabelsModel returns the model of `wkpi train -data MUTAG -labels
// -iter 20`, whose explanations tell atoms apart.
func mutagLabelsModel(t *testing.T) string {
	return labelsModel.get(t, "mutag-labels.json", "-preset", "default", "-labels")
}

// cliExplained is one line of `wkpi explain -format json`.
type cliExplained struct {
	protocol.Explanation
	File  string `json:"file"`
	Index int    `json:"index"`
}

// wkpiExplain runs `wkpi explain -format json` on file.
func wkpiExplain(t *testing.T, model, file string) []cliExplained {
	t.Helper()
	cmd := exec.Command("go", "run", "../wkpi", "explain", "-format", "json", "-model", model, file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("wkpi explain: %v\n%s", err, stderr.Bytes())
	}
	var all []cliExplained
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var e cliExplained
		if err := dec.Decode(&e); err != nil {
			t.Fatal(err)
		}
		all = append(all, e)
	}
	return all
}

// scoreColour is the colour the page gives a score on a scale up to top:
// white at 0, blended towards red (positive, towards the class) or blue
// (negative) up to the ends, as ColorBrewer's RdBu.
func scoreColour(score, top float64) [3]float64 {
	end, f := [3]float64{178, 24, 43}, score/top
	if f < 0 {
		end, f = [3]float64{33, 102, 172}, -f
	}
	var c [3]float64
	for k := range c {
		c[k] = math.Round(255*(1-f) + end[k]*f)
	}
	return c
}

func near(a, b [3]float64, tol float64) bool {
	for k := range a {
		if math.Abs(a[k]-b[k]) > tol {
			return false
		}
	}
	return true
}

// maxAbs is the largest |score| among scores.
func maxAbs(scores []float64) float64 {
	m := 0.0
	for _, s := range scores {
		m = math.Max(m, math.Abs(s))
	}
	return m
}

// explainGraph chooses row i of the predictions, clicks Explain and waits
// for the explanation of name, drawn by RDKit (molecule) or as a graph.
func explainGraph(t *testing.T, ctx context.Context, i int, name string, molecule bool) {
	t.Helper()
	picture := "#explain-picture .graph-view svg circle"
	if molecule {
		picture = "#explain-picture .molecule svg ellipse"
	}
	step(t, ctx, "explain "+name,
		until(fmt.Sprintf(`(() => { const b = document.querySelectorAll("#predictions tbody tr .name button")[%d]; b.click(); return true; })()`, i)),
		textContains("#classify-chosen h2", name),
		chromedp.Click(chromedp.CSS("#classify-explain")),
		textContains("#explain h2", "Why "+name),
		chromedp.WaitVisible(chromedp.CSS(picture)),
		until(`!!document.querySelector("#explain-svg[href]")`),
	)
}

// downloaded fetches the target of the download link sel.
func downloaded(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return value[string](t, ctx, fmt.Sprintf(`fetch(document.querySelector(%q).href).then(r => r.text())`, sel))
}

// differ returns where two JSON values differ ("" when they do not),
// numbers within tol: the worker's WebAssembly and the CLI's native code
// round differently in the last digits (math.Exp is assembly natively).
func differ(a, b any, tol float64, at string) string {
	switch a := a.(type) {
	case float64:
		if b, ok := b.(float64); ok && math.Abs(a-b) <= tol {
			return ""
		}
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			break
		}
		for k, v := range a {
			if d := differ(v, b[k], tol, at+"."+k); d != "" {
				return d
			}
		}
		return ""
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			break
		}
		for i := range a {
			if d := differ(a[i], b[i], tol, fmt.Sprintf("%s[%d]", at, i)); d != "" {
				return d
			}
		}
		return ""
	default:
		if a == b {
			return ""
		}
	}
	return fmt.Sprintf("%s: %v, want %v", at, a, b)
}

// checkDownloads compares the JSON download with the CLI's explanation
// (without its file and index: the same fields, the same numbers to
// 1e-9) and checks the CSV's rows and the SVG.
func checkDownloads(t *testing.T, ctx context.Context, want cliExplained, labels []string, svgHas string) {
	t.Helper()
	page := downloaded(t, ctx, "#explain-json")
	cli, _ := json.Marshal(want.Explanation)
	var got, exp any
	if err := json.Unmarshal([]byte(page), &got); err != nil || strings.Count(page, "\n") != 1 || !strings.HasSuffix(page, "}\n") {
		t.Errorf("the JSON download is not one line of JSON (%v): %.200q", err, page)
	}
	json.Unmarshal(cli, &exp)
	if d := differ(got, exp, 1e-9, "explanation"); d != "" {
		t.Errorf("the JSON download differs from wkpi explain's at %s", d)
	}
	rows, err := csv.NewReader(strings.NewReader(downloaded(t, ctx, "#explain-csv"))).ReadAll()
	if err != nil || len(rows) != 1+len(want.Nodes)+len(want.Edges) || strings.Join(rows[0], ",") != "kind,node,label,node2,label2,score" {
		t.Fatalf("CSV download: %v, %q", err, rows)
	}
	for i, n := range want.Nodes {
		r := rows[1+i]
		score, err := strconv.ParseFloat(r[5], 64)
		if r[0] != "node" || r[1] != fmt.Sprint(n.ID) || r[2] != labels[n.ID] || err != nil || math.Abs(score-n.Score) > 1e-9 {
			t.Errorf("CSV row %d %q, want node %d %s %v", 1+i, r, n.ID, labels[n.ID], n.Score)
		}
	}
	if svg := downloaded(t, ctx, "#explain-svg"); !strings.HasPrefix(svg, "<svg") || !strings.Contains(svg, svgHas) {
		t.Errorf("SVG download %.200q lacks %q", svg, svgHas)
	}
}

// checkLabels checks every text of the plots in sel: inside its svg, and
// no two covering each other.
func checkLabels(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	bad := value[[]string](t, ctx, fmt.Sprintf(`(() => {
		const bad = [];
		for (const s of document.querySelectorAll(%q)) {
			const box = s.getBoundingClientRect(), texts = [...s.querySelectorAll("text")].filter(e => e.textContent.trim() !== "");
			const rs = texts.map(e => e.getBoundingClientRect());
			rs.forEach((r, i) => {
				const name = (s.closest("figure")?.id || "svg") + " '" + texts[i].textContent + "'";
				if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) bad.push(name + " outside its svg");
				for (let j = 0; j < i; j++) {
					const o = rs[j];
					if (r.left < o.right - 0.5 && o.left < r.right - 0.5 && r.top < o.bottom - 0.5 && o.top < r.bottom - 0.5) bad.push(name + " over '" + texts[j].textContent + "'");
				}
			});
		}
		return bad; })()`, sel))
	if len(bad) > 0 {
		t.Errorf("%s: labels not legible: %v", sel, bad)
	}
}

// TestBrowserExplain: the Explain view of the Classify tab with a model
// from wkpi train -labels: nitrobenzene drawn by RDKit (loaded on the
// first Explain, not before) with its atoms and bonds in the colours of
// the scores of wkpi explain and its nitro group and benzene ring listed
// with that explanation's scores, the same JSON as the CLI, the CSV and SVG
// downloads; a GraphML graph drawn from its layout; legible diagram
// labels, axe-core and 390 px; then offline, a reload and an Explain that
// still draws the molecule from the service worker's cache.
func TestBrowserExplain(t *testing.T) {
	model := mutagLabelsModel(t)
	dir := t.TempDir()
	typed := "c1ccc(cc1)[N+](=O)[O-] nitrobenzene\nO=[N+]([O-])c1ccc2c(c1)Cc1ccccc1-2 2-nitrofluorene\n"
	smi := filepath.Join(dir, "typed.smi")
	if err := os.WriteFile(smi, []byte(typed), 0o644); err != nil {
		t.Fatal(err)
	}
	want := wkpiExplain(t, model, smi)
	graphml, err := filepath.Abs("testdata/nitro-ring.graphml")
	if err != nil {
		t.Fatal(err)
	}
	ring := wkpiExplain(t, model, graphml)
	ctx, cancel := browserFor(t, 8*time.Minute)
	defer cancel()
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()

	step(t, ctx, "load the page and import a model from wkpi train -labels",
		chromedp.Navigate(srv.URL+"/#models"),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.SetUploadFiles(chromedp.CSS("#model-upload"), []string{model}),
		textContains("#model-dataset", "MUTAG"),
	)
	step(t, ctx, "Classify: two nitro aromatics",
		chromedp.Click(chromedp.CSS("#tab-classify")),
		chromedp.WaitVisible(chromedp.CSS("#classify-smiles")),
		typeSMILES(strings.TrimSpace(typed)),
		until(`!document.querySelector("#classify-run").disabled`),
		chromedp.Click(chromedp.CSS("#classify-run")),
		until(`document.querySelectorAll("#predictions tbody tr").length === 2`),
		chromedp.WaitVisible(chromedp.CSS("#classify-explain")),
	)
	// RDKit is not part of a visit until a molecule is explained: neither
	// fetched nor in the service worker's cache.
	rdkitFetched := `performance.getEntriesByType("resource").map(e => e.name).filter(n => /rdkit/i.test(n)).map(n => new URL(n).pathname)`
	// A model and no dataset: the classifier program did the work.
	step(t, ctx, "the service worker has cached the site", until(`caches.match("/web/classifier.wasm").then(r => !!r)`))
	if got := value[[]string](t, ctx, rdkitFetched); len(got) > 0 {
		t.Errorf("RDKit fetched before Explain: %v", got)
	}
	if value[bool](t, ctx, `caches.match("/web/rdkit/RDKit_minimal.wasm").then(r => !!r)`) {
		t.Error("RDKit is in the service worker's cache before Explain")
	}

	start := time.Now()
	explainGraph(t, ctx, 0, "nitrobenzene", true)
	t.Logf("Explain to RDKit's drawing, RDKit loaded cold: %v", time.Since(start).Round(time.Millisecond))
	got := value[[]string](t, ctx, rdkitFetched)
	for _, f := range []string{"/web/rdkit.js", "/web/rdkit/RDKit_minimal.js", "/web/rdkit/RDKit_minimal.wasm"} {
		if !strings.Contains(strings.Join(got, " "), f) {
			t.Errorf("%s not fetched on Explain (fetched %v)", f, got)
		}
	}
	nb := want[0]
	millis := value[float64](t, ctx, `Number(document.querySelector("#explain-time").dataset.millis)`)

	// RDKit's molecule has our atoms, in our order: 9 heavy atoms, labels
	// drawn for the nitro group's atoms 6 (N+), 7 and 8 (O, O-) alone.
	type atom struct {
		Atom int       `json:"atom"`
		RGB  []float64 `json:"rgb"`
	}
	atoms := value[[]atom](t, ctx, `[...document.querySelectorAll("#explain .molecule svg ellipse")].map(e => ({
		atom: Number(e.getAttribute("class").match(/atom-(\d+)/)[1]),
		rgb: getComputedStyle(e).fill.match(/\d+/g).map(Number)}))`)
	labelled := value[[]int](t, ctx, `[...new Set([...document.querySelectorAll("#explain .molecule svg path, #explain .molecule svg text:not(.note)")]
		.map(p => p.getAttribute("class") || "").filter(c => /^atom-\d+$/.test(c)).map(c => Number(c.slice(5))))].sort()`)
	indices := value[[]int](t, ctx, `[...new Set([...document.querySelectorAll("#explain .molecule svg [class*=atom-]")]
		.flatMap(e => [...e.getAttribute("class").matchAll(/atom-(\d+)/g)].map(m => Number(m[1]))))]`)
	if len(atoms) != len(nb.Nodes) || len(indices) != 9 || fmt.Sprint(labelled) != "[6 7 8]" {
		t.Errorf("RDKit's nitrobenzene: %d highlighted atoms, %d atoms, labels on %v; want 9, 9, [6 7 8]", len(atoms), len(indices), labelled)
	}
	var nodeScores []float64
	for _, n := range nb.Nodes {
		nodeScores = append(nodeScores, n.Score)
	}
	top := maxAbs(nodeScores)
	ends := 0
	for _, a := range atoms {
		s := nb.Nodes[a.Atom].Score
		if len(a.RGB) < 3 || !near([3]float64(a.RGB[:3]), scoreColour(s, top), 2) {
			t.Errorf("atom %d (score %+.4f of ±%.4f) is %v, want %v", a.Atom, s, top, a.RGB, scoreColour(s, top))
		}
		if math.Abs(s) == top {
			ends++
		}
	}
	if ends == 0 {
		t.Error("no atom at the end of the scale")
	}
	summary := value[string](t, ctx, `document.querySelector("#explain-summary").textContent`)
	legend := value[string](t, ctx, `document.querySelector("#explain-legend").textContent`)
	if sign := strings.Replace(fmt.Sprintf("%+.2f", nb.Decision), "-", "−", 1); !strings.Contains(summary, "Score "+sign+" towards class "+nb.Class) ||
		!strings.Contains(legend, "red towards class "+nb.Class) || !strings.Contains(legend, "blue against class "+nb.Class) ||
		!strings.Contains(legend, fmt.Sprintf("atoms ±%.3g", top)) {
		t.Errorf("summary %q, legend %q", summary, legend)
	}
	// The groups beside the picture, with wkpi explain's scores.
	groups := value[[]string](t, ctx, `[...document.querySelectorAll("#explain-groups li")].map(li => li.textContent)`)
	if len(groups) != len(nb.Groups) || len(groups) != 2 {
		t.Errorf("groups listed %q, wkpi explain's %v", groups, nb.Groups)
	}
	for i, g := range nb.Groups {
		atoms := map[string]string{"nitro": "Nitro group (atoms 6, 7, 8): ", "benzene ring": "Benzene ring (atoms 0, 1, 2, 3, 4, 5): "}[g.Name]
		if want := atoms + strings.Replace(fmt.Sprintf("%+.2f", g.Score), "-", "−", 1); i < len(groups) && (atoms == "" || !strings.HasPrefix(groups[i], want)) {
			t.Errorf("group %d listed %q, want it to start %q", i, groups[i], want)
		}
	}
	checkDownloads(t, ctx, nb, []string{"C", "C", "C", "C", "C", "C", "N", "O", "O"}, "atom-6")

	checkAxe(t, ctx, "the Explain view")
	checkLabels(t, ctx, "#classify-heat svg, #explain .heat-view > svg")
	step(t, ctx, "390 px", chromedp.EmulateViewport(390, 844), chromedp.Sleep(300*time.Millisecond), screenshot("narrow-explain"))
	if scrolls, wide := overflow(t, ctx); scrolls || len(wide) > 0 {
		t.Errorf("390 px: page scrolls sideways %v; too wide: %v", scrolls, wide)
	}
	checkLabels(t, ctx, "#classify-heat svg, #explain .heat-view > svg")
	step(t, ctx, "back to 1280 px", chromedp.EmulateViewport(1280, 900), screenshot("explain"))

	explainGraph(t, ctx, 1, "2-nitrofluorene", true)
	millis2 := value[float64](t, ctx, `Number(document.querySelector("#explain-time").dataset.millis)`)
	var second protocol.Explanation
	if err := json.Unmarshal([]byte(downloaded(t, ctx, "#explain-json")), &second); err != nil || second.Graph != "2-nitrofluorene" ||
		math.Abs(second.Decision-want[1].Decision) > 1e-9 || len(second.Nodes) != 16 {
		t.Errorf("2-nitrofluorene: the JSON download (%v) holds %s, decision %v for %d nodes; wkpi explain: %v", err, second.Graph, second.Decision, len(second.Nodes), want[1].Decision)
	}

	explainGraph(t, ctx, 0, "nitrobenzene", true)
	millis3 := value[float64](t, ctx, `Number(document.querySelector("#explain-time").dataset.millis)`)
	t.Logf("BENCH explain in the browser worker: nitrobenzene (9 atoms) %.1f ms, the worker's first explanation with the model (building its explainer); "+
		"then 2-nitrofluorene (16 atoms; MUTAG graphs have 18 on average) %.1f ms and nitrobenzene again %.1f ms", millis, millis2, millis3)
	step(t, ctx, "a GraphML graph: its class and the Explain button",
		chromedp.SetUploadFiles(chromedp.CSS("#classify-upload"), []string{graphml}),
		until(`document.querySelectorAll("#predictions tbody tr").length === 1`),
	)
	explainGraph(t, ctx, 0, "nitro-ring", false)
	fills := value[[]string](t, ctx, `[...document.querySelectorAll("#explain-picture .graph-view circle")].map(c => c.getAttribute("fill"))`)
	var ringScores []float64
	for _, n := range ring[0].Nodes {
		ringScores = append(ringScores, n.Score)
	}
	if len(fills) != 9 || value[int](t, ctx, `document.querySelectorAll("#explain .molecule").length`) != 0 {
		t.Fatalf("the GraphML graph is drawn with %d nodes (want 9), or as a molecule", len(fills))
	}
	for i, f := range fills {
		c := scoreColour(ring[0].Nodes[i].Score, maxAbs(ringScores))
		if f != fmt.Sprintf("rgb(%.0f,%.0f,%.0f)", c[0], c[1], c[2]) {
			t.Errorf("node %d (score %+.4f) is %s, want %v", i, ring[0].Nodes[i].Score, f, c)
		}
	}
	checkDownloads(t, ctx, ring[0], []string{"C", "C", "C", "C", "C", "C", "N", "O", "O"}, "<circle")

	step(t, ctx, "RDKit is in the service worker's cache",
		until(`Promise.all(["/web/rdkit.js", "/web/rdkit/RDKit_minimal.js", "/web/rdkit/RDKit_minimal.wasm"].map(u => caches.match(u))).then(rs => rs.every(r => !!r))`),
	)
	srv.Close()
	step(t, ctx, "offline: reload, classify and explain; RDKit draws from the cache",
		chromedp.Reload(),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.Click(chromedp.CSS("#tab-classify")),
		chromedp.WaitVisible(chromedp.CSS("#classify-smiles")),
		typeSMILES("c1ccc(cc1)[N+](=O)[O-] nitrobenzene"),
		until(`!document.querySelector("#classify-run").disabled`),
		chromedp.Click(chromedp.CSS("#classify-run")),
		until(`document.querySelectorAll("#predictions tbody tr").length === 1`),
	)
	explainGraph(t, ctx, 0, "nitrobenzene", true)
	if note := value[string](t, ctx, `document.querySelector("#explain-picture figcaption").textContent`); strings.Contains(note, "drawn as its graph") {
		t.Errorf("offline: %s", note)
	}
}

// TestBrowserExplainDist: on a site built as `make dist` builds it (hashed
// names, a sub-path, a plain file server), Explain loads RDKit from its
// hashed URLs into the one cache of the service worker, and draws the
// molecule offline after a reload.
func TestBrowserExplainDist(t *testing.T) {
	model := mutagLabelsModel(t)
	out := filepath.Join(t.TempDir(), "site")
	cmd := exec.Command("go", "run", "../static", "-out", out, "-wasm", filepath.Join(site, "web"),
		"-public", "../../public", "-data", "../../data", "-version", "explain-dist",
		"-rdkit", "../static/rdkit/node_modules/@rdkit/rdkit/dist", "-prefix", distPrefix, "-hash", "-brotli", "1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cmd/static: %v\n%s", err, b)
	}
	ctx, cancel := browser(t)
	defer cancel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	srv := serveOn(t, addr, plainStatic(out))
	classify := []chromedp.Action[chromedp.Void]{
		chromedp.Click(chromedp.CSS("#tab-classify")),
		typeSMILES("c1ccc(cc1)[N+](=O)[O-] nitrobenzene"),
		until(`!document.querySelector("#classify-run").disabled`),
		chromedp.Click(chromedp.CSS("#classify-run")),
		until(`document.querySelectorAll("#predictions tbody tr").length === 1`),
	}
	step(t, ctx, "import a model and classify nitrobenzene", append([]chromedp.Action[chromedp.Void]{
		chromedp.Navigate("http://" + addr + distPrefix + "/#models"),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
		chromedp.SetUploadFiles(chromedp.CSS("#model-upload"), []string{model}),
		textContains("#model-dataset", "MUTAG"),
	}, classify...)...)
	explainGraph(t, ctx, 0, "nitrobenzene", true)
	step(t, ctx, "the service worker's one cache holds RDKit's three files, hashed, under the sub-path",
		until(`caches.keys().then(async (ks) => ks.length === 1 && (await (await caches.open(ks[0])).keys())
			.map((r) => new URL(r.url).pathname).filter((p) => p.startsWith("`+distPrefix+`/web/rdkit") && /\.[0-9a-f]{12}\.(js|wasm)$/.test(p)).length === 3)`),
	)
	srv.Close()
	step(t, ctx, "offline: reload and classify", append([]chromedp.Action[chromedp.Void]{
		chromedp.Reload(),
		chromedp.WaitNotPresent(chromedp.CSS("#app-wasm-loader")),
	}, classify...)...)
	explainGraph(t, ctx, 0, "nitrobenzene", true)
}
