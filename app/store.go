package app

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// Keys of the page's state kept with Backend.Put across visits.
const (
	keyModels  = "models" // JSON []savedModel
	keyCurrent = "current-model"
	keyResults = "results" // JSON savedRun: the last CV's tables and plots
	keyLegacy  = "model"   // one model's JSON, as earlier versions kept it
)

// modelsState is the Models tab's: the models kept across visits, one
// of them the current model, which Classify uses.
type modelsState struct {
	kept    []*trained // every kept model
	current *trained   // the one Classify uses
	loading bool       // a model file is being read and checked
	// restoring says the current model of an earlier visit is not known
	// yet: the kept models are being read and checked by workers. The
	// page says so ("Loading your models…") and Classify waits, instead
	// of showing each model in turn as its check ends.
	restoring bool
	// checking counts the saved models whose check has not ended; the
	// list is saved only once they have joined it (unsaved says it
	// changed meanwhile), so that none of them is lost.
	checking int
	unsaved  bool
	err      string
	site     siteState // the site's own models (a published classifier)
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

// savedModel is a model as kept across visits: its name, its JSON and
// what the page knows of it besides (the CV accuracy, the settings).
type savedModel struct {
	Name     string             `json:"name"`
	Data     []byte             `json:"data"`
	Accuracy float64            `json:"accuracy"` // mean CV accuracy; 0 when unknown
	Settings *protocol.Training `json:"settings,omitempty"`
}

// savedRun is the last cross-validation's results, for the Train tab of
// the next visit; they show again once the same dataset is loaded.
type savedRun struct {
	Key    string            `json:"key"`
	Used   protocol.Training `json:"used"`
	Folds  []protocol.Fold   `json:"folds"`
	Report *protocol.Report  `json:"report"`
	// Test is the paired test of the learned against the initial weight
	// function; absent from runs saved before the page had it from a
	// worker, which asks for it again (Root.showRun).
	Test    *protocol.PairedTest `json:"test,omitempty"`
	Info    *protocol.Info       `json:"info"`
	Before  []float64            `json:"before"`
	After   []float64            `json:"after"`
	Seconds float64              `json:"seconds"`
}

// model finds a kept model by name.
func (r *Root) findModel(name string) *trained {
	for _, m := range r.models.kept {
		if m.name == name {
			return m
		}
	}
	return nil
}

// uniqueName is base, or base (2), (3), ... if a model has that name.
func (r *Root) uniqueName(base string) string {
	name := base
	for i := 2; r.findModel(name) != nil; i++ {
		name = fmt.Sprintf("%s (%d)", base, i)
	}
	return name
}

// keepModel adds m to the kept models, replacing one of the same name,
// makes it current and saves the list.
func (r *Root) keepModel(m *trained) {
	m.url = r.Backend.ObjectURL(m.data, "application/json")
	ms := &r.models
	if old := r.findModel(m.name); old != nil {
		r.Backend.RevokeURL(old.url)
		ms.kept[slices.Index(ms.kept, old)] = m
	} else {
		ms.kept = append(ms.kept, m)
	}
	r.useModel(m)
	r.saveModels()
}

// keepEvaluation puts the cross-validation of the run that trained m,
// kept in this visit, in m and in its file (with its name), so that the
// file downloaded from the Models tab says how good the model is
// wherever it is loaded again.
func (r *Root) keepEvaluation(m *trained, learned protocol.Result) {
	e := protocol.Evaluation{Folds: len(learned.PerFold), Accuracy: learned.Accuracy, Std: learned.Std}
	m.accuracy = e.Accuracy
	m.data = protocol.WithEvaluation(m.data, m.name, e)
	r.Backend.RevokeURL(m.url)
	m.url = r.Backend.ObjectURL(m.data, "application/json")
	r.saveModels()
}

// useModel makes m the model Classify uses; a model chosen, trained or
// loaded while the kept ones are restored is the current one from then
// on.
func (r *Root) useModel(m *trained) {
	if r.models.current != m {
		r.classify.graphs, r.classify.err = nil, ""
	}
	r.models.current, r.models.restoring = m, false
	r.Backend.Put(keyCurrent, []byte(m.name))
}

// deleteModel forgets the model named name.
func (r *Root) deleteModel(name string) {
	m := r.findModel(name)
	if m == nil {
		return
	}
	ms := &r.models
	r.Backend.RevokeURL(m.url)
	ms.kept = slices.DeleteFunc(ms.kept, func(t *trained) bool { return t == m })
	if ms.current == m {
		ms.current, r.classify.graphs = nil, nil
		if len(ms.kept) > 0 {
			r.useModel(ms.kept[len(ms.kept)-1])
		}
	}
	r.saveModels()
}

func (r *Root) saveModels() {
	if r.models.checking > 0 {
		r.models.unsaved = true // saved with the restored models (restoreModels)
		return
	}
	r.afterPaint(func() {
		list := make([]savedModel, len(r.models.kept))
		for i, m := range r.models.kept {
			list[i] = savedModel{Name: m.name, Data: m.data, Accuracy: m.accuracy, Settings: m.settings}
		}
		data, err := json.Marshal(list)
		if err == nil {
			r.Backend.Put(keyModels, data)
		}
	})
}

// savePause lets the browser paint an update before afterPaint's work.
const savePause = 50 * time.Millisecond

// afterPaint runs f on the UI goroutine once the browser has painted the
// current update: saving (the JSON of every kept model, then IndexedDB)
// took tens of milliseconds of the main thread at the end of a run,
// after which the results appeared (docs/benchmarks.md). Before
// the page is mounted (tests, prerendering) f runs at once.
func (r *Root) afterPaint(f func()) {
	if !r.mounted {
		f()
		return
	}
	r.ctx.After(savePause, func(app.Context) { f() })
}

// restoreModels loads the models of earlier visits, each checked by a
// worker, and the current one's name; a model kept by an earlier version
// of the page (one, unnamed) joins them. Until the current model is
// known the page shows one state, restoring (set from the first render:
// newRoot).
func (r *Root) restoreModels(ctx app.Context) {
	r.Backend.Get(keyModels, func(data []byte) {
		var list []savedModel
		if data != nil && json.Unmarshal(data, &list) != nil {
			list = nil // unreadable: start afresh rather than fail
		}
		r.Backend.Get(keyCurrent, func(current []byte) {
			r.Backend.Get(keyLegacy, func(legacy []byte) {
				if len(list) == 0 && legacy != nil {
					list = []savedModel{{Data: legacy}}
				}
				ctx.Dispatch(func(ctx app.Context) {
					r.restoreAll(ctx, list, string(current))
					r.loadSiteModels(ctx, list)
				})
			})
		})
	})
}

// restoreAll has workers check the saved models and keeps them in their
// saved order, before any kept meanwhile. The model named current
// becomes current as soon as it is back; the others join the list as
// their checks end, without changing the current model. When every
// check has ended and that model is not among them, the last kept model
// is current.
func (r *Root) restoreAll(ctx app.Context, list []savedModel, current string) {
	ms := &r.models
	ms.checking = len(list)
	slots := make([]*trained, len(list))
	ended := func(ctx app.Context, name string) {
		ms.checking--
		switch {
		case ms.restoring && name == current && r.findModel(name) != nil:
			r.restored(ctx, r.findModel(name))
		case ms.restoring && ms.checking == 0 && len(ms.kept) > 0:
			r.restored(ctx, cmp.Or(r.findModel(current), ms.kept[len(ms.kept)-1]))
		case ms.restoring && ms.checking == 0:
			ms.restoring = false // nothing kept: "No model yet"
		}
		if ms.checking == 0 && ms.unsaved {
			ms.unsaved = false
			r.saveModels()
		}
	}
	if len(list) == 0 {
		ms.restoring = false
		return
	}
	for i, s := range list {
		r.run(ctx, nil, protocol.Request{Kind: protocol.Inspect, Model: s.Data}, jobCalls{
			Done: func(ctx app.Context, resp protocol.Response) {
				name := cmp.Or(s.Name, resp.Info.Name)
				if name == "" {
					name = r.uniqueName(resp.Info.Dataset)
				}
				if r.findModel(name) == nil { // else trained or loaded in this visit meanwhile
					accuracy := s.Accuracy
					if e := resp.Info.Evaluation; accuracy == 0 && e != nil {
						accuracy = e.Accuracy
					}
					slots[i] = &trained{name: name, data: s.Data, info: resp.Info, after: resp.Arrays["after"], accuracy: accuracy, settings: s.Settings,
						url: r.Backend.ObjectURL(s.Data, "application/json")}
					kept := slices.DeleteFunc(slices.Clone(slots), func(m *trained) bool { return m == nil })
					for _, m := range ms.kept {
						if !slices.Contains(slots, m) {
							kept = append(kept, m)
						}
					}
					ms.kept = kept
				}
				ended(ctx, name)
			},
			Fail: func(ctx app.Context, err error) {
				r.models.err = fmt.Sprintf("A model saved earlier (%s) could not be loaded: %v", s.Name, err)
				ended(ctx, "")
			},
		})
	}
}

// restored makes m, a kept model, current once the models are restored.
func (r *Root) restored(ctx app.Context, m *trained) {
	if r.models.current != m {
		r.classify.graphs = nil
	}
	r.models.current, r.models.restoring = m, false
	r.classifyLinked(ctx) // SMILES of a link wait for a model
}

// saveRun keeps the finished run c for the next visit.
func (r *Root) saveRun(c *cvRun) {
	if c.report == nil || c.info == nil {
		return
	}
	run := &savedRun{Key: r.data.key, Used: c.used, Folds: c.folds, Report: c.report, Test: c.test, Info: c.info,
		Before: c.before, After: c.after, Seconds: c.seconds}
	r.train.lastRun = run
	r.afterPaint(func() {
		data, err := json.Marshal(run)
		if err == nil {
			r.Backend.Put(keyResults, data)
		}
	})
}

// restoreRun reads the last run of an earlier visit; load shows it once
// its dataset is loaded.
func (r *Root) restoreRun() {
	r.Backend.Get(keyResults, func(data []byte) {
		var s savedRun
		if data == nil || json.Unmarshal(data, &s) != nil || s.Report == nil {
			return
		}
		r.ctx.Dispatch(func(ctx app.Context) {
			r.train.lastRun = &s
			if r.train.cv == nil && r.data.key == s.Key {
				r.showRun(ctx, &s)
			}
		})
	})
}

// run rebuilds the finished cvRun that s saved.
func (s *savedRun) run() *cvRun {
	return &cvRun{fraction: 1, units: len(s.Folds) + 1, used: s.Used,
		folds: s.Folds, report: s.Report, test: s.Test, info: s.Info, before: s.Before, after: s.After, seconds: s.Seconds,
		tally: Tally{Done: len(s.Folds), Total: len(s.Folds)}, restored: true}
}

// showRun shows the run s saved on the Train tab; a worker tests a run
// saved without its test.
func (r *Root) showRun(ctx app.Context, s *savedRun) {
	c := s.run()
	r.train.cv = c
	if c.test == nil && c.report != nil && r.Backend != nil {
		r.mergeCV(ctx, c, []protocol.CVPart{{Report: *c.report}})
	}
}

func (r *Root) modelsTab() app.UI {
	ms := &r.models
	t := &ModelsTab{
		Loading: ms.loading, Restoring: ms.restoring, Error: ms.err,
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
	for _, m := range ms.kept {
		t.Kept = append(t.Kept, Kept{Name: m.name, Info: m.info, Accuracy: m.accuracy, Bytes: len(m.data), URL: m.url, Current: m == ms.current})
	}
	if m := ms.current; m != nil {
		t.Model, t.Weight, t.URL, t.Name, t.Bytes = m.info, m.after, m.url, m.name, len(m.data)
		t.FileName = "wkpi-" + m.info.Dataset + ".json"
	}
	return t
}

// inspect has a worker validate a model file and makes it current. A
// file that is a kept model byte for byte (one downloaded from the Models
// tab and given back) makes that model current, with its name and what
// the page knows of it, instead of keeping a copy.
func (r *Root) inspect(ctx app.Context, name string, data []byte) {
	ms := &r.models
	for _, m := range ms.kept {
		if bytes.Equal(m.data, data) {
			ms.err = ""
			r.useModel(m)
			r.status = fmt.Sprintf("%s is the model kept as %q, now in use.", name, m.name)
			return
		}
	}
	ms.loading, ms.err = true, ""
	r.run(ctx, nil, protocol.Request{Kind: protocol.Inspect, Model: data}, jobCalls{
		Done: func(ctx app.Context, resp protocol.Response) {
			ms.loading = false
			// The file's own name and evaluation, if it keeps them.
			m := &trained{name: r.uniqueName(cmp.Or(resp.Info.Name, resp.Info.Dataset)), data: data, info: resp.Info, after: resp.Arrays["after"]}
			if e := resp.Info.Evaluation; e != nil {
				m.accuracy = e.Accuracy
			}
			r.keepModel(m)
			r.status = fmt.Sprintf("Model of %s loaded from %s, kept as %q.", resp.Info.Dataset, name, m.name)
		},
		Fail: func(ctx app.Context, err error) {
			ms.loading = false
			ms.err = fmt.Sprintf("Could not load %s: %v.", name, err)
			if ms.current != nil {
				ms.err += "\nThe current model (" + ms.current.name + ") is unchanged."
			}
		},
	})
}

func (r *Root) uploadModel(ctx app.Context, files app.Value) {
	ms := &r.models
	ms.loading, ms.err = true, ""
	r.Backend.ReadFiles(files, func(fs []protocol.File, err error) {
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil || len(fs) == 0 {
				ms.loading, ms.err = false, fmt.Sprintf("Could not read the file: %v", err)
				return
			}
			r.inspect(ctx, fs[0].Name, fs[0].Data)
		})
	})
}
