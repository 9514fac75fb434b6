package jobs

import (
	"context"
	"runtime"
	"sync/atomic"
	"syscall/js"
	"time"

	"wkpi-web/core/progress"
	"wkpi-web/wasm/protocol"
)

// Runner runs one job (Worker.Run, Classifier.Run).
type Runner func(ctx context.Context, req protocol.Request, report progress.Func, fold func(protocol.Fold)) protocol.Response

// Tracker turns a job's progress reports into Statuses (Worker.Track,
// Classifier.Track).
type Tracker func(req protocol.Request, now func() time.Time, out func(progress.Status)) progress.Func

// progressEvery spaces progress messages: enough for a smooth bar.
const progressEvery = 150 * time.Millisecond

// warmPause is how often the idle warm-up looks whether jobs are running.
const warmPause = 20 * time.Millisecond

// Serve answers the protocol Requests that the page's pool posts to this
// Web Worker with the Responses of run, and never returns. warm, when not
// nil, runs in the background while no job runs (Warm).
//
// Functions rather than an interface: a type converted to an interface
// keeps, in the linked program, every method that reflection might call,
// and the classifier program would link the training code its Worker's
// fields lead to.
func Serve(run Runner, track Tracker, warm func(ctx context.Context, idle func()) error) {
	self := js.Global()
	u8 := self.Get("Uint8Array")
	post := func(r protocol.Response) {
		e, err := r.Envelope()
		if err != nil {
			if r.Event == protocol.Partial {
				// The job's Done holds the same fold and reports the
				// error; a Failed now would end the job while it runs.
				return
			}
			e, _ = protocol.Response{ID: r.ID, Event: protocol.Failed, Error: err.Error()}.Envelope()
		}
		blobs := self.Get("Array").New()
		for _, b := range e.Blobs {
			a := u8.New(len(b))
			js.CopyBytesToJS(a, b)
			blobs.Call("push", a.Get("buffer"))
		}
		msg := self.Get("Object").New()
		msg.Set("h", string(e.Header))
		msg.Set("b", blobs)
		self.Call("postMessage", msg, blobs)
	}
	// busy counts the jobs running; the warm-up takes its steps only
	// while it is zero.
	var busy atomic.Int32
	self.Set("onmessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		data := args[0].Get("data")
		e := protocol.Envelope{Header: []byte(data.Get("h").String())}
		blobs := data.Get("b")
		for i := 0; i < blobs.Length(); i++ {
			a := u8.New(blobs.Index(i))
			b := make([]byte, a.Length())
			js.CopyBytesToGo(b, a)
			e.Blobs = append(e.Blobs, b)
		}
		req, err := protocol.DecodeRequest(e)
		if err != nil {
			post(protocol.Response{ID: req.ID, Event: protocol.Failed, Error: err.Error()})
			return nil
		}
		// The pool sends one job at a time; running it off the callback
		// lets the callback return as js.FuncOf requires.
		busy.Add(1)
		go func() {
			defer busy.Add(-1)
			report := track(req, time.Now, Throttle(func(s progress.Status) {
				post(protocol.Response{ID: req.ID, Event: protocol.Progress, Stage: s.Stage, Done: s.Done, Total: s.Total, Status: &s})
			}, progressEvery, time.Now))
			// Folds are few and each is news for the page: never throttled.
			fold := func(f protocol.Fold) {
				post(protocol.Response{ID: req.ID, Event: protocol.Partial, Fold: &f})
			}
			resp := run(context.Background(), req, report, fold)
			var mem runtime.MemStats
			runtime.ReadMemStats(&mem)
			resp.Memory = mem.Sys // the linear memory Go took from the browser
			post(resp)
		}()
		return nil
	}))
	if warm != nil {
		go func() {
			// Sleeping hands control back to the browser, which delivers
			// any request that is waiting; a job that comes during a step
			// waits for that step only.
			idle := func() {
				for time.Sleep(warmPause); busy.Load() > 0; time.Sleep(warmPause) {
				}
			}
			if err := warm(context.Background(), idle); err != nil {
				js.Global().Get("console").Call("warn", "worker warm-up: "+err.Error())
			}
		}()
	}
	select {}
}
