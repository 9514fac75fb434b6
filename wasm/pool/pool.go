package pool

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"wkpi-web/core/progress"
	"wkpi-web/wasm/protocol"
)

// Conn is one running worker.
type Conn interface {
	// Send posts a message to the worker.
	Send(protocol.Envelope) error
	// Terminate stops the worker at once.
	Terminate()
}

// Spawn starts a worker. The worker calls recv for each message it posts
// and died once if it stops other than by Terminate.
type Spawn func(recv func(protocol.Envelope), died func(error)) (Conn, error)

// Handler receives a job's events. Any field may be nil.
type Handler struct {
	Progress func(stage string, done, total int)
	// Status gets a Progress event's Status, when the worker sent one.
	Status func(progress.Status)
	// Partial gets a piece of the result ahead of Done (a CV's finished
	// fold). A job retried on a fresh worker sends its pieces again, so
	// Partial may see one twice.
	Partial func(protocol.Response)
	Done    func(protocol.Response)
	Fail    func(error)
}

// ErrCanceled is what Fail receives for a job canceled with Cancel.
var ErrCanceled = errors.New("canceled")

// maxAttempts is how many workers a job may kill before it fails.
const maxAttempts = 2

type job struct {
	req      protocol.Request
	h        Handler
	attempts int
}

type slot struct {
	conn Conn
	// classifier says the worker runs the classifier program, which does
	// the Classifier kinds of job only (protocol.JobKind.Classifier).
	classifier bool
	job        *job   // running job, nil when idle
	dataset    string // key of the dataset the worker holds
}

// Pool is a pool of workers. Its methods are safe for concurrent use; the
// handlers run outside its lock.
type Pool struct {
	mu    sync.Mutex
	size  int
	spawn Spawn
	// classifier starts the classifier program (SetClassifier), nil
	// when the pool has only the full worker.
	classifier Spawn
	slots      []*slot
	queue      []*job
	datasets   map[string][]protocol.File
	nextID     int64
}

// New returns a pool of at most size workers (at least one).
func New(size int, spawn Spawn) *Pool {
	return &Pool{size: max(size, 1), spawn: spawn, datasets: map[string][]protocol.File{}}
}

// SetClassifier gives the pool a second program, the classifier
// (wasm/classifier), which does only the Classifier kinds of job
// (protocol.JobKind.Classifier: checking a model, classifying,
// explaining) and is a smaller download than the full worker. A job of
// such a kind that finds no idle worker starts a classifier; a job of
// another kind runs on a full worker, and retires an idle classifier when
// the pool has no room for one more worker.
func (p *Pool) SetClassifier(spawn Spawn) {
	p.mu.Lock()
	p.classifier = spawn
	p.mu.Unlock()
}

// Size is the most workers the pool runs at once.
func (p *Pool) Size() int { return p.size }

// SetDataset registers the files of a dataset under key; jobs name it in
// Request.Dataset. Registering a key again replaces its files, and workers
// holding the old version get the new files with their next job.
func (p *Pool) SetDataset(key string, files []protocol.File) {
	p.mu.Lock()
	p.datasets[key] = files
	for _, s := range p.slots {
		if s.dataset == key {
			s.dataset = ""
		}
	}
	p.mu.Unlock()
}

// Submit queues a job and returns its id (req.ID is ignored).
func (p *Pool) Submit(req protocol.Request, h Handler) int64 {
	p.mu.Lock()
	p.nextID++
	req.ID = p.nextID
	p.queue = append(p.queue, &job{req: req, h: h})
	calls := p.dispatch()
	p.mu.Unlock()
	run(calls)
	return req.ID
}

// Cancel ends job id if it is queued or running; its Fail gets ErrCanceled.
func (p *Pool) Cancel(id int64) {
	p.mu.Lock()
	var calls []func()
	for i, j := range p.queue {
		if j.req.ID == id {
			p.queue = append(p.queue[:i], p.queue[i+1:]...)
			calls = append(calls, fail(j, ErrCanceled))
			break
		}
	}
	for _, s := range p.slots {
		if s.job != nil && s.job.req.ID == id {
			calls = append(calls, fail(s.job, ErrCanceled))
			p.retire(s)
		}
	}
	calls = append(calls, p.dispatch()...)
	p.mu.Unlock()
	run(calls)
}

// Fill starts idle full workers until the pool runs size of them, so that
// a run that fills the pool does not wait for workers to start, and the
// workers warm up meanwhile (jobs.Warm); idle classifiers make room for
// them. A worker that cannot start is left to the next job to report.
func (p *Pool) Fill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range slices.Clone(p.slots) {
		if s.classifier && s.job == nil {
			p.retire(s)
		}
	}
	for len(p.slots) < p.size {
		if _, err := p.start(false); err != nil {
			return
		}
	}
}

// Running reports how many jobs are queued or running.
func (p *Pool) Running() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.queue)
	for _, s := range p.slots {
		if s.job != nil {
			n++
		}
	}
	return n
}

// heavyRunning counts the workers busy with heavy jobs.
func (p *Pool) heavyRunning() int {
	n := 0
	for _, s := range p.slots {
		if s.job != nil && !s.job.req.Kind.Interactive() {
			n++
		}
	}
	return n
}

// next picks the queued job to start: the first interactive one, which
// overtakes heavy ones, else the first heavy one while fewer than size
// heavy jobs run; -1 when none may start.
func (p *Pool) next() int {
	for i, j := range p.queue {
		if j.req.Kind.Interactive() {
			return i
		}
	}
	if len(p.queue) > 0 && p.heavyRunning() < p.size {
		return 0
	}
	return -1
}

// dispatch starts queued jobs on idle workers, spawning workers as needed.
// It returns the handler calls to make once the lock is released.
func (p *Pool) dispatch() []func() {
	var calls []func()
	for len(p.queue) > 0 {
		i := p.next()
		if i < 0 {
			return calls
		}
		s, err := p.idle(p.queue[i].req.Kind)
		if err != nil && len(p.slots) == 0 {
			// No worker can start at all: fail what waits rather than hang.
			for _, j := range p.queue {
				calls = append(calls, fail(j, fmt.Errorf("starting a worker: %w", err)))
			}
			p.queue = nil
			return calls
		}
		if s == nil {
			return calls
		}
		j := p.queue[i]
		p.queue = append(p.queue[:i:i], p.queue[i+1:]...)
		req := j.req
		if req.Dataset != "" && s.dataset != req.Dataset {
			files, ok := p.datasets[req.Dataset]
			if !ok {
				calls = append(calls, fail(j, fmt.Errorf("no dataset %q is loaded", req.Dataset)))
				continue
			}
			req.Files = files
		}
		env, err := req.Envelope()
		if err == nil {
			err = s.conn.Send(env)
		}
		if err != nil {
			calls = append(calls, fail(j, fmt.Errorf("sending job to worker: %w", err)))
			continue
		}
		s.job, s.dataset = j, req.Dataset
	}
	return calls
}

// idle returns an idle worker that can run a job of kind k, starting one
// if the pool has room: a classifier for a Classifier kind when the pool
// has that program, else a full worker, for which an idle classifier
// makes room if need be. While heavy jobs run, an interactive job may
// start one worker beyond the pool's size, so that Explore and Classify
// answer while a cross-validation fills the pool.
func (p *Pool) idle(k protocol.Kind) (*slot, error) {
	small := k.Classifier()
	var spare *slot // an idle classifier that cannot run k
	for _, s := range p.slots {
		switch {
		case s.job != nil:
		case small || !s.classifier:
			return s, nil
		default:
			spare = s
		}
	}
	room := p.size
	if k.Interactive() && p.heavyRunning() > 0 {
		room++
	}
	if len(p.slots) >= room {
		if spare == nil {
			return nil, nil
		}
		p.retire(spare)
	}
	return p.start(small && p.classifier != nil)
}

// start spawns a worker into a new idle slot: the classifier program or
// the full worker.
func (p *Pool) start(classifier bool) (*slot, error) {
	s := &slot{classifier: classifier}
	spawn := p.spawn
	if classifier {
		spawn = p.classifier
	}
	conn, err := spawn(
		func(e protocol.Envelope) { p.receive(s, e) },
		func(err error) { p.died(s, err) },
	)
	if err != nil {
		return nil, err
	}
	s.conn = conn
	p.slots = append(p.slots, s)
	return s, nil
}

// retire terminates a worker and forgets it; a fresh one starts on demand.
func (p *Pool) retire(s *slot) {
	s.conn.Terminate()
	for i, t := range p.slots {
		if t == s {
			p.slots = append(p.slots[:i], p.slots[i+1:]...)
			return
		}
	}
}

func (p *Pool) receive(s *slot, e protocol.Envelope) {
	p.mu.Lock()
	j := s.job
	if j == nil || !p.live(s) {
		p.mu.Unlock()
		return // a late message from a retired worker or for a canceled job
	}
	resp, err := protocol.DecodeResponse(e)
	if err == nil && resp.ID != j.req.ID {
		err = fmt.Errorf("worker answered job %d while running job %d", resp.ID, j.req.ID)
	}
	var calls []func()
	switch {
	case err != nil:
		calls = append(calls, fail(j, err))
		p.retire(s)
	case resp.Event == protocol.Progress:
		if h := j.h.Progress; h != nil {
			calls = append(calls, func() { h(resp.Stage, resp.Done, resp.Total) })
		}
		if h := j.h.Status; h != nil && resp.Status != nil {
			calls = append(calls, func() { h(*resp.Status) })
		}
	case resp.Event == protocol.Partial:
		if h := j.h.Partial; h != nil {
			calls = append(calls, func() { h(resp) })
		}
	case resp.Event == protocol.Done:
		s.job = nil
		if h := j.h.Done; h != nil {
			calls = append(calls, func() { h(resp) })
		}
	default:
		// The job may have failed parsing the files it carried, so the
		// worker may not hold the dataset: send the files again next time.
		s.job, s.dataset = nil, ""
		err := resp.Err() // a *protocol.JobError, whose Bad the page reads
		if err == nil {
			err = fmt.Errorf("worker answered job %d with event %q", resp.ID, resp.Event)
		}
		calls = append(calls, fail(j, err))
	}
	calls = append(calls, p.dispatch()...)
	p.mu.Unlock()
	run(calls)
}

func (p *Pool) died(s *slot, cause error) {
	p.mu.Lock()
	if !p.live(s) {
		p.mu.Unlock()
		return
	}
	j := s.job
	p.retire(s)
	var calls []func()
	if j != nil {
		j.attempts++
		if j.attempts < maxAttempts {
			p.queue = append([]*job{j}, p.queue...)
		} else {
			calls = append(calls, fail(j, fmt.Errorf("the worker stopped twice while running this job (%v); try a smaller input", cause)))
		}
	}
	calls = append(calls, p.dispatch()...)
	p.mu.Unlock()
	run(calls)
}

func (p *Pool) live(s *slot) bool {
	for _, t := range p.slots {
		if t == s {
			return true
		}
	}
	return false
}

func fail(j *job, err error) func() {
	return func() {
		if j.h.Fail != nil {
			j.h.Fail(err)
		}
	}
}

func run(calls []func()) {
	for _, c := range calls {
		c()
	}
}
