package app

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/progress"
	"wkpi-web/core/spec"
	"wkpi-web/wasm/protocol"
)

// trainState is the Train tab's: the form, the settings offered, and
// the run shown.
type trainState struct {
	form     *protocol.Training // the Train tab's choices
	formText map[string]string  // invalid text typed in its fields, by element id
	// edited says the user changed a setting (a field, a menu, a preset):
	// a dataset loaded then keeps the form as it is.
	edited bool
	// mode is the mode the user chose with TrainMode's switch (a Modes
	// name; "" none yet), which datasets loaded later keep when their
	// switch offers it.
	mode    string
	cv      *cvRun
	lastRun *savedRun // the last finished run, shown again with its dataset
	asking  string    // a model of this name exists: replace it or keep both?
}

// cvRun is one press of Run: jobs of some folds each, the final model,
// and the merge of the folds' parts.
type cvRun struct {
	jobs      slot // the run's jobs still running (a restored run's: its test)
	units     int  // folds + the final training
	start     time.Time
	run       *progress.Run     // the jobs' progress, the final training last
	fraction  float64           // of the run's work done, as the bar shows it
	parts     []protocol.CVPart // of the jobs that finished
	folds     []protocol.Fold   // every fold finished so far, once each, by index
	tally     Tally
	report    *protocol.Report     // merged from parts by a worker, once every job's part is in
	test      *protocol.PairedTest // learned against initial over the folds, with report
	stage     string
	eta       string
	err       string
	used      protocol.Training // the settings of the run
	info      *protocol.Info    // the final model, once trained
	modelName string            // the name the final model is kept under
	seconds   float64           // the run's duration, once done
	restored  bool              // saved by an earlier visit
	before    []float64
	after     []float64
}

// addFold records a finished fold, as a worker sent it ahead of its job's
// end or in the job's part, unless it has it already: a job retried on a
// fresh worker sends its folds again.
func (c *cvRun) addFold(f protocol.Fold) {
	i, found := slices.BinarySearchFunc(c.folds, f.Index, func(g protocol.Fold, index int) int { return cmp.Compare(g.Index, index) })
	if found {
		return
	}
	c.folds = slices.Insert(c.folds, i, f)
	// The running means; the merged report's come from a worker.
	var learned, baseline float64
	for _, g := range c.folds {
		learned, baseline = learned+g.Accuracy, baseline+g.Baseline
	}
	n := float64(len(c.folds))
	c.tally.Done, c.tally.Learned, c.tally.Baseline = len(c.folds), learned/n, baseline/n
}

// addPart records a finished job's folds, and says whether every fold's
// part is in: then a worker merges them (Root.mergeCV), as for a CV run
// in one piece.
func (c *cvRun) addPart(part *protocol.CVPart) bool {
	c.parts = append(c.parts, *part)
	n := 0
	for _, p := range c.parts {
		n += len(p.Report.Folds)
		for _, f := range p.Report.Folds {
			c.addFold(f)
		}
	}
	return n == c.tally.Total
}

// mergeCV has a worker merge the parts of run c into its report and test
// learned against initial weight function over the folds. A run restored
// from an earlier visit asks only for its test, which that visit's page
// may not have saved; its job is not one of the run's.
func (r *Root) mergeCV(ctx app.Context, c *cvRun, parts []protocol.CVPart) {
	r.run(ctx, &c.jobs, protocol.Request{Kind: protocol.MergeCV, Parts: parts}, jobCalls{
		Done: func(ctx app.Context, resp protocol.Response) {
			c.report, c.test = &resp.Merged.Report, &resp.Merged.Test
			if c.restored {
				r.saveRun(c)
				return
			}
			r.jobDone(c)
		},
		Fail: func(ctx app.Context, err error) {
			if c.restored {
				return // the results show without the test
			}
			c.err = "Merging the folds failed: " + err.Error()
			r.jobDone(c)
		},
	})
}

func (r *Root) trainTab() app.UI {
	tr := &r.train
	t := &TrainTab{
		Summary: r.data.summary, Form: tr.form, Text: tr.formText,
		OnForm:   func(f protocol.Training) { r.act(func(app.Context) { tr.form, tr.edited = &f, true }) },
		OnField:  func(id, text string) { r.act(func(app.Context) { r.setField(id, text) }) },
		OnPreset: func(name string) { r.act(func(app.Context) { r.preset(name) }) },
		OnMode:   func(name string) { r.act(func(app.Context) { r.setMode(name) }) },
		OnRun:    func() { r.act(func(ctx app.Context) { r.askCV(ctx) }) },
		OnAnswer: func(a string) { r.act(func(ctx app.Context) { r.answer(ctx, a) }) },
		OnCancel: func() { r.act(func(app.Context) { r.cancelCV("Canceled.") }) },
	}
	if tr.asking != "" && r.data.summary != nil {
		t.Replace = tr.asking
	}
	if c := tr.cv; c != nil {
		t.Running, t.Progress, t.ETA, t.Error = c.jobs.busy() && !c.restored, c.stage, c.eta, c.err
		t.Fraction, t.Workers = c.fraction, r.Backend.Size()
		t.Folds, t.Tally, t.Report, t.Test = c.folds, c.tally, c.report, c.test
		if c.units > 1 { // a run that started, not a refusal
			t.Used, t.Restored = &c.used, c.restored
		}
		t.Model, t.Before, t.After = c.info, c.before, c.after
	}
	return t
}

// askCV runs a CV, first asking whether to replace the kept model of
// the same dataset or to keep both.
func (r *Root) askCV(ctx app.Context) {
	s := r.data.summary
	if s == nil || r.train.form == nil {
		return
	}
	if r.findModel(s.Name) != nil {
		r.train.asking = s.Name
		return
	}
	r.runCV(ctx, s.Name)
}

// answer takes the answer to askCV's question: "replace", "both" or
// "cancel".
func (r *Root) answer(ctx app.Context, a string) {
	name := r.train.asking
	r.train.asking = ""
	switch a {
	case "replace":
		r.runCV(ctx, name)
	case "both":
		r.runCV(ctx, r.uniqueName(name))
	}
}

// runCV splits the folds over the workers, one job per worker with every
// n-th fold (each computes the features and the pairs' terms once for its
// folds), the last with the final model of the whole dataset as well,
// which its folds' choice of images and passes over the pairs then serve
// (protocol.Training.Final): a job of its own would repeat that work.
// Settings that choose their images first measure the two candidates in
// a job each (ChoiceScores), on two workers at once, and give the scores
// to the folds' jobs, each of which would otherwise measure both.
func (r *Root) runCV(ctx app.Context, modelName string) {
	tr, summary, key := &r.train, r.data.summary, r.data.key
	if summary == nil || tr.form == nil {
		return
	}
	if len(tr.formText) > 0 {
		return // the form shows what to correct
	}
	r.cancelCV("")
	form := *tr.form
	folds := form.Folds
	if folds < 2 || folds > summary.Graphs {
		tr.cv = &cvRun{err: fmt.Sprintf("Folds must be between 2 and %d (the number of graphs).", summary.Graphs), units: 1}
		return
	}
	c := &cvRun{units: folds + 1, tally: Tally{Total: folds}, start: time.Now(),
		stage: "Starting…", eta: "estimating time left…", used: form, modelName: modelName}
	tr.cv = c
	r.status = fmt.Sprintf("Cross-validating on %s: %d folds.", summary.Name, folds)
	workers := max(r.Backend.Size(), 1)
	chunks := min(workers, folds)
	c.run = progress.NewRun(chunks, c.start)
	if !form.Automatic() || chunks < choiceCandidates {
		r.runFolds(ctx, c, key, form, chunks)
		return
	}
	// Candidate k's job and then chunk k's fold job share job k of the
	// bar: the first plans the second's stages too.
	scores := make([][][]float64, choiceCandidates)
	answered := 0
	for k := range choiceCandidates {
		t := chunk(form, k, chunks)
		t.Candidate = k
		r.run(ctx, &c.jobs, protocol.Request{Kind: protocol.ChoiceScores, Dataset: key, Training: &t}, jobCalls{
			Progress: func(ctx app.Context, stage string, done, total int) {
				c.stage = fmt.Sprintf("Choosing the images (%s): %s %d/%d", []string{"unit", "size-aware"}[k], stage, done, total)
			},
			Status: func(ctx app.Context, s progress.Status) { c.progressed(k, s) },
			Done: func(ctx app.Context, resp protocol.Response) {
				scores[k] = resp.Scores
				if answered++; answered == choiceCandidates {
					form.ChoiceScores = scores
					r.runFolds(ctx, c, key, form, chunks)
				}
			},
			Fail: r.failCV,
		})
	}
}

// choiceCandidates is how many candidates the automatic choice of images
// weighs: the settings' images and their size-aware variant.
const choiceCandidates = 2

// chunk is job k of chunks of a run of form: every chunks-th fold from
// k, and the last job the final model too.
func chunk(form protocol.Training, k, chunks int) protocol.Training {
	t := form
	t.Only, t.Final = nil, k == chunks-1
	for f := k; f < form.Folds; f += chunks {
		t.Only = append(t.Only, f)
	}
	return t
}

// runFolds runs the folds of run c on dataset key in chunks jobs
// (chunk), job k of c's bar each.
func (r *Root) runFolds(ctx app.Context, c *cvRun, key string, form protocol.Training, chunks int) {
	for k := range chunks {
		t := chunk(form, k, chunks)
		what := "Folds " + list(t.Only)
		if t.Final {
			what += " and the final model"
		}
		job := k
		r.run(ctx, &c.jobs, protocol.Request{Kind: protocol.CrossValidate, Dataset: key, Training: &t}, jobCalls{
			Progress: func(ctx app.Context, stage string, done, total int) {
				// The folds arrive whole as Fold messages; their count
				// here is of this job's part only, which would mislead.
				if stage != "folds" {
					c.stage = fmt.Sprintf("%s: %s %d/%d", what, stage, done, total)
				}
			},
			Status: func(ctx app.Context, s progress.Status) { c.progressed(job, s) },
			Fold: func(ctx app.Context, resp protocol.Response) {
				if resp.Fold != nil {
					c.addFold(*resp.Fold)
				}
			},
			Done: func(ctx app.Context, resp protocol.Response) {
				if resp.Model != nil {
					c.info, c.before, c.after = resp.Info, resp.Arrays["before"], resp.Arrays["after"]
					used := c.used
					r.keepModel(&trained{name: c.modelName, data: resp.Model, info: resp.Info, after: resp.Arrays["after"], settings: &used})
				}
				if c.addPart(resp.CV) {
					r.mergeCV(ctx, c, c.parts)
				}
				c.jobFinished(job)
				r.jobDone(c)
			},
			Fail: r.failCV,
		})
	}
}

// failCV ends the current run after one of its jobs failed. A run's jobs
// end early only dropped (cancelCV), and then they do not answer.
func (r *Root) failCV(ctx app.Context, err error) { r.cancelCV("The run failed: " + err.Error()) }

// setField takes what the user typed for setting name: a valid value
// goes into the form, anything else is kept as typed with its reason.
func (r *Root) setField(name, text string) {
	tr := &r.train
	if tr.form == nil {
		return
	}
	graphs := 0
	if r.data.summary != nil {
		graphs = r.data.summary.Graphs
	}
	if tr.formText == nil {
		tr.formText = map[string]string{}
	}
	tr.edited = true
	next, msg := checkField(*tr.form, name, text, graphs)
	if msg != "" {
		tr.formText[fieldID(name)] = text
		return
	}
	delete(tr.formText, fieldID(name))
	tr.form = &next
}

// preset puts a preset of spec.Presets in the form: paper or
// size-aware; default resets the form to the data's default
// (startSettings), forgetting the mode chosen.
func (r *Root) preset(name string) {
	p, ok := spec.Presets()[name]
	if !ok || r.train.form == nil {
		return
	}
	tr := &r.train
	if name == spec.PresetDefault {
		tr.edited, tr.mode = false, ""
		r.startSettings()
		return
	}
	tr.form, tr.formText, tr.edited = &protocol.Training{Spec: p()}, nil, true
}

// setMode switches the form to mode name (a Modes name), the user's
// choice from now on.
func (r *Root) setMode(name string) {
	tr := &r.train
	if tr.form == nil {
		return
	}
	_, types := r.dataAtoms()
	f := withMode(*tr.form, name, types)
	tr.form, tr.mode = &f, name
}

// startSettings fits the Train form to the dataset loaded: until the
// user changes a setting it holds the data's preset (molecules for
// molecules, default for other graphs, atom-typed ones included, as
// `wkpi eval` without -preset), or the mode the user chose with the
// switch when the data's switch offers it. Settings the user changed
// stay, except that a mode reading atoms that the data's switch does not
// offer (molecules mode for graphs that are not molecules, atom types
// for data without them) goes back to structure only.
func (r *Root) startSettings() {
	tr := &r.train
	molecules, types := r.dataAtoms()
	atoms := atomMode(molecules, types)
	name := spec.PresetDefault
	switch {
	case atoms != "" && (tr.mode == atoms || tr.mode == spec.PresetDefault):
		name = tr.mode
	case molecules:
		name = spec.PresetMolecules
	}
	if !tr.edited || tr.form == nil {
		// Each mode's preset is the defaults in that mode.
		f := withMode(protocol.Training{Spec: spec.Defaults()}, name, types)
		tr.form, tr.formText = &f, nil
		return
	}
	if mode := settingsMode(*tr.form); (mode == spec.PresetMolecules || mode == modeAtomTypes) && mode != atoms {
		f := withMode(*tr.form, spec.PresetDefault, nil)
		tr.form = &f
	}
}

// dataAtoms says what the atoms of the dataset loaded are: whether they
// are molecules', and their atom types (protocol.Summary).
func (r *Root) dataAtoms() (molecules bool, types []string) {
	if s := r.data.summary; s != nil {
		return s.Molecules, s.AtomTypes
	}
	return false, nil
}

// list writes fold indices from 1, as the page shows them.
func list(folds []int) string {
	s := make([]string, len(folds))
	for i, f := range folds {
		s[i] = fmt.Sprint(f + 1)
	}
	return strings.Join(s, ",")
}

// jobDone ends run c after its last job (which left c.jobs).
func (r *Root) jobDone(c *cvRun) {
	if !c.jobs.busy() {
		c.stage, c.eta = "", ""
		c.seconds = time.Since(c.start).Seconds()
		r.status = fmt.Sprintf("Cross-validation and training done in %.1f s.", c.seconds)
		if m := r.findModel(c.modelName); m != nil && c.report != nil && m.info == c.info {
			r.keepEvaluation(m, c.report.Learned)
		}
		r.saveRun(c)
	}
}

// cancelCV stops every job of the current run; why ("" for none) is shown.
func (r *Root) cancelCV(why string) {
	c := r.train.cv
	if c == nil {
		return
	}
	c.jobs.drop(r.Backend)
	c.stage, c.eta = "", ""
	if why != "" {
		c.err, r.status = why, why
	}
}
