package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"text/tabwriter"

	"wkpi-web/core/crossval"
	"wkpi-web/core/eval"
	"wkpi-web/core/graph"
	"wkpi-web/core/model"
	"wkpi-web/core/progress"
	"wkpi-web/core/spec"
)

// evalOwn are the flags of `wkpi eval` beyond the settings.
type evalOwn struct {
	shard       string // -shard i/N
	predictions string // -predictions FILE.csv
	model       string // -model FILE.json
}

// evalFlags registers the flags of `wkpi eval`: every setting, -shard
// and -predictions. slurm checks its eval flags with the same
// registration.
func evalFlags(stderr io.Writer) (*settingsFlags, *evalOwn) {
	c := newSettingsFlags("eval", stderr, spec.Groups())
	var own evalOwn
	c.own(spec.GroupOutput, func(fs *flag.FlagSet) {
		fs.StringVar(&own.predictions, "predictions", "", "write the out-of-fold predictions to this CSV file: index,name,fold,true,predicted,score (and the unlearned SVM's), one row per graph")
		fs.StringVar(&own.model, "model", "", "then train a model on every graph with these settings, as wkpi train does, and write it to this file with the cross-validation's accuracy kept in it (the page's Models tab shows it after an import)")
	})
	c.own(spec.GroupScale, func(fs *flag.FlagSet) {
		fs.StringVar(&own.shard, "shard", "", "run share i/N of the jobs (repeat x outer fold) and write it to -out, for wkpi merge")
	})
	c.examples = []string{
		"wkpi eval -data data/MUTAG                              # the defaults",
		"wkpi eval -data data/MUTAG -preset paper                # the paper's protocol: nested CV over its grid",
		"wkpi eval -data data/NCI1 -gauss 1 -C 10                # fix the SVM",
		"wkpi eval -data data/PTC_MR -labels                     # node labels (atom types) join the structure",
		"wkpi eval -data data/MUTAG -extra none -auto=false -svm-choice=false   # one descriptor, unit images, WKPI kernel, C 100",
		"wkpi eval -data data/MUTAG -split scaffold             # each molecular scaffold whole in one fold",
		"wkpi eval -data mols.csv -model mols.json               # then a model that keeps this CV's accuracy",
	}
	return c, &own
}

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	c, own := evalFlags(stderr)
	u, ds, err := parseDataset(c, args)
	if err != nil {
		return err
	}
	if err := c.profiles.start(); err != nil {
		return err
	}
	defer c.profiles.stop(&err)
	shard, err := shardFor(own.shard, c.out)
	if err != nil {
		return err
	}
	if own.model != "" && shard != nil {
		return fmt.Errorf("-model does not combine with -shard: wkpi train trains the model")
	}
	if own.predictions != "" && shard != nil && shard.Count > 1 {
		return fmt.Errorf("-predictions does not combine with -shard: wkpi merge -predictions writes them from the parts")
	}
	groups, err := c.groups(u, ds, stdout)
	if err != nil {
		return err
	}
	// The job's stages, planned again once the images say whether the
	// pair table fits; a shard's are not known.
	kind := eval.FoldsJob | eval.ChoiceJob
	if own.model != "" {
		kind |= eval.FinalJob // the model in the first repeat's passes
	}
	var tracker *progress.Tracker
	if shard == nil {
		tracker = trackerFor(u.Work(ds.Graphs, 0, kind, nil))
	}
	prog := progressFor(c.progress, stderr, tracker)
	// The folds' passes began: later features are the final model's.
	var passes atomic.Bool
	if tracker != nil && prog != nil {
		report := prog
		prog = func(stage string, done, total int) {
			if stage != "diagrams" && stage != "images" {
				passes.Store(true)
			}
			report(stage, done, total)
		}
	}
	// The size-aware candidate of the automatic choice, built on the
	// first run that needs it and kept for the next repeats; with one
	// repeat it is not kept, so that its images (NCI1: 0.3 GB) go once no
	// fold chose them.
	var sizeAware func(*eval.WKPI, eval.Config) (eval.Candidate, error)
	if u.Spec.Repeats > 1 {
		sizeAware = keepSizeAware()
	}
	p := u.Protocol(sizeAware)
	features := c.featureCache(ctx, u, ds, prog)
	if tracker != nil {
		// Planned again with every feature set of the folds once computed
		// (one, or with node labels one per vocabulary of the folds).
		computed := features
		var sets []*eval.WKPI
		features = func(train []int) (*eval.WKPI, error) {
			w, err := computed(train)
			if err == nil && !passes.Load() && !slices.Contains(sets, w) {
				sets = append(sets, w)
				tracker.Plan(u.Work(ds.Graphs, 0, kind, sets))
			}
			return w, err
		}
	}
	src := eval.Source{Labels: ds.Labels, Classes: len(ds.Classes), PerFold: u.Spec.Labels, Features: features}
	var reports []eval.Report
	for r := range u.Spec.Repeats {
		plan := u.Plan(r)
		plan.Groups = groups
		if shard != nil {
			if plan.Only = shard.Folds(r, u.Spec.Repeats, u.Spec.Folds); len(plan.Only) == 0 {
				continue
			}
		}
		if r == 0 && own.model != "" {
			plan.Final = &eval.Final{Dataset: ds.Name, Classes: ds.Classes}
		}
		rep, err := eval.Run(ctx, src, p, plan, prog)
		if err != nil {
			return err
		}
		reports = append(reports, rep)
	}
	if own.predictions != "" {
		if err := writePredictions(own.predictions, ds, reports); err != nil {
			return err
		}
	}
	if shard != nil {
		return saveShard(c.out, u, ds, *shard, reports, stdout)
	}
	if err := printReports(stdout, ds, u.Mode(), reports); err != nil || own.model == "" {
		return err
	}
	m := finalModel(reports[0].Final, u, c.name, stderr)
	m.Evaluation = evaluationOf(u, reports)
	return saveModel(m, own.model, ds, stdout, stderr, "eval")
}

// evaluationOf is what a model keeps of its settings' cross-validation:
// the learned kernel's accuracy as the report prints it.
func evaluationOf(u eval.Setup, reports []eval.Report) *model.Evaluation {
	mean, std := accuracyOver(reports, func(r eval.Report) crossval.Result { return r.Learned })
	return &model.Evaluation{Folds: u.Spec.Folds, Accuracy: mean, Std: std}
}

// accuracyOver is the accuracy of one side (learned or unlearned) over
// repeats: the mean of the repeats' means, with the spread of those
// means, or with one repeat its spread over the folds.
func accuracyOver(reports []eval.Report, side func(eval.Report) crossval.Result) (mean, std float64) {
	var accs []float64
	for _, rep := range reports {
		accs = append(accs, side(rep).Accuracy)
	}
	mean, std = crossval.MeanStd(accs)
	if len(reports) == 1 {
		std = side(reports[0]).Std
	}
	return mean, std
}

// svmKernel names an SVM kernel form (eval.Config.Gauss) in a table.
func svmKernel(gauss float64) string {
	if gauss > 0 {
		return fmt.Sprintf("gauss %g", gauss)
	}
	return "wkpi"
}

// metricOf reads one metric's summary from a report's learned or
// unlearned side.
type metricOf func(eval.Report) crossval.Summary

// overRepeats combines a metric over repeats as the accuracy is: the
// mean of the repeats' means, with the spread of those means, or with one
// repeat its spread over the folds; the values of every fold of every
// repeat; and how many folds had none (undefined, left out of the means).
func overRepeats(reports []eval.Report, of metricOf) (mean, std crossval.Metric, folds []crossval.Metric, undefined int) {
	var means []float64
	for _, rep := range reports {
		s := of(rep)
		folds = append(folds, s.PerFold...)
		undefined += s.Undefined
		means = append(means, float64(s.Mean))
	}
	all := crossval.Summarize(means)
	mean, std = all.Mean, all.Std
	if len(reports) == 1 {
		std = of(reports[0]).Std
	}
	return mean, std, folds, undefined
}

// fixed prints a metric with the given decimals, "-" when undefined.
func fixed(m crossval.Metric, decimals int) string {
	if math.IsNaN(float64(m)) {
		return "-"
	}
	return strconv.FormatFloat(float64(m), 'f', decimals, 64)
}

func printReports(stdout io.Writer, ds *graph.Dataset, mode string, reports []eval.Report) error {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "repeat\tfold\tm\tsigma\tC\tsvm kernel\titerations\tlearned\tunlearned\tbal learned\tbal unlearned\tAUC learned\tAUC unlearned\t")
	var all []float64
	var secs float64
	for r, rep := range reports {
		for f, fold := range rep.Folds {
			fmt.Fprintf(tw, "%d\t%d\t%d\t%g\t%g\t%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%s\t%s\t\n", r+1, f+1, fold.Config.Learn.M, fold.Config.Sigma, fold.Config.C, svmKernel(fold.Config.Gauss), fold.Trace.Iterations,
				fold.Accuracy, fold.Baseline, fold.BalancedAccuracy, fold.BaselineBalancedAccuracy, fixed(fold.ROCAUC, 3), fixed(fold.BaselineROCAUC, 3))
			all = append(all, fold.Accuracy)
		}
		secs += rep.Seconds
	}
	tw.Flush()
	mean, std := accuracyOver(reports, func(r eval.Report) crossval.Result { return r.Learned })
	bmean, bstd := accuracyOver(reports, func(r eval.Report) crossval.Result { return r.Baseline })
	learned := func(of func(crossval.Result) crossval.Summary) metricOf {
		return func(r eval.Report) crossval.Summary { return of(r.Learned) }
	}
	unlearned := func(of func(crossval.Result) crossval.Summary) metricOf {
		return func(r eval.Report) crossval.Summary { return of(r.Baseline) }
	}
	auc := func(r crossval.Result) crossval.Summary { return r.ROCAUC }
	bal := func(r crossval.Result) crossval.Summary { return r.BalancedAccuracy }
	f1 := func(r crossval.Result) crossval.Summary { return r.F1Macro }
	aucMean, aucStd, aucFolds, aucUndefined := overRepeats(reports, learned(auc))
	baucMean, baucStd, baucFolds, _ := overRepeats(reports, unlearned(auc))
	balMean, balStd, balFolds, _ := overRepeats(reports, learned(bal))
	bbalMean, bbalStd, bbalFolds, _ := overRepeats(reports, unlearned(bal))
	f1Mean, f1Std, f1Folds, _ := overRepeats(reports, learned(f1))
	bf1Mean, bf1Std, bf1Folds, _ := overRepeats(reports, unlearned(f1))

	fmt.Fprintf(stdout, "\n%s (%s protocol), %s: accuracy %.1f ± %.1f %% with the learned weight function, %.1f ± %.1f %% with the initial one\n",
		ds.Name, reports[0].Protocol, mode, 100*mean, 100*std, 100*bmean, 100*bstd)
	pct := func(m crossval.Metric) crossval.Metric { return 100 * m }
	fmt.Fprintf(stdout, "ROC-AUC %s ± %s learned, %s ± %s unlearned; balanced accuracy %s ± %s %% learned, %s ± %s %% unlearned; macro F1 %s ± %s learned, %s ± %s unlearned\n",
		fixed(aucMean, 3), fixed(aucStd, 3), fixed(baucMean, 3), fixed(baucStd, 3),
		fixed(pct(balMean), 1), fixed(pct(balStd), 1), fixed(pct(bbalMean), 1), fixed(pct(bbalStd), 1),
		fixed(f1Mean, 3), fixed(f1Std, 3), fixed(bf1Mean, 3), fixed(bf1Std, 3))
	if aucUndefined > 0 {
		fmt.Fprintf(stdout, "ROC-AUC undefined in %d of %d folds (their test graphs are of one class), left out of its mean\n", aucUndefined, len(all))
	}
	// Learned against unlearned, fold by fold (all repeats): does learning pay?
	var allBase []float64
	for _, rep := range reports {
		for _, fold := range rep.Folds {
			allBase = append(allBase, fold.Baseline)
		}
	}
	paired, err := crossval.Compare(all, allBase)
	if err != nil {
		return err
	}
	// Repeats' folds share graphs, so only the corrected test allows for
	// them (crossval.CorrectedRepeatedT); the other two are given as well.
	folds := len(reports[0].Folds)
	tests := func(p crossval.Paired) (string, *float64) {
		plain := fmt.Sprintf("paired t-test p = %.3g, Wilcoxon signed-rank p = %.3g", p.TP, p.WilcoxonP)
		if len(reports) == 1 {
			return plain, nil
		}
		c := crossval.CorrectedRepeatedT(p.Differences, folds)
		return fmt.Sprintf("corrected repeated k-fold t-test p = %.3g (%s: these two take the repeats' folds as independent)", c, plain), &c
	}
	accTests, accCorrected := tests(paired)
	fmt.Fprintf(stdout, "learned - unlearned over %d folds: %s\n", len(all), accTests)
	aucPaired, aucPairs, err := crossval.CompareDefined(aucFolds, baucFolds)
	if err != nil {
		return err
	}
	aucT, aucW := crossval.Metric(math.NaN()), crossval.Metric(math.NaN())
	var aucCorrected *float64
	if aucPairs {
		aucT, aucW = crossval.Metric(aucPaired.TP), crossval.Metric(aucPaired.WilcoxonP)
		diff, _ := crossval.MeanStd(aucPaired.Differences)
		var aucTests string
		aucTests, aucCorrected = tests(aucPaired)
		fmt.Fprintf(stdout, "ROC-AUC learned - unlearned over %d folds: %+.3f, %s\n", len(aucPaired.Differences), diff, aucTests)
	}
	if reports[0].Protocol == "auto" {
		sized := 0
		for _, rep := range reports {
			for _, fold := range rep.Folds {
				sized += fold.Candidate
			}
		}
		fmt.Fprintf(stdout, "automatic choice (inner CV on each fold's training graphs): size-aware images in %d of %d folds, unit images in the rest (-auto=false: unit images only)\n", sized, len(all))
	}
	if reports[0].Folds[0].Config.SVM != nil {
		gauss := 0
		for _, rep := range reports {
			for _, fold := range rep.Folds {
				if fold.Config.Gauss > 0 {
					gauss++
				}
			}
		}
		fmt.Fprintf(stdout, "SVM kernel and C chosen in every fold (inner CV of the unlearned kernel on its training graphs): the Gaussian of the WKPI distance in %d of %d folds, the WKPI kernel in the rest (-svm-choice=false: the WKPI kernel, C %g)\n", gauss, len(all), eval.DefaultConfig().C)
	}
	fmt.Fprintln(stdout, "confusion (rows: true class, columns: predicted), first repeat:")
	for i, row := range reports[0].Learned.Confusion {
		fmt.Fprintf(stdout, "  %6s %v\n", ds.Classes[i], row)
	}
	// The JSON line: the existing keys first, unchanged; then the other
	// metrics of the learned SVM and, prefixed baseline_, of the unlearned
	// one: mean, std (as accuracy_mean and accuracy_std) and every fold's
	// value (as folds); undefined ROC-AUCs are null.
	line := struct {
		Dataset  string    `json:"dataset"`
		Protocol string    `json:"protocol"`
		Mode     string    `json:"mode"`
		Mean     float64   `json:"accuracy_mean"`
		Std      float64   `json:"accuracy_std"`
		Folds    []float64 `json:"folds"`
		Baseline float64   `json:"baseline_mean"`
		BaseStd  float64   `json:"baseline_std"`
		Repeats  int       `json:"repeats"`
		Seconds  float64   `json:"seconds"`
		PairedT  float64   `json:"paired_t_p"`
		Wilcoxon float64   `json:"wilcoxon_p"`
		// With repeats, the corrected repeated k-fold t-test of learned
		// against unlearned, accuracy and ROC-AUC (absent without).
		CorrectedT       *float64 `json:"corrected_t_p,omitempty"`
		ROCAUCCorrectedT *float64 `json:"roc_auc_corrected_t_p,omitempty"`

		ROCAUCMean        crossval.Metric   `json:"roc_auc_mean"`
		ROCAUCStd         crossval.Metric   `json:"roc_auc_std"`
		ROCAUCFolds       []crossval.Metric `json:"roc_auc_folds"`
		ROCAUCUndefined   int               `json:"roc_auc_undefined"`
		BalancedMean      crossval.Metric   `json:"balanced_accuracy_mean"`
		BalancedStd       crossval.Metric   `json:"balanced_accuracy_std"`
		BalancedFolds     []crossval.Metric `json:"balanced_accuracy_folds"`
		F1Mean            crossval.Metric   `json:"f1_macro_mean"`
		F1Std             crossval.Metric   `json:"f1_macro_std"`
		F1Folds           []crossval.Metric `json:"f1_macro_folds"`
		BaseAccFolds      []float64         `json:"baseline_accuracy_folds"`
		BaseROCAUCMean    crossval.Metric   `json:"baseline_roc_auc_mean"`
		BaseROCAUCStd     crossval.Metric   `json:"baseline_roc_auc_std"`
		BaseROCAUCFolds   []crossval.Metric `json:"baseline_roc_auc_folds"`
		BaseBalancedMean  crossval.Metric   `json:"baseline_balanced_accuracy_mean"`
		BaseBalancedStd   crossval.Metric   `json:"baseline_balanced_accuracy_std"`
		BaseBalancedFolds []crossval.Metric `json:"baseline_balanced_accuracy_folds"`
		BaseF1Mean        crossval.Metric   `json:"baseline_f1_macro_mean"`
		BaseF1Std         crossval.Metric   `json:"baseline_f1_macro_std"`
		BaseF1Folds       []crossval.Metric `json:"baseline_f1_macro_folds"`
		// The paired tests of the folds' ROC-AUCs, learned against
		// unlearned (null with fewer than two folds that have both).
		ROCAUCPairedT  crossval.Metric `json:"roc_auc_paired_t_p"`
		ROCAUCWilcoxon crossval.Metric `json:"roc_auc_wilcoxon_p"`
	}{
		ds.Name, reports[0].Protocol, mode, mean, std, all, bmean, bstd, len(reports), secs, paired.TP, paired.WilcoxonP, accCorrected, aucCorrected,
		aucMean, aucStd, aucFolds, aucUndefined, balMean, balStd, balFolds, f1Mean, f1Std, f1Folds,
		allBase, baucMean, baucStd, baucFolds, bbalMean, bbalStd, bbalFolds, bf1Mean, bf1Std, bf1Folds,
		aucT, aucW,
	}
	return json.NewEncoder(stdout).Encode(line)
}

func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	c := newSettingsFlags("train", stderr, []spec.Group{spec.GroupDescriptors, spec.GroupImages, spec.GroupLearning, spec.GroupSVM}, "seed")
	c.examples = []string{
		"wkpi train -data data/MUTAG -out mutag-model.json",
		"wkpi train -data data/PTC_MR -labels -out ptc-model.json",
	}
	u, ds, err := parseDataset(c, args)
	if err != nil {
		return err
	}
	if err := c.profiles.start(); err != nil {
		return err
	}
	defer c.profiles.stop(&err)
	if c.out == "" {
		return fmt.Errorf("-out model.json is required")
	}
	m, err := trainOnAll(ctx, c, u, ds, stderr)
	if err != nil {
		return err
	}
	return saveModel(m, c.out, ds, stdout, stderr, "train")
}

// trainOnAll trains the model of settings u on every graph of ds, as
// wkpi train does (with the automatic choice of images when u asks for
// it), with a progress line of its own stages.
func trainOnAll(ctx context.Context, c *settingsFlags, u eval.Setup, ds *graph.Dataset, stderr io.Writer) (*model.Model, error) {
	tracker := trackerFor(u.Work(ds.Graphs, 0, eval.FinalJob|eval.ChoiceJob, nil))
	prog := progressFor(c.progress, stderr, tracker)
	of, err := c.featuresOf(u, ds)
	if err != nil {
		return nil, err
	}
	w, err := prepareFor(ctx, of(nil), ds, prog)
	if err != nil {
		return nil, err
	}
	if tracker != nil {
		tracker.Plan(u.Work(ds.Graphs, 0, eval.FinalJob|eval.ChoiceJob, []*eval.WKPI{w}))
	}
	final, err := u.Protocol(nil).Train(ctx, w, eval.Final{Dataset: ds.Name, Classes: ds.Classes}, prog)
	if err != nil {
		return nil, err
	}
	return finalModel(final, u, c.name, stderr), nil
}

// finalModel is the model of a final training, with its settings; an
// automatic choice of images is told on stderr.
func finalModel(final *eval.FinalModel, u eval.Setup, command string, stderr io.Writer) *model.Model {
	if ch := final.Choice; ch != nil {
		unit, _ := crossval.MeanStd(ch.Inner[0])
		sized, _ := crossval.MeanStd(ch.Inner[1])
		fmt.Fprintf(stderr, "wkpi %s: automatic choice: %s (inner CV accuracy of the unlearned kernels: %.3f unit images, %.3f size-aware)\n",
			command, []string{"unit images", "size-aware images"}[ch.Chosen], unit, sized)
	}
	final.Model.Settings = &u.Spec
	return final.Model
}

// saveModel writes m to path and says what was trained.
func saveModel(m *model.Model, path string, ds *graph.Dataset, stdout, stderr io.Writer, command string) error {
	out, closeOut, err := output(path, stdout)
	if err != nil {
		return err
	}
	if err := m.Save(out); err != nil {
		return err
	}
	if err := closeOut(); err != nil {
		return err
	}
	kind := "the WKPI kernel"
	if m.GaussWidth > 0 {
		kind = fmt.Sprintf("the Gaussian of the WKPI distance (width %.3g)", m.GaussWidth)
	}
	fmt.Fprintf(stderr, "wkpi %s: %s (%s): %d graphs, SVM on %s with C %g, %d support vectors, %d learning iterations -> %s\n",
		command, ds.Name, m.Features.Mode(), len(ds.Graphs), kind, m.C, len(m.Support), m.Trace.Iterations, path)
	return nil
}

func runPredict(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("model", "", "model file from wkpi train (required)")
	asJSON := fs.Bool("json", false, "print one JSON object per graph")
	var in graphInputs
	in.register(fs, "predict", stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: wkpi predict -model M.json [-json] GRAPH... | -smiles SMILES

Classifies graphs and molecules with a model from wkpi train. GRAPH: a file of
graphs or molecules (SMILES lines, a SMILES table, SD, GraphML, JSON, an edge
list, SWC), a TU dataset or a folder of SWC neurons (folder or zip), or - for
standard input, whose format the content tells. -smiles classifies a SMILES
string, named by itself; repeat it for more.

Examples:
  wkpi predict -model mutag.json mols.sdf
  wkpi predict -model mutag.json -smiles 'c1ccc(cc1)[N+](=O)[O-]' -smiles CCO
  zcat mols.smi.gz | wkpi predict -model mutag.json -

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *path == "" {
		return errors.New("usage: wkpi predict -model model.json GRAPH... | -smiles SMILES")
	}
	sources, err := in.sources(fs.Args(), stdin)
	if err != nil {
		return err
	}
	m, err := loadModel(*path)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	if !*asJSON {
		fmt.Fprintln(tw, "file\tgraph\tname\tclass\tdecision\tpoints")
	}
	for _, src := range sources {
		name := src.name
		read, err := src.read()
		if err != nil {
			return err
		}
		names := read.names
		preds, err := m.Predict(ctx, read.graphs)
		if ge := (*model.GraphError)(nil); errors.As(err, &ge) {
			return fmt.Errorf("%s: %w", read.at(name, ge.Index), ge.Err)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for i, p := range preds {
			if *asJSON {
				rec := struct {
					File     string    `json:"file"`
					Graph    int       `json:"graph"`
					Name     string    `json:"name,omitempty"`
					Class    string    `json:"class"`
					Decision []float64 `json:"decision"`
					Points   int       `json:"points"`
				}{name, read.position(i), names[i], p.Label, p.Decision, len(p.Points)}
				if err := json.NewEncoder(stdout).Encode(rec); err != nil {
					return err
				}
				continue
			}
			// No points: the descriptor is constant on the graph (a ring
			// of equal curvature, say), so its image is empty and every
			// such graph gets the same class.
			note := strconv.Itoa(len(p.Points))
			if len(p.Points) == 0 {
				note = "0 (constant descriptor: empty image)"
			}
			shown := names[i]
			if shown == "" {
				shown = "-"
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.4g\t%s\n", name, read.position(i), shown, p.Label, p.Decision, note)
		}
	}
	return tw.Flush()
}

// loadModel reads and validates a model file and prepares it.
func loadModel(path string) (*model.Prepared, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := model.Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p, err := model.Prepare(m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}
