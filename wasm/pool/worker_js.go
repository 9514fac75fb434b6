package pool

import (
	"errors"
	"fmt"
	"syscall/js"

	"wkpi-web/wasm/protocol"
)

// Browser returns a Spawn that starts Web Workers from script (a classic
// worker such as /web/worker.js) under name, which the script reads as
// self.name (public/worker.js: "classifier" runs the classifier program).
// A name, not a URL fragment: a service worker may answer the script's
// request with a response cached under another fragment. Messages are
// {h: JSON header, b: blobs}; the blobs' ArrayBuffers are transferred. The
// bootstrap script posts {exit: reason} when the Go program in the worker
// stops.
func Browser(script, name string) Spawn {
	return func(recv func(protocol.Envelope), died func(error)) (c Conn, err error) {
		ctor := js.Global().Get("Worker")
		if !ctor.Truthy() {
			return nil, errors.New("this browser has no Web Workers")
		}
		defer func() {
			// Worker construction throws on a bad URL or a blocked origin.
			if r := recover(); r != nil {
				c, err = nil, fmt.Errorf("starting %s: %v", script, r)
			}
		}()
		opts := js.Global().Get("Object").New()
		opts.Set("name", name)
		w := &worker{v: ctor.New(script, opts)}
		w.onMessage = js.FuncOf(func(_ js.Value, args []js.Value) any {
			data := args[0].Get("data")
			if exit := data.Get("exit"); exit.Truthy() {
				died(errors.New(exit.String()))
				return nil
			}
			recv(fromJS(data))
			return nil
		})
		w.onError = js.FuncOf(func(_ js.Value, args []js.Value) any {
			args[0].Call("preventDefault")
			msg := args[0].Get("message")
			if !msg.Truthy() {
				msg = js.ValueOf("worker error")
			}
			died(errors.New(msg.String()))
			return nil
		})
		w.v.Set("onmessage", w.onMessage)
		w.v.Set("onerror", w.onError)
		w.v.Set("onmessageerror", w.onError)
		return w, nil
	}
}

type worker struct {
	v                  js.Value
	onMessage, onError js.Func
}

func (w *worker) Send(e protocol.Envelope) error {
	msg, transfer := toJS(e)
	w.v.Call("postMessage", msg, transfer)
	return nil
}

func (w *worker) Terminate() {
	w.v.Call("terminate")
	w.onMessage.Release()
	w.onError.Release()
}

// toJS builds {h, b} and the transfer list of the blobs' buffers.
func toJS(e protocol.Envelope) (msg, transfer js.Value) {
	u8 := js.Global().Get("Uint8Array")
	blobs := js.Global().Get("Array").New()
	for _, b := range e.Blobs {
		a := u8.New(len(b))
		js.CopyBytesToJS(a, b)
		blobs.Call("push", a.Get("buffer"))
	}
	msg = js.Global().Get("Object").New()
	msg.Set("h", string(e.Header))
	msg.Set("b", blobs)
	return msg, blobs
}

// fromJS reads {h, b}, the blobs being ArrayBuffers.
func fromJS(data js.Value) protocol.Envelope {
	e := protocol.Envelope{Header: []byte(data.Get("h").String())}
	blobs := data.Get("b")
	u8 := js.Global().Get("Uint8Array")
	for i := 0; i < blobs.Length(); i++ {
		a := u8.New(blobs.Index(i))
		b := make([]byte, a.Length())
		js.CopyBytesToGo(b, a)
		e.Blobs = append(e.Blobs, b)
	}
	return e
}
