package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/pool"
	"wkpi-web/wasm/protocol"
)

// classifyState is the Classify tab's: the predictions of the last
// upload by the current model (modelsState.current).
type classifyState struct {
	running bool
	err     string
	graphs  []protocol.Graph // predictions of the last upload
	csvURL  string           // of graphs as CSV, for download
	chosen  int              // the graph shown
}

func (r *Root) classifyTab() app.UI {
	cl := &r.classify
	t := &ClassifyTab{
		Running: cl.running, Error: cl.err, Graphs: cl.graphs, Chosen: cl.chosen, CSV: cl.csvURL,
		OnUpload: func(files app.Value) { r.act(func(ctx app.Context) { r.classifyFiles(ctx, files) }) },
		OnChoose: func(i int) { r.act(func(app.Context) { cl.chosen = i }) },
	}
	if m := r.models.current; m != nil {
		t.Model, t.Weight = m.info, m.after
	}
	return t
}

// classifyFiles has a worker classify the graphs of files (a JS array of
// File) with the current model.
func (r *Root) classifyFiles(ctx app.Context, files app.Value) {
	model := r.models.current
	if model == nil {
		return
	}
	cl := &r.classify
	cl.running, cl.err = true, ""
	r.Backend.ReadFiles(files, func(fs []protocol.File, err error) {
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				cl.running, cl.err = false, fmt.Sprintf("Could not read the files: %v", err)
				return
			}
			r.submit(ctx, protocol.Request{Kind: protocol.Predict, Model: model.data, Inputs: fs}, pool.Handler{
				Done: func(resp protocol.Response) {
					ctx.Dispatch(func(app.Context) {
						cl.running = false
						if r.models.current == model {
							cl.graphs, cl.chosen = resp.Graphs, 0
							if cl.csvURL != "" {
								r.Backend.RevokeURL(cl.csvURL)
							}
							cl.csvURL = r.Backend.ObjectURL(predictionsCSV(resp.Graphs), "text/csv")
						}
					})
				},
				Fail: func(err error) {
					ctx.Dispatch(func(app.Context) {
						cl.running = false
						cl.err = "Could not classify: " + err.Error()
						if len(cl.graphs) > 0 {
							cl.err += "\nThe earlier predictions below still stand."
						}
					})
				},
			})
		})
	})
}
