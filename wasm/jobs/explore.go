package jobs

import (
	"context"
	"fmt"
	"math"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
	"wkpi-web/core/progress"
	"wkpi-web/wasm/protocol"
)

// Explore image defaults: a coarse image reads better on screen than the
// paper's 40 rows, and tau is a fixed share of the function's range so
// the blobs look alike whatever the descriptor's scale.
const (
	exploreRows  = 20
	tauOfRange   = 0.05
	minTauForAll = 1e-3
)

func explore(ctx context.Context, g *graph.Graph, req protocol.Request, report progress.Func) (protocol.Response, error) {
	report.Report("descriptor", 0, 3)
	f, err := filtration.Compute(g, filtration.Options{
		Kind: filtration.Kind(req.Descriptor.Kind), Alpha: req.Descriptor.Alpha, HKSTime: req.Descriptor.HKSTime,
	})
	if err != nil {
		return protocol.Response{}, fmt.Errorf("graph %d: %w", req.Graph, err)
	}
	if ctx.Err() != nil {
		return protocol.Response{}, errCanceled
	}
	report.Report("persistence", 1, 3)
	d := persistence.Extended(g, f.Vertex).DropZero()
	ex := &protocol.Explored{Graph: req.Graph, Diagrams: d}
	resp := protocol.Response{Explored: ex, Arrays: map[string][]float64{"values": f.Vertex}}
	if ctx.Err() != nil {
		return protocol.Response{}, errCanceled
	}
	report.Report("image", 2, 3)
	rows := req.Rows
	if rows <= 0 {
		rows = exploreRows
	}
	all := [][]persistence.Point{append(append(append(append([]persistence.Point{}, d.Ord0...), d.Ext0...), d.Rel1...), d.Ext1...)}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range f.Vertex {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	tau := math.Max(tauOfRange*(hi-lo), minTauForAll)
	grid, err := pimage.FitGrid(all, rows, tau)
	if err != nil {
		return resp, nil // no finite point off the diagonal: no image to show
	}
	o := pimage.Options{Rows: rows, Tau: tau, Weighting: pimage.Linear, MaxPersistence: pimage.MaxPersistence(all)}
	if !(o.MaxPersistence > 0) {
		o.Weighting = pimage.Constant
	}
	img, err := grid.Image(all[0], o)
	if err != nil {
		return protocol.Response{}, fmt.Errorf("graph %d image: %w", req.Graph, err)
	}
	ex.Grid = protocol.Grid{MinX: grid.MinX, MinY: grid.MinY, Pixel: grid.Pixel, Rows: grid.Rows, Cols: grid.Cols}
	resp.Arrays["image"] = img
	return resp, nil
}
