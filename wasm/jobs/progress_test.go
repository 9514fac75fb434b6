package jobs

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"wkpi-web/core/eval"
	"wkpi-web/core/progress"
	"wkpi-web/core/spec"
	"wkpi-web/wasm/protocol"
)

// TestTrack: a CV part of the held dataset gets its stages' Statuses,
// whose share done never goes back and ends all but full (the last
// learning's counter stops short); a job of files the worker does not
// hold yet, the counters alone.
func TestTrack(t *testing.T) {
	var w Worker
	ctx := context.Background()
	load := protocol.Request{Kind: protocol.Load, Dataset: "m", Files: files(t, "../../data/MUTAG")}
	var early []progress.Status
	w.Track(load, time.Now, func(s progress.Status) { early = append(early, s) })("diagrams", 1, 2)
	if len(early) != 1 || early[0].Work != 0 || early[0].Left != -1 || early[0].Done != 1 {
		t.Errorf("before the dataset is held: %+v", early)
	}
	if r := w.Run(ctx, load, nil, nil); r.Event != protocol.Done {
		t.Fatal(r.Error)
	}
	tr := with(func(s *spec.Spec) { s.M, s.Folds, s.Extra, s.Iterations = 3, 3, spec.NoExtra, 20 })
	tr.Only = []int{0, 2}
	req := protocol.Request{Kind: protocol.CrossValidate, Dataset: "m", Training: &tr}
	var got []progress.Status
	r := w.Run(ctx, req, w.Track(req, time.Now, func(s progress.Status) { got = append(got, s) }), nil)
	if r.Event != protocol.Done {
		t.Fatal(r.Error)
	}
	last := 0.0
	for i, s := range got {
		if s.Work <= 0 || s.Fraction < last {
			t.Fatalf("status %d %+v after fraction %g", i, s, last)
		}
		last = s.Fraction
	}
	if end := got[len(got)-1]; end.Stage != "folds" || end.Fraction < 0.9 || end.Left < 0 {
		t.Errorf("last status %+v, want the folds all but done with a time left", end)
	}
}

// TestTrackChoiceThenFolds: a ChoiceScores job and the fold job that
// takes its scores share one job of the page's bar, so they plan the
// same stages, of one candidate's kernels: the bar goes on from where
// the first stopped, and never back.
func TestTrackChoiceThenFolds(t *testing.T) {
	var w Worker
	ctx := context.Background()
	if r := w.Run(ctx, protocol.Request{Kind: protocol.Load, Dataset: "m", Files: files(t, "../../data/MUTAG")}, nil, nil); r.Event != protocol.Done {
		t.Fatal(r.Error)
	}
	tr := with(func(s *spec.Spec) { s.M, s.Folds, s.Iterations = 3, 3, 20 })
	tr.Only, tr.Final = []int{1}, true
	choice := tr
	choice.Candidate = 1
	folds := tr
	folds.ChoiceScores = [][][]float64{{{1}}, {{1}}}
	a := w.work(protocol.Request{Kind: protocol.ChoiceScores, Dataset: "m", Training: &choice})
	b := w.work(protocol.Request{Kind: protocol.CrossValidate, Dataset: "m", Training: &folds})
	whole := w.work(protocol.Request{Kind: protocol.CrossValidate, Dataset: "m", Training: &tr})
	if a == nil || b == nil || whole == nil {
		t.Fatal("no stages planned")
	}
	if !reflect.DeepEqual(a(nil), b(nil)) {
		t.Errorf("choice job plans %+v, the fold job after it %+v", a(nil), b(nil))
	}
	cost := func(stages []progress.Stage) (choice float64) {
		for _, s := range stages {
			if s.Name == "choice" {
				choice = s.Cost
			}
		}
		return choice
	}
	// MUTAG's pair table fits: there one candidate's kernels are the
	// table's, and the choice costs one candidate's either way.
	if c, all := cost(a(nil)), cost(whole(nil)); c <= 0 || c != all {
		t.Errorf("one candidate's choice costs %g, the whole choice %g", c, all)
	}
}

// TestTrackLabels: a CV part with node labels (the molecules preset's)
// that also trains the final model gets a planned bar too: every report
// a Status with the work known, the share never going back, the final
// model's stages ("final learn", ...) in the plan, and the bar all but
// full at the end.
func TestTrackLabels(t *testing.T) {
	var w Worker
	ctx := context.Background()
	if r := w.Run(ctx, protocol.Request{Kind: protocol.Load, Dataset: "m", Files: files(t, "../../data/MUTAG")}, nil, nil); r.Event != protocol.Done {
		t.Fatal(r.Error)
	}
	tr := with(func(s *spec.Spec) { s.M, s.Folds, s.Extra, s.Iterations, s.Labels = 3, 3, spec.NoExtra, 20, true })
	tr.Only, tr.Final = []int{0, 2}, true
	req := protocol.Request{Kind: protocol.CrossValidate, Dataset: "m", Training: &tr}
	var got []progress.Status
	r := w.Run(ctx, req, w.Track(req, time.Now, func(s progress.Status) { got = append(got, s) }), nil)
	if r.Event != protocol.Done {
		t.Fatal(r.Error)
	}
	last, final := 0.0, false
	for i, s := range got {
		if s.Work <= 0 || s.Fraction < last {
			t.Fatalf("status %d %+v after fraction %g", i, s, last)
		}
		last = s.Fraction
		final = final || strings.HasPrefix(s.Stage, eval.FinalPrefix)
	}
	if end := got[len(got)-1]; !final || end.Fraction < 0.9 {
		t.Errorf("last status %+v (final model's stages reported: %v), want the final model's stages and the bar all but full", end, final)
	}
}
