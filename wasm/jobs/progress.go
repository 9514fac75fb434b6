package jobs

import (
	"sync"
	"time"

	"wkpi-web/core/eval"
	"wkpi-web/core/progress"
	"wkpi-web/wasm/protocol"
)

// Track turns the progress reports of job req into Statuses for out. A
// cross-validation or a training of the held dataset, with settings
// whose stages eval.Work knows, gets a Tracker of them: a share of the
// work that never goes back and a time left, planned again once the
// features say whether the pair table fits. Other jobs get the stage's
// counter alone (Work 0, Left -1).
func (w *Worker) Track(req protocol.Request, now func() time.Time, out func(progress.Status)) progress.Func {
	work := w.work(req)
	if work == nil {
		return counterOnly(out)
	}
	t := progress.NewTracker(work(nil), now())
	var planned sync.Once
	return func(stage string, done, total int) {
		if stage != "diagrams" && stage != "images" {
			// The features are in, computed or kept from an earlier job.
			planned.Do(func() {
				if sets := w.featureSets(); len(sets) > 0 {
					t.Plan(work(sets))
				}
			})
		}
		out(t.Report(stage, done, total, now()))
	}
}

// work returns the stages of job req given its features (nil before
// they are known), or nil when eval.Work does not know them.
func (w *Worker) work(req protocol.Request) func([]*eval.WKPI) []progress.Stage {
	// A ChoiceScores job plans the stages of the fold job that takes its
	// scores on the same bar (Training.Only and Final say which).
	var kind eval.WorkKind
	switch t := req.Training; {
	case t == nil:
	case req.Kind == protocol.Train:
		kind = eval.FinalJob | eval.ChoiceJob
	case req.Kind == protocol.ChoiceScores:
		kind = eval.FoldsJob | eval.ScoresJob
	case req.Kind == protocol.CrossValidate && t.ChoiceScores != nil:
		kind = eval.FoldsJob | eval.ScoresJob
	case req.Kind == protocol.CrossValidate:
		kind = eval.FoldsJob | eval.ChoiceJob
	}
	if t := req.Training; kind&eval.FoldsJob != 0 && t.Final {
		kind |= eval.FinalJob
	}
	if kind == 0 || w.ds == nil || req.Dataset != w.key || len(req.Files) > 0 {
		return nil
	}
	u, _, err := w.setup(req.Training)
	if err != nil {
		return nil
	}
	graphs, running := w.ds.Graphs, len(req.Training.Only)
	if u.Work(graphs, running, kind, nil) == nil {
		return nil
	}
	return func(sets []*eval.WKPI) []progress.Stage { return u.Work(graphs, running, kind, sets) }
}

// counterOnly gives out each report as a Status of the stage's counter
// alone (Work 0, Left -1).
func counterOnly(out func(progress.Status)) progress.Func {
	return func(stage string, done, total int) {
		out(progress.Status{Stage: stage, Done: done, Total: total, Left: -1})
	}
}
