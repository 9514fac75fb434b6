package app

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// sampleExplained is a made-up explanation of a 4-atom molecule (a chain
// 0-1-2-3) on a 2x2 grid with two channels and two descriptors.
func sampleExplained() *protocol.Explained {
	return &protocol.Explained{
		Explanation: protocol.Explanation{
			Graph: "nitro", Class: "-1", Decision: 0.42, Reference: -0.16, Attribution: "nodes",
			Nodes: []protocol.NodeScore{{ID: 0, Score: 0.5}, {ID: 1, Score: -0.25}, {ID: 2, Score: 0}, {ID: 3, Score: 0.33}},
			Edges: []protocol.EdgeScore{{U: 0, V: 1, Score: 0.25}, {U: 1, V: 2, Score: -1}, {U: 2, V: 3, Score: 0.33}},
			Points: []protocol.PointScore{
				{Descriptor: "ricci", Diagram: "ord0", Birth: 0.25, Death: 0.75, Score: 0.1, Vertices: []int{0}, Edges: [][2]int{{0, 1}}},
				{Descriptor: "ricci", Diagram: "ext0", Birth: 0.25, Death: 1.25, Score: -0.3, Vertices: []int{0, 3}},
				{Descriptor: "label C", Diagram: "ext1", Birth: 1.5, Death: 0.5, Score: 0.2, Edges: [][2]int{{0, 1}, {1, 2}}},
				{Descriptor: "label C", Diagram: "ext0", Birth: 0.25, Death: 1.25, Score: 0.05, Vertices: []int{1, 2}},
				{Descriptor: "label C", Diagram: "rel1", Birth: 1.5, Death: 0.5, Score: -0.01},
				{Descriptor: "label C", Diagram: "ord0", Birth: 0.75, Death: 1, Score: 0.001},
			},
			Blocks: []protocol.BlockScore{
				{Descriptor: "ricci", Channel: "ord0+ext0", Pixels: []float64{0.1, 0, 0, -0.2}},
				{Descriptor: "ricci", Channel: "rel1+ext1", Pixels: []float64{0, 0.3, 0, 0}},
				{Descriptor: "label C", Channel: "ord0+ext0", Pixels: []float64{0.1, 0, 0.4, -0.2}},
				{Descriptor: "label C", Channel: "rel1+ext1", Pixels: []float64{0, 0, 0, 0.1}},
			},
			Groups: []protocol.GroupScore{
				{Name: "carbonyl", Atoms: []int{2, 3}, Score: 0.33, Share: 0.3},
				{Name: "benzene ring", Atoms: []int{0, 1, 2, 3, 4, 5}, Score: -0.25, Share: -0.2},
				{Name: "chlorine", Atoms: []int{1}, Score: 0, Share: 0},
			},
		},
		Prediction: protocol.Graph{File: protocol.TypedSMILES, Name: "nitro", Nodes: 4, Edges: 3, Label: "-1", Decision: []float64{0.42}},
		Molecule:   "C=CC=O",
		Labels:     []string{"C", "C", "C", "O"},
		Grid:       protocol.Grid{MinX: 0, MinY: 0, Pixel: 1, Rows: 2, Cols: 2},
		Millis:     12.3,
	}
}

// depicter is a fakeBackend that draws molecules as told.
type depicter struct {
	*fakeBackend
	asked []Depiction
	svg   string
	err   error
}

func (d *depicter) Depict(dep Depiction, done func(string, error)) {
	d.asked = append(d.asked, dep)
	done(d.svg, d.err)
}

// TestExplainChosen: Explain sends the chosen prediction's index with the
// model and the inputs that were classified; the answer is shown with its
// downloads, and the molecule goes to the Depicter in the colours of the
// scores: the largest |score| of the nodes (and of the edges) at an end of
// the scale, red towards the class, blue against it, white at 0. RDKit's
// drawing is shown as it comes (without its XML declaration, named for
// screen readers); when it fails, the graph's layout in the same colours.
func TestExplainChosen(t *testing.T) {
	b := &depicter{fakeBackend: newFakeBackend(), svg: "<?xml version='1.0'?>\n<svg class='rdkit'><path class='atom-0'/></svg>"}
	r := newRoot(b)
	e := app.NewTestEngine()
	if err := e.Load(&harness{root: r}); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	r.models.current = &trained{name: "M", data: []byte(`{"m":1}`), info: mutagInfo}
	typed := "CCO ethanol\nC=CC=O nitro"
	r.act(func(ctx app.Context) { r.classify.smiles = typed; r.classifySMILES(ctx) })
	e.ConsumeAll()
	b.of(protocol.Predict)[0].h.Done(protocol.Response{Graphs: []protocol.Graph{{Name: "ethanol", Label: "1", Decision: []float64{-1}}, sampleExplained().Prediction}})
	e.ConsumeAll()
	r.act(func(app.Context) { r.classify.chosen = 1 })
	r.act(func(ctx app.Context) { r.classifyTab().(*ClassifyTab).OnExplain() })
	e.ConsumeAll()
	jobs := b.of(protocol.Explain)
	if len(jobs) != 1 || jobs[0].req.Graph != 1 || string(jobs[0].req.Model) != `{"m":1}` || len(jobs[0].req.Inputs) != 1 || string(jobs[0].req.Inputs[0].Data) != typed {
		t.Fatalf("Explain jobs %+v", jobs)
	}
	if !strings.Contains(app.HTMLString(r.classifyTab()), "Explaining…") {
		t.Error("no sign of the running explanation")
	}
	res := sampleExplained()
	jobs[0].h.Done(protocol.Response{Explained: res, Arrays: map[string][]float64{"x": {0, 0.3, 0.6, 1}, "y": {0, 1, 0, 1}}})
	e.ConsumeAll()
	ex := r.classify.explain
	if ex.result != res || ex.job.busy() || ex.jsonURL == "" || ex.csvURL == "" || len(b.asked) != 1 {
		t.Fatalf("after the job: %+v, %d drawings asked", ex, len(b.asked))
	}
	red, blue := [3]float64{178.0 / 255, 24.0 / 255, 43.0 / 255}, [3]float64{33.0 / 255, 102.0 / 255, 172.0 / 255}
	d := b.asked[0]
	if d.Molecule != "C=CC=O" || len(d.Atoms) != 4 || d.Atoms[0] != red || d.Atoms[2] != [3]float64{1, 1, 1} ||
		len(d.Bonds) != 3 || d.Bonds[1] != (BondColour{U: 1, V: 2, Colour: blue}) || d.Bonds[0].Colour == red {
		t.Errorf("the drawing asked: %+v", d)
	}
	// Half the top of the scale, blue: half way from white.
	if want := unit(divergingRGB(-0.5)); d.Atoms[1] != want {
		t.Errorf("atom 1 (score -0.25 of 0.5): %v, want %v", d.Atoms[1], want)
	}
	html := app.HTMLString(r.classifyTab())
	if !strings.Contains(html, `<svg role="img" aria-label="nitro drawn by RDKit`) || strings.Contains(html, "<?xml") ||
		!strings.Contains(html, "atom-0") || !strings.Contains(html, `id="explain-json"`) {
		t.Errorf("the Explain view does not show RDKit's drawing and the downloads:\n%s", html)
	}

	// Another graph chosen: its card offers Explain; back, the explanation.
	r.act(func(app.Context) { r.classify.chosen = 0 })
	e.ConsumeAll()
	if strings.Contains(app.HTMLString(r.classifyTab()), `id="explain"`) {
		t.Error("the explanation of graph 1 shows on graph 0")
	}
	r.act(func(app.Context) { r.classify.chosen = 1 })

	// RDKit fails: the graph's layout, in the same colours.
	b.err, b.svg = errors.New("RDKit reads 3 atoms, the graph has 4 nodes"), ""
	r.act(func(ctx app.Context) { r.explainChosen(ctx) })
	e.ConsumeAll()
	b.of(protocol.Explain)[1].h.Done(protocol.Response{Explained: res, Arrays: map[string][]float64{"x": {0, 0.3, 0.6, 1}, "y": {0, 1, 0, 1}}})
	e.ConsumeAll()
	if b.revoked < 2 {
		t.Errorf("%d URLs revoked: the first explanation's downloads are kept", b.revoked)
	}
	html = app.HTMLString(r.classifyTab())
	circles := elems(html, "circle")
	if !strings.Contains(html, "drawn as its graph: RDKit reads 3 atoms") || len(circles) < 4 ||
		circles[0]["fill"] != "rgb(178,24,43)" || circles[2]["fill"] != "rgb(255,255,255)" || !strings.Contains(circles[2]["style"], "stroke:") {
		t.Errorf("the fallback drawing: circles %v\n%s", circles[:min(4, len(circles))], html)
	}

	// New predictions drop the explanation.
	r.act(func(ctx app.Context) { r.classifySMILES(ctx) })
	e.ConsumeAll()
	b.of(protocol.Predict)[1].h.Done(protocol.Response{Graphs: []protocol.Graph{{Name: "x", Label: "1", Decision: []float64{-1}}}})
	e.ConsumeAll()
	if r.classify.explain.result != nil || strings.Contains(app.HTMLString(r.classifyTab()), `id="explain"`) {
		t.Error("the explanation outlived its predictions")
	}
}

// TestExplainView: the decision and the reference in words, a legend that
// names the class and the ends of the scale, the top nodes and points,
// one heat map per channel summing the descriptors' blocks, with the
// points scored and the top ones ranked, and the downloads.
func TestExplainView(t *testing.T) {
	res := sampleExplained()
	// The time shown is the time the user waited, the worker's part
	// beside it.
	if got := explainedIn(9012.4, 165); got != "Explained in 9012 ms (165 ms of it in the worker)." {
		t.Errorf("waited 9 s for 165 ms of work: %q", got)
	}
	html := app.HTMLString(&ExplainView{Explained: res, X: []float64{0, 0.3, 0.6, 1}, Y: []float64{0, 1, 0, 1}, JSON: "blob:1", CSV: "blob:2"})
	for _, want := range []string{
		"Why nitro is class -1",
		"Score +0.42 towards class -1; the empty graph scores −0.16, so this graph&#39;s atoms add +0.58",
		"red towards class -1", "blue against class -1", "atoms ±0.5, bonds ±1",
		"Explained in 12 ms", `href="blob:1"`, `href="blob:2"`,
		"The 3 functional groups that count most", "Carbonyl group (atoms 2, 3): +0.33 — pushes towards class -1",
		"Benzene ring (atoms 0, 1, 2, 3, 4, 5): −0.25 — pushes away from class -1", "Chlorine (atom 1): +0.00 — no push either way",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the Explain view", want)
		}
	}
	if !strings.Contains(html, `id="explain-svg"`) || strings.Contains(html, `download="explanation.svg"`) {
		t.Error("the SVG download is offered before the picture is made")
	}
	if rows := cells(html, "explain-nodes"); len(rows) != 4 || rows[0][0] != "0" || rows[0][2] != "+0.5000" || rows[1][1] != "O" {
		t.Errorf("top nodes %q", rows)
	}
	points := cells(html, "explain-points")
	if len(points) != 5 || points[0][1] != "ricci" || points[0][2] != "ext0" || points[0][5] != "-0.3000" || points[0][6] != "nodes 0, 3" ||
		points[1][6] != "edges 0-1, 1-2" {
		t.Errorf("top points %q", points)
	}
	// Channel 0 sums the two descriptors' blocks: 0.2, 0, 0.4, -0.4, on
	// a scale shared with channel 1 (top 0.4).
	fig := html[strings.Index(html, `id="explain-heat-0"`):]
	fig = fig[:strings.Index(fig, "</figure>")]
	px := rasterPixels(t, fig)
	if len(px) != 4 || px[0] != css(divergingRGB(0.5)) || px[1] != "rgb(255,255,255)" || px[2] != css(divergingRGB(1)) || px[3] != css(divergingRGB(-1)) {
		t.Errorf("channel 0's pixels %v", px)
	}
	// Its points: ord0 (0.25, 0.5) +0.1, ext0 (0.25, 1) twice, -0.3 + 0.05,
	// and ord0 (0.75, 0.25) +0.001; ranked #1 (-0.3), #4 (0.1), #3 (0.05)
	// and, outside the five, the last.
	if !strings.Contains(fig, ">#1 #4 ×2<") || !strings.Contains(fig, ">#3<") || strings.Contains(fig, ">#5<") || !strings.Contains(fig, "rgb(33,102,172)") {
		t.Errorf("channel 0's labels or colours:\n%s", fig)
	}
	if !strings.Contains(html, `id="explain-heat-1"`) || !strings.Contains(html, "1-dimensional: Rel1 + Ext1") {
		t.Error("no heat map of channel 1")
	}
	// A graph: nodes and edges instead of atoms and bonds, and more
	// classes; no groups, no list.
	res.Molecule = ""
	res.Explanation.Groups = nil
	res.Explanation.Against = []protocol.PairScore{{Class: "1", Decision: 0.3, Reference: 0}, {Class: "2", Decision: 0.12, Reference: -0.16}}
	html = app.HTMLString(&ExplainView{Explained: res, X: []float64{0, 0.3, 0.6, 1}, Y: []float64{0, 1, 0, 1}})
	if !strings.Contains(html, "nodes ±0.5, edges ±1") || !strings.Contains(html, "against class 2: +0.12 (empty graph −0.16)") {
		t.Errorf("the view of a graph of a three-class model:\n%s", html)
	}
	if strings.Contains(html, "explain-groups") {
		t.Error("groups listed for a graph without any")
	}
}

// TestExplanationDownloads: the JSON is the explanation as wkpi explain
// writes it (one line), the CSV a row per node then per edge.
func TestExplanationDownloads(t *testing.T) {
	res := sampleExplained()
	b := explanationJSON(res.Explanation)
	var back protocol.Explanation
	if err := json.Unmarshal(b, &back); err != nil || back.Nodes[3].Score != 0.33 || strings.Count(string(b), "\n") != 1 {
		t.Errorf("JSON %s: %v", b, err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(explanationCSV(res)))).ReadAll()
	if err != nil || len(rows) != 8 || strings.Join(rows[0], ",") != "kind,node,label,node2,label2,score" ||
		strings.Join(rows[4], ",") != "node,3,O,,,0.33" || strings.Join(rows[6], ",") != "edge,1,C,2,C,-1" {
		t.Errorf("CSV %q: %v", rows, err)
	}
}

// TestMadeBy: a point's simplices, with their shares where values tied
// (toluene's methyl point: half on the methyl carbon, 1/12 on each ring
// atom, its bond alone).
func TestMadeBy(t *testing.T) {
	for _, c := range []struct {
		p    protocol.PointScore
		want string
	}{
		{protocol.PointScore{Vertices: []int{6}, Edges: [][2]int{{5, 6}}}, "nodes 6; edges 5-6"},
		{protocol.PointScore{Vertices: []int{0, 3}, VertexShares: []float64{1.0 / 12, 0.5}, Edges: [][2]int{{2, 3}}}, "nodes 0 (8 %), 3 (50 %); edges 2-3"},
	} {
		if got := madeBy(c.p); got != c.want {
			t.Errorf("madeBy(%+v) = %q, want %q", c.p, got, c.want)
		}
	}
}
