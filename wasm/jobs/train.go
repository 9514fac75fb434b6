package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"reflect"
	"strings"

	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
	"wkpi-web/core/kernel"
	"wkpi-web/core/model"
	"wkpi-web/core/pimage"
	"wkpi-web/core/progress"
	"wkpi-web/core/spec"
	"wkpi-web/wasm/protocol"
)

// Defaults is the Training the page starts from: spec.Defaults, the
// settings of `wkpi eval`.
func Defaults() protocol.Training { return protocol.Training{Spec: spec.Defaults()} }

// config turns a job's settings into the core's (eval.FromSpec, as the
// CLI does) and the plan of its folds.
func config(t *protocol.Training) (eval.Setup, eval.Plan, error) {
	if t == nil {
		return eval.Setup{}, eval.Plan{}, fmt.Errorf("no training settings")
	}
	u, err := eval.FromSpec(t.Spec)
	if err != nil {
		return u, eval.Plan{}, err
	}
	plan := u.Plan(0)
	plan.Only = t.Only
	return u, plan, nil
}

// setup is config with the held dataset's code tables in the feature
// settings (eval.Setup.WithCodes), as the CLI's: chemistry-aware
// descriptors read a TU dataset's atoms and bonds through its README's
// node and edge tables, and models keep them.
func (w *Worker) setup(t *protocol.Training) (eval.Setup, eval.Plan, error) {
	u, plan, err := config(t)
	if err != nil {
		return u, plan, err
	}
	return u.WithCodes(w.codes, w.edgeCodes), plan, nil
}

// cachedFeatures are features and the settings they were computed under.
type cachedFeatures struct {
	opts features.Settings
	w    *eval.WKPI
	// job is the last job (Worker.job) that took them.
	job int
}

// wkpi returns the features of the held dataset under s, computing them
// once per worker and settings: every fold job of a CV and every Explore
// job of the same settings reuses them. Features of other settings are
// let go, except those that differ in the node-label vocabulary alone.
func (w *Worker) wkpi(ctx context.Context, ds *graph.Dataset, s features.Settings, report progress.Func) (*eval.WKPI, error) {
	if w.featKey != w.key {
		w.feats = nil
	}
	for i, c := range w.feats {
		if reflect.DeepEqual(c.opts, s) {
			w.feats[i].job = w.job
			return c.w, nil
		}
	}
	if len(w.feats) > 0 && !reflect.DeepEqual(withoutVocabulary(w.feats[0].opts), withoutVocabulary(s)) {
		w.feats = nil
	}
	set, err := features.Compute(ctx, ds, s, report)
	if err != nil {
		return nil, err
	}
	e, err := eval.NewWKPI(set, ds.Labels, len(ds.Classes))
	if err != nil {
		return nil, err
	}
	w.feats, w.featKey = append(w.feats, cachedFeatures{opts: s, w: e, job: w.job}), w.key
	return e, nil
}

// withoutVocabulary is s with no node-label vocabulary.
func withoutVocabulary(s features.Settings) features.Settings {
	if s.Labels != nil {
		l := *s.Labels
		l.Vocabulary = nil
		s.Labels = &l
	}
	return s
}

// featureSets are the feature sets the job running took so far.
func (w *Worker) featureSets() []*eval.WKPI {
	var sets []*eval.WKPI
	for _, c := range w.feats {
		if c.job == w.job {
			sets = append(sets, c.w)
		}
	}
	return sets
}

// labelled returns the features of u as a function of the training set
// (nil: all graphs): in node-label mode with its vocabulary fitted on
// the training graphs and the dataset's README code table (if any), so
// that models map MOL/SDF element symbols (eval.Setup.FeaturesOf). The
// graphs' labels are read once, for every training set asked for.
func (w *Worker) labelled(ctx context.Context, ds *graph.Dataset, u eval.Setup, report progress.Func) (func(train []int) (*eval.WKPI, error), error) {
	of, err := u.FeaturesOf(ds.Graphs, w.codes)
	if err != nil {
		return nil, err
	}
	return func(train []int) (*eval.WKPI, error) { return w.wkpi(ctx, ds, of(train), report) }, nil
}

// features returns the features of u for all of ds's graphs.
func (w *Worker) features(ctx context.Context, ds *graph.Dataset, u eval.Setup, report progress.Func) (*eval.WKPI, error) {
	labelled, err := w.labelled(ctx, ds, u, report)
	if err != nil {
		return nil, err
	}
	return labelled(nil)
}

func (w *Worker) crossValidate(ctx context.Context, ds *graph.Dataset, t *protocol.Training, report progress.Func, fold func(protocol.Fold)) (protocol.Response, error) {
	u, plan, err := w.setup(t)
	if err != nil {
		return protocol.Response{}, err
	}
	if fold != nil {
		plan.OnFold = func(f eval.Fold) { fold(foldOf(f)) }
	}
	if plan.Groups, err = u.Groups(ds.Graphs, w.codes, w.edgeCodes); err != nil {
		return protocol.Response{}, err
	}
	// In node-label mode each fold's label vocabulary comes from its
	// training graphs.
	labelled, err := w.labelled(ctx, ds, u, report)
	if err != nil {
		return protocol.Response{}, err
	}
	src := eval.Source{Labels: ds.Labels, Classes: len(ds.Classes), PerFold: t.Labels, Features: labelled}
	if t.Final {
		plan.Final = &eval.Final{Dataset: ds.Name, Classes: ds.Classes}
	}
	p := u.Protocol(w.sizeAware)
	if auto, ok := p.(eval.Auto); ok && t.ChoiceScores != nil {
		auto.Inner = t.ChoiceScores
		p = auto
	}
	rep, err := eval.Run(ctx, src, p, plan, report)
	if err != nil {
		return protocol.Response{}, err
	}
	part := &protocol.CVPart{Report: reportOf(rep), Labels: ds.Labels, Classes: len(ds.Classes)}
	if rep.Final == nil {
		return protocol.Response{CV: part}, nil
	}
	resp, err := w.modelResponse(rep.Final, t)
	resp.CV = part
	return resp, err
}

// choiceScores measures one candidate of the automatic choice of images
// for the CrossValidate jobs of a run (eval.ChoiceScores).
func (w *Worker) choiceScores(ctx context.Context, ds *graph.Dataset, t *protocol.Training, report progress.Func) (protocol.Response, error) {
	u, plan, err := w.setup(t)
	if err != nil {
		return protocol.Response{}, err
	}
	auto, ok := u.Protocol(w.sizeAware).(eval.Auto)
	if !ok {
		return protocol.Response{}, fmt.Errorf("these settings make no automatic choice of images")
	}
	if plan.Groups, err = u.Groups(ds.Graphs, w.codes, w.edgeCodes); err != nil {
		return protocol.Response{}, err
	}
	e, err := w.features(ctx, ds, u, report)
	if err != nil {
		return protocol.Response{}, err
	}
	scores, err := auto.Scores(ctx, e, t.Candidate, plan, report)
	if err != nil {
		return protocol.Response{}, err
	}
	return protocol.Response{Scores: scores}, nil
}

// sizeAware is the size-aware variant of e under cfg (eval.SizeAware),
// built once per feature set and kept.
func (w *Worker) sizeAware(e *eval.WKPI, cfg eval.Config) (eval.Candidate, error) {
	if w.sizedOf != e {
		sized, err := eval.SizeAware(e, cfg)
		if err != nil {
			return eval.Candidate{}, err
		}
		w.sized, w.sizedOf = sized.W, e
	}
	return eval.Candidate{W: w.sized, Config: eval.SizeAwareConfig(cfg)}, nil
}

// train learns the model on the whole dataset; it also returns the
// initial weight function of the whole dataset, the "before" picture.
func (w *Worker) train(ctx context.Context, ds *graph.Dataset, t *protocol.Training, report progress.Func) (protocol.Response, error) {
	u, _, err := w.setup(t)
	if err != nil {
		return protocol.Response{}, err
	}
	e, err := w.features(ctx, ds, u, report)
	if err != nil {
		return protocol.Response{}, err
	}
	final, err := u.Protocol(w.sizeAware).Train(ctx, e, eval.Final{Dataset: ds.Name, Classes: ds.Classes}, report)
	if err != nil {
		return protocol.Response{}, err
	}
	return w.modelResponse(final, t)
}

// modelResponse is the answer that carries a trained model: its file,
// its description and its weight function before and after learning.
func (w *Worker) modelResponse(final *eval.FinalModel, t *protocol.Training) (protocol.Response, error) {
	m := final.Model
	m.Settings = &t.Spec
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		return protocol.Response{}, err
	}
	resp := describe(m)
	resp.Model = buf.Bytes()
	if w.source != nil {
		resp.Info.Target = w.source.Options.Target
	}
	resp.Arrays["before"] = HeatMap(final.Initial, m.Grid)
	resp.Info.Before = centres(final.Initial)
	return resp, nil
}

// inspect loads a model as a user's file and describes it.
func inspect(data []byte) (*model.Model, protocol.Response, error) {
	m, err := model.Load(bytes.NewReader(data))
	if err != nil {
		return nil, protocol.Response{}, fmt.Errorf("this file is not a usable WKPI model: %w", err)
	}
	return m, describe(m), nil
}

func describe(m *model.Model) protocol.Response {
	g := m.Grid
	var e *protocol.Evaluation
	if m.Evaluation != nil {
		e = &protocol.Evaluation{Folds: m.Evaluation.Folds, Accuracy: m.Evaluation.Accuracy, Std: m.Evaluation.Std}
	}
	return protocol.Response{
		Info: &protocol.Info{
			Dataset: m.Dataset, Classes: m.Classes, Descriptor: string(m.Features.Filtration.Kind), Extra: filtration.FormatList(m.Features.Extra), Mode: m.Features.Mode(), Raw: !m.Features.Normalize,
			Init: m.Learn.Init, M: m.Weight.Len(), Sigma: m.Sigma, C: m.C, GaussWidth: m.GaussWidth,
			Grid: protocol.Grid{MinX: g.MinX, MinY: g.MinY, Pixel: g.Pixel, Rows: g.Rows, Cols: g.Cols},
			Cost: m.Trace.Cost, Support: len(m.Support),
			Converged: m.Trace.Converged, Iterations: m.Trace.Iterations, Centres: centres(m.Weight),
			Name: m.Name, Evaluation: e,
		},
		Arrays: map[string][]float64{"after": HeatMap(m.Weight, g)},
	}
}

// centres lists a mixture's Gaussian centres as (birth, persistence).
func centres(mix kernel.Mixture) [][2]float64 {
	out := make([][2]float64, mix.Len())
	for i := range out {
		out[i] = [2]float64{mix.X[i], mix.Y[i]}
	}
	return out
}

// HeatMap samples a weight function at the centre of every pixel of g,
// row-major with row 0 at the lowest persistence, like a persistence image.
func HeatMap(mix kernel.Mixture, g pimage.Grid) []float64 {
	out := make([]float64, 0, g.Rows*g.Cols)
	for _, c := range g.Centers() {
		out = append(out, mix.At(c[0], c[1]))
	}
	return out
}

func (w *Worker) predict(ctx context.Context, req protocol.Request, report progress.Func) (protocol.Response, error) {
	p, _, err := w.prepare(req.Model)
	if err != nil {
		return protocol.Response{}, err
	}
	files, graphs, err := inputs(req.Inputs)
	if err != nil {
		return protocol.Response{}, err
	}
	report.Report("classify", 0, 1)
	preds, err := p.Predict(ctx, graphs)
	if err != nil {
		return protocol.Response{}, placed(err, files)
	}
	resp := describe(p.Model())
	for i, pr := range preds {
		resp.Graphs = append(resp.Graphs, predicted(files[i], graphs[i], pr))
	}
	return resp, nil
}

// predicted is the row of a graph's prediction.
func predicted(o origin, g *graph.Graph, p model.Prediction) protocol.Graph {
	return protocol.Graph{
		File: o.file, Index: o.index, Name: o.name, Nodes: g.N, Edges: len(g.Edges),
		Label: p.Label, Decision: p.Decision, Points: p.Points, Truth: o.truth,
	}
}

// origin is where a graph to classify came from.
type origin struct {
	file  string
	index int    // graph of the file, from 0
	name  string // what the file calls it, "" when nothing
	truth string // the graph's class label in its file, if any
	// molecule is the graph as a SMILES or molfile (graphfile.Record.Molecule).
	molecule string
	// where is its place in the file, for messages ("row 3 (line 4)").
	where string
}

// place names the graph for a message: its file and where in it.
func (o origin) place() string { return o.file + " " + o.where }

// placed names the graph an error of Predict(graphs) concerns by its
// file and place (files[i] is where graphs[i] came from).
func placed(err error, files []origin) error {
	if ge := (*model.GraphError)(nil); errors.As(err, &ge) {
		return fmt.Errorf("%s: %w", files[ge.Index].place(), ge.Err)
	}
	return err
}

// inputs reads the graphs to classify: a TU set (a zip, or files named
// like DS_A.txt) as one, and every other file by graphfile.ReadFile, the
// reader of `wkpi predict`. It returns where each graph came from.
func inputs(files []protocol.File) ([]origin, []*graph.Graph, error) {
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("no files to classify")
	}
	var tuFiles, single []protocol.File
	for _, f := range files {
		base := path.Base(f.Name)
		if strings.EqualFold(path.Ext(base), ".zip") || strings.HasSuffix(base, "_A.txt") ||
			strings.HasSuffix(base, "_graph_indicator.txt") || strings.HasSuffix(base, "_graph_labels.txt") ||
			strings.HasSuffix(base, "_node_labels.txt") || strings.HasSuffix(base, "_edge_labels.txt") {
			tuFiles = append(tuFiles, f)
		} else {
			single = append(single, f)
		}
	}
	var where []origin
	var graphs []*graph.Graph
	if len(tuFiles) > 0 {
		ds, err := Parse(tuFiles)
		if err != nil {
			return nil, nil, err
		}
		for i, g := range ds.Graphs {
			o := origin{file: ds.Name, index: i, truth: ds.Classes[ds.Labels[i]], where: fmt.Sprintf("graph %d", i)}
			if i < len(ds.Names) {
				o.name = ds.Names[i]
			}
			where = append(where, o)
			graphs = append(graphs, g)
		}
	}
	for _, f := range single {
		recs, err := records(f)
		if err != nil {
			return nil, nil, err
		}
		for i, r := range recs {
			where = append(where, origin{file: f.Name, index: i, name: r.Name, molecule: r.Molecule, where: r.Where})
			graphs = append(graphs, r.Graph)
		}
	}
	return where, graphs, nil
}

// records reads the graphs of one file with their names. A file with a
// record that cannot be read is refused as a whole, nothing of it
// classified: the error names the first bad records (up to three) by
// line and, for a SMILES, the character.
func records(f protocol.File) ([]graphfile.Record, error) {
	file, err := graphfile.ReadFile(f.Name, f.Data, graphfile.Options{})
	if err != nil {
		return nil, err
	}
	var bad []graphfile.Record
	for _, r := range file.Records {
		if r.Err != nil {
			bad = append(bad, r)
		}
	}
	if len(bad) > 0 {
		first := file.FirstError()
		if len(bad) == 1 || first.Error() != bad[0].Err.Error() {
			return nil, first // one bad record, or a format guessed: FirstError says which were tried
		}
		msgs := make([]string, 0, 3)
		for _, r := range bad[:min(3, len(bad))] {
			msgs = append(msgs, r.Err.Error())
		}
		if len(bad) > 3 {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(bad)-3))
		}
		return nil, fmt.Errorf("%s: %d of %d %s cannot be read, so none is classified: %s",
			f.Name, len(bad), len(file.Records), file.Format.Unit(), strings.Join(msgs, "; "))
	}
	if path.Base(f.Name) == protocol.TypedSMILES && file.Format == graphfile.FormatSMILES {
		nameBySMILES(f.Data, file.Records)
	}
	return file.Records, nil
}

// nameBySMILES names the records of typed SMILES lines that have no name
// (graphfile names them by their line: Name equals Where) by their
// SMILES, the first word of the line.
func nameBySMILES(data []byte, recs []graphfile.Record) {
	text := strings.ReplaceAll(strings.ReplaceAll(string(bytes.TrimPrefix(data, []byte("\uFEFF"))), "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(text, "\n")
	for i, r := range recs {
		if r.Name != r.Where || r.Index < 1 || r.Index > len(lines) {
			continue
		}
		if f := strings.Fields(lines[r.Index-1]); len(f) > 0 {
			recs[i].Name = f[0]
		}
	}
}

func indices(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}
