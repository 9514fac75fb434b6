package app

import (
	"errors"
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/spec"
	"wkpi-web/wasm/pool"
	"wkpi-web/wasm/protocol"
)

// tabs lists the tabs in display order: id and label.
var tabs = [][2]string{
	{"data", "Data"}, {"explore", "Explore"}, {"train", "Train"}, {"compare", "Compare"}, {"classify", "Classify"}, {"models", "Models"},
}

// Root is the whole page: tab bar, the current tab, a status line. It owns
// the session's state and passes it down as plain values.
type Root struct {
	app.Compo
	Backend Backend

	ctx app.Context // Root's own context: children's events must update Root
	// mounted is set once the page runs (not in tests or prerendering).
	mounted bool
	tab     string

	key      string // current dataset, as the Backend named it
	summary  *protocol.Summary
	loading  string // what is being loaded, "" when idle
	loadErr  string
	graph    int
	drawing  *protocol.Drawing
	x, y     []float64
	drawErr  string
	desc     string
	explored *protocol.Explored
	values   []float64
	image    []float64
	exploreJ int64 // running explore job, 0 when idle
	progress string
	expErr   string
	status   string
	jobs     int                   // jobs submitted and not yet ended
	kinds    map[protocol.Kind]int // of those jobs, how many of each kind

	form         *protocol.Training // the Train tab's choices
	formText     map[string]string  // invalid text typed in its number fields, by id
	cv           *cvRun
	lastRun      *savedRun  // the last finished run, shown again with its dataset
	asking       string     // a model of this name exists: replace it or keep both?
	models       []*trained // every kept model
	model        *trained   // the one Classify uses
	modelLoading bool
	modelErr     string
	classifying  bool
	classErr     string
	graphs       []protocol.Graph // predictions of the last upload
	csvURL       string           // of graphs as CSV, for download
	chosen       int
	update       bool // a newer version of the app is cached and waits for a reload

	compare *compareState // the Compare tab
}

// OnAppUpdate offers the new version that the service worker has cached;
// reloading is left to the user so that no work in progress is lost.
func (r *Root) OnAppUpdate(ctx app.Context) {
	r.update = ctx.AppUpdateAvailable()
}

// OnMount restores the dataset of an earlier visit.
func (r *Root) OnMount(ctx app.Context) {
	r.ctx, r.mounted = ctx, true
	if r.Backend == nil {
		return
	}
	if r.form == nil {
		r.form = &protocol.Training{Spec: spec.Defaults()}
	}
	r.restoreModels(ctx)
	r.restoreRun()
	r.loading = "saved dataset"
	r.Backend.Restore(func(key string) {
		ctx.Dispatch(func(ctx app.Context) {
			if key == "" {
				r.loading = ""
				return
			}
			r.load(ctx, key)
		})
	})
}

func (r *Root) current() string {
	if r.tab == "" {
		return "data"
	}
	return r.tab
}

// Render lays out the page.
func (r *Root) Render() app.UI {
	return app.Div().Class("shell").Body(
		app.Header().Class("top").Body(
			app.H1().Text("WKPI"),
			app.P().Class("tagline").Text("Learned persistence kernels for graph classification, in your browser"),
		),
		app.If(r.update, func() app.UI {
			return app.Div().ID("update").Class("card row").Attr("role", "status").Body(
				app.Span().Text("A new version of WKPI is ready."),
				app.Button().Class("small").Text("Reload").OnClick(func(ctx app.Context, e app.Event) { ctx.Reload() }),
			)
		}),
		r.tabBar(),
		// The tab panel sits inside the main landmark: role=tabpanel on
		// <main> itself would hide the landmark from screen readers.
		app.Main().ID("main").Body(
			app.Div().ID("panel").Attr("role", "tabpanel").Aria("labelledby", "tab-"+r.current()).Body(r.body()),
		),
		app.Footer().Class("status").Body(
			app.Span().Aria("live", "polite").ID("status").Text(r.status),
			app.If(r.jobs > 0, func() app.UI {
				return app.Span().ID("jobs").Class("busy").Text(" " + r.busy())
			}),
		),
	)
}

// tabBar is the row of tabs. Prerendered (no Backend), it is written as
// raw HTML: go-app writes an attribute whose value is "true" without its
// value, and aria-selected needs one.
func (r *Root) tabBar() app.UI {
	if r.Backend == nil {
		return app.Raw(staticTabs(r.current()))
	}
	// The tab list sits in a nav landmark: role=tablist on <nav> itself
	// would leave the tabs outside every landmark.
	return app.Nav().Aria("label", "Sections").Body(app.Div().Class("tabs").Attr("role", "tablist").Aria("label", "Sections").Body(
		app.Range(tabs).Slice(func(i int) app.UI {
			id, label := tabs[i][0], tabs[i][1]
			// WAI-ARIA tabs: only the selected tab is in the Tab order;
			// arrow keys, Home and End move between tabs.
			tabindex := -1
			if id == r.current() {
				tabindex = 0
			}
			return app.Button().ID("tab-"+id).Class("tab").Attr("role", "tab").
				Aria("selected", fmt.Sprint(id == r.current())).
				Aria("controls", "panel").
				TabIndex(tabindex).
				Text(label).
				OnClick(func(ctx app.Context, e app.Event) { r.showTab(ctx, id) }).
				OnKeyDown(func(ctx app.Context, e app.Event) {
					next, ok := neighbourTab(id, e.Get("key").String())
					if !ok {
						return
					}
					e.PreventDefault()
					r.showTab(ctx, next)
					ctx.Defer(func(app.Context) { app.Window().GetElementByID("tab-" + next).Call("focus") })
				})
		}),
	))
}

func (r *Root) body() app.UI {
	switch r.current() {
	case "data":
		return &DataTab{
			Summary: r.summary, Loading: r.loading, Error: r.loadErr,
			Graph: r.graph, Drawing: r.drawing, X: r.x, Y: r.y, DrawError: r.drawErr,
			OnDemo:   func(name string) { r.act(func(ctx app.Context) { r.demo(ctx, name) }) },
			OnUpload: func(files app.Value) { r.act(func(ctx app.Context) { r.upload(ctx, files) }) },
			OnGraph:  func(i int) { r.act(func(ctx app.Context) { r.pickGraph(ctx, i) }) },
		}
	case "explore":
		return &ExploreTab{
			Summary: r.summary, Graph: r.graph, Descriptor: r.descriptor(),
			Drawing: r.drawing, X: r.x, Y: r.y, Values: r.values,
			Explored: r.explored, Image: r.image, Running: r.exploreJ != 0,
			Progress: r.progress, Error: r.expErr,
			OnGraph:      func(i int) { r.act(func(ctx app.Context) { r.pickGraph(ctx, i) }) },
			OnDescriptor: func(d string) { r.act(func(ctx app.Context) { r.pickDescriptor(ctx, d) }) },
			OnCancel:     func() { r.act(r.cancelExplore) },
		}
	case "train":
		return r.trainTab()
	case "classify":
		return r.classifyTab()
	case "compare":
		return r.compareTab()
	default:
		return r.modelsTab()
	}
}

// submit runs a job, counting it in r.jobs until it ends. The count is
// kept on the UI goroutine, like all of Root's state.
func (r *Root) submit(ctx app.Context, req protocol.Request, h pool.Handler) int64 {
	r.jobs++
	if r.kinds == nil {
		r.kinds = map[protocol.Kind]int{}
	}
	r.kinds[req.Kind]++
	end := func() {
		ctx.Dispatch(func(app.Context) {
			r.jobs--
			if r.kinds[req.Kind]--; r.kinds[req.Kind] <= 0 {
				delete(r.kinds, req.Kind)
			}
		})
	}
	done, fail := h.Done, h.Fail
	h.Done = func(resp protocol.Response) {
		end()
		if done != nil {
			done(resp)
		}
	}
	h.Fail = func(err error) {
		end()
		if fail != nil {
			fail(err)
		}
	}
	return r.Backend.Submit(req, h)
}

// act runs f on the UI goroutine with Root's context, so that Root (not
// the child whose event fired) re-renders.
func (r *Root) act(f func(ctx app.Context)) {
	if r.Backend != nil { // nil when prerendered, where no events fire
		r.ctx.Dispatch(f)
	}
}

func (r *Root) descriptor() string {
	if r.desc == "" {
		return "ricci"
	}
	return r.desc
}

// tabIndex is the position of tab id in tabs.
func tabIndex(id string) (int, bool) {
	for j, t := range tabs {
		if t[0] == id {
			return j, true
		}
	}
	return 0, false
}

// neighbourTab is the tab a key moves to from tab id, if the key moves.
func neighbourTab(id, key string) (string, bool) {
	i, _ := tabIndex(id)
	switch key {
	case "ArrowRight":
		i = (i + 1) % len(tabs)
	case "ArrowLeft":
		i = (i + len(tabs) - 1) % len(tabs)
	case "Home":
		i = 0
	case "End":
		i = len(tabs) - 1
	default:
		return "", false
	}
	return tabs[i][0], true
}

// OnNav selects the tab named by the URL's fragment (#train), so that
// links, Back and Forward move between tabs.
func (r *Root) OnNav(ctx app.Context) {
	id := ctx.Page().URL().Fragment
	if id == "" {
		id = tabs[0][0]
	}
	if _, ok := tabIndex(id); ok && id != r.current() {
		r.selectTab(ctx, id)
	}
}

// showTab selects tab id and records it in the URL's fragment, in the
// history.
func (r *Root) showTab(ctx app.Context, id string) {
	r.selectTab(ctx, id)
	u := *ctx.Page().URL()
	if u.Fragment != id {
		u.Fragment = id
		ctx.NavigateTo(&u)
	}
}

func (r *Root) selectTab(ctx app.Context, id string) {
	r.tab = id
	if id == "explore" && r.summary != nil && r.explored == nil && r.exploreJ == 0 {
		r.explore(ctx)
	}
}

func (r *Root) demo(ctx app.Context, name string) {
	if r.Backend == nil {
		return
	}
	r.loading, r.loadErr = name, ""
	r.Backend.Demo(name, func(key string, err error) {
		ctx.Dispatch(func(ctx app.Context) { r.loaded(ctx, key, err) })
	})
}

func (r *Root) upload(ctx app.Context, files app.Value) {
	if r.Backend == nil {
		return
	}
	r.loading, r.loadErr = "your files", ""
	r.Backend.Upload(files, func(key string, err error) {
		ctx.Dispatch(func(ctx app.Context) { r.loaded(ctx, key, err) })
	})
}

func (r *Root) loaded(ctx app.Context, key string, err error) {
	if err != nil {
		r.loading, r.loadErr = "", "Could not load the dataset: "+err.Error()
		return
	}
	r.load(ctx, key)
}

// load parses dataset key in a worker and shows its summary and graph 0.
func (r *Root) load(ctx app.Context, key string) {
	what := r.loading
	r.status = "Reading " + what + "…"
	r.submit(ctx, protocol.Request{Kind: protocol.Load, Dataset: key}, pool.Handler{
		Progress: func(stage string, done, total int) {
			ctx.Dispatch(func(ctx app.Context) { r.status = fmt.Sprintf("%s %d/%d", stage, done, total) })
		},
		Done: func(resp protocol.Response) {
			ctx.Dispatch(func(ctx app.Context) {
				r.key, r.summary, r.loading, r.loadErr = key, resp.Summary, "", ""
				r.Backend.Save(key)
				r.status = fmt.Sprintf("Loaded %s: %d graphs.", resp.Summary.Name, resp.Summary.Graphs)
				r.explored, r.values, r.image = nil, nil, nil
				r.cancelCV("")
				r.cv = nil // its results belong to the previous dataset
				if r.lastRun != nil && r.lastRun.Key == key {
					r.cv = r.lastRun.run()
				}
				r.pickGraph(ctx, 0)
			})
		},
		Fail: func(err error) {
			ctx.Dispatch(func(ctx app.Context) {
				r.loading, r.status = "", "Loading failed."
				r.loadErr = "Could not load " + what + ": " + err.Error()
				if r.summary != nil {
					r.loadErr += "\nThe dataset " + r.summary.Name + " is still loaded."
				}
			})
		},
	})
}

func (r *Root) pickGraph(ctx app.Context, i int) {
	if r.summary == nil || i < 0 || i >= r.summary.Graphs {
		return
	}
	if r.drawing != nil && r.drawing.Graph != i {
		r.drawing, r.x, r.y = nil, nil, nil // show "Drawing…", not the previous graph
	}
	r.graph, r.drawErr = i, ""
	r.submit(ctx, protocol.Request{Kind: protocol.Draw, Dataset: r.key, Graph: i}, pool.Handler{
		Done: func(resp protocol.Response) {
			ctx.Dispatch(func(ctx app.Context) {
				if resp.Drawing.Graph != r.graph {
					return // the user moved on
				}
				r.drawing, r.x, r.y = resp.Drawing, resp.Arrays["x"], resp.Arrays["y"]
			})
		},
		Fail: func(err error) {
			ctx.Dispatch(func(ctx app.Context) { r.drawErr = err.Error() })
		},
	})
	if r.current() == "explore" {
		r.explore(ctx)
	} else {
		r.explored, r.values, r.image = nil, nil, nil
	}
}

func (r *Root) pickDescriptor(ctx app.Context, d string) {
	r.desc = d
	r.explore(ctx)
}

func (r *Root) cancelExplore(ctx app.Context) {
	if r.exploreJ != 0 {
		r.Backend.Cancel(r.exploreJ)
	}
}

// explore computes the current graph's persistence under the current
// descriptor, replacing any explore job still running.
func (r *Root) explore(ctx app.Context) {
	if r.Backend == nil || r.summary == nil {
		return
	}
	r.cancelExplore(ctx)
	r.expErr, r.progress = "", "Starting…"
	var id int64
	id = r.submit(ctx, protocol.Request{
		Kind: protocol.Explore, Dataset: r.key, Graph: r.graph,
		Descriptor: protocol.Descriptor{Kind: r.descriptor()},
	}, pool.Handler{
		Progress: func(stage string, done, total int) {
			ctx.Dispatch(func(ctx app.Context) {
				if r.exploreJ == id {
					r.progress = fmt.Sprintf("Computing %s (%d of %d)…", stage, done+1, total)
				}
			})
		},
		Done: func(resp protocol.Response) {
			ctx.Dispatch(func(ctx app.Context) {
				if r.exploreJ != id {
					return
				}
				r.exploreJ, r.progress = 0, ""
				r.explored, r.values, r.image = resp.Explored, resp.Arrays["values"], resp.Arrays["image"]
			})
		},
		Fail: func(err error) {
			ctx.Dispatch(func(ctx app.Context) {
				if r.exploreJ != id {
					return
				}
				r.exploreJ, r.progress = 0, ""
				if errors.Is(err, pool.ErrCanceled) {
					r.expErr = "Canceled."
					return
				}
				r.expErr = err.Error()
			})
		},
	})
	r.exploreJ = id
}
