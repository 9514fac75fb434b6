package app

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// topPoints is how many diagram points the Explain view ranks.
const topPoints = 5

// ExplainView shows why a graph got its class: the graph (a molecule as
// RDKit draws it, else the worker's layout) with nodes and edges coloured
// by their scores, the diagram points and image pixels that decided, the
// decision in words, and downloads.
type ExplainView struct {
	app.Compo
	Explained *protocol.Explained
	X, Y      []float64  // the worker's layout, in [0,1]^2
	Picture   string     // RDKit's drawing of the molecule (SVG text), "" for none
	Marks     []AtomMark // where Picture has each atom
	Depicting bool       // RDKit is drawing it
	Note      string     // why a molecule is drawn as a graph
	// Object URLs of the downloads, "" until made.
	JSON, CSV, SVG string
	// Waited is how long the user waited for the explanation, in
	// milliseconds (0: not known).
	Waited float64

	// linked is the node the pointer or focus is on, in RDKit's picture
	// or in the table, which both then mark, when pointed.
	linked  int
	pointed bool
}

// linkedNode is the node pointed at, -1 for none.
func (v *ExplainView) linkedNode() int {
	if !v.pointed {
		return -1
	}
	return v.linked
}

// link handles the pointer or focus coming to node i of the picture or
// the table (-1: leaving it).
func (v *ExplainView) link(i int) app.EventHandler {
	return func(app.Context, app.Event) { v.linked, v.pointed = i, i >= 0 }
}

// nodeName names node i with its label and score, for screen readers.
func (v *ExplainView) nodeName(node string) func(int) string {
	return func(i int) string {
		s := fmt.Sprintf("%s %d", node, i)
		if l := v.Explained.Labels; i < len(l) {
			s += ", " + l[i]
		}
		for _, n := range v.Explained.Explanation.Nodes {
			if n.ID == i {
				s += fmt.Sprintf(", score %+.4f", n.Score)
			}
		}
		return s
	}
}

// explainedIn says how long the user waited and how much of it the
// worker spent explaining.
func explainedIn(waited, worked float64) string {
	if waited <= 0 {
		return fmt.Sprintf("Explained in %.0f ms by a worker.", worked)
	}
	return fmt.Sprintf("Explained in %.0f ms (%.0f ms of it in the worker).", max(waited, worked), worked)
}

// Render lays out the explanation in one card.
func (v *ExplainView) Render() app.UI {
	res := v.Explained
	ex := res.Explanation
	nodeMax, edgeMax := scoreScale(ex)
	node, edge := "node", "edge"
	if res.Molecule != "" {
		node, edge = "atom", "bond"
	}
	towards := "towards " + className(ex.Class)
	return app.Section().Class("card").ID("explain").Body(
		app.H2().Text(fmt.Sprintf("Why %s is %s", displayName(res.Prediction), className(ex.Class))),
		app.P().ID("explain-summary").DataSet("decision", ex.Decision).DataSet("reference", ex.Reference).Text(summaryWords(ex, node)),
		app.If(len(ex.Against) > 0, func() app.UI {
			return app.P().ID("explain-pairs").Text(pairWords(ex))
		}),
		app.P().ID("explain-time").Class("muted").DataSet("millis", res.Millis).DataSet("waited", v.Waited).Text(explainedIn(v.Waited, res.Millis)),
		app.Div().Class("columns").Body(
			app.Figure().ID("explain-picture").Class("explain-picture").Body(
				app.If(v.Picture != "", func() app.UI {
					return app.Div().Class("molecule").Body(
						app.Raw(v.Picture),
						atomRings(v.Marks, pictureWidth, pictureHeight, v.linkedNode(), v.nodeName(node), v.link),
					)
				}).Else(func() app.UI { return v.graph(nodeMax, edgeMax) }),
				app.FigCaption().Body(
					app.If(v.Depicting, func() app.UI { return app.Span().Class("busy").Text("RDKit is drawing the molecule… ") }),
					app.Text(v.caption(node, edge)),
				),
			),
			app.Div().Body(
				app.Div().ID("explain-legend").Class("score-legend").DataSet("node-max", nodeMax).DataSet("edge-max", edgeMax).Body(
					app.P().Body(
						app.Text("Colours: "), app.Strong().Text("red "+towards),
						app.Text(", "), app.Strong().Text("blue against "+className(ex.Class)),
						app.Text(", white near 0; the deeper, the more it counts."),
					),
					app.Div().Class("colour-bar").Body(
						app.Span().Class("bar-end").Text("against"),
						app.Span().Class("bar").Aria("hidden", "true").Style("background", gradient(true)),
						app.Span().Class("bar-end").Text("towards"),
					),
					app.P().Class("scale").Text(fmt.Sprintf("The ends of the scale: %ss %s, %ss %s.", node, plusMinus(nodeMax), edge, plusMinus(edgeMax))),
				),
				v.topNodes(node),
				v.groups(),
			),
		),
		v.diagrams(towards),
		app.Div().Class("row downloads").Body(
			download("explain-json", v.JSON, "explanation.json", "Explanation (JSON)"),
			download("explain-csv", v.CSV, "explanation.csv", "Scores per "+node+" and "+edge+" (CSV)"),
			download("explain-svg", v.SVG, "explanation.svg", "Picture (SVG)"),
		),
		app.P().Class("muted").Text("The JSON is what wkpi explain -format json writes; the CSV has a row per "+node+
			" (kind, node, label, score) then one per "+edge+" (kind, node, label, node2, label2, score)."),
	)
}

// graph is the worker's layout of the graph in the colours of the scores.
func (v *ExplainView) graph(nodeMax, edgeMax float64) app.UI {
	res := v.Explained
	ex := res.Explanation
	d := &protocol.Drawing{N: len(ex.Nodes), Labels: res.Labels, Class: ex.Class, Graph: res.Prediction.Index}
	var scores []float64
	var fills, strokes []string
	for _, n := range ex.Nodes {
		scores = append(scores, n.Score)
		fills = append(fills, css(scoreRGB(n.Score, nodeMax)))
	}
	for _, e := range ex.Edges {
		d.Edges = append(d.Edges, [2]int{e.U, e.V})
		strokes = append(strokes, css(scoreRGB(e.Score, edgeMax)))
	}
	return &GraphView{Drawing: d, X: v.X, Y: v.Y, Values: scores, Fills: fills, Strokes: strokes, Numbers: true,
		Caption: fmt.Sprintf("%s: %d nodes and %d edges coloured by their scores", displayName(res.Prediction), d.N, len(d.Edges))}
}

func (v *ExplainView) caption(node, edge string) string {
	switch {
	case v.Picture != "":
		return "Drawn by RDKit as chemists draw it, each " + node + " with its number; each " + node + " and " + edge + " in the colour of its score."
	case v.Note != "":
		return v.Note + " Each node and edge in the colour of its score."
	}
	return "The graph's layout, each " + node + " with its number; each " + node + " and " + edge + " in the colour of its score."
}

// topNodes lists the nodes that count most, in words: the picture's
// content for those who do not see it.
func (v *ExplainView) topNodes(node string) app.UI {
	res := v.Explained
	nodes := slices.Clone(res.Explanation.Nodes)
	slices.SortStableFunc(nodes, func(a, b protocol.NodeScore) int { return cmp.Compare(math.Abs(b.Score), math.Abs(a.Score)) })
	nodes = nodes[:min(len(nodes), topPoints)]
	caption := fmt.Sprintf("The %d %ss that count most", len(nodes), node)
	if v.Picture != "" {
		caption += fmt.Sprintf("; pointing at a row marks its %s in the picture", node)
	}
	return app.Table().ID("explain-nodes").Body(
		app.Caption().Text(caption),
		app.THead().Body(app.Tr().Body(app.Th().Text(strings.ToUpper(node[:1])+node[1:]), app.Th().Text("Label"), app.Th().Text("Score"))),
		app.TBody().Body(app.Range(nodes).Slice(func(i int) app.UI {
			n := nodes[i]
			label := ""
			if n.ID < len(res.Labels) {
				label = res.Labels[n.ID]
			}
			row := app.Tr().DataSet("atom", n.ID).TabIndex(0).
				OnMouseEnter(v.link(n.ID)).OnFocus(v.link(n.ID)).OnMouseLeave(v.link(-1)).OnBlur(v.link(-1))
			if n.ID == v.linkedNode() {
				row.Class("linked")
			}
			return row.Body(app.Td().Text(fmt.Sprint(n.ID)), app.Td().Text(label), app.Td().Text(fmt.Sprintf("%+.4f", n.Score)))
		})),
	)
}

// groups lists the functional groups of a molecule that count most, in
// words: which direction each pushes and how much.
func (v *ExplainView) groups() app.UI {
	ex := v.Explained.Explanation
	groups := ex.Groups[:min(len(ex.Groups), topPoints)]
	if len(groups) == 0 {
		return app.Text("")
	}
	return app.Div().ID("explain-groups").Body(
		app.P().Body(app.Strong().Text(fmt.Sprintf("The %d functional groups that count most", len(groups)))),
		app.Ul().Body(app.Range(groups).Slice(func(i int) app.UI {
			return app.Li().DataSet("share", groups[i].Share).Text(groupWords(groups[i], ex.Class))
		})),
		app.P().Class("muted").Text("A group's score is the sum of its atoms' scores."),
	)
}

// groupWords says one group's part: "Nitro group (atoms 7, 8, 9): +0.21
// — pushes towards class 1".
func groupWords(g protocol.GroupScore, class string) string {
	name := strings.ToUpper(g.Name[:1]) + g.Name[1:]
	switch g.Name {
	// Read as "a nitro group", but "a benzene ring", "an amide", "a chlorine".
	case "nitro", "nitrate", "carbonyl", "nitrile", "hydroxyl", "amine", "sulfonyl", "thiol":
		name += " group"
	}
	atoms := "atoms "
	if len(g.Atoms) == 1 {
		atoms = "atom "
	}
	push := "pushes towards " + className(class)
	switch {
	case g.Score < 0:
		push = "pushes away from " + className(class)
	case g.Score == 0:
		push = "no push either way"
	}
	return fmt.Sprintf("%s (%s%s): %s — %s", name, atoms, idList(g.Atoms), signed(g.Score), push)
}

// idList writes node ids as "7, 8, 9".
func idList(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, ", ")
}

// diagrams draws, per channel of the image, the pixels' contributions
// summed over the descriptors, with the diagram points on top, and lists
// the points that count most.
func (v *ExplainView) diagrams(towards string) app.UI {
	res := v.Explained
	ex := res.Explanation
	n := res.Grid.Rows * res.Grid.Cols
	var channels []string
	sums := map[string][]float64{}
	for _, b := range ex.Blocks {
		if len(b.Pixels) != n {
			continue
		}
		if sums[b.Channel] == nil {
			channels = append(channels, b.Channel)
			sums[b.Channel] = make([]float64, n)
		}
		for k, p := range b.Pixels {
			sums[b.Channel][k] += p
		}
	}
	top := 0.0
	for _, s := range sums {
		lo, hi, _ := span(s)
		top = math.Max(top, math.Max(math.Abs(lo), math.Abs(hi)))
	}
	ranked := rankPoints(ex.Points)
	rank := map[int]int{}
	for r, i := range ranked {
		rank[i] = r + 1
	}
	return app.Div().Class("explain-diagrams").Body(
		app.H3().Text("The diagram points and image pixels that decided"),
		app.Div().Class("columns").Body(
			app.Range(channels).Slice(func(c int) app.UI {
				ch := channels[c]
				in := strings.Split(ch, "+")
				var pts [][2]float64
				var scores []float64
				var ranks []int
				for i, p := range ex.Points {
					if slices.Contains(in, p.Diagram) {
						pts = append(pts, [2]float64{p.Birth, math.Abs(p.Death - p.Birth)})
						scores = append(scores, p.Score)
						ranks = append(ranks, rank[i])
					}
				}
				return app.Div().Class("channel").Body(
					app.H4().Text(channelTitle(ch)),
					&HeatView{ID: fmt.Sprintf("explain-heat-%d", c), Title: "Contributions of the image's pixels", Grid: res.Grid,
						Values: sums[ch], Max: top, Diverging: true, Points: pts, Scores: scores, Ranks: ranks,
						Caption: "What each pixel of the image adds to the score, over all descriptors: red " + towards + ", blue against."},
				)
			}),
		),
		app.Table().ID("explain-points").Class("stack").Body(
			app.Caption().Text(fmt.Sprintf("The %d diagram points that count most", len(ranked))),
			app.THead().Body(app.Tr().Body(
				app.Th().Text("#"), app.Th().Text("Descriptor"), app.Th().Text("Diagram"), app.Th().Text("Birth"),
				app.Th().Text("Death"), app.Th().Text("Score"), app.Th().Text("Made by"),
			)),
			app.TBody().Body(app.Range(ranked).Slice(func(r int) app.UI {
				p := ex.Points[ranked[r]]
				return app.Tr().Body(
					app.Td().DataSet("label", "#").Text(fmt.Sprintf("#%d", r+1)), app.Td().DataSet("label", "Descriptor").Text(p.Descriptor),
					app.Td().DataSet("label", "Diagram").Text(p.Diagram), app.Td().DataSet("label", "Birth").Text(fmt.Sprintf("%.4g", p.Birth)),
					app.Td().DataSet("label", "Death").Text(fmt.Sprintf("%.4g", p.Death)), app.Td().DataSet("label", "Score").Text(fmt.Sprintf("%+.4f", p.Score)),
					app.Td().Class("made-by").DataSet("label", "Made by").Text(madeBy(p)),
				)
			})),
		),
	)
}

// rankPoints returns the indices of the topPoints points of largest
// |score|, largest first (the earlier first among equals).
func rankPoints(points []protocol.PointScore) []int {
	idx := make([]int, len(points))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(math.Abs(points[b].Score), math.Abs(points[a].Score)) })
	return idx[:min(len(idx), topPoints)]
}

// madeBy names the simplices behind a point, with each one's share of
// what the point hands its kind where the shares differ (tied values).
func madeBy(p protocol.PointScore) string {
	var parts []string
	if len(p.Vertices) > 0 {
		vs := make([]string, len(p.Vertices))
		for i, v := range p.Vertices {
			vs[i] = withShare(fmt.Sprint(v), p.VertexShares, i)
		}
		parts = append(parts, "nodes "+strings.Join(vs, ", "))
	}
	if len(p.Edges) > 0 {
		es := make([]string, len(p.Edges))
		for i, e := range p.Edges {
			es[i] = withShare(fmt.Sprintf("%d-%d", e[0], e[1]), p.EdgeShares, i)
		}
		parts = append(parts, "edges "+strings.Join(es, ", "))
	}
	return strings.Join(parts, "; ")
}

// withShare writes a simplex with its share i, if shares are given.
func withShare(name string, shares []float64, i int) string {
	if shares == nil {
		return name
	}
	return fmt.Sprintf("%s (%.0f %%)", name, 100*shares[i])
}

// summaryWords says the decision, the reference and what the scores add
// up to, for people.
func summaryWords(ex protocol.Explanation, node string) string {
	return fmt.Sprintf("Score %s towards %s; the empty graph scores %s, so this graph's %ss add %s (their scores sum to it). "+
		"A positive score pushes towards %s, a negative one away from it.",
		signed(ex.Decision), className(ex.Class), signed(ex.Reference), node, signed(ex.Decision-ex.Reference), className(ex.Class))
}

// pairWords says the decision value of each pair of classes that involves
// the predicted one (models with more than two classes).
func pairWords(ex protocol.Explanation) string {
	s := make([]string, len(ex.Against))
	for i, p := range ex.Against {
		s[i] = fmt.Sprintf("against %s: %s (empty graph %s)", className(p.Class), signed(p.Decision), signed(p.Reference))
	}
	return "The score sums the decision values against each other class, signed towards " + className(ex.Class) + ": " + strings.Join(s, "; ") + "."
}

// signed writes a score with its sign and a true minus.
func signed(x float64) string { return strings.Replace(fmt.Sprintf("%+.2f", x), "-", "−", 1) }

func plusMinus(x float64) string { return "±" + fmt.Sprintf("%.3g", x) }

// download is a download link, shown disabled while its URL is not made.
func download(id, url, name, text string) app.UI {
	if url == "" {
		return app.Span().ID(id).Class("button disabled").Aria("disabled", "true").Text(text)
	}
	return app.A().ID(id).Class("button").Href(url).Attr("download", name).Text(text)
}

// scoreScale is the top of the colour scale of the node scores and of the
// edge scores: their largest |score| (1 when all are 0).
func scoreScale(ex protocol.Explanation) (nodes, edges float64) {
	for _, n := range ex.Nodes {
		nodes = math.Max(nodes, math.Abs(n.Score))
	}
	for _, e := range ex.Edges {
		edges = math.Max(edges, math.Abs(e.Score))
	}
	if !(nodes > 0) {
		nodes = 1
	}
	if !(edges > 0) {
		edges = 1
	}
	return nodes, edges
}

// scoreRGB colours a score on the diverging scale symmetric about 0 up
// to top: towards the class red, against it blue (ColorBrewer RdBu, safe
// for colour-blind readers).
func scoreRGB(score, top float64) color.RGBA { return divergingRGB(score / top) }

// unit is a colour as RGB in [0,1], as RDKit takes it.
func unit(c color.RGBA) [3]float64 {
	return [3]float64{float64(c.R) / 255, float64(c.G) / 255, float64(c.B) / 255}
}
