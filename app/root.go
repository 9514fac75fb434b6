package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/spec"
	"wkpi-web/wasm/protocol"
)

// tabs lists the tabs in display order: id and label.
var tabs = [][2]string{
	{"data", "Data"}, {"explore", "Explore"}, {"train", "Train"}, {"compare", "Compare"}, {"classify", "Classify"}, {"models", "Models"},
}

// Root is the whole page: tab bar, the current tab, a status line. It owns
// the session's state, one type per tab, and passes it down as plain
// values: each tab's component gets what its state holds.
type Root struct {
	app.Compo
	Backend Backend

	ctx app.Context // Root's own context: children's events must update Root
	// mounted is set once the page runs (not in tests or prerendering).
	mounted bool
	tab     string
	status  string
	jobs    int                   // jobs submitted and not yet ended
	kinds   map[protocol.Kind]int // of those jobs, how many of each kind
	update  bool                  // a newer version of the app is cached and waits for a reload

	data     dataState     // the dataset and the graph picked: the Data tab
	explore  exploreState  // the Explore tab
	train    trainState    // the Train tab
	compare  *compareState // the Compare tab
	classify classifyState // the Classify tab
	models   modelsState   // the Models tab: the kept models, one of them current
}

// OnAppUpdate offers the new version that the service worker has cached;
// reloading is left to the user so that no work in progress is lost. The
// offer, above the tab bar, makes go-app mount the bar anew, scrolled to
// its start.
func (r *Root) OnAppUpdate(ctx app.Context) {
	r.update = ctx.AppUpdateAvailable()
	r.revealTab(ctx)
}

// OnResize keeps the selected tab in view as the window narrows or turns.
func (r *Root) OnResize(ctx app.Context) {
	r.revealTab(ctx)
}

// OnMount restores the dataset of an earlier visit and brings the
// first tab shown into view.
func (r *Root) OnMount(ctx app.Context) {
	r.ctx, r.mounted = ctx, true
	if r.Backend == nil {
		return
	}
	r.revealTab(ctx)
	if r.train.form == nil {
		r.train.form = &protocol.Training{Spec: spec.Defaults()}
	}
	r.restoreModels(ctx)
	r.restoreRun()
	r.Backend.Restore(func(key string) {
		ctx.Dispatch(func(ctx app.Context) {
			if key == "" {
				if r.data.loading == savedDataset { // not a file given meanwhile
					r.data.loading = ""
				}
				return
			}
			r.load(ctx, key)
		})
	})
}

func (r *Root) current() string {
	if r.tab == "" {
		return r.startTab()
	}
	return r.tab
}

// startTab is the tab a URL without a fragment shows: Data, or Classify
// on a site that bundles models (a published classifier).
func (r *Root) startTab() string {
	if len(r.siteModels()) > 0 {
		return "classify"
	}
	return tabs[0][0]
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
		return r.dataTab()
	case "explore":
		return r.exploreTab()
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

// act runs f on the UI goroutine with Root's context, so that Root (not
// the child whose event fired) re-renders.
func (r *Root) act(f func(ctx app.Context)) {
	if r.Backend != nil { // nil when prerendered, where no events fire
		r.ctx.Dispatch(f)
	}
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
// links, Back and Forward move between tabs. A fragment may carry a
// query after the tab: #classify?smiles=CCO fills in the SMILES and
// classifies them.
func (r *Root) OnNav(ctx app.Context) {
	id, query, _ := strings.Cut(ctx.Page().URL().EscapedFragment(), "?")
	if id == "" {
		id = r.startTab()
	}
	if _, ok := tabIndex(id); ok && id != r.current() {
		r.selectTab(ctx, id)
	}
	if id == "classify" && query != "" {
		r.linkSMILES(ctx, query)
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
	r.revealTab(ctx)
	if id == "explore" && r.data.summary != nil && r.explore.explored == nil && !r.explore.job.busy() {
		r.startExplore(ctx)
	}
}

// revealTab scrolls the tab bar sideways, once rendered, so that the
// selected tab lies in view: on a phone the bar is wider than the screen,
// and a published site opens on Classify, near its end. Only the bar
// scrolls; scrollIntoView would scroll the page too.
func (r *Root) revealTab(ctx app.Context) {
	ctx.Defer(func(app.Context) {
		tab := app.Window().GetElementByID("tab-" + r.current())
		if !tab.Truthy() {
			return
		}
		bar := tab.Get("parentElement")
		b, t := bar.Call("getBoundingClientRect"), tab.Call("getBoundingClientRect")
		shift := min(t.Get("left").Float()-b.Get("left").Float(), 0) + max(t.Get("right").Float()-b.Get("right").Float(), 0)
		if shift != 0 {
			bar.Set("scrollLeft", bar.Get("scrollLeft").Float()+shift)
		}
	})
}
