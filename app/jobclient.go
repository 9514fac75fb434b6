package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/progress"
	"wkpi-web/wasm/pool"
	"wkpi-web/wasm/protocol"
)

// jobCalls are the callbacks of one job run with Root.run. Each runs on
// the UI goroutine with Root's context, in the order the worker sent
// them, and only while the job is live on its slot: the answers of a job
// the user replaced, dropped or whose data changed never reach them.
// Done or Fail runs at most once, and the job has left its slot by then.
// Any of them may be nil.
type jobCalls struct {
	Progress func(ctx app.Context, stage string, done, total int)
	// Status gets a progress event's Status, when the worker sent one.
	Status func(ctx app.Context, s progress.Status)
	// Fold gets a piece of the result ahead of Done (pool.Handler.Partial).
	Fold func(ctx app.Context, resp protocol.Response)
	Done func(ctx app.Context, resp protocol.Response)
	Fail func(ctx app.Context, err error)
}

// slot holds the live jobs of one purpose: the Explore tab's job, a
// cross-validation run's jobs. Whoever replaces them forgets or drops
// the slot first, and their answers no longer count. The zero slot is
// empty and ready.
type slot struct {
	ids map[int64]bool
}

// busy says whether a job of the slot is live.
func (s *slot) busy() bool { return len(s.ids) > 0 }

// forget makes the slot's jobs stale and leaves them running, for jobs
// too cheap to be worth a worker: canceling a running job retires its
// worker (pool.Pool.Cancel).
func (s *slot) forget() { s.ids = nil }

// drop cancels the slot's jobs and makes them stale: not even their
// pool.ErrCanceled arrives.
func (s *slot) drop(b Backend) {
	for id := range s.ids {
		b.Cancel(id)
	}
	s.forget()
}

// cancel cancels the slot's jobs, which stay live: each ends with Fail
// and pool.ErrCanceled, for the page to say so.
func (s *slot) cancel(b Backend) {
	for id := range s.ids {
		b.Cancel(id)
	}
}

// run submits a job on slot s (nil for a job nothing replaces, live
// until it ends) and returns its ID. It counts the job in r.jobs until
// it ends, stale or not, and moves every answer onto the UI goroutine:
// components never dispatch a job's answer themselves.
func (r *Root) run(ctx app.Context, s *slot, req protocol.Request, on jobCalls) int64 {
	if s == nil {
		s = &slot{}
	}
	r.jobs++
	if r.kinds == nil {
		r.kinds = map[protocol.Kind]int{}
	}
	r.kinds[req.Kind]++
	var id int64 // set before any answer runs: answers run on this goroutine
	ended := false
	// end says whether an answer ending the job counts: the first one does
	// for r.jobs, and then for the callbacks if the job is live.
	end := func() bool {
		if ended {
			return false
		}
		ended = true
		r.jobs--
		if r.kinds[req.Kind]--; r.kinds[req.Kind] <= 0 {
			delete(r.kinds, req.Kind)
		}
		if !s.ids[id] {
			return false
		}
		delete(s.ids, id)
		return true
	}
	// answer runs call on the UI goroutine if the job is live; last says
	// the answer ends the job.
	answer := func(last bool, call func(ctx app.Context)) {
		ctx.Dispatch(func(ctx app.Context) {
			if last && end() || !last && s.ids[id] {
				call(ctx)
			}
		})
	}
	id = r.Backend.Submit(req, pool.Handler{
		Progress: func(stage string, done, total int) {
			answer(false, func(ctx app.Context) {
				if on.Progress != nil {
					on.Progress(ctx, stage, done, total)
				}
			})
		},
		Status: func(st progress.Status) {
			answer(false, func(ctx app.Context) {
				if on.Status != nil {
					on.Status(ctx, st)
				}
			})
		},
		Partial: func(resp protocol.Response) {
			answer(false, func(ctx app.Context) {
				if on.Fold != nil {
					on.Fold(ctx, resp)
				}
			})
		},
		Done: func(resp protocol.Response) {
			answer(true, func(ctx app.Context) {
				if on.Done != nil {
					on.Done(ctx, resp)
				}
			})
		},
		Fail: func(err error) {
			answer(true, func(ctx app.Context) {
				if on.Fail != nil {
					on.Fail(ctx, err)
				}
			})
		},
	})
	if s.ids == nil {
		s.ids = map[int64]bool{}
	}
	s.ids[id] = true
	return id
}
