package app

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// explainState is the Classify tab's Explain view: the explanation of one
// prediction, its drawing and its downloads.
type explainState struct {
	job    slot // the running explain job
	err    string
	graph  int // the prediction explained, an index of classifyState.graphs
	result *protocol.Explained
	x, y   []float64 // the worker's layout of the graph
	// waited is how long the user waited, from the click to the answer
	// (in the queue behind other jobs too), in milliseconds.
	waited float64
	// picture is RDKit's drawing of a molecule (SVG text); depicting says
	// RDKit is drawing it, note why the molecule is drawn as a graph.
	picture   string
	marks     []AtomMark // where picture has each atom
	depicting bool
	note      string
	// Object URLs of the downloads: the explanation as JSON and CSV, and
	// the picture shown as SVG.
	jsonURL, csvURL, svgURL string
}

// explainView is the Explain view of the chosen prediction, nil when it
// has none.
func (r *Root) explainView() *ExplainView {
	cl := &r.classify
	ex := &cl.explain
	if ex.result == nil || ex.graph != cl.chosen {
		return nil
	}
	return &ExplainView{Explained: ex.result, X: ex.x, Y: ex.y, Picture: ex.picture, Marks: ex.marks, Depicting: ex.depicting, Note: ex.note,
		JSON: ex.jsonURL, CSV: ex.csvURL, SVG: ex.svgURL, Waited: ex.waited}
}

// forgetExplanation drops the explanation shown and its downloads, and
// cancels one running.
func (r *Root) forgetExplanation() {
	ex := &r.classify.explain
	ex.job.drop(r.Backend)
	for _, u := range []string{ex.jsonURL, ex.csvURL, ex.svgURL} {
		if u != "" {
			r.Backend.RevokeURL(u)
		}
	}
	*ex = explainState{}
}

// explainChosen has a worker explain the chosen prediction with the
// current model, from the inputs that were classified.
func (r *Root) explainChosen(ctx app.Context) {
	cl := &r.classify
	model := r.models.current
	if model == nil || len(cl.graphs) == 0 {
		return
	}
	r.forgetExplanation()
	ex := &cl.explain
	ex.graph = cl.chosen
	clicked := time.Now()
	r.run(ctx, &ex.job, protocol.Request{Kind: protocol.Explain, Model: model.data, Inputs: cl.inputs, Graph: cl.chosen}, jobCalls{
		Done: func(ctx app.Context, resp protocol.Response) {
			ex.waited = float64(time.Since(clicked).Microseconds()) / 1000
			if resp.Explained == nil {
				ex.err = "The worker sent no explanation."
				return
			}
			r.showExplanation(ctx, resp.Explained, resp.Arrays["x"], resp.Arrays["y"])
		},
		Fail: func(ctx app.Context, err error) { ex.err = "Could not explain: " + err.Error() },
	})
}

// showExplanation shows an explanation and makes its downloads; a
// molecule is drawn by the Depicter, if the backend is one, and by its
// graph's layout meanwhile and if that fails.
func (r *Root) showExplanation(ctx app.Context, res *protocol.Explained, x, y []float64) {
	ex := &r.classify.explain
	ex.result, ex.x, ex.y = res, x, y
	ex.jsonURL = r.Backend.ObjectURL(explanationJSON(res.Explanation), "application/json")
	ex.csvURL = r.Backend.ObjectURL(explanationCSV(res), "text/csv")
	ex.depicting = res.Molecule != "" && r.depict(ctx, depiction(res), func(ctx app.Context, svg string, err error) {
		if ex.result != res {
			return // another explanation is shown
		}
		ex.depicting = false
		if err != nil {
			ex.note = fmt.Sprintf("The molecule is drawn as its graph: %v.", err)
		} else {
			ex.picture = depictionSVG(svg, fmt.Sprintf("%s drawn by RDKit, atoms numbered, atoms and bonds coloured by their scores", displayName(res.Prediction)))
			ex.marks = atomPlaces(svg)
		}
		ctx.Defer(r.keepPicture)
	})
	if !ex.depicting {
		ctx.Defer(r.keepPicture)
	}
}

// depict has the Backend draw a molecule, if it is a Depicter, and gives
// done the SVG text or the error in the page's context; it returns false
// when the Backend draws none.
func (r *Root) depict(ctx app.Context, d Depiction, done func(ctx app.Context, svg string, err error)) bool {
	p, ok := r.Backend.(Depicter)
	if !ok {
		return false
	}
	p.Depict(d, func(svg string, err error) {
		ctx.Dispatch(func(ctx app.Context) { done(ctx, svg, err) })
	})
	return true
}

// keepPicture makes the SVG download of the picture as the page shows it
// (RDKit's drawing or the graph's), once it is on the page: a deferred
// call, after the page is drawn, which then asks for its link to be.
func (r *Root) keepPicture(ctx app.Context) {
	el := app.Window().Get("document").Call("querySelector", "#explain-picture svg")
	if !el.Truthy() {
		return
	}
	text := app.Window().Get("XMLSerializer").New().Call("serializeToString", el).String()
	ctx.Dispatch(func(app.Context) {
		ex := &r.classify.explain
		if ex.svgURL != "" {
			r.Backend.RevokeURL(ex.svgURL)
		}
		ex.svgURL = r.Backend.ObjectURL([]byte(text), "image/svg+xml")
	})
}

// The size of RDKit's drawing in the Explain view, in pixels.
const pictureWidth, pictureHeight = 480, 360

// depiction asks for res's molecule with its atoms and bonds in the
// colours of their scores, as the legend reads them.
func depiction(res *protocol.Explained) Depiction {
	ex := res.Explanation
	nodes, edges := scoreScale(ex)
	d := Depiction{Molecule: res.Molecule, Nodes: len(ex.Nodes), Numbers: true, Width: pictureWidth, Height: pictureHeight}
	for _, n := range ex.Nodes {
		d.Atoms = append(d.Atoms, unit(scoreRGB(n.Score, nodes)))
	}
	for _, e := range ex.Edges {
		d.Bonds = append(d.Bonds, BondColour{U: e.U, V: e.V, Colour: unit(scoreRGB(e.Score, edges))})
	}
	return d
}

// depictionSVG makes RDKit's SVG fit for the page: from its <svg> on (no
// XML declaration), named for screen readers.
func depictionSVG(svg, label string) string {
	if i := strings.Index(svg, "<svg"); i > 0 {
		svg = svg[i:]
	}
	return strings.Replace(svg, "<svg", `<svg role="img" aria-label="`+html.EscapeString(label)+`"`, 1)
}

// explanationJSON is the explanation as `wkpi explain -format json`
// writes it, without the file and index there.
func explanationJSON(ex protocol.Explanation) []byte {
	b, err := json.Marshal(ex)
	if err != nil {
		return nil // plain numbers and strings always marshal
	}
	return append(b, '\n')
}

// explanationCSV is one table a spreadsheet opens: a row per node (kind
// "node": its id and label) then a row per edge (kind "edge": both ends),
// each with its score.
func explanationCSV(res *protocol.Explained) []byte {
	label := func(i int) string {
		if i < len(res.Labels) {
			return res.Labels[i]
		}
		return ""
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write([]string{"kind", "node", "label", "node2", "label2", "score"})
	for _, n := range res.Explanation.Nodes {
		w.Write([]string{"node", fmt.Sprint(n.ID), label(n.ID), "", "", fmt.Sprint(n.Score)})
	}
	for _, e := range res.Explanation.Edges {
		w.Write([]string{"edge", fmt.Sprint(e.U), label(e.U), fmt.Sprint(e.V), label(e.V), fmt.Sprint(e.Score)})
	}
	w.Flush()
	return []byte(b.String())
}
