package pool

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"wkpi-web/wasm/protocol"
)

// fakeConn records what the pool sends; the test answers through recv/died.
type fakeConn struct {
	id         int
	sent       []protocol.Request
	terminated bool
	recv       func(protocol.Envelope)
	died       func(error)
}

func (c *fakeConn) Send(e protocol.Envelope) error {
	r, err := protocol.DecodeRequest(e)
	if err != nil {
		return err
	}
	c.sent = append(c.sent, r)
	return nil
}

func (c *fakeConn) Terminate() { c.terminated = true }

// answer posts a response for the last request the worker got.
func (c *fakeConn) answer(t *testing.T, r protocol.Response) {
	t.Helper()
	r.ID = c.sent[len(c.sent)-1].ID
	e, err := r.Envelope()
	if err != nil {
		t.Fatal(err)
	}
	c.recv(e)
}

type fakeSpawner struct{ conns []*fakeConn }

func (f *fakeSpawner) spawn(recv func(protocol.Envelope), died func(error)) (Conn, error) {
	c := &fakeConn{id: len(f.conns), recv: recv, died: died}
	f.conns = append(f.conns, c)
	return c, nil
}

// log collects handler events as text, in order.
type log []string

func (l *log) handler(name string) Handler {
	return Handler{
		Progress: func(stage string, done, total int) {
			*l = append(*l, fmt.Sprintf("%s progress %s %d/%d", name, stage, done, total))
		},
		Partial: func(r protocol.Response) {
			*l = append(*l, fmt.Sprintf("%s partial fold %d", name, r.Fold.Index))
		},
		Done: func(r protocol.Response) { *l = append(*l, name+" done") },
		Fail: func(err error) { *l = append(*l, name+" fail: "+err.Error()) },
	}
}

func TestQueueAndSize(t *testing.T) {
	var f fakeSpawner
	var l log
	p := New(2, f.spawn)
	a := p.Submit(protocol.Request{Kind: protocol.Load}, l.handler("a"))
	p.Submit(protocol.Request{Kind: protocol.Load}, l.handler("b"))
	p.Submit(protocol.Request{Kind: protocol.Load}, l.handler("c"))
	if len(f.conns) != 2 {
		t.Fatalf("%d workers started, want 2", len(f.conns))
	}
	if got := p.Running(); got != 3 {
		t.Fatalf("Running = %d, want 3", got)
	}
	if f.conns[0].sent[0].ID != a {
		t.Fatalf("first worker got job %d, want %d", f.conns[0].sent[0].ID, a)
	}
	f.conns[0].answer(t, protocol.Response{Event: protocol.Progress, Stage: "parse", Done: 1, Total: 2})
	f.conns[0].answer(t, protocol.Response{Event: protocol.Done})
	// c now runs on worker 0, which became idle.
	if len(f.conns[0].sent) != 2 || len(f.conns) != 2 {
		t.Fatalf("c not dispatched to the idle worker: sent %d, workers %d", len(f.conns[0].sent), len(f.conns))
	}
	f.conns[1].answer(t, protocol.Response{Event: protocol.Failed, Error: "bad input"})
	f.conns[0].answer(t, protocol.Response{Event: protocol.Done})
	want := []string{"a progress parse 1/2", "a done", "b fail: bad input", "c done"}
	if strings.Join(l, "|") != strings.Join(want, "|") {
		t.Fatalf("events %q, want %q", l, want)
	}
	if p.Running() != 0 {
		t.Fatalf("Running = %d after all ended", p.Running())
	}
}

func TestDatasetAttachedOncePerWorker(t *testing.T) {
	var f fakeSpawner
	var l log
	p := New(1, f.spawn)
	p.SetDataset("k", []protocol.File{{Name: "X_A.txt", Data: []byte("1, 2\n")}})
	p.Submit(protocol.Request{Kind: protocol.Load, Dataset: "k"}, l.handler("a"))
	f.conns[0].answer(t, protocol.Response{Event: protocol.Done})
	p.Submit(protocol.Request{Kind: protocol.Draw, Dataset: "k"}, l.handler("b"))
	f.conns[0].answer(t, protocol.Response{Event: protocol.Done})
	p.SetDataset("k", []protocol.File{{Name: "X_A.txt", Data: []byte("2, 1\n")}})
	p.Submit(protocol.Request{Kind: protocol.Draw, Dataset: "k"}, l.handler("c"))
	p.Submit(protocol.Request{Kind: protocol.Draw, Dataset: "missing"}, l.handler("d"))
	sent := f.conns[0].sent
	files := [3]int{len(sent[0].Files), len(sent[1].Files), len(sent[2].Files)}
	if files != [3]int{1, 0, 1} {
		t.Fatalf("files attached per job %v, want [1 0 1]", files)
	}
	if string(sent[2].Files[0].Data) != "2, 1\n" {
		t.Fatalf("replaced dataset not sent: %q", sent[2].Files[0].Data)
	}
	f.conns[0].answer(t, protocol.Response{Event: protocol.Done})
	if last := l[len(l)-1]; last != `d fail: no dataset "missing" is loaded` {
		t.Fatalf("last event %q", last)
	}
}

func TestFilesResentAfterFailure(t *testing.T) {
	var f fakeSpawner
	var l log
	p := New(1, f.spawn)
	p.SetDataset("bad", []protocol.File{{Name: "X_A.txt", Data: []byte("x")}})
	p.Submit(protocol.Request{Kind: protocol.Load, Dataset: "bad"}, l.handler("a"))
	f.conns[0].answer(t, protocol.Response{Event: protocol.Failed, Error: "X_A.txt line 1: bad"})
	p.Submit(protocol.Request{Kind: protocol.Load, Dataset: "bad"}, l.handler("b"))
	if n := len(f.conns[0].sent[1].Files); n != 1 {
		t.Fatalf("retry after a failure sent %d files, want 1", n)
	}
}

func TestWorkerDeathRetriesOnce(t *testing.T) {
	var f fakeSpawner
	var l log
	p := New(1, f.spawn)
	p.SetDataset("k", []protocol.File{{Name: "d.zip", Data: []byte("zip")}})
	p.Submit(protocol.Request{Kind: protocol.Load, Dataset: "k"}, l.handler("a"))
	f.conns[0].died(errors.New("out of memory"))
	if !f.conns[0].terminated || len(f.conns) != 2 {
		t.Fatalf("dead worker not replaced: terminated %v, workers %d", f.conns[0].terminated, len(f.conns))
	}
	if len(f.conns[1].sent) != 1 || len(f.conns[1].sent[0].Files) != 1 {
		t.Fatalf("retry not sent with the dataset to the fresh worker: %+v", f.conns[1].sent)
	}
	// A late message from the dead worker is ignored.
	f.conns[0].answer(t, protocol.Response{Event: protocol.Done})
	if len(l) != 0 {
		t.Fatalf("late message reached the handler: %q", l)
	}
	f.conns[1].died(errors.New("out of memory"))
	if len(l) != 1 || !strings.HasPrefix(l[0], "a fail: the worker stopped twice") {
		t.Fatalf("events %q, want one failure about the worker stopping", l)
	}
	// The pool keeps working after a failed job.
	p.Submit(protocol.Request{Kind: protocol.Load, Dataset: "k"}, l.handler("b"))
	f.conns[2].answer(t, protocol.Response{Event: protocol.Done})
	if l[len(l)-1] != "b done" {
		t.Fatalf("events %q", l)
	}
}

func TestCancel(t *testing.T) {
	var f fakeSpawner
	var l log
	p := New(1, f.spawn)
	a := p.Submit(protocol.Request{Kind: protocol.Explore}, l.handler("a"))
	b := p.Submit(protocol.Request{Kind: protocol.Explore}, l.handler("b"))
	p.Submit(protocol.Request{Kind: protocol.Explore}, l.handler("c"))
	p.Cancel(b) // queued
	p.Cancel(a) // running: its worker is terminated, c starts on a new one
	if !f.conns[0].terminated {
		t.Fatal("running job's worker not terminated")
	}
	if len(f.conns) != 2 || len(f.conns[1].sent) != 1 {
		t.Fatalf("next job not started on a fresh worker")
	}
	f.conns[1].answer(t, protocol.Response{Event: protocol.Done})
	want := []string{"b fail: canceled", "a fail: canceled", "c done"}
	if strings.Join(l, "|") != strings.Join(want, "|") {
		t.Fatalf("events %q, want %q", l, want)
	}
}

func TestSpawnFailureFailsJobs(t *testing.T) {
	var l log
	p := New(2, func(func(protocol.Envelope), func(error)) (Conn, error) {
		return nil, errors.New("WebAssembly disabled")
	})
	p.Submit(protocol.Request{Kind: protocol.Load}, l.handler("a"))
	if len(l) != 1 || l[0] != "a fail: starting a worker: WebAssembly disabled" {
		t.Fatalf("events %q", l)
	}
}

// TestPartialBeforeDone: a CV job's folds reach Partial as the worker
// sends them, in order, between its progress and its Done; when the
// worker dies, the retried job's folds come again from the fresh worker
// (the page dedupes them) and the dead worker's late ones are dropped.
func TestPartialBeforeDone(t *testing.T) {
	var f fakeSpawner
	var l log
	p := New(1, f.spawn)
	p.Submit(protocol.Request{Kind: protocol.CrossValidate}, l.handler("cv"))
	// Heavy too, so that it waits for the one worker (an interactive job
	// would start a worker of its own).
	p.Submit(protocol.Request{Kind: protocol.Train}, l.handler("next"))
	fold := func(i int) protocol.Response {
		return protocol.Response{Event: protocol.Partial, Fold: &protocol.Fold{Index: i}}
	}
	f.conns[0].answer(t, protocol.Response{Event: protocol.Progress, Stage: "folds", Done: 0, Total: 2})
	f.conns[0].answer(t, fold(0))
	if len(f.conns[0].sent) != 1 {
		t.Fatal("a partial result freed the worker for the next job")
	}
	f.conns[0].died(errors.New("out of memory"))
	f.conns[0].answer(t, fold(2)) // late, from the dead worker
	f.conns[1].answer(t, fold(0))
	f.conns[1].answer(t, fold(2))
	f.conns[1].answer(t, protocol.Response{Event: protocol.Done})
	f.conns[1].answer(t, protocol.Response{Event: protocol.Done})
	want := []string{"cv progress folds 0/2", "cv partial fold 0", "cv partial fold 0", "cv partial fold 2", "cv done", "next done"}
	if strings.Join(l, "|") != strings.Join(want, "|") {
		t.Fatalf("events %q, want %q", l, want)
	}
}

// TestInteractiveWhileHeavy: a CV and a training fill a pool of 2 (the
// training waits); an Explore submitted after them overtakes the waiting
// training on a third worker, and the training then takes the first
// worker that frees.
func TestInteractiveWhileHeavy(t *testing.T) {
	var f fakeSpawner
	var l log
	p := New(2, f.spawn)
	p.Submit(protocol.Request{Kind: protocol.CrossValidate}, l.handler("cv1"))
	p.Submit(protocol.Request{Kind: protocol.CrossValidate}, l.handler("cv2"))
	train := p.Submit(protocol.Request{Kind: protocol.Train}, l.handler("train"))
	if len(f.conns) != 2 {
		t.Fatalf("%d workers for 2 heavy jobs, want 2", len(f.conns))
	}
	explore := p.Submit(protocol.Request{Kind: protocol.Explore}, l.handler("explore"))
	if len(f.conns) != 3 || len(f.conns[2].sent) != 1 || f.conns[2].sent[0].ID != explore {
		t.Fatalf("the explore job did not start at once on a worker of its own (%d workers)", len(f.conns))
	}
	f.conns[2].answer(t, protocol.Response{Event: protocol.Done})
	if len(f.conns[2].sent) != 1 {
		t.Fatal("a third heavy job ran while two did")
	}
	f.conns[0].answer(t, protocol.Response{Event: protocol.Done})
	if len(f.conns) != 3 || len(f.conns[0].sent) != 2 || f.conns[0].sent[1].ID != train {
		t.Fatal("the training did not start when a heavy job ended")
	}
	// Merging a finished CV's parts waits for no heavy job either: on a
	// pool of one busy with a CV part, with the training queued, it
	// starts at once on a worker of its own.
	var g fakeSpawner
	one := New(1, g.spawn)
	one.Submit(protocol.Request{Kind: protocol.CrossValidate}, Handler{})
	one.Submit(protocol.Request{Kind: protocol.Train}, Handler{})
	merge := one.Submit(protocol.Request{Kind: protocol.MergeCV}, Handler{})
	if len(g.conns) != 2 || len(g.conns[1].sent) != 1 || g.conns[1].sent[0].ID != merge {
		t.Fatal("the merge job waited behind the heavy ones")
	}
	// So does an explanation: the user clicked Explain and waits.
	var e fakeSpawner
	ex := New(1, e.spawn)
	ex.Submit(protocol.Request{Kind: protocol.CrossValidate}, Handler{})
	ex.Submit(protocol.Request{Kind: protocol.Train}, Handler{})
	explain := ex.Submit(protocol.Request{Kind: protocol.Explain}, Handler{})
	if len(e.conns) != 2 || len(e.conns[1].sent) != 1 || e.conns[1].sent[0].ID != explain {
		t.Fatal("the explain job waited behind the heavy ones")
	}
	// With only interactive jobs, the pool keeps to its size.
	q := New(2, (&fakeSpawner{}).spawn)
	for range 3 {
		q.Submit(protocol.Request{Kind: protocol.Explore}, Handler{})
	}
	if n := len(q.slots); n != 2 {
		t.Errorf("%d workers for interactive jobs only, want 2", n)
	}
}

// TestFill: Fill starts the pool's workers ahead of jobs, never more than
// its size, and the next jobs run on them without starting others.
func TestFill(t *testing.T) {
	var sp fakeSpawner
	p := New(2, sp.spawn)
	p.Fill()
	p.Fill()
	if len(sp.conns) != 2 {
		t.Fatalf("%d workers after Fill, want the pool's 2", len(sp.conns))
	}
	var l log
	p.Submit(protocol.Request{Kind: protocol.CrossValidate}, l.handler("a"))
	p.Submit(protocol.Request{Kind: protocol.CrossValidate}, l.handler("b"))
	if len(sp.conns) != 2 || len(sp.conns[0].sent) != 1 || len(sp.conns[1].sent) != 1 {
		t.Errorf("jobs after Fill: %d workers; sent %d and %d, want one job on each of the 2", len(sp.conns), len(sp.conns[0].sent), len(sp.conns[1].sent))
	}
}

// TestClassifierProgram: with the classifier program, classifying jobs
// start classifiers and other jobs full workers; a full worker's job
// retires an idle classifier when the pool is full, and Fill replaces the
// idle ones; an idle full worker takes a classifying job.
func TestClassifierProgram(t *testing.T) {
	var full, small fakeSpawner
	var l log
	p := New(2, full.spawn)
	p.SetClassifier(small.spawn)
	p.Submit(protocol.Request{Kind: protocol.Inspect}, l.handler("inspect"))
	p.Submit(protocol.Request{Kind: protocol.Predict}, l.handler("predict"))
	if len(small.conns) != 2 || len(full.conns) != 0 {
		t.Fatalf("%d classifiers and %d full workers for two classifying jobs, want 2 and 0", len(small.conns), len(full.conns))
	}
	small.conns[0].answer(t, protocol.Response{Event: protocol.Done})
	explain := p.Submit(protocol.Request{Kind: protocol.Explain}, l.handler("explain"))
	if len(small.conns) != 2 || len(small.conns[0].sent) != 2 || small.conns[0].sent[1].ID != explain {
		t.Fatal("the explanation did not run on the idle classifier")
	}
	small.conns[0].answer(t, protocol.Response{Event: protocol.Done})
	// The pool is full (two classifiers, one busy): a Load retires the idle one.
	load := p.Submit(protocol.Request{Kind: protocol.Load}, l.handler("load"))
	if len(full.conns) != 1 || !small.conns[0].terminated || small.conns[1].terminated || full.conns[0].sent[0].ID != load {
		t.Fatalf("a Load on a full pool: %d full workers; classifiers terminated %v %v", len(full.conns), small.conns[0].terminated, small.conns[1].terminated)
	}
	// With the other classifier busy, a CV waits for room rather than end it.
	cv := p.Submit(protocol.Request{Kind: protocol.CrossValidate}, l.handler("cv"))
	if len(full.conns) != 1 || small.conns[1].terminated {
		t.Fatal("a CV took the place of a busy classifier")
	}
	small.conns[1].answer(t, protocol.Response{Event: protocol.Done})
	if len(full.conns) != 2 || !small.conns[1].terminated || full.conns[1].sent[0].ID != cv {
		t.Fatalf("the CV did not replace the classifier once idle: %d full workers", len(full.conns))
	}
	// An idle full worker takes a classifying job: no classifier starts.
	full.conns[0].answer(t, protocol.Response{Event: protocol.Done})
	predict := p.Submit(protocol.Request{Kind: protocol.Predict}, l.handler("predict 2"))
	if len(small.conns) != 2 || len(full.conns[0].sent) != 2 || full.conns[0].sent[1].ID != predict {
		t.Fatal("the prediction did not run on the idle full worker")
	}
	// While heavy jobs fill the pool, a classifying job starts a classifier
	// beyond its size.
	p.Submit(protocol.Request{Kind: protocol.Train}, l.handler("train"))
	full.conns[0].answer(t, protocol.Response{Event: protocol.Done})
	p.Submit(protocol.Request{Kind: protocol.Predict}, l.handler("predict 3"))
	if len(small.conns) != 3 || len(full.conns) != 2 {
		t.Fatalf("a prediction while two heavy jobs run: %d classifiers, %d full workers; want 3 and 2", len(small.conns), len(full.conns))
	}
	want := "inspect done|explain done|predict done|load done|predict 2 done"
	if strings.Join(l, "|") != want {
		t.Errorf("events %q, want %q", strings.Join(l, "|"), want)
	}

	// Fill replaces idle classifiers with full workers.
	var f2, s2 fakeSpawner
	q := New(2, f2.spawn)
	q.SetClassifier(s2.spawn)
	q.Submit(protocol.Request{Kind: protocol.Inspect}, Handler{})
	s2.conns[0].answer(t, protocol.Response{Event: protocol.Done})
	q.Fill()
	if !s2.conns[0].terminated || len(f2.conns) != 2 {
		t.Errorf("Fill with an idle classifier: terminated %v, %d full workers; want true and 2", s2.conns[0].terminated, len(f2.conns))
	}
}

// TestFailureCarriesBadRecords: a failed job's error is the worker's
// message, and a *protocol.JobError with the records that could not be
// read; a file's options reach the worker with its files.
func TestFailureCarriesBadRecords(t *testing.T) {
	var f fakeSpawner
	p := New(1, f.spawn)
	x := 6.0
	p.SetDataset("mols", []protocol.File{{Name: "m.csv", Data: []byte("smiles,y\n"), Options: &protocol.DataOptions{Target: "y", Threshold: &x}}})
	var got error
	p.Submit(protocol.Request{Kind: protocol.Load, Dataset: "mols"}, Handler{Fail: func(err error) { got = err }})
	if o := f.conns[0].sent[0].Files[0].Options; o == nil || o.Target != "y" || *o.Threshold != 6 {
		t.Fatalf("options sent %+v", o)
	}
	bad := &protocol.BadRecords{File: "m.csv", Unit: "rows", Total: 3, Count: 1, First: []protocol.BadRecord{{Index: 2, Where: "row 2 (line 3)", Problem: "row 2 (line 3): bad"}}}
	f.conns[0].answer(t, protocol.Response{Event: protocol.Failed, Error: "m.csv: 1 of 3 rows cannot be read", Bad: bad})
	var je *protocol.JobError
	if !errors.As(got, &je) || got.Error() != "m.csv: 1 of 3 rows cannot be read" || je.Bad == nil || je.Bad.Count != 1 || je.Bad.First[0].Index != 2 {
		t.Fatalf("fail got %v (%+v)", got, je)
	}
}
