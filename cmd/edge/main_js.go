//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime/debug"
	"strings"
	"syscall/js"
	"unsafe"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
)

// version is set with -ldflags "-X main.version=...".
var version = "dev"

// main serves requests for the life of the Go instance: the project's
// worker.mjs keeps one instance per isolate, with the calling request's
// env in the runtime context during each call (see worker.mjs). A request
// reaches the API in one of two ways:
//
//   - wkpiServe, a function the wasm module exports (go:wasmexport): the
//     request's method, URL, headers and body (read by worker.mjs) go in,
//     and the answer comes out, through a buffer in Go's memory. A plain
//     function call, no promise, goroutine or JS value: it serves every
//     request that needs no I/O (the health check, bad requests, and
//     predictions with the bundled model once it is loaded). Asked for I/O
//     (a KV read or write, loading the bundled model), it gives up before
//     any and answers "not now": an exported function cannot wait for JS.
//   - Then syumai/workers' handleRequest (workers.ServeNonBlock), which
//     runs the handler in a goroutine that can wait on promises.
//
// Both run the same API through serveWhole, so they answer alike. The
// export is what makes a request cheap: a call through js.FuncOf costs Go
// a goroutine and a finalizer per JS value, 40-150 us in Node and a
// millisecond in workerd, where the whole health check now costs little
// more than wrangler dev's own routing.
func main() {
	// A Worker has 128 MB, and wasm memory never shrinks: the GC works
	// harder rather than let the heap pass this (a prepared MUTAG model
	// is about 15 MB; the instance holds 40-45 MB with it).
	debug.SetMemoryLimit(96 << 20)
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
	theCache = cache
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

// needIO is wkpiServe's panic when the API asks for I/O.
type needIO struct{}

// noIO is the model store of wkpiServe: any use needs I/O.
type noIO struct{}

func (noIO) Get(context.Context, string) ([]byte, bool, error) { panic(needIO{}) }
func (noIO) Put(context.Context, string, []byte) error         { panic(needIO{}) }

// theCache is main's Cache, for wkpiServe.
var theCache *Cache

// exchange is the buffer in Go's memory through which worker.mjs hands
// wkpiServe a request and reads its answer.
var exchange []byte

// wkpiBuffer returns the address of exchange, made at least n bytes long,
// for worker.mjs to write a request into.
//
//go:wasmexport wkpiBuffer
func wkpiBuffer(n int32) int32 {
	if cap(exchange) < int(n) {
		exchange = make([]byte, n)
	}
	exchange = exchange[:max(n, 1)]
	return int32(uintptr(unsafe.Pointer(unsafe.SliceData(exchange))))
}

// wkpiServe answers the request in exchange[:n] and writes the answer
// into exchange, returning its length, or -1 when the request needs I/O
// (then exchange is unchanged). A request is four fields, an answer
// three, each a little-endian uint32 length and that many bytes:
// request method, URL, headers as "name: value" lines, body (length
// 0xffffffff: no body); answer status (4 bytes), headers as lines, body.
//
//go:wasmexport wkpiServe
func wkpiServe(n int32) (size int32) {
	var f [4][]byte
	in := exchange[:n]
	for i := range f {
		if len(in) < 4 {
			panic("wkpiServe: truncated request")
		}
		l := binary.LittleEndian.Uint32(in)
		in = in[4:]
		if l == math.MaxUint32 {
			continue
		}
		f[i], in = in[:l], in[l:]
	}
	// The health check's answer is the same for the life of the instance:
	// the first one is kept and sent again, the API's own bytes, without
	// running the API (which costs the health check 1 ms in workerd).
	health := string(f[0]) == http.MethodGet && urlPath(string(f[1])) == "/api/health"
	if health && healthAnswer != nil {
		exchange = append(exchange[:0], healthAnswer...)
		return int32(len(exchange))
	}
	var body io.Reader = http.NoBody
	if f[3] != nil {
		body = bytes.NewReader(f[3])
	}
	var rec *recorder
	r, err := http.NewRequest(string(f[0]), string(f[1]), body)
	if err != nil {
		rec = errorAnswer(http.StatusBadRequest, err)
	} else {
		for _, line := range strings.Split(string(f[2]), "\n") {
			if k, v, ok := strings.Cut(line, ": "); ok {
				r.Header.Add(k, v)
			}
		}
		defer func() {
			if p := recover(); p != nil {
				if _, ok := p.(needIO); !ok {
					panic(p)
				}
				size = -1
			}
		}()
		rec = serveWhole(newAPI(r, theCache, true), r)
	}
	var head strings.Builder
	for k, vs := range rec.header {
		for _, v := range vs {
			head.WriteString(k + ": " + v + "\n")
		}
	}
	out := binary.LittleEndian.AppendUint32(exchange[:0], 4)
	out = binary.LittleEndian.AppendUint32(out, uint32(rec.status))
	out = binary.LittleEndian.AppendUint32(out, uint32(head.Len()))
	out = append(out, head.String()...)
	out = binary.LittleEndian.AppendUint32(out, uint32(rec.body.Len()))
	out = append(out, rec.body.Bytes()...)
	exchange = out
	if health && rec.status == http.StatusOK {
		healthAnswer = bytes.Clone(out)
	}
	return int32(len(out))
}

// healthAnswer is wkpiServe's answer to the first GET /api/health.
var healthAnswer []byte

// urlPath is the path of an absolute URL ("https://host/p?q" -> "/p").
func urlPath(u string) string {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return ""
	}
	i := strings.IndexByte(rest, '/')
	if i < 0 {
		return "/"
	}
	rest = rest[i:]
	if j := strings.IndexAny(rest, "?#"); j >= 0 {
		rest = rest[:j]
	}
	return rest
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
