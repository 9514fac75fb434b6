//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"syscall/js"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
)

// version is set with -ldflags "-X main.version=...".
var version = "dev"

// main serves requests for the life of the Go instance: the project's
// worker.mjs keeps one instance per isolate and hands it one request at a
// time, with that request's env in the runtime context (see worker.mjs).
// A request reaches the API in one of two ways:
//
//   - serveNow, a plain function call with the request's method, URL,
//     headers and body (read by worker.mjs): no promise, no goroutine, no
//     stream. It serves every request that needs no I/O: the health
//     check, bad requests, and predictions with the bundled model once it
//     is loaded. Asked for I/O (a KV read or write, loading the bundled
//     model), it gives up before any and returns undefined: a function
//     called from JS must not wait for JS (the event loop would stop).
//   - Then syumai/workers' handleRequest (workers.ServeNonBlock), which
//     runs the handler in a goroutine that can wait on promises.
//
// Both run the same API through serveWhole, so they answer alike.
func main() {
	cache := &Cache{} // the instance's decoded models
	workers.ServeNonBlock(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, ok := w.(rawBodyWriter)
		if !ok {
			panic("syumai/workers' ResponseWriter takes no raw JS body: this Worker needs syumai/workers v0.32.0's")
		}
		rec := serveWhole(newAPI(r, cache, false), r)
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		raw.WriteRawJSBody(toJSBytes(rec.body.Bytes()))
	}))
	binding := js.Global().Get("context").Get("binding")
	binding.Set("serveNow", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return serveNow(cache, args)
	}))
	workers.Ready()
	select {}
}

// newAPI is the API for one request: the env (the API token, the KV
// binding) is the current request's, read only when the request may use
// it. With now set, the API may do no I/O: it panics with needIO instead.
func newAPI(r *http.Request, cache *Cache, now bool) *API {
	api := &API{Version: version, Bundled: bundledAsset, Cache: cache}
	if r.Method == http.MethodPut {
		api.Token = cloudflare.Getenv("API_TOKEN")
	}
	if r.Method == http.MethodPut || r.URL.Query().Has("model") {
		if ns := cloudflare.GetBinding("MODELS"); ns.Truthy() {
			api.Models = kv{ns}
		}
	}
	if now {
		api.Bundled = func(context.Context) ([]byte, error) { panic(needIO{}) }
		if api.Models != nil {
			api.Models = noIO{}
		}
	}
	return api
}

// needIO is serveNow's panic when the API asks for I/O.
type needIO struct{}

// noIO is the model store of serveNow: any use needs I/O.
type noIO struct{}

func (noIO) Get(context.Context, string) ([]byte, bool, error) { panic(needIO{}) }
func (noIO) Put(context.Context, string, []byte) error         { panic(needIO{}) }

// serveNow answers a request given as (method, url, headers, body): the
// headers as "name: value" lines, the body a Uint8Array or null. Its
// answer is [status, headers as lines, body as a Uint8Array], or
// undefined when the request needs I/O. (Few JS values either way: each
// costs Go a finalizer, and arrays of pairs doubled the time of a health
// check.)
func serveNow(cache *Cache, args []js.Value) (out any) {
	if len(args) != 4 {
		panic("serveNow: want method, url, headers, body")
	}
	var body []byte
	if b := args[3]; b.Truthy() {
		body = make([]byte, b.Length())
		js.CopyBytesToGo(body, b)
	}
	r, err := http.NewRequest(args[0].String(), args[1].String(), bytes.NewReader(body))
	if err != nil {
		return jsAnswer(errorAnswer(http.StatusBadRequest, err))
	}
	for _, line := range strings.Split(args[2].String(), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok {
			r.Header.Add(k, v)
		}
	}
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(needIO); !ok {
				panic(p)
			}
			out = js.Undefined()
		}
	}()
	return jsAnswer(serveWhole(newAPI(r, cache, true), r))
}

// jsAnswer is serveNow's answer.
func jsAnswer(rec *recorder) js.Value {
	var hs strings.Builder
	for k, vs := range rec.header {
		for _, v := range vs {
			hs.WriteString(k + ": " + v + "\n")
		}
	}
	return js.Global().Get("Array").New(rec.status, hs.String(), toJSBytes(rec.body.Bytes()))
}

func toJSBytes(b []byte) js.Value {
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	return u8
}

// rawBodyWriter is syumai/workers' ResponseWriter's way to answer with a
// JS body of our own (v0.32.0: jsutil.RawJSBodyWriter).
type rawBodyWriter interface{ WriteRawJSBody(body js.Value) }

// recorder is an http.ResponseWriter that keeps the whole answer.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) WriteHeader(status int)      { r.status = status }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }

// errorAnswer is a JSON error as the API writes one.
func errorAnswer(status int, err error) *recorder {
	rec := &recorder{header: http.Header{}, status: status}
	rec.header.Set("Content-Type", "application/json")
	rec.header.Set("Cache-Control", "no-store")
	b, _ := json.Marshal(map[string]string{"error": err.Error()})
	rec.body.Write(append(b, '\n'))
	return rec
}

// serveWhole runs h and keeps its whole answer, to send as one
// Uint8Array: through syumai/workers' streamed body (w.Write) the end of
// the body closes a channel that marks the end of its one-request
// program, and a second request would close it again (a panic). A panic
// in h is a 500, and the instance goes on; needIO goes through.
func serveWhole(h http.Handler, r *http.Request) (rec *recorder) {
	rec = &recorder{header: http.Header{}, status: http.StatusOK}
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(needIO); ok {
				panic(p)
			}
			js.Global().Get("console").Call("error", fmt.Sprint("wkpi-web: panic: ", p))
			rec = errorAnswer(http.StatusInternalServerError, fmt.Errorf("internal error: %v", p))
		}
	}()
	h.ServeHTTP(rec, r)
	return rec
}

// bundledAsset reads the bundled model from the static assets.
func bundledAsset(context.Context) ([]byte, error) {
	assets := cloudflare.GetBinding("ASSETS")
	if !assets.Truthy() {
		return nil, errors.New("no ASSETS binding (wrangler.jsonc)")
	}
	res, err := await(assets.Call("fetch", "https://assets.local"+bundledPath))
	if err != nil {
		return nil, err
	}
	if !res.Get("ok").Bool() {
		return nil, fmt.Errorf("%s: status %d (make edge puts it there)", bundledPath, res.Get("status").Int())
	}
	buf, err := await(res.Call("arrayBuffer"))
	if err != nil {
		return nil, err
	}
	u8 := js.Global().Get("Uint8Array").New(buf)
	b := make([]byte, u8.Length())
	js.CopyBytesToGo(b, u8)
	return b, nil
}

// kv is a Store on a Workers KV namespace. It calls the binding directly
// rather than through syumai/workers' kv package, whose GetString cannot
// tell a missing key (null) from a value.
type kv struct{ ns js.Value }

// Models are binary (gob): they go in and out as ArrayBuffers, since a
// string would pass through UTF-8.
func (s kv) Get(_ context.Context, name string) ([]byte, bool, error) {
	v, err := await(s.ns.Call("get", name, "arrayBuffer"))
	if err != nil || v.IsNull() || v.IsUndefined() {
		return nil, false, err
	}
	u8 := js.Global().Get("Uint8Array").New(v)
	b := make([]byte, u8.Length())
	js.CopyBytesToGo(b, u8)
	return b, true, nil
}

func (s kv) Put(_ context.Context, name string, data []byte) error {
	u8 := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(u8, data)
	_, err := await(s.ns.Call("put", name, u8.Get("buffer")))
	return err
}

// await blocks the calling goroutine until the promise settles.
func await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	ok := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{v: args[0]}
		return nil
	})
	defer ok.Release()
	bad := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{err: errors.New(js.Global().Get("String").Invoke(args[0]).String())}
		return nil
	})
	defer bad.Release()
	p.Call("then", ok, bad)
	r := <-ch
	return r.v, r.err
}
