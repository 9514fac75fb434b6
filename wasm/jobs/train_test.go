package jobs

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"wkpi-web/core/crossval"
	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/model"
	"wkpi-web/core/pimage"
	"wkpi-web/core/scaffold"
	"wkpi-web/core/spec"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
	"wkpi-web/wasm/protocol"
)

// withDefaults spells out the filtration defaults that features.Default
// leaves at zero (Ricci idleness, the heat kernel time of an HKS, the min
// rule), as the settings give them.
func withDefaults(o filtration.Options) filtration.Options {
	if o.Alpha == 0 {
		o.Alpha = filtration.DefaultAlpha
	}
	if o.HKSTime == 0 && o.Kind == filtration.KindHKS {
		o.HKSTime = filtration.DefaultHKSTime
	}
	if o.Rule == "" {
		o.Rule = filtration.RuleMin
	}
	return o
}

// with is the page's defaults with some settings changed.
func with(change func(*spec.Spec)) protocol.Training {
	t := Defaults()
	change(&t.Spec)
	return t
}

func TestTrainingDefaults(t *testing.T) {
	// The defaults translate to what `wkpi eval` ran before the settings
	// spec: learn.DefaultOptions with m = 5, sigma = 0.01, C = 100, the
	// WKPI kernel and the SVM chosen in every fold; features.Default for
	// Ricci with HKS and degree; 10 folds with seed 1.
	// The objective is now named: tc, which "" meant.
	o := learn.DefaultOptions()
	o.M, o.Objective = 5, learn.ObjectiveTC
	want := eval.Config{Sigma: 0.01, C: 100, Learn: o, Variant: kernel.WKPI, SVM: eval.DefaultSVMGrid()}
	if !reflect.DeepEqual(eval.DefaultConfig(), want) {
		t.Errorf("eval.DefaultConfig() %+v, want %+v", eval.DefaultConfig(), want)
	}
	wantF := features.Default(filtration.KindRicci)
	wantF.Extra = features.DefaultExtra(filtration.KindRicci, false)
	wantF.Filtration = withDefaults(wantF.Filtration)
	for i := range wantF.Extra {
		wantF.Extra[i] = withDefaults(wantF.Extra[i])
	}
	for _, tc := range []struct {
		name string
		in   protocol.Training
	}{
		{"jobs.Defaults", Defaults()},
		{"spec.Defaults", protocol.Training{Spec: spec.Defaults()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, plan, err := config(&tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(u.Config, want) {
				t.Errorf("config %+v, want %+v", u.Config, want)
			}
			if !reflect.DeepEqual(u.Features, wantF) {
				t.Errorf("features %+v, want features.Default(ricci) with hks and degree %+v", u.Features, wantF)
			}
			if !reflect.DeepEqual(plan, eval.Plan{Folds: 10, Seed: 1}) {
				t.Errorf("plan %+v; want the 10 folds and seed 1 of wkpi eval", plan)
			}
			if u.Spec != tc.in.Spec || u.Spec.Protocol() != "auto" {
				t.Errorf("setup's spec %+v (protocol %q), want the job's, automatic", u.Spec, u.Spec.Protocol())
			}
		})
	}
	u, plan, err := config(&protocol.Training{Spec: with(func(s *spec.Spec) {
		s.Descriptor, s.Init, s.M, s.Sigma, s.C, s.Folds, s.Seed = "degree", "kmeans", 3, 2, 0.5, 4, 9
	}).Spec, Only: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	s, cfg := u.Features, u.Config
	if s.Filtration.Kind != "degree" || cfg.Learn.Init != "kmeans" || cfg.Learn.M != 3 || cfg.Sigma != 2 || cfg.C != 0.5 || cfg.Learn.Seed != 9 ||
		!reflect.DeepEqual(plan, eval.Plan{Folds: 4, Seed: 9, Only: []int{1}}) {
		t.Errorf("choices not kept: %+v %+v %+v", s.Filtration, cfg, plan)
	}
	neg := with(func(s *spec.Spec) { s.Sigma = -1 })
	if _, _, err := config(&neg); err == nil || !strings.Contains(err.Error(), `sigma: "-1": want a number > 0`) {
		t.Errorf("a negative sigma: error %v, want one naming sigma", err)
	}
	// The CLI's other settings reach features.Settings and eval.Config;
	// a prior of 0 is the paper's objective, not "the default".
	tr := with(func(s *spec.Spec) {
		s.Channels, s.Rows, s.Tau, s.Iterations, s.Prior, s.Contrast = "ord0+ext0+rel1+ext1", 20, 0.1, 7, 0, 0
	})
	if u, _, err = config(&tr); err != nil {
		t.Fatal(err)
	}
	s, cfg = u.Features, u.Config
	if !reflect.DeepEqual(s.Channels, []string{"ord0+ext0+rel1+ext1"}) || s.Rows != 20 || s.Tau != 0.1 || cfg.Learn.MaxIter != 7 ||
		cfg.Learn.Prior != 0 || cfg.Learn.Contrast != 0 {
		t.Errorf("settings not kept: %+v %+v", s, cfg.Learn)
	}
	// The descriptor set, size-aware images, objective and scales.
	tr = with(func(s *spec.Spec) { s.Extra, s.Raw, s.Objective, s.ChannelScales = "hks@0.5,degree", true, "cka", true })
	if u, _, err = config(&tr); err != nil {
		t.Fatal(err)
	}
	s, cfg = u.Features, u.Config
	if want := []filtration.Options{withDefaults(filtration.Options{Kind: filtration.KindHKS, HKSTime: 0.5}), withDefaults(filtration.Options{Kind: filtration.KindDegree})}; !reflect.DeepEqual(s.Extra, want) ||
		s.Normalize || cfg.Learn.Objective != learn.ObjectiveCKA || !cfg.Learn.Channels {
		t.Errorf("choices not kept: extra %+v, normalise %v, %+v", s.Extra, s.Normalize, cfg.Learn)
	}
	// The SVM's kernel and C: chosen in every fold unless fixed, as the
	// CLI's -svm-choice, -C and -gauss.
	if cfg.SVM == nil || !reflect.DeepEqual(cfg.SVM, eval.DefaultSVMGrid()) {
		t.Errorf("the SVM's kernel and C are not chosen by default: %+v", cfg.SVM)
	}
	tr = with(func(s *spec.Spec) { s.SVMChoice, s.Gauss, s.C = false, 1, 3 })
	if u, _, err = config(&tr); err != nil {
		t.Fatal(err)
	}
	if cfg = u.Config; cfg.SVM != nil || cfg.Gauss != 1 || cfg.C != 3 {
		t.Errorf("fixed SVM not kept: grid %+v, Gauss %g, C %g", cfg.SVM, cfg.Gauss, cfg.C)
	}
	// A bad value is refused with an error that names its field.
	for _, bad := range []struct {
		field  string
		change func(*spec.Spec)
	}{
		{"grid", func(s *spec.Spec) { s.Grid = "mine" }},
		{"select", func(s *spec.Spec) { s.Grid, s.Select = "paper", "best" }},
		{"tau", func(s *spec.Spec) { s.Tau = -1 }},
		{"prior", func(s *spec.Spec) { s.Prior = -0.5 }},
		{"extra", func(s *spec.Spec) { s.Extra = "curvature" }},
		{"objective", func(s *spec.Spec) { s.Objective = "margin" }},
		{"gauss", func(s *spec.Spec) { s.SVMChoice, s.Gauss = false, -1 }},
		{"folds", func(s *spec.Spec) { s.Folds = 1 }},
	} {
		tr := with(bad.change)
		_, _, err := config(&tr)
		var errs spec.Errors
		if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Field != bad.field || !strings.HasPrefix(err.Error(), bad.field+": ") {
			t.Errorf("bad %s: error %v, want one naming %s", bad.field, err, bad.field)
		}
	}
	if _, _, err := config(nil); err == nil {
		t.Error("no settings were accepted")
	}
	// The page's two presets: eval's defaults in full, and the paper's.
	d, p := Defaults(), protocol.Training{Spec: spec.Paper()}
	f := features.Default(filtration.KindRicci)
	if d.Rows != f.Rows || d.Channels != strings.Join(f.Channels, ",") || d.Prior != want.Learn.Prior || d.Contrast != want.Learn.Contrast || d.Iterations != want.Learn.MaxIter {
		t.Errorf("defaults %+v are not features.Default and eval.DefaultConfig", d)
	}
	if o := learn.DefaultOptions(); p.M != o.M || p.Prior != 0 || p.Contrast != 0 || p.Grid != "paper" || p.Select != "" || p.Inner != 10 || p.Auto || p.Protocol() != "nested" {
		t.Errorf("paper settings %+v", p)
	}
	// The default descriptor set is Ricci + HKS + degree, as `wkpi eval`;
	// the paper's preset uses the descriptor alone, and so does the
	// node-label mode.
	for _, tc := range []struct {
		name string
		t    protocol.Training
		want string
	}{{"defaults", d, "hks,degree"}, {"paper", p, ""}, {"labels", with(func(s *spec.Spec) { s.Labels = true }), ""}} {
		u, _, err := config(&tc.t)
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, o := range u.Features.Extra {
			kinds = append(kinds, string(o.Kind))
		}
		if got := strings.Join(kinds, ","); got != tc.want {
			t.Errorf("%s: extra descriptors %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestFoldJobsMergeToOneCV runs a CV as the page does, jobs of
// interleaved folds on one worker (features computed once), merges the
// parts with a MergeCV job and compares with the same CV run in one call
// on features computed apart, and the job's paired test with
// crossval.Compare on that CV's folds. Each job also hands over its folds
// one by one as they finish: the same folds, in order, as its Done part.
func TestFoldJobsMergeToOneCV(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		t.Run(fmt.Sprintf("fixed=%v", fixed), func(t *testing.T) { foldJobsMergeToOneCV(t, fixed, false) })
	}
	t.Run("scores apart", func(t *testing.T) { foldJobsMergeToOneCV(t, false, true) })
}

// foldJobsMergeToOneCV: the page's default (the automatic choice of
// images, eval.CrossValidateChosen) or fixed unit images (CrossValidate);
// with apart, the choice's candidates measured by ChoiceScores jobs of
// other workers first, as the page runs them.
func foldJobsMergeToOneCV(t *testing.T, fixed, apart bool) {
	mutag := files(t, "../../data/MUTAG")
	tr := with(func(s *spec.Spec) { s.M, s.Folds, s.Seed, s.Auto = 3, 3, 4, !fixed })
	var w Worker
	ctx := context.Background()
	if apart {
		for c := range 2 {
			var other Worker
			job := tr
			job.Candidate = c
			r := other.Run(ctx, protocol.Request{Kind: protocol.ChoiceScores, Dataset: "m", Files: mutag, Training: &job}, nil, nil)
			if r.Event != protocol.Done || len(r.Scores) != tr.Folds+1 {
				t.Fatalf("candidate %d's scores: %s %v", c, r.Error, r.Scores)
			}
			tr.ChoiceScores = append(tr.ChoiceScores, r.Scores)
		}
		// The fold jobs choose by the scores given: swapped, the
		// size-aware images win.
		swapped := tr
		swapped.ChoiceScores = [][][]float64{tr.ChoiceScores[1], tr.ChoiceScores[0]}
		var w Worker
		r := w.Run(ctx, protocol.Request{Kind: protocol.CrossValidate, Dataset: "m", Files: mutag, Training: &swapped}, nil, nil)
		if r.Event != protocol.Done {
			t.Fatal(r.Error)
		}
		for _, f := range r.CV.Report.Folds {
			if f.Candidate != 1 {
				t.Errorf("swapped scores: fold %d chose candidate %d", f.Index, f.Candidate)
			}
		}
	}
	var parts []protocol.CVPart
	for i, only := range [][]int{{1}, {0, 2}} { // the later job holds the lower fold
		part := tr
		part.Only, part.Final = only, i == 1
		req := protocol.Request{Kind: protocol.CrossValidate, Dataset: "m", Training: &part}
		if i == 0 {
			req.Files = mutag
		}
		var early []protocol.Fold
		r := w.Run(ctx, req, nil, func(f protocol.Fold) { early = append(early, f) })
		if r.Event != protocol.Done {
			t.Fatalf("folds %v: %s", only, r.Error)
		}
		if !reflect.DeepEqual(early, r.CV.Report.Folds) {
			t.Errorf("folds %v: handed over one by one %+v, in the part %+v", only, early, r.CV.Report.Folds)
		}
		if len(r.CV.Report.Folds) != len(only) || r.CV.Report.Folds[0].Index != only[0] || r.CV.Classes != 2 {
			t.Fatalf("folds %v part: %+v", only, r.CV.Report.Folds)
		}
		// The job with the final model answers as a Train job does too.
		if (r.Model != nil) != part.Final || part.Final && (r.Info == nil || r.Info.Dataset != "MUTAG" || len(r.Arrays["before"]) == 0) {
			t.Errorf("folds %v (final model %v): model %d bytes, info %+v", only, part.Final, len(r.Model), r.Info)
		}
		parts = append(parts, *r.CV)
	}
	// The parts cross postMessage to the page and back to a worker.
	merge := protocol.Request{ID: 9, Kind: protocol.MergeCV, Parts: parts}
	env, err := merge.Envelope()
	if err != nil {
		t.Fatal(err)
	}
	if merge, err = protocol.DecodeRequest(env); err != nil {
		t.Fatal(err)
	}
	var fresh Worker // holds no dataset: the merge needs none
	r := fresh.Run(ctx, merge, nil, nil)
	if r.Event != protocol.Done || r.Merged == nil {
		t.Fatalf("merge: %+v", r)
	}
	got := r.Merged.Report

	d := Defaults()
	ds, e, _ := mutagWKPI(t, &d)
	cfg := eval.DefaultConfig()
	cfg.Learn.M, cfg.Learn.Seed = 3, 4
	plan := eval.Plan{Folds: 3, Seed: 4}
	want, err := e.CrossValidate(ctx, cfg, plan, nil)
	if !fixed {
		sized, err := eval.SizeAware(e, cfg)
		if err != nil {
			t.Fatal(err)
		}
		want, err = eval.CrossValidateChosen(ctx, []eval.Candidate{{W: e, Config: cfg}, sized}, plan, eval.ChoiceOptions{}, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	if got.Protocol != want.Protocol {
		t.Errorf("protocol %q, want %q", got.Protocol, want.Protocol)
	}
	if !reflect.DeepEqual(parts[0].Labels, ds.Labels) {
		t.Fatal("the part's labels are not the dataset's")
	}
	for _, side := range []struct {
		name      string
		got, want protocol.Result
	}{{"learned", got.Learned, resultOf(want.Learned)}, {"baseline", got.Baseline, resultOf(want.Baseline)}} {
		if side.got.Accuracy != side.want.Accuracy || side.got.Std != side.want.Std || !reflect.DeepEqual(side.got.PerFold, side.want.PerFold) ||
			!reflect.DeepEqual(side.got.Confusion, side.want.Confusion) || !reflect.DeepEqual(side.got.Predictions, side.want.Predictions) {
			t.Errorf("%s: merged fold jobs %+v, one CV %+v", side.name, side.got, side.want)
		}
		// The ROC-AUC survives the trip through the page's types.
		if g, w := side.got.ROCAUC.Mean, side.want.ROCAUC.Mean; g == nil || w == nil || math.Abs(*g-*w) > 1e-12 {
			t.Errorf("%s: merged ROC-AUC %v, one CV's %v", side.name, g, w)
		}
	}
	if len(got.Folds) != len(want.Folds) {
		t.Fatalf("%d merged folds, want %d", len(got.Folds), len(want.Folds))
	}
	var learned, initial []float64
	for f := range want.Folds {
		if got.Folds[f].Index != f || !reflect.DeepEqual(got.Folds[f].Trace.Cost, want.Folds[f].Trace.Cost) || got.Folds[f].Candidate != want.Folds[f].Candidate ||
			got.Folds[f].Config.Learn.M != want.Folds[f].Config.Learn.M || got.Folds[f].Config.C != want.Folds[f].Config.C {
			t.Errorf("fold %d: index, cost curve, chosen images or setting differ", f)
		}
		learned, initial = append(learned, want.Folds[f].Accuracy), append(initial, want.Folds[f].Baseline)
	}
	// The test is `wkpi compare`'s pairing of the one CV's folds.
	p, err := crossval.Compare(learned, initial)
	if err != nil {
		t.Fatal(err)
	}
	mean, std := stat.MeanStdDev(p.Differences, nil)
	test := r.Merged.Test
	if !reflect.DeepEqual(test.Differences, p.Differences) || test.TP != p.TP || test.WilcoxonP != p.WilcoxonP ||
		math.Abs(test.Mean-mean) > 1e-15 || math.Abs(test.Std-std) > 1e-15 {
		t.Errorf("paired test %+v, want %+v (mean %v, std %v)", test, p, mean, std)
	}
}

// mutagWKPI computes MUTAG's features under the page's settings tr, as a
// worker would, apart from any worker.
func mutagWKPI(t *testing.T, tr *protocol.Training) (*graph.Dataset, *eval.WKPI, eval.Config) {
	t.Helper()
	ds, err := tu.Read("../../data/MUTAG")
	if err != nil {
		t.Fatal(err)
	}
	u, _, err := config(tr)
	if err != nil {
		t.Fatal(err)
	}
	cfg := u.Config
	set, err := features.Compute(context.Background(), ds, u.Features, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := eval.NewWKPI(set, ds.Labels, 2)
	if err != nil {
		t.Fatal(err)
	}
	return ds, e, cfg
}

// TestTrainInspectPredict trains on MUTAG in a worker, then checks the
// model against an independent reading of it and the predictions against
// model.Predict on graphs parsed apart.
func TestTrainInspectPredict(t *testing.T) {
	var w Worker
	ctx := context.Background()
	tr := &protocol.Training{Spec: spec.Defaults()}
	tr.M = 3
	r := w.Run(ctx, protocol.Request{Kind: protocol.Train, Dataset: "m", Files: files(t, "../../data/MUTAG"), Training: tr}, nil, nil)
	if r.Event != protocol.Done {
		t.Fatal(r.Error)
	}
	m, err := model.Load(bytes.NewReader(r.Model))
	if err != nil {
		t.Fatalf("the trained model does not load: %v", err)
	}
	info := r.Info
	if info.Dataset != "MUTAG" || !reflect.DeepEqual(info.Classes, []string{"-1", "1"}) || info.M != 3 ||
		info.Descriptor != "ricci" || info.Support != len(m.Support) || len(info.Cost) < 2 || info.Raw != !m.Features.Normalize {
		t.Errorf("info %+v", info)
	}
	// The automatic choice trains what eval.TrainChosen trains.
	ds, e, cfg := mutagWKPI(t, tr)
	sized, err := eval.SizeAware(e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	chosen, _, err := eval.TrainChosen(ctx, []eval.Candidate{{W: e, Config: cfg}, sized}, ds.Name, ds.Classes, eval.ChoiceOptions{Seed: cfg.Learn.Seed}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Weight, chosen.Weight) || m.Features.Normalize != chosen.Features.Normalize || m.Sigma != chosen.Sigma {
		t.Errorf("the Train job's model (normalised %v, sigma %g) is not eval.TrainChosen's (%v, %g)", m.Features.Normalize, m.Sigma, chosen.Features.Normalize, chosen.Sigma)
	}
	g := info.Grid
	for _, name := range []string{"before", "after"} {
		if len(r.Arrays[name]) != g.Rows*g.Cols {
			t.Fatalf("%s heat map has %d values for a %dx%d grid", name, len(r.Arrays[name]), g.Rows, g.Cols)
		}
	}
	// Oracle for the heat map: the mixture's formula at the pixel centres.
	for _, k := range []int{0, g.Cols + 3, g.Rows*g.Cols - 1} {
		x := g.MinX + (float64(k%g.Cols)+0.5)*g.Pixel
		y := g.MinY + (float64(k/g.Cols)+0.5)*g.Pixel
		var want float64
		for c := range m.Weight.W {
			dx, dy := x-m.Weight.X[c], y-m.Weight.Y[c]
			want += m.Weight.W[c] * math.Exp(-(dx*dx+dy*dy)/(m.Weight.Sigma[c]*m.Weight.Sigma[c]))
		}
		if got := r.Arrays["after"][k]; math.Abs(got-want) > 1e-12*math.Max(1, want) {
			t.Errorf("after[%d] = %g, formula %g", k, got, want)
		}
	}

	// The centres are the mixtures', learned and (Train only) initial.
	if len(r.Info.Centres) != m.Weight.Len() || len(r.Info.Before) != m.Weight.Len() {
		t.Fatalf("%d centres after and %d before, want %d", len(r.Info.Centres), len(r.Info.Before), m.Weight.Len())
	}
	for c, xy := range r.Info.Centres {
		if xy != [2]float64{m.Weight.X[c], m.Weight.Y[c]} {
			t.Errorf("centre %d = %v, the model's is (%g, %g)", c, xy, m.Weight.X[c], m.Weight.Y[c])
		}
	}
	if r.Info.Iterations != m.Trace.Iterations || r.Info.Converged != m.Trace.Converged {
		t.Errorf("stop: %d iterations, converged %v; the model's trace: %d, %v", r.Info.Iterations, r.Info.Converged, m.Trace.Iterations, m.Trace.Converged)
	}
	ins := w.Run(ctx, protocol.Request{Kind: protocol.Inspect, Model: r.Model}, nil, nil)
	trained := *r.Info
	trained.Before = nil // only a training knows the initial mixture
	if ins.Event != protocol.Done || !reflect.DeepEqual(ins.Info, &trained) || !reflect.DeepEqual(ins.Arrays["after"], r.Arrays["after"]) {
		t.Errorf("inspecting the saved model differs from the trained one: %s", ins.Error)
	}

	var inputs []protocol.File
	var want []model.Prediction
	for _, name := range []string{"nitrobenzene.mol", "bowtie.edges"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, protocol.File{Name: name, Data: data})
		gs, err := graphfile.Parse(name, data)
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.Predict(ctx, gs)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, p...)
	}
	inputs = append(inputs, files(t, "testdata")...) // STAR, a TU set of 2 graphs
	p := w.Run(ctx, protocol.Request{Kind: protocol.Predict, Model: r.Model, Inputs: inputs}, nil, nil)
	if p.Event != protocol.Done {
		t.Fatal(p.Error)
	}
	if len(p.Graphs) != 4 {
		t.Fatalf("%d predictions for 4 graphs", len(p.Graphs))
	}
	// The TU set comes first, then the single files in order.
	for i, tc := range []struct {
		file         string
		index, nodes int
	}{{"STAR", 0, 4}, {"STAR", 1, 3}, {"nitrobenzene.mol", 0, 9}, {"bowtie.edges", 0, 6}} {
		if g := p.Graphs[i]; g.File != tc.file || g.Index != tc.index || g.Nodes != tc.nodes {
			t.Errorf("graph %d: %s #%d with %d nodes, want %s #%d with %d", i, g.File, g.Index, g.Nodes, tc.file, tc.index, tc.nodes)
		}
	}
	// The TU set's graphs carry their own labels, the single files none.
	for i, truth := range []string{"a", "b", "", ""} {
		if p.Graphs[i].Truth != truth {
			t.Errorf("graph %d: truth %q, want %q (the TU set's label file)", i, p.Graphs[i].Truth, truth)
		}
	}
	for i, wp := range want {
		g := p.Graphs[2+i]
		if g.Label != wp.Label || !reflect.DeepEqual(g.Decision, wp.Decision) || !reflect.DeepEqual(g.Points, wp.Points) {
			t.Errorf("%s: worker says %s %v, model.Predict %s %v", g.File, g.Label, g.Decision, wp.Label, wp.Decision)
		}
	}

	for _, tc := range []struct {
		name string
		req  protocol.Request
		want []string
	}{
		{"corrupt model", protocol.Request{Kind: protocol.Inspect, Model: r.Model[:len(r.Model)/2]}, []string{"not a usable WKPI model"}},
		{"not a model", protocol.Request{Kind: protocol.Predict, Model: []byte(`{"format":"other"}`), Inputs: inputs}, []string{"not a usable WKPI model"}},
		{"malformed graph file", protocol.Request{Kind: protocol.Predict, Model: r.Model,
			Inputs: []protocol.File{{Name: "ok.edges", Data: []byte("1 2\n")}, {Name: "bad.edges", Data: []byte("1 2\n2 3 x y\n")}}}, []string{"bad.edges", "line 2"}},
		{"no files", protocol.Request{Kind: protocol.Predict, Model: r.Model}, []string{"no files"}},
	} {
		got := w.Run(ctx, tc.req, nil, nil)
		for _, s := range tc.want {
			if got.Event != protocol.Failed || !strings.Contains(got.Error, s) {
				t.Errorf("%s: %q, want an error containing %q", tc.name, got.Error, s)
			}
		}
	}
}

func TestHeatMapLayout(t *testing.T) {
	// One component at the centre of pixel (row 1, col 2): the maximum
	// must be there, in row-major order from the bottom row.
	g := pimage.Grid{MinX: 0, MinY: 0, Pixel: 1, Rows: 3, Cols: 4}
	h := HeatMap(kernel.Mixture{X: []float64{2.5}, Y: []float64{1.5}, Sigma: []float64{0.5}, W: []float64{2}}, g)
	best := 0
	for k := range h {
		if h[k] > h[best] {
			best = k
		}
	}
	if len(h) != 12 || best != 1*4+2 || h[best] != 2 {
		t.Fatalf("heat map %v: maximum at %d", h, best)
	}
}

// TestScaffoldSplitJob: a CrossValidate job with split scaffold keeps
// every scaffold of MUTAG (its codes named by the README sent with the
// files) in one test fold; without the README the job fails, saying what
// the split needs.
func TestScaffoldSplitJob(t *testing.T) {
	mutag := files(t, "../../data/MUTAG")
	readme, err := os.ReadFile("../../data/MUTAG/README.txt")
	if err != nil {
		t.Fatal(err)
	}
	tr := with(func(s *spec.Spec) {
		s.Split, s.Folds, s.Extra, s.Auto, s.SVMChoice, s.Iterations = spec.SplitScaffold, 4, spec.NoExtra, false, false, 20
	})
	var w Worker
	ctx := context.Background()
	r := w.Run(ctx, protocol.Request{Kind: protocol.CrossValidate, Dataset: "m", Training: &tr,
		Files: append(slices.Clone(mutag), protocol.File{Name: "README.txt", Data: readme})}, nil, nil)
	if r.Event != protocol.Done {
		t.Fatalf("job: %s", r.Error)
	}
	// The scaffolds, from the README's tables apart from the worker.
	ds, err := tu.Read("../../data/MUTAG")
	if err != nil {
		t.Fatal(err)
	}
	nodes, edges, err := tu.ReadLabelNames("../../data/MUTAG")
	if err != nil {
		t.Fatal(err)
	}
	named := make([]*graph.Graph, len(ds.Graphs))
	for i, g := range ds.Graphs {
		h := *g
		h.NodeLabels, h.EdgeLabels = make([]string, g.N), make([]string, len(g.Edges))
		for v, l := range g.NodeLabels {
			h.NodeLabels[v] = nodes[l]
		}
		for e, l := range g.EdgeLabels {
			h.EdgeLabels[e] = edges[l]
		}
		named[i] = &h
	}
	groups, _, err := scaffold.Groups(named)
	if err != nil {
		t.Fatal(err)
	}
	foldOf := map[int]int{}
	tested := 0
	for _, f := range r.CV.Report.Folds {
		for _, i := range f.Test {
			if prev, seen := foldOf[groups[i]]; seen && prev != f.Index {
				t.Fatalf("scaffold %d tested in folds %d and %d", groups[i], prev, f.Index)
			}
			foldOf[groups[i]] = f.Index
			tested++
		}
	}
	if tested != len(ds.Graphs) || len(r.CV.Report.Folds) != 4 {
		t.Fatalf("%d folds test %d graphs", len(r.CV.Report.Folds), tested)
	}
	var bare Worker
	r = bare.Run(ctx, protocol.Request{Kind: protocol.CrossValidate, Dataset: "m", Training: &tr, Files: mutag}, nil, nil)
	if r.Event != protocol.Failed || !strings.HasPrefix(r.Error, "split scaffold needs molecules with element symbols as node labels") {
		t.Fatalf("without the README: %s %q", r.Event, r.Error)
	}
}

// TestMoleculesPresetAsCLI: with the molecules preset on MUTAG (its
// README sent with the files, as the demo does), a worker's CV gives
// `wkpi eval`'s out-of-fold predictions and scores, and its Train job
// `wkpi train`'s model, to the last digit. The CLI takes the molecules
// preset by itself (no -preset) and reads the README's node and edge
// tables; the worker must read them as it does. Without the README the
// job fails, naming the label that is no element and the README. Without
// the README, MUTAG's atoms are bare codes: the worker's Load reports
// them as atom types, and the Train tab's atom-types mode
// (spec.AtomTypes of those types) gives what `wkpi eval -preset
// molecules` gives on the same folder.
func TestMoleculesPresetAsCLI(t *testing.T) {
	const dir = "../../data/MUTAG"
	readme, err := os.ReadFile(filepath.Join(dir, "README.txt"))
	if err != nil {
		t.Fatal(err)
	}
	bare := t.TempDir() // MUTAG without its README
	for _, f := range files(t, dir) {
		if err := os.WriteFile(filepath.Join(bare, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	var load Worker
	loaded := load.Run(ctx, protocol.Request{Kind: protocol.Load, Dataset: "m", Files: files(t, bare)}, nil, nil)
	if loaded.Event != protocol.Done || loaded.Summary.Molecules || len(loaded.Summary.AtomTypes) == 0 {
		t.Fatalf("MUTAG without its README: %s %q, summary %+v; want atom types", loaded.Event, loaded.Error, loaded.Summary)
	}
	for _, tc := range []struct {
		name  string
		dir   string
		files []protocol.File
		spec  spec.Spec
		flags []string // what `wkpi eval` and `wkpi train` need besides -data, -seed 4 and -m 3
		mode  string
		codes bool // the model keeps the README's code tables
	}{
		{"molecules", dir, append(files(t, dir), protocol.File{Name: "README.txt", Data: readme}), spec.Molecules(), nil, features.ModeMoleculesLabels, true},
		{"atom types", bare, files(t, bare), spec.AtomTypes(loaded.Summary.AtomTypes), []string{"-preset", "molecules"}, features.ModeAtomTypesLabels, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The preset with a smaller mixture and three folds to keep
			// the test short (both presets fix unit images).
			tr := protocol.Training{Spec: tc.spec}
			tr.Folds, tr.Seed, tr.M = 3, 4, 3
			checkAsCLI(t, tc.files, tr, append([]string{"-data", tc.dir, "-seed", "4", "-m", "3"}, tc.flags...), tc.mode, tc.codes)
		})
	}

	tr := protocol.Training{Spec: spec.Molecules()}
	tr.Folds, tr.Seed, tr.M = 3, 4, 3
	var w Worker
	r := w.Run(ctx, protocol.Request{Kind: protocol.CrossValidate, Dataset: "m", Files: files(t, dir), Training: &tr}, nil, nil)
	if r.Event != protocol.Failed || !strings.Contains(r.Error, `node 0 is labelled "0"`) || !strings.Contains(r.Error, "README.txt") {
		t.Errorf("the molecules preset without the README: %s %q, want an error naming node 0's label and the README", r.Event, r.Error)
	}
}

// checkAsCLI runs a worker's CV and Train jobs of tr on data and `wkpi
// eval -folds 3 -predictions` and `wkpi train` with flags, and checks
// that they agree to the last digit: every graph's fold, predictions and
// scores, learned and unlearned, and the final model, whose mode is mode
// and which keeps the README's code tables when codes is set.
func checkAsCLI(t *testing.T, data []protocol.File, tr protocol.Training, flags []string, mode string, codes bool) {
	ctx := context.Background()
	var w Worker
	cv := w.Run(ctx, protocol.Request{Kind: protocol.CrossValidate, Dataset: "m", Files: data, Training: &tr}, nil, nil)
	if cv.Event != protocol.Done {
		t.Fatalf("CV: %s", cv.Error)
	}
	// The model on a fresh worker: one that ran the CV keeps its pair
	// tables and learns from them, summing in another order (the weights
	// then agree to about 1e-11, not to the last digit).
	var fresh Worker
	trained := fresh.Run(ctx, protocol.Request{Kind: protocol.Train, Dataset: "m", Files: data, Training: &tr}, nil, nil)
	if trained.Event != protocol.Done {
		t.Fatalf("train: %s", trained.Error)
	}
	if trained.Info.Mode != mode {
		t.Errorf("the model's mode is %q, want %q", trained.Info.Mode, mode)
	}

	bin := testenv.BuildWkpi(t)
	tmp := t.TempDir()
	predictions, modelFile := filepath.Join(tmp, "predictions.csv"), filepath.Join(tmp, "model.json")
	for _, args := range [][]string{
		append([]string{"eval", "-folds", "3", "-predictions", predictions}, flags...),
		append([]string{"train", "-out", modelFile}, flags...),
	} {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("wkpi %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}

	// The CV: each graph's fold, classes and scores as `wkpi eval
	// -predictions` writes them (the score of class 1 of the two).
	written, err := os.ReadFile(predictions)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(written)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	classes := []string{"-1", "1"}
	got := map[string][]string{}
	for _, f := range cv.CV.Report.Folds {
		for k, i := range f.Test {
			got[fmt.Sprint(i)] = []string{fmt.Sprint(f.Index), classes[f.Predicted[k]], strconv.FormatFloat(f.Scores[k][1], 'g', -1, 64),
				classes[f.BaselinePredicted[k]], strconv.FormatFloat(f.BaselineScores[k][1], 'g', -1, 64)}
		}
	}
	if len(rows) != 189 || len(got) != 188 {
		t.Fatalf("wkpi eval wrote %d rows, the worker's folds test %d graphs; want 1 + 188, 188", len(rows), len(got))
	}
	for _, row := range rows[1:] { // index,name,fold,true,predicted,score,baseline_predicted,baseline_score
		want := []string{row[2], row[4], row[5], row[6], row[7]}
		if g := got[row[0]]; !reflect.DeepEqual(g, want) {
			t.Errorf("graph %s: the worker's fold, prediction, score, baseline's: %q; wkpi eval's %q", row[0], g, want)
		}
	}

	// The final model.
	cli, err := os.Open(modelFile)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	want, err := model.Load(cli)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Load(bytes.NewReader(trained.Model))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Weight, want.Weight) || m.Sigma != want.Sigma || m.C != want.C || !reflect.DeepEqual(m.Features, want.Features) {
		t.Errorf("the worker's model (sigma %g, C %g, features %+v) is not wkpi train's (%g, %g, %+v)", m.Sigma, m.C, m.Features, want.Sigma, want.C, want.Features)
	}
	if has := m.Features.Codes != nil && m.Features.Codes.Nodes["0"] == "C" && m.Features.Codes.Edges["0"] == "aromatic"; has != codes {
		t.Errorf("the model's code tables %+v: want MUTAG's README's (node 0 is C, edge 0 aromatic) %v", m.Features.Codes, codes)
	}
}

// update rewrites the golden files of TestCVProtocolsUnchanged.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/protocols")

// TestCVProtocolsUnchanged: a worker's cross-validation under every
// protocol, in structure-only and node-label mode, whole or as two fold
// jobs on one worker, gives number for number what it gave when the
// golden files were written (before the protocols went through
// eval.Run), on core/eval/testdata/MUTAG38 with small settings.
func TestCVProtocolsUnchanged(t *testing.T) {
	data := files(t, "../../core/eval/testdata/MUTAG38")
	for _, tc := range []struct {
		name   string
		change func(*spec.Spec)
		jobs   [][]int // the fold jobs; nil: one job of every fold
	}{
		{"fixed", func(s *spec.Spec) { s.Auto = false }, nil},
		{"auto", func(s *spec.Spec) {}, nil},
		{"auto-jobs", func(s *spec.Spec) {}, [][]int{{1}, {0, 2}}},
		{"nested", func(s *spec.Spec) { s.Grid, s.Inner = "m=2,3;sigma=0.01,0.1;C=1,100", 2 }, nil},
		{"cost", func(s *spec.Spec) { s.Grid, s.Select = "m=2,3;sigma=0.01,0.1;C=1,100", spec.SelectCost }, nil},
		{"labels-fixed", func(s *spec.Spec) { s.Labels, s.Auto = true, false }, nil},
		{"labels-fixed-jobs", func(s *spec.Spec) { s.Labels, s.Auto = true, false }, [][]int{{1}, {0, 2}}},
		{"labels-nested", func(s *spec.Spec) { s.Labels, s.Grid, s.Inner = true, "m=2,3;sigma=0.01;C=1,100", 2 }, nil},
		{"labels-cost", func(s *spec.Spec) { s.Labels, s.Grid, s.Select = true, "m=2,3;sigma=0.01;C=1,100", spec.SelectCost }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := with(func(s *spec.Spec) {
				s.Folds, s.Extra, s.Rows, s.M, s.Iterations = 3, spec.NoExtra, 10, 3, 30
				tc.change(s)
			})
			jobs := tc.jobs
			if jobs == nil {
				jobs = [][]int{nil}
			}
			var w Worker
			var parts []*protocol.CVPart
			for i, only := range jobs {
				job := tr
				job.Only = only
				req := protocol.Request{Kind: protocol.CrossValidate, Dataset: "m", Training: &job}
				if i == 0 {
					req.Files = data
				}
				r := w.Run(context.Background(), req, nil, nil)
				if r.Event != protocol.Done {
					t.Fatalf("folds %v: %s", only, r.Error)
				}
				cv := r.CV
				cv.Report.Seconds, cv.Report.Learned.Seconds, cv.Report.Baseline.Seconds = 0, 0, 0
				parts = append(parts, cv)
			}
			got, err := json.MarshalIndent(parts, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			testenv.Golden(t, filepath.Join("testdata", "protocols", tc.name+".golden"), got, *update)
		})
	}
}

// TestFeatureCacheVocabularies: features that differ in their node-label
// vocabulary alone (the folds of a CV) are computed once each however the
// folds alternate between them, so that the folds of one vocabulary share
// one feature set and its passes; features of other settings let them go.
func TestFeatureCacheVocabularies(t *testing.T) {
	var w Worker
	ctx := context.Background()
	if r := w.Run(ctx, protocol.Request{Kind: protocol.Load, Dataset: "m", Files: files(t, "../../data/MUTAG")}, nil, nil); r.Event != protocol.Done {
		t.Fatal(r.Error)
	}
	tr := with(func(s *spec.Spec) { s.Labels = true })
	u, _, err := w.setup(&tr)
	if err != nil {
		t.Fatal(err)
	}
	a, err := u.FeaturesFor(w.ds.Graphs, nil, w.codes)
	if err != nil {
		t.Fatal(err)
	}
	b := a
	labels := *a.Labels
	labels.Vocabulary = labels.Vocabulary[:len(labels.Vocabulary)-1]
	b.Labels = &labels
	other := a
	other.Rows++
	computed := 0
	report := func(stage string, done, total int) {
		if stage == "diagrams" && done == total {
			computed++
		}
	}
	get := func(s features.Settings) *eval.WKPI {
		t.Helper()
		e, err := w.wkpi(ctx, w.ds, s, report)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	wa := get(a)
	wb := get(b)
	if again := get(a); again != wa || wb == wa || computed != 2 {
		t.Errorf("vocabularies A, B, A: computed %d times, A's the same: %v; want 2 and true", computed, again == wa)
	}
	// A later job that takes A alone plans A alone, though B is held.
	w.job++
	if get(a); len(w.feats) != 2 || !slices.Equal(w.featureSets(), []*eval.WKPI{wa}) {
		t.Errorf("next job taking A: %d sets held, %d planned; want 2 and A alone", len(w.feats), len(w.featureSets()))
	}
	if get(other); computed != 3 {
		t.Errorf("other settings: computed %d times in all, want 3", computed)
	}
	if get(a); computed != 4 {
		t.Errorf("A after other settings: computed %d times in all, want 4 (let go)", computed)
	}
}
