package jobs

import (
	"context"
	"fmt"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/progress"
	"wkpi-web/wasm/protocol"
)

// explore shows graph req.Graph as the classifier sees it: its image is
// the one of the dataset's features for the descriptor, on the grid fitted
// over the whole dataset, exactly as a cross-validation compares them.
func (w *Worker) explore(ctx context.Context, ds *graph.Dataset, req protocol.Request, report progress.Func) (protocol.Response, error) {
	g, err := pick(ds, req.Graph)
	if err != nil {
		return protocol.Response{}, err
	}
	s := features.Default(filtration.Kind(req.Descriptor.Kind))
	s.Filtration.Alpha, s.Filtration.HKSTime = req.Descriptor.Alpha, req.Descriptor.HKSTime
	e, err := w.wkpi(ctx, ds, s, report)
	if ctx.Err() != nil {
		return protocol.Response{}, errCanceled
	}
	report.Report("graph", 0, 1)
	// The set keeps the diagrams but not the function's values, which the
	// graph view colours by; recomputing both under the same settings keeps
	// diagram, values and image in agreement.
	d, f, derr := features.Diagram(g, s)
	if derr != nil {
		return protocol.Response{}, fmt.Errorf("graph %d: %w", req.Graph, derr)
	}
	ex := &protocol.Explored{Graph: req.Graph, Diagrams: diagramsOf(d), Channels: s.Channels}
	resp := protocol.Response{Explored: ex, Arrays: map[string][]float64{"values": f.Vertex}}
	if err != nil {
		// This graph is fine but the dataset has no features (say, no point
		// off the diagonal in any graph): show the diagrams and say why
		// there is no image, which training would fail on too.
		ex.ImageError = err.Error()
		return resp, nil
	}
	gr := e.Set.Grid
	ex.Grid = protocol.Grid{MinX: gr.MinX, MinY: gr.MinY, Pixel: gr.Pixel, Rows: gr.Rows, Cols: gr.Cols}
	resp.Arrays["image"] = e.Set.Images[req.Graph].Dense()
	return resp, nil
}
