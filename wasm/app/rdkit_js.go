package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall/js"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	ui "wkpi-web/app"
)

// The glue script and RDKit's files, as cmd/static -rdkit lists them in
// the app's environment (a site built without RDKit lists none).
const (
	rdkitGlue = "/web/rdkit.js"
	rdkitJS   = "/web/rdkit/RDKit_minimal.js"
	rdkitWasm = "/web/rdkit/RDKit_minimal.wasm"
)

// glue guards the loading of public/rdkit.js, once per page unless it
// fails.
var glue sync.Mutex

// Depict draws a molecule with RDKit MinimalLib through public/rdkit.js,
// which it loads on the first call; the script loads (and caches) RDKit.
func (b *backend) Depict(d ui.Depiction, done func(string, error)) {
	go func() { done(b.depict(d)) }()
}

func (b *backend) depict(d ui.Depiction) (string, error) {
	if _, ok := b.urls[rdkitWasm]; !ok {
		return "", errors.New("this site was built without RDKit")
	}
	if err := loadScript(b.url(rdkitGlue)); err != nil {
		return "", err
	}
	job, err := json.Marshal(struct {
		Files map[string]string `json:"files"`
		// go-app's service worker caches under "app-" + the version
		// and drops the cache with the version.
		Cache string `json:"cache"`
		ui.Depiction
	}{
		Files:     map[string]string{"glue": b.url(rdkitGlue), "js": b.url(rdkitJS), "wasm": b.url(rdkitWasm)},
		Cache:     "app-" + app.Getenv("GOAPP_VERSION"),
		Depiction: d,
	})
	if err != nil {
		return "", err
	}
	v, err := await(js.Global().Call("wkpiDepict", string(job)))
	if err != nil {
		return "", fmt.Errorf("RDKit: %w", err)
	}
	if svg := v.String(); strings.Contains(svg, "<svg") {
		return svg, nil
	}
	return "", fmt.Errorf("RDKit drew no SVG: %.80s", v.String())
}

// loadScript adds the script at url to the page once, waiting until it has
// run; a script that failed to load is removed, so a later call tries
// again (once online, say).
func loadScript(url string) error {
	glue.Lock()
	defer glue.Unlock()
	if js.Global().Get("wkpiDepict").Truthy() {
		return nil
	}
	doc := js.Global().Get("document")
	s := doc.Call("createElement", "script")
	loaded := make(chan error, 1)
	ok := js.FuncOf(func(js.Value, []js.Value) any { loaded <- nil; return nil })
	fail := js.FuncOf(func(js.Value, []js.Value) any { loaded <- fmt.Errorf("cannot load %s", url); return nil })
	defer ok.Release()
	defer fail.Release()
	s.Set("onload", ok)
	s.Set("onerror", fail)
	s.Set("src", url)
	doc.Get("head").Call("appendChild", s)
	err := <-loaded
	if err != nil {
		s.Call("remove")
	}
	return err
}

var _ ui.Depicter = (*backend)(nil)
