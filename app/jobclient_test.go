package app

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/progress"
	"wkpi-web/wasm/pool"
	"wkpi-web/wasm/protocol"
)

// logged are callbacks that write what reaches them, tagged, to log.
func logged(tag string, log *[]string) jobCalls {
	add := func(format string, a ...any) { *log = append(*log, tag+" "+fmt.Sprintf(format, a...)) }
	return jobCalls{
		Progress: func(_ app.Context, stage string, done, total int) { add("progress %s %d/%d", stage, done, total) },
		Status:   func(_ app.Context, s progress.Status) { add("status %g", s.Fraction) },
		Fold:     func(_ app.Context, resp protocol.Response) { add("fold %d", resp.Fold.Index) },
		Done:     func(_ app.Context, resp protocol.Response) { add("done %s", resp.Summary.Name) },
		Fail:     func(_ app.Context, err error) { add("fail %v", err) },
	}
}

// answerAll sends every kind of answer to job h, then ends it with Done.
func answerAll(h pool.Handler, name string) {
	h.Progress("features", 0, 2)
	h.Status(progress.Status{Fraction: 0.25})
	h.Partial(protocol.Response{Fold: &protocol.Fold{Index: 1}})
	h.Progress("features", 1, 2)
	h.Done(protocol.Response{Summary: &protocol.Summary{Name: name}})
}

// submit runs a job of kind on slot s, as a component does on an event.
func submit(r *Root, e app.TestEngine, s *slot, kind protocol.Kind, calls jobCalls) {
	r.act(func(ctx app.Context) { r.run(ctx, s, protocol.Request{Kind: kind}, calls) })
	e.ConsumeAll()
}

// TestJobCallsInOrder: a live job's answers reach its callbacks on the UI
// goroutine in the order the worker sent them; the job is on its slot
// and counted in the status line's jobs until it ends, then off both.
func TestJobCallsInOrder(t *testing.T) {
	b := newFakeBackend()
	r, e := mount(t, b)
	var s slot
	var log []string
	submit(r, e, &s, protocol.Load, logged("a", &log))
	if !s.busy() || r.jobs != 1 || r.kinds[protocol.Load] != 1 {
		t.Fatalf("after submitting: slot busy %v, %d jobs, kinds %v", s.busy(), r.jobs, r.kinds)
	}
	answerAll(b.jobs[0].h, "MUTAG")
	if len(log) != 0 {
		t.Fatalf("callbacks ran off the UI goroutine: %q", log)
	}
	e.ConsumeAll()
	want := []string{"a progress features 0/2", "a status 0.25", "a fold 1", "a progress features 1/2", "a done MUTAG"}
	if !reflect.DeepEqual(log, want) {
		t.Errorf("callbacks ran as %q, want %q", log, want)
	}
	if s.busy() || r.jobs != 0 || len(r.kinds) != 0 {
		t.Errorf("after the job: slot busy %v, %d jobs, kinds %v", s.busy(), r.jobs, r.kinds)
	}
}

// TestStaleAnswersDropped: once a slot's job is replaced (drop or forget
// and a new job), nothing it sends after reaches its callbacks, while the new job's answers do; drop cancels
// the job and forget leaves it running. Cancel keeps the job live: its
// cancellation arrives, for the page to say so. Stale or not, every job
// leaves the count of jobs when it ends.
func TestStaleAnswersDropped(t *testing.T) {
	before := []string{"old progress features 0/2", "old fold 1"} // taken before the replacement
	tests := []struct {
		name     string
		replace  func(r *Root, s *slot)
		canceled []int64
		want     []string
	}{
		{"drop", func(r *Root, s *slot) { s.drop(r.Backend) }, []int64{1},
			[]string{"new progress features 0/2", "new status 0.25", "new fold 1", "new progress features 1/2", "new done new"}},
		{"forget", func(r *Root, s *slot) { s.forget() }, nil,
			[]string{"new progress features 0/2", "new status 0.25", "new fold 1", "new progress features 1/2", "new done new"}},
		{"cancel", func(r *Root, s *slot) { s.cancel(r.Backend) }, []int64{1},
			[]string{"old progress late 1/2", "old status 0.5", "old fold 2", "old fail canceled",
				"new progress features 0/2", "new status 0.25", "new fold 1", "new progress features 1/2", "new done new"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFakeBackend()
			r, e := mount(t, b)
			var s slot
			var log []string
			submit(r, e, &s, protocol.Explore, logged("old", &log))
			old := b.jobs[0].h
			old.Progress("features", 0, 2)
			old.Partial(protocol.Response{Fold: &protocol.Fold{Index: 1}})
			e.ConsumeAll()
			r.act(func(ctx app.Context) {
				tt.replace(r, &s)
				r.run(ctx, &s, protocol.Request{Kind: protocol.Explore}, logged("new", &log))
			})
			e.ConsumeAll()
			old.Progress("late", 1, 2)
			old.Status(progress.Status{Fraction: 0.5})
			old.Partial(protocol.Response{Fold: &protocol.Fold{Index: 2}})
			old.Fail(pool.ErrCanceled)
			answerAll(b.jobs[1].h, "new")
			old.Done(protocol.Response{Summary: &protocol.Summary{Name: "old"}})
			e.ConsumeAll()
			if want := append(before, tt.want...); !reflect.DeepEqual(log, want) {
				t.Errorf("callbacks ran as %q, want %q", log, want)
			}
			if !reflect.DeepEqual(b.canceled, tt.canceled) {
				t.Errorf("canceled %v, want %v", b.canceled, tt.canceled)
			}
			if s.busy() || r.jobs != 0 || len(r.kinds) != 0 {
				t.Errorf("after both jobs: slot busy %v, %d jobs, kinds %v", s.busy(), r.jobs, r.kinds)
			}
		})
	}
}

// TestJobEndsOnce: a job's first Done or Fail ends it; what comes after
// (a second failure, a late result, progress) is dropped, and the job
// leaves the count once. A job on no slot is live until it ends.
func TestJobEndsOnce(t *testing.T) {
	tests := []struct {
		name string
		send func(h pool.Handler)
		want []string
	}{
		{"fail twice", func(h pool.Handler) { h.Fail(errors.New("worker died")); h.Fail(errors.New("again")) },
			[]string{"a fail worker died"}},
		{"fail then done", func(h pool.Handler) {
			h.Fail(errors.New("out of memory"))
			h.Done(protocol.Response{Summary: &protocol.Summary{Name: "late"}})
		}, []string{"a fail out of memory"}},
		{"done then fail and progress", func(h pool.Handler) {
			h.Done(protocol.Response{Summary: &protocol.Summary{Name: "x"}})
			h.Fail(pool.ErrCanceled)
			h.Progress("late", 0, 1)
		}, []string{"a done x"}},
	}
	for _, tt := range tests {
		for _, onSlot := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s, on a slot %v", tt.name, onSlot), func(t *testing.T) {
				b := newFakeBackend()
				r, e := mount(t, b)
				var s *slot
				if onSlot {
					s = &slot{}
				}
				var log []string
				submit(r, e, s, protocol.Train, logged("a", &log))
				// A second job, still running, keeps its place in the count.
				submit(r, e, nil, protocol.Train, jobCalls{})
				tt.send(b.jobs[0].h)
				e.ConsumeAll()
				if !reflect.DeepEqual(log, tt.want) {
					t.Errorf("callbacks ran as %q, want %q", log, tt.want)
				}
				if r.jobs != 1 || r.kinds[protocol.Train] != 1 {
					t.Errorf("%d jobs, kinds %v; want the other job alone", r.jobs, r.kinds)
				}
			})
		}
	}
}
