package app

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/core/crossval"
	"wkpi-web/core/eval"
	"wkpi-web/core/spec"
	"wkpi-web/wasm/pool"
	"wkpi-web/wasm/protocol"
)

// cvRun is one press of Run: jobs of some folds each, and the final model.
type cvRun struct {
	jobs      map[int64]bool // jobs still running
	modelDone bool
	units     int // folds + the final training
	start     time.Time
	parts     []eval.Report // of the jobs that finished
	folds     []eval.Fold   // every fold finished so far, once each, by index
	tally     Tally
	labels    []int
	classes   int
	report    *eval.Report // merged from parts, once every job's part is in
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
func (c *cvRun) addFold(f eval.Fold) {
	i, found := slices.BinarySearchFunc(c.folds, f.Index, func(g eval.Fold, index int) int { return cmp.Compare(g.Index, index) })
	if found {
		return
	}
	c.folds = slices.Insert(c.folds, i, f)
	learned, baseline := make([]float64, len(c.folds)), make([]float64, len(c.folds))
	for k, g := range c.folds {
		learned[k], baseline[k] = g.Accuracy, g.Baseline
	}
	c.tally.Done = len(c.folds)
	c.tally.Learned, _ = crossval.MeanStd(learned)
	c.tally.Baseline, _ = crossval.MeanStd(baseline)
}

// addPart records a finished job's folds; once every fold's part is in,
// the report is eval.Merge of the parts, as for a CV run in one piece.
func (c *cvRun) addPart(part *protocol.CVPart) {
	c.parts = append(c.parts, part.Report)
	c.labels, c.classes = part.Labels, part.Classes
	n := 0
	for _, p := range c.parts {
		n += len(p.Folds)
		for _, f := range p.Folds {
			c.addFold(f)
		}
	}
	if n != c.tally.Total {
		return
	}
	merged, err := eval.Merge(c.labels, c.classes, c.parts...)
	if err != nil {
		c.err = "Merging the folds failed: " + err.Error()
		return
	}
	c.report = &merged
}

// trained is a kept model: its name, its JSON as a worker described it,
// and the CV accuracy and settings of the run that trained it, if known.
type trained struct {
	name     string
	data     []byte
	info     *protocol.Info
	after    []float64
	url      string
	accuracy float64
	settings *protocol.Training
}

func (r *Root) trainTab() app.UI {
	t := &TrainTab{
		Summary: r.summary, Form: r.form, Text: r.formText,
		OnForm:   func(f protocol.Training) { r.act(func(app.Context) { r.form = &f }) },
		OnField:  func(id, text string) { r.act(func(app.Context) { r.setField(id, text) }) },
		OnPreset: func(name string) { r.act(func(app.Context) { r.preset(name) }) },
		OnRun:    func() { r.act(func(ctx app.Context) { r.askCV(ctx) }) },
		OnAnswer: func(a string) { r.act(func(ctx app.Context) { r.answer(ctx, a) }) },
		OnCancel: func() { r.act(func(app.Context) { r.cancelCV("Canceled.") }) },
	}
	if r.asking != "" && r.summary != nil {
		t.Replace = r.asking
	}
	if c := r.cv; c != nil {
		t.Running, t.Progress, t.ETA, t.Error = len(c.jobs) > 0, c.stage, c.eta, c.err
		t.Fraction = float64(c.finished()) / float64(c.units)
		t.Folds, t.Tally, t.Report = c.folds, c.tally, c.report
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
	if r.summary == nil || r.form == nil {
		return
	}
	if r.findModel(r.summary.Name) != nil {
		r.asking = r.summary.Name
		return
	}
	r.runCV(ctx, r.summary.Name)
}

// answer takes the answer to askCV's question: "replace", "both" or
// "cancel".
func (r *Root) answer(ctx app.Context, a string) {
	name := r.asking
	r.asking = ""
	switch a {
	case "replace":
		r.runCV(ctx, name)
	case "both":
		r.runCV(ctx, r.uniqueName(name))
	}
}

// runCV splits the folds over the workers, one job per worker with every
// n-th fold (each computes the features and the pair sums once for its
// folds), and queues the final training on the whole dataset behind them.
// (Training beside the folds on a worker of its own measured slower on
// the 2-core build machine: docs/browser-benchmarks.md.)
func (r *Root) runCV(ctx app.Context, modelName string) {
	if r.summary == nil || r.form == nil {
		return
	}
	if len(r.formText) > 0 {
		return // the form shows what to correct
	}
	r.cancelCV("")
	form := *r.form
	folds := form.Folds
	if folds < 2 || folds > r.summary.Graphs {
		r.cv = &cvRun{err: fmt.Sprintf("Folds must be between 2 and %d (the number of graphs).", r.summary.Graphs), units: 1}
		return
	}
	c := &cvRun{jobs: map[int64]bool{}, units: folds + 1, tally: Tally{Total: folds}, start: time.Now(),
		stage: "Starting…", eta: "estimating time left…", used: form, modelName: modelName}
	r.cv = c
	r.status = fmt.Sprintf("Cross-validating on %s: %d folds.", r.summary.Name, folds)
	fail := func(id *int64) func(error) {
		return func(err error) {
			ctx.Dispatch(func(app.Context) {
				if r.cv != c || errors.Is(err, pool.ErrCanceled) {
					return
				}
				delete(c.jobs, *id)
				r.cancelCV("The run failed: " + err.Error())
			})
		}
	}
	chunks := min(max(r.Backend.Size(), 1), folds)
	for k := range chunks {
		t := form
		t.Only = nil
		for f := k; f < folds; f += chunks {
			t.Only = append(t.Only, f)
		}
		id := new(int64)
		// live says whether the job's messages still count: not once the
		// run was replaced or canceled.
		live := func() bool { return r.cv == c && c.jobs[*id] }
		*id = r.submit(ctx, protocol.Request{Kind: protocol.CrossValidate, Dataset: r.key, Training: &t}, pool.Handler{
			Progress: func(stage string, done, total int) {
				ctx.Dispatch(func(app.Context) {
					// The folds arrive whole as Partial messages; their count
					// here is of this job's part only, which would mislead.
					if live() && stage != "folds" {
						c.stage = fmt.Sprintf("Folds %s: %s %d/%d", list(t.Only), stage, done, total)
					}
				})
			},
			Partial: func(resp protocol.Response) {
				ctx.Dispatch(func(app.Context) {
					if live() && resp.Fold != nil {
						c.addFold(*resp.Fold)
						r.estimate(c)
					}
				})
			},
			Done: func(resp protocol.Response) {
				ctx.Dispatch(func(app.Context) {
					if live() {
						c.addPart(resp.CV)
						r.jobDone(c, *id)
					}
				})
			},
			Fail: fail(id),
		})
		c.jobs[*id] = true
	}
	id := new(int64)
	*id = r.submit(ctx, protocol.Request{Kind: protocol.Train, Dataset: r.key, Training: &form}, pool.Handler{
		Progress: func(stage string, done, total int) {
			ctx.Dispatch(func(app.Context) {
				if r.cv == c {
					c.stage = fmt.Sprintf("Final model: %s %d/%d", stage, done, total)
				}
			})
		},
		Done: func(resp protocol.Response) {
			ctx.Dispatch(func(app.Context) {
				if r.cv != c {
					return
				}
				c.info, c.before, c.after = resp.Info, resp.Arrays["before"], resp.Arrays["after"]
				used := c.used
				r.keepModel(&trained{name: c.modelName, data: resp.Model, info: resp.Info, after: resp.Arrays["after"], settings: &used})
				c.modelDone = true
				r.jobDone(c, *id)
			})
		},
		Fail: fail(id),
	})
	c.jobs[*id] = true
}

// setField takes what the user typed for setting name: a valid value
// goes into the form, anything else is kept as typed with its reason.
func (r *Root) setField(name, text string) {
	if r.form == nil {
		return
	}
	graphs := 0
	if r.summary != nil {
		graphs = r.summary.Graphs
	}
	if r.formText == nil {
		r.formText = map[string]string{}
	}
	next, msg := checkField(*r.form, name, text, graphs)
	if msg != "" {
		r.formText[fieldID(name)] = text
		return
	}
	delete(r.formText, fieldID(name))
	r.form = &next
}

// preset puts a preset of spec.Presets in the form: default, paper or
// size-aware.
func (r *Root) preset(name string) {
	p, ok := spec.Presets()[name]
	if !ok || r.form == nil {
		return
	}
	r.form, r.formText = &protocol.Training{Spec: p()}, nil
}

// list writes fold indices from 1, as the page shows them.
func list(folds []int) string {
	s := make([]string, len(folds))
	for i, f := range folds {
		s[i] = fmt.Sprint(f + 1)
	}
	return strings.Join(s, ",")
}

// jobDone forgets a finished job and updates the estimate.
func (r *Root) jobDone(c *cvRun, id int64) {
	delete(c.jobs, id)
	r.estimate(c)
	if len(c.jobs) == 0 {
		c.stage, c.eta = "", ""
		c.seconds = time.Since(c.start).Seconds()
		r.status = fmt.Sprintf("Cross-validation and training done in %.1f s.", c.seconds)
		if m := r.findModel(c.modelName); m != nil && c.report != nil {
			m.accuracy = c.report.Learned.Accuracy
			r.saveModels()
		}
		r.saveRun(c)
	}
}

// finished counts the finished units: folds and the final model.
func (c *cvRun) finished() int {
	n := len(c.folds)
	if c.modelDone {
		n++
	}
	return n
}

// estimate puts the time left at the rate of the units finished so far.
func (r *Root) estimate(c *cvRun) {
	if done := c.finished(); done > 0 && done < c.units {
		elapsed := time.Since(c.start)
		left := time.Duration(float64(elapsed) / float64(done) * float64(c.units-done))
		c.eta = fmt.Sprintf("%d of %d done, about %s left", done, c.units, left.Round(time.Second))
	}
}

// cancelCV stops every job of the current run; why ("" for none) is shown.
func (r *Root) cancelCV(why string) {
	c := r.cv
	if c == nil {
		return
	}
	for id := range c.jobs {
		r.Backend.Cancel(id)
	}
	c.jobs = map[int64]bool{}
	c.stage, c.eta = "", ""
	if why != "" {
		c.err, r.status = why, why
	}
}

// inspect has a worker validate a model file and makes it current.
func (r *Root) inspect(ctx app.Context, name string, data []byte) {
	r.modelLoading, r.modelErr = true, ""
	r.submit(ctx, protocol.Request{Kind: protocol.Inspect, Model: data}, pool.Handler{
		Done: func(resp protocol.Response) {
			ctx.Dispatch(func(app.Context) {
				r.modelLoading = false
				m := &trained{name: r.uniqueName(resp.Info.Dataset), data: data, info: resp.Info, after: resp.Arrays["after"]}
				r.keepModel(m)
				r.status = fmt.Sprintf("Model of %s loaded from %s, kept as %q.", resp.Info.Dataset, name, m.name)
			})
		},
		Fail: func(err error) {
			ctx.Dispatch(func(app.Context) {
				r.modelLoading = false
				r.modelErr = fmt.Sprintf("Could not load %s: %v.", name, err)
				if r.model != nil {
					r.modelErr += "\nThe current model (" + r.model.name + ") is unchanged."
				}
			})
		},
	})
}

func (r *Root) uploadModel(ctx app.Context, files app.Value) {
	r.modelLoading, r.modelErr = true, ""
	r.Backend.ReadFiles(files, func(fs []protocol.File, err error) {
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil || len(fs) == 0 {
				r.modelLoading, r.modelErr = false, fmt.Sprintf("Could not read the file: %v", err)
				return
			}
			r.inspect(ctx, fs[0].Name, fs[0].Data)
		})
	})
}

func (r *Root) classify(ctx app.Context, files app.Value) {
	if r.model == nil {
		return
	}
	model := r.model
	r.classifying, r.classErr = true, ""
	r.Backend.ReadFiles(files, func(fs []protocol.File, err error) {
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				r.classifying, r.classErr = false, fmt.Sprintf("Could not read the files: %v", err)
				return
			}
			r.submit(ctx, protocol.Request{Kind: protocol.Predict, Model: model.data, Inputs: fs}, pool.Handler{
				Done: func(resp protocol.Response) {
					ctx.Dispatch(func(app.Context) {
						r.classifying = false
						if r.model == model {
							r.graphs, r.chosen = resp.Graphs, 0
							if r.csvURL != "" {
								r.Backend.RevokeURL(r.csvURL)
							}
							r.csvURL = r.Backend.ObjectURL(predictionsCSV(resp.Graphs), "text/csv")
						}
					})
				},
				Fail: func(err error) {
					ctx.Dispatch(func(app.Context) {
						r.classifying = false
						r.classErr = "Could not classify: " + err.Error()
						if len(r.graphs) > 0 {
							r.classErr += "\nThe earlier predictions below still stand."
						}
					})
				},
			})
		})
	})
}

func (r *Root) classifyTab() app.UI {
	t := &ClassifyTab{
		Running: r.classifying, Error: r.classErr, Graphs: r.graphs, Chosen: r.chosen, CSV: r.csvURL,
		OnUpload: func(files app.Value) { r.act(func(ctx app.Context) { r.classify(ctx, files) }) },
		OnChoose: func(i int) { r.act(func(app.Context) { r.chosen = i }) },
	}
	if r.model != nil {
		t.Model, t.Weight = r.model.info, r.model.after
	}
	return t
}

func (r *Root) modelsTab() app.UI {
	t := &ModelsTab{
		Loading: r.modelLoading, Error: r.modelErr,
		OnUpload: func(files app.Value) { r.act(func(ctx app.Context) { r.uploadModel(ctx, files) }) },
		OnUse: func(name string) {
			r.act(func(app.Context) {
				if m := r.findModel(name); m != nil {
					r.useModel(m)
				}
			})
		},
		OnDelete: func(name string) { r.act(func(app.Context) { r.deleteModel(name) }) },
	}
	for _, m := range r.models {
		t.Kept = append(t.Kept, Kept{Name: m.name, Info: m.info, Accuracy: m.accuracy, URL: m.url, Current: m == r.model})
	}
	if m := r.model; m != nil {
		t.Model, t.Weight, t.URL, t.Name = m.info, m.after, m.url, m.name
		t.FileName = "wkpi-" + m.info.Dataset + ".json"
	}
	return t
}
