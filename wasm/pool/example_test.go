package pool_test

import (
	"fmt"

	"wkpi-web/wasm/pool"
	"wkpi-web/wasm/protocol"
)

// echo is a stand-in worker that answers every job at once; in the browser
// pool.Browser("/web/worker.js", "worker") starts real Web Workers.
type echo struct{ recv func(protocol.Envelope) }

func (w echo) Send(e protocol.Envelope) error {
	req, _ := protocol.DecodeRequest(e)
	resp, _ := protocol.Response{ID: req.ID, Event: protocol.Done,
		Summary: &protocol.Summary{Name: fmt.Sprintf("%d files", len(req.Files))}}.Envelope()
	go w.recv(resp) // a worker answers asynchronously
	return nil
}

func (echo) Terminate() {}

func Example() {
	p := pool.New(2, func(recv func(protocol.Envelope), died func(error)) (pool.Conn, error) {
		return echo{recv}, nil
	})
	p.SetDataset("demo:MUTAG", []protocol.File{{Name: "MUTAG.zip", Data: []byte("...")}})
	done := make(chan string)
	p.Submit(protocol.Request{Kind: protocol.Load, Dataset: "demo:MUTAG"}, pool.Handler{
		Done: func(r protocol.Response) { done <- r.Summary.Name },
		Fail: func(err error) { done <- err.Error() },
	})
	fmt.Println(<-done)
	// Output: 1 files
}
