package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// SiteModel is a model the site bundles as a static file (cmd/static
// -models, make dist MODELS=...): a published classifier. Such a site
// opens on the Classify tab, and on a visit where the model store lacks
// a site model (or holds an older copy under its name) the page fetches
// it, has a worker check it and keeps it; the service worker caches the
// file with the rest of the site, so this works offline too.
type SiteModel struct {
	Name string `json:"name"` // as the Models tab lists it
	Path string `json:"path"` // the logical path the page fetches, e.g. /web/models/mutag.json
}

// SiteModelsEnv is the key of the app's environment (app.Getenv) whose
// value lists the site's models as JSON ([]SiteModel); cmd/static writes
// it, empty for a site without models.
const SiteModelsEnv = "WKPI_MODELS"

// Fetcher is a Backend that can fetch the site's own files by their
// logical path (wasm/app's does, through the service worker's cache).
type Fetcher interface {
	Fetch(path string, done func(data []byte, err error))
}

// siteState is what the page knows of the site's models.
type siteState struct {
	read    bool        // models was read from the environment
	models  []SiteModel // the site's models, in the order given
	loading bool        // fetching or checking them
}

// siteModels returns the site's models, read once from the environment.
func (r *Root) siteModels() []SiteModel {
	s := &r.models.site
	if !s.read {
		s.read = true
		if env := app.Getenv(SiteModelsEnv); env != "" {
			if err := json.Unmarshal([]byte(env), &s.models); err != nil {
				s.models = nil
				r.models.err = fmt.Sprintf("This site's list of models cannot be read (%v); train or load a model instead.", err)
			}
		}
	}
	return s.models
}

// siteWaiting says a site model may still become current: the site has
// models and they, or the kept models, are still being loaded or
// checked.
func (r *Root) siteWaiting() bool {
	return len(r.siteModels()) > 0 && (r.models.site.loading || r.kinds[protocol.Inspect] > 0 || !r.mounted)
}

// loadSiteModels keeps the site's models that saved (the kept models of
// earlier visits) lacks or holds in another version, one after another
// in the site's order. The first becomes current when none is; a model
// replacing an older copy stays current if that was.
func (r *Root) loadSiteModels(ctx app.Context, saved []savedModel) {
	list := r.siteModels()
	if len(list) == 0 {
		return
	}
	f, ok := r.Backend.(Fetcher)
	if !ok {
		r.models.err = "This page cannot fetch the site's models."
		return
	}
	site := &r.models.site
	site.loading = true
	var next func(ctx app.Context, i int)
	next = func(ctx app.Context, i int) {
		if i == len(list) {
			site.loading = false
			return
		}
		s := list[i]
		failed := func(err error) {
			r.models.err = fmt.Sprintf("This site's model %s could not be loaded: %v", s.Name, err)
			next(ctx, i+1)
		}
		f.Fetch(s.Path, func(data []byte, err error) {
			ctx.Dispatch(func(ctx app.Context) {
				if err != nil {
					failed(err)
					return
				}
				if j := slices.IndexFunc(saved, func(m savedModel) bool { return m.Name == s.Name }); j >= 0 && bytes.Equal(saved[j].Data, data) {
					next(ctx, i+1) // kept already; restoreModel checks it
					return
				}
				r.run(ctx, nil, protocol.Request{Kind: protocol.Inspect, Model: data}, jobCalls{
					Done: func(ctx app.Context, resp protocol.Response) {
						r.keepSiteModel(ctx, &trained{name: s.Name, data: data, info: resp.Info, after: resp.Arrays["after"]})
						next(ctx, i+1)
					},
					Fail: func(ctx app.Context, err error) { failed(err) },
				})
			})
		})
	}
	next(ctx, 0)
}

// keepSiteModel adds m to the kept models, replacing a model of its name
// (an older copy, or one restored meanwhile), makes it current when no
// model is (or the one replaced was), and saves the list.
func (r *Root) keepSiteModel(ctx app.Context, m *trained) {
	ms := &r.models
	m.url = r.Backend.ObjectURL(m.data, "application/json")
	old := r.findModel(m.name)
	if old != nil {
		r.Backend.RevokeURL(old.url)
		ms.kept[slices.Index(ms.kept, old)] = m
	} else {
		ms.kept = append(ms.kept, m)
	}
	if ms.current == nil || ms.current == old {
		r.useModel(m)
	}
	r.saveModels()
	r.classifyLinked(ctx)
}
