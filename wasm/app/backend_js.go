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
	"wkpi-web/wasm/pool"
	"wkpi-web/wasm/protocol"
)

// backend implements ui.Backend with a worker pool, fetch for the bundled
// datasets and IndexedDB for the dataset of the last visit.
type backend struct {
	*pool.Pool
	urls  map[string]string // served URL of each path fetched, see url
	mu    sync.Mutex
	files map[string][]protocol.File // every dataset registered this visit
}

func newBackend() *backend {
	n := js.Global().Get("navigator").Get("hardwareConcurrency").Int()
	b := &backend{urls: servedURLs(), files: map[string][]protocol.File{}}
	b.Pool = pool.New(min(max(n, 1), ui.MaxWorkers), pool.Browser(b.url("/web/worker.js"), "worker"))
	// Checking a model, classifying and explaining run on the classifier
	// program, a quarter smaller than the full worker, until a dataset is
	// registered (register fills the pool with full workers). Workers
	// start with the first job, so that a first visit downloads no worker
	// wasm (cmd/static's lazy files: the service worker caches them then);
	// a site that publishes a classifier checks its models at once, so
	// its first visit brings the classifier, and classifying works offline
	// after one visit, as its models do.
	b.Pool.SetClassifier(pool.Browser(b.url("/web/worker.js"), "classifier"))
	return b
}

// servedURLs reads WKPI_URLS, which cmd/static writes into the app's
// environment: a JSON map from the absolute paths this code fetches to the
// URLs the site serves them under (content-hashed names, a sub-path).
func servedURLs() map[string]string {
	s := app.Getenv("WKPI_URLS")
	if s == "" {
		return nil
	}
	var urls map[string]string
	if err := json.Unmarshal([]byte(s), &urls); err != nil {
		js.Global().Get("console").Call("warn", "WKPI_URLS is not a JSON map of URLs; fetching by path:", err.Error())
		return nil
	}
	return urls
}

// url returns the URL path p is served under, p itself when the site did
// not list it (a site served at the root with unhashed names).
func (b *backend) url(p string) string {
	if u, ok := b.urls[p]; ok {
		return u
	}
	return p
}

// register makes files dataset key and starts the pool's workers: a
// dataset is what a run needs, and they warm up while the user looks at it.
func (b *backend) register(key string, files []protocol.File) {
	b.mu.Lock()
	b.files[key] = files
	b.mu.Unlock()
	b.SetDataset(key, files)
	b.Fill()
}

func (b *backend) Demo(name string, done func(string, error)) {
	go func() {
		data, err := b.fetch("/web/datasets/" + name + ".zip")
		if err != nil {
			done("", fmt.Errorf("fetching the %s dataset: %w", name, err))
			return
		}
		key := "demo:" + name
		b.register(key, []protocol.File{{Name: name + ".zip", Data: data}})
		done(key, nil)
	}()
}

func (b *backend) Register(files []protocol.File) string {
	key := protocol.DatasetKey(files)
	b.register(key, files)
	return key
}

// Fetch fetches a file of the site (a bundled model) by its logical path.
func (b *backend) Fetch(p string, done func([]byte, error)) {
	go func() { done(b.fetch(p)) }()
}

// fetch returns the bytes of the site's file p, fetched from the URL the
// site serves it under (through the service worker's cache, offline too).
func (b *backend) fetch(p string) ([]byte, error) {
	resp, err := await(js.Global().Call("fetch", b.url(p)))
	if err == nil && !resp.Get("ok").Bool() {
		err = fmt.Errorf("HTTP %d", resp.Get("status").Int())
	}
	var buf js.Value
	if err == nil {
		buf, err = await(resp.Call("arrayBuffer"))
	}
	if err != nil {
		return nil, err
	}
	return bytesOf(buf), nil
}

func (b *backend) Upload(files app.Value, done func(string, error)) {
	b.ReadFiles(files, func(out []protocol.File, err error) {
		if err != nil {
			done("", err)
			return
		}
		var names []string
		for _, f := range out {
			names = append(names, fmt.Sprintf("%s:%d", f.Name, len(f.Data)))
		}
		key := "upload:" + strings.Join(names, ",")
		b.register(key, out)
		done(key, nil)
	})
}

func (b *backend) ReadFiles(files app.Value, done func([]protocol.File, error)) {
	// files is a go-app value (from an event); read it with go-app's API.
	n := files.Length()
	list := make([]app.Value, n)
	sizes := make([]protocol.Upload, n)
	for i := range list {
		list[i] = files.Index(i)
		sizes[i] = protocol.Upload{Name: list[i].Get("name").String(), Size: int64(list[i].Get("size").Float())}
	}
	// Refuse before reading: a huge file would take the page's memory.
	if err := protocol.CheckUpload(sizes); err != nil {
		done(nil, err)
		return
	}
	go func() {
		var out []protocol.File
		for i, f := range list {
			data, err := readFile(f)
			if err != nil {
				done(nil, fmt.Errorf("%s: could not be read: %v", sizes[i].Name, err))
				return
			}
			out = append(out, protocol.File{Name: sizes[i].Name, Data: data})
		}
		done(out, nil)
	}()
}

// readFile waits for a File's bytes; the promise may also reject (a file
// removed or unreadable since it was picked).
func readFile(f app.Value) ([]byte, error) {
	bufs := make(chan app.Value, 1)
	fails := make(chan string, 1)
	ok := app.FuncOf(func(_ app.Value, args []app.Value) any { bufs <- args[0]; return nil })
	fail := app.FuncOf(func(_ app.Value, args []app.Value) any { fails <- args[0].Call("toString").String(); return nil })
	defer ok.Release()
	defer fail.Release()
	f.Call("arrayBuffer").Call("then", ok, fail)
	select {
	case buf := <-bufs:
		a := app.Window().Get("Uint8Array").New(buf)
		data := make([]byte, a.Length())
		app.CopyBytesToGo(data, a)
		return data, nil
	case msg := <-fails:
		return nil, errors.New(msg)
	}
}

func (b *backend) Put(key string, data []byte) {
	go func() {
		if err := put(key, data); err != nil {
			js.Global().Get("console").Call("warn", "saving "+key+" for the next visit failed:", err.Error())
		}
	}()
}

func (b *backend) Get(key string, done func([]byte)) {
	go func() {
		data, err := get(key)
		if err != nil {
			js.Global().Get("console").Call("warn", "restoring "+key+" failed:", err.Error())
		}
		done(data)
	}()
}

func (b *backend) ObjectURL(data []byte, mime string) string {
	a := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(a, data)
	opts := js.Global().Get("Object").New()
	opts.Set("type", mime)
	blob := js.Global().Get("Blob").New([]any{a}, opts)
	return js.Global().Get("URL").Call("createObjectURL", blob).String()
}

func (b *backend) RevokeURL(url string) {
	js.Global().Get("URL").Call("revokeObjectURL", url)
}

func (b *backend) Save(key string) {
	b.mu.Lock()
	files := b.files[key]
	b.mu.Unlock()
	go func() {
		if err := saveDataset(key, files); err != nil {
			js.Global().Get("console").Call("warn", "saving the dataset for the next visit failed:", err.Error())
		}
	}()
}

func (b *backend) Restore(done func(string)) {
	go func() {
		key, files, err := loadDataset()
		if err != nil || key == "" {
			if err != nil {
				js.Global().Get("console").Call("warn", "restoring the saved dataset failed:", err.Error())
			}
			done("")
			return
		}
		b.register(key, files)
		done(key)
	}()
}

var (
	_ ui.Backend = (*backend)(nil)
	_ ui.Fetcher = (*backend)(nil)
)

// await waits for a JS promise; call it from a goroutine, never from a
// js.Func callback (that would block the event loop that settles it).
func await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	then := js.FuncOf(func(_ js.Value, a []js.Value) any {
		ch <- result{v: arg(a)}
		return nil
	})
	catch := js.FuncOf(func(_ js.Value, a []js.Value) any {
		ch <- result{err: errors.New(jsString(arg(a)))}
		return nil
	})
	defer then.Release()
	defer catch.Release()
	p.Call("then", then, catch)
	r := <-ch
	return r.v, r.err
}

func arg(a []js.Value) js.Value {
	if len(a) == 0 {
		return js.Undefined()
	}
	return a[0]
}

func jsString(v js.Value) string {
	if v.Type() == js.TypeObject && v.Get("message").Truthy() {
		return v.Get("message").String()
	}
	return js.Global().Call("String", v).String()
}

// bytesOf copies an ArrayBuffer (or a typed array) into Go memory.
func bytesOf(buf js.Value) []byte {
	a := js.Global().Get("Uint8Array").New(buf)
	b := make([]byte, a.Length())
	js.CopyBytesToGo(b, a)
	return b
}
