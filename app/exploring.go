package app

import (
	"errors"
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/pool"
	"wkpi-web/wasm/protocol"
)

// exploreState is the Explore tab's: the descriptor picked and the
// persistence of the Data tab's graph under it.
type exploreState struct {
	desc     string // "" for the default
	explored *protocol.Explored
	values   []float64
	image    []float64
	// picture is RDKit's drawing of the molecule explored, its atoms in
	// the colours of values, lightened (SVG text); "" until drawn and for graphs
	// that are not molecules.
	picture  string
	job      slot // the running explore job
	progress string
	err      string
}

// clear forgets the result, which belongs to another graph or dataset.
func (e *exploreState) clear() {
	e.explored, e.values, e.image, e.picture = nil, nil, nil, ""
}

func (e *exploreState) descriptor() string {
	if e.desc == "" {
		return "ricci"
	}
	return e.desc
}

func (r *Root) exploreTab() app.UI {
	d, e := &r.data, &r.explore
	return &ExploreTab{
		Summary: d.summary, Graph: d.graph, Descriptor: e.descriptor(),
		Drawing: d.drawing, X: d.x, Y: d.y, Values: e.values, Picture: e.picture, Plain: d.picture,
		Explored: e.explored, Image: e.image, Running: e.job.busy(),
		Progress: e.progress, Error: e.err,
		OnGraph:      func(i int) { r.act(func(ctx app.Context) { r.pickGraph(ctx, i) }) },
		OnDescriptor: func(d string) { r.act(func(ctx app.Context) { r.pickDescriptor(ctx, d) }) },
		OnCancel:     func() { r.act(r.cancelExplore) },
	}
}

// depictExplored has RDKit draw the molecule explored with its atoms in
// the colours of the descriptor's values, once both the Data tab's
// drawing and the values are there.
func (r *Root) depictExplored(ctx app.Context) {
	e, dr := &r.explore, r.data.drawing
	ex, values := e.explored, e.values
	if ex == nil || dr == nil || dr.Molecule == "" || dr.Graph != ex.Graph || len(values) != dr.N {
		return
	}
	scale := valueScale(values)
	dep := Depiction{Molecule: dr.Molecule, LayOut: dr.LayOut, Nodes: dr.N, Width: moleculeSize, Height: moleculeSize}
	for _, v := range values {
		// Lightened, so that the element symbols on the darkest still read.
		c := scale(v)
		dep.Atoms = append(dep.Atoms, unit(blend([3]float64{float64(c.R), float64(c.G), float64(c.B)}, [3]float64{255, 255, 255}, 0.45)))
	}
	r.depict(ctx, dep, func(ctx app.Context, svg string, err error) {
		if e.explored == ex && r.data.drawing == dr && err == nil {
			e.picture = depictionSVG(svg, moleculeLabel(dr)+", atoms coloured by "+e.descriptor())
		}
	})
}

func (r *Root) pickDescriptor(ctx app.Context, d string) {
	r.explore.desc = d
	r.startExplore(ctx)
}

func (r *Root) cancelExplore(ctx app.Context) {
	r.explore.job.cancel(r.Backend)
}

// startExplore computes the current graph's persistence under the current
// descriptor, replacing any explore job still running.
func (r *Root) startExplore(ctx app.Context) {
	if r.Backend == nil || r.data.summary == nil {
		return
	}
	e := &r.explore
	e.job.drop(r.Backend)
	e.err, e.progress = "", "Starting…"
	r.run(ctx, &e.job, protocol.Request{
		Kind: protocol.Explore, Dataset: r.data.key, Graph: r.data.graph,
		Descriptor: protocol.Descriptor{Kind: e.descriptor()},
	}, jobCalls{
		Progress: func(ctx app.Context, stage string, done, total int) {
			e.progress = fmt.Sprintf("Computing %s (%d of %d)…", stage, done+1, total)
		},
		Done: func(ctx app.Context, resp protocol.Response) {
			e.progress = ""
			e.explored, e.values, e.image, e.picture = resp.Explored, resp.Arrays["values"], resp.Arrays["image"], ""
			r.depictExplored(ctx)
		},
		Fail: func(ctx app.Context, err error) {
			e.progress = ""
			if errors.Is(err, pool.ErrCanceled) {
				e.err = "Canceled."
				return
			}
			e.err = err.Error()
		},
	})
}
