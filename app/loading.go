package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/pool"
	"wkpi-web/wasm/protocol"
)

// dataState is the Data tab's: the dataset loaded and the graph picked,
// which the Explore tab shows too.
type dataState struct {
	key     string // current dataset, as the Backend named it
	summary *protocol.Summary
	loading string // what is being loaded, "" when idle
	err     string
	graph   int // the graph picked
	drawing *protocol.Drawing
	x, y    []float64
	drawErr string
}

func (r *Root) dataTab() app.UI {
	d := &r.data
	return &DataTab{
		Summary: d.summary, Loading: d.loading, Error: d.err,
		Graph: d.graph, Drawing: d.drawing, X: d.x, Y: d.y, DrawError: d.drawErr,
		OnDemo:   func(name string) { r.act(func(ctx app.Context) { r.demo(ctx, name) }) },
		OnUpload: func(files app.Value) { r.act(func(ctx app.Context) { r.upload(ctx, files) }) },
		OnGraph:  func(i int) { r.act(func(ctx app.Context) { r.pickGraph(ctx, i) }) },
	}
}

func (r *Root) demo(ctx app.Context, name string) {
	if r.Backend == nil {
		return
	}
	r.data.loading, r.data.err = name, ""
	r.Backend.Demo(name, func(key string, err error) {
		ctx.Dispatch(func(ctx app.Context) { r.loaded(ctx, key, err) })
	})
}

func (r *Root) upload(ctx app.Context, files app.Value) {
	if r.Backend == nil {
		return
	}
	r.data.loading, r.data.err = "your files", ""
	r.Backend.Upload(files, func(key string, err error) {
		ctx.Dispatch(func(ctx app.Context) { r.loaded(ctx, key, err) })
	})
}

func (r *Root) loaded(ctx app.Context, key string, err error) {
	if err != nil {
		r.data.loading, r.data.err = "", "Could not load the dataset: "+err.Error()
		return
	}
	r.load(ctx, key)
}

// load parses dataset key in a worker and shows its summary and graph 0.
func (r *Root) load(ctx app.Context, key string) {
	what := r.data.loading
	r.status = "Reading " + what + "…"
	r.submit(ctx, protocol.Request{Kind: protocol.Load, Dataset: key}, pool.Handler{
		Progress: func(stage string, done, total int) {
			ctx.Dispatch(func(ctx app.Context) { r.status = fmt.Sprintf("%s %d/%d", stage, done, total) })
		},
		Done: func(resp protocol.Response) {
			ctx.Dispatch(func(ctx app.Context) {
				d := &r.data
				d.key, d.summary, d.loading, d.err = key, resp.Summary, "", ""
				r.Backend.Save(key)
				r.status = fmt.Sprintf("Loaded %s: %d graphs.", resp.Summary.Name, resp.Summary.Graphs)
				r.explore.clear()
				r.cancelCV("")
				r.train.cv = nil // its results belong to the previous dataset
				if last := r.train.lastRun; last != nil && last.Key == key {
					r.showRun(ctx, last)
				}
				r.pickGraph(ctx, 0)
			})
		},
		Fail: func(err error) {
			ctx.Dispatch(func(ctx app.Context) {
				d := &r.data
				d.loading, r.status = "", "Loading failed."
				d.err = "Could not load " + what + ": " + err.Error()
				if d.summary != nil {
					d.err += "\nThe dataset " + d.summary.Name + " is still loaded."
				}
			})
		},
	})
}

func (r *Root) pickGraph(ctx app.Context, i int) {
	d := &r.data
	if d.summary == nil || i < 0 || i >= d.summary.Graphs {
		return
	}
	if d.drawing != nil && d.drawing.Graph != i {
		d.drawing, d.x, d.y = nil, nil, nil // show "Drawing…", not the previous graph
	}
	d.graph, d.drawErr = i, ""
	r.submit(ctx, protocol.Request{Kind: protocol.Draw, Dataset: d.key, Graph: i}, pool.Handler{
		Done: func(resp protocol.Response) {
			ctx.Dispatch(func(ctx app.Context) {
				if resp.Drawing.Graph != d.graph {
					return // the user moved on
				}
				d.drawing, d.x, d.y = resp.Drawing, resp.Arrays["x"], resp.Arrays["y"]
			})
		},
		Fail: func(err error) {
			ctx.Dispatch(func(ctx app.Context) { d.drawErr = err.Error() })
		},
	})
	if r.current() == "explore" {
		r.startExplore(ctx)
	} else {
		r.explore.clear()
	}
}
