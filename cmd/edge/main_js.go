//go:build js && wasm

package main

import (
	"context"
	_ "embed"
	"errors"
	"syscall/js"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
)

// bundled is written by `make edge` (wkpi train on MUTAG, then
// encodeModel); not committed.
//
//go:embed model.gob
var bundled []byte

// version is set with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	api := &API{Version: version, Bundled: bundled, Token: cloudflare.Getenv("API_TOKEN")}
	if ns := cloudflare.GetBinding("MODELS"); ns.Truthy() {
		api.Models = kv{ns}
	}
	workers.Serve(api)
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
