package jobs

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"wkpi-web/core/explain"
	"wkpi-web/core/graph"
	"wkpi-web/core/model"
	"wkpi-web/wasm/protocol"
)

// explainOne explains the prediction for one of the input graphs.
func (w *Worker) explainOne(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	p, built, err := w.prepare(req.Model)
	if err != nil {
		return protocol.Response{}, err
	}
	e, err := explain.New(p, explain.DefaultOptions())
	if err != nil {
		return protocol.Response{}, err
	}
	files, graphs, err := inputs(req.Inputs)
	if err != nil {
		return protocol.Response{}, err
	}
	if req.Graph < 0 || req.Graph >= len(graphs) {
		return protocol.Response{}, fmt.Errorf("no graph %d among the %d classified", req.Graph, len(graphs))
	}
	g := graphs[req.Graph]
	preds, err := p.Predict(ctx, []*graph.Graph{g})
	if err != nil {
		return protocol.Response{}, placed(err, files[req.Graph:req.Graph+1])
	}
	start := time.Now()
	ex, err := e.Explain(g)
	if err != nil {
		return protocol.Response{}, fmt.Errorf("%s: %w", files[req.Graph].place(), err)
	}
	millis := float64((built + time.Since(start)).Microseconds()) / 1000
	ex.Graph = files[req.Graph].name
	_, x, y := Layout(g, ex.Class)
	resp := describe(p.Model())
	resp.Explained = &protocol.Explained{
		Explanation: *ex,
		Prediction:  predicted(files[req.Graph], g, preds[0]),
		Molecule:    files[req.Graph].molecule,
		Labels:      g.NodeLabels,
		Grid:        resp.Info.Grid,
		Millis:      millis,
	}
	if resp.Arrays == nil {
		resp.Arrays = map[string][]float64{}
	}
	resp.Arrays["x"], resp.Arrays["y"] = x, y
	return resp, nil
}

// prepare returns the model whose JSON is data, prepared: the one kept
// from the last Predict or Explain job when it had the same model. It
// also says how long preparing took (0 when kept).
func (w *Worker) prepare(data []byte) (*model.Prepared, time.Duration, error) {
	if w.prepared != nil && bytes.Equal(w.preparedOf, data) {
		return w.prepared, 0, nil
	}
	m, _, err := inspect(data)
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	p, err := model.Prepare(m)
	if err != nil {
		return nil, 0, err
	}
	w.prepared, w.preparedOf = p, data
	return p, time.Since(start), nil
}
