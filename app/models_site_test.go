package app

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// siteBackend is a fakeBackend that serves the site's files.
type siteBackend struct {
	*fakeBackend
	files   map[string][]byte
	fetched []string
}

func (s *siteBackend) Fetch(path string, done func([]byte, error)) {
	s.fetched = append(s.fetched, path)
	if b, ok := s.files[path]; ok {
		done(b, nil)
		return
	}
	done(nil, &json.SyntaxError{}) // any error: the file is missing
}

const siteEnv = `[{"name":"mutag","path":"/web/models/mutag.json"},{"name":"ptc","path":"/web/models/ptc.json"}]`

// mountSite mounts a Root on b as a site that bundles two models.
func mountSite(t *testing.T, b *siteBackend) (*Root, app.TestEngine) {
	t.Helper()
	t.Setenv(SiteModelsEnv, siteEnv)
	r := newRoot(b)
	e := app.NewTestEngine()
	if err := e.Load(&harness{root: r}); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return r, e
}

// answerInspect answers the Inspect jobs from index from on, in order,
// as a worker describing a model of dataset would.
func answerInspect(t *testing.T, e app.TestEngine, b *fakeBackend, from int, datasets ...string) {
	t.Helper()
	for i, ds := range datasets {
		jobs := b.of(protocol.Inspect)
		if len(jobs) <= from+i {
			t.Fatalf("%d Inspect jobs, want %d", len(jobs), from+i+1)
		}
		jobs[from+i].h.Done(protocol.Response{Info: &protocol.Info{Dataset: ds, Classes: []string{"-1", "1"}, Grid: protocol.Grid{Rows: 1, Cols: 1, Pixel: 1}},
			Arrays: map[string][]float64{"after": {1}}})
		e.ConsumeAll()
	}
}

// saved waits for the page to save the kept models and returns them.
func saved(t *testing.T, e app.TestEngine, b *fakeBackend) []savedModel {
	t.Helper()
	time.Sleep(2 * savePause)
	e.ConsumeAll()
	var list []savedModel
	if err := json.Unmarshal(b.kept[keyModels], &list); err != nil {
		t.Fatalf("saved models: %v", err)
	}
	return list
}

// TestSiteModels: a site that bundles models opens on Classify, fetches
// them on the first visit, keeps them (the first current), and on the
// next visit fetches but re-checks only a model whose copy changed.
func TestSiteModels(t *testing.T) {
	b := &siteBackend{fakeBackend: newFakeBackend(), files: map[string][]byte{
		"/web/models/mutag.json": []byte(`{"m":1}`), "/web/models/ptc.json": []byte(`{"p":1}`)}}
	r, e := mountSite(t, b)
	if r.current() != "classify" {
		t.Errorf("a site with models opens on %q", r.current())
	}
	if html := app.HTMLString(r.classifyTab()); !strings.Contains(html, "Loading this site") {
		t.Errorf("no waiting message before the model arrives")
	}
	answerInspect(t, e, b.fakeBackend, 0, "MUTAG")
	if strings.Join(b.fetched, " ") != "/web/models/mutag.json /web/models/ptc.json" {
		t.Errorf("fetched %q: one after another, in order", b.fetched)
	}
	answerInspect(t, e, b.fakeBackend, 1, "PTC_MR")
	ms := &r.models
	if len(ms.kept) != 2 || ms.kept[0].name != "mutag" || ms.kept[1].name != "ptc" || ms.current != ms.kept[0] || ms.site.loading || ms.err != "" {
		t.Fatalf("kept %v, current %v, loading %v, error %q", ms.kept, ms.current, ms.site.loading, ms.err)
	}
	if string(b.kept[keyCurrent]) != "mutag" {
		t.Errorf("current model saved as %q", b.kept[keyCurrent])
	}
	if list := saved(t, e, b.fakeBackend); len(list) != 2 || string(list[1].Data) != `{"p":1}` {
		t.Errorf("saved %+v", list)
	}
	if html := app.HTMLString(r.classifyTab()); !strings.Contains(html, "with the model of MUTAG") {
		t.Errorf("Classify does not use the site's model")
	}

	// The next visit: ptc changed on the site, the user made ptc current.
	next := &siteBackend{fakeBackend: newFakeBackend(), files: map[string][]byte{
		"/web/models/mutag.json": []byte(`{"m":1}`), "/web/models/ptc.json": []byte(`{"p":2}`)}}
	next.kept[keyModels], next.kept[keyCurrent] = b.kept[keyModels], []byte("ptc")
	r, e = mountSite(t, next)
	if n := len(next.of(protocol.Inspect)); n != 3 {
		t.Fatalf("%d Inspect jobs, want 3: the two kept models and the new copy of ptc", n)
	}
	answerInspect(t, e, next.fakeBackend, 0, "MUTAG", "PTC_MR", "PTC_MR")
	ms = &r.models
	if len(ms.kept) != 2 || ms.current == nil || ms.current.name != "ptc" || string(ms.current.data) != `{"p":2}` {
		t.Fatalf("kept %v, current %+v", ms.kept, ms.current)
	}

	// A site model that cannot be fetched is said so; the others load.
	broken := &siteBackend{fakeBackend: newFakeBackend(), files: map[string][]byte{"/web/models/ptc.json": []byte(`{"p":1}`)}}
	r, e = mountSite(t, broken)
	answerInspect(t, e, broken.fakeBackend, 0, "PTC_MR")
	if !strings.Contains(r.models.err, "model mutag could not be loaded") || r.models.current == nil || r.models.current.name != "ptc" {
		t.Errorf("error %q, current %v", r.models.err, r.models.current)
	}
	// With no model at all, Classify says why.
	none := &siteBackend{fakeBackend: newFakeBackend(), files: map[string][]byte{"/web/models/ptc.json": []byte(`{"p":1}`)}}
	r, e = mountSite(t, none)
	none.of(protocol.Inspect)[0].h.Fail(errors.New("this file is not a usable WKPI model"))
	e.ConsumeAll()
	html := app.HTMLString(r.classifyTab())
	if r.models.current != nil || !strings.Contains(html, "model ptc could not be loaded: this file is not a usable WKPI model") || strings.Contains(html, "Loading this site") {
		t.Errorf("without a model: current %v, Classify shows %s", r.models.current, html)
	}
}

// TestNoSiteModels: without models the site opens on Data and fetches
// nothing.
func TestNoSiteModels(t *testing.T) {
	t.Setenv(SiteModelsEnv, "")
	b := &siteBackend{fakeBackend: newFakeBackend()}
	r := newRoot(b)
	e := app.NewTestEngine()
	if err := e.Load(&harness{root: r}); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	if r.current() != "data" || len(b.fetched) != 0 || r.siteWaiting() {
		t.Errorf("tab %q, fetched %v, waiting %v", r.current(), b.fetched, r.siteWaiting())
	}
}
