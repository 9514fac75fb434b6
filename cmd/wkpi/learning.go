package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"wkpi-web/core/crossval"
	"wkpi-web/core/eval"
	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
	"wkpi-web/core/kernel"
	"wkpi-web/core/learn"
	"wkpi-web/core/model"
	"wkpi-web/core/progress"
	"wkpi-web/core/swc"
	"wkpi-web/core/tu"
)

// learnFlags are the WKPI hyper-parameters of eval and train.
type learnFlags struct {
	m                     int
	sigma, c, penalty     float64
	gauss                 float64
	svmChoice             bool
	prior, contrast       float64
	init, optimizer, kind string
	objective             string
	channels              bool
	batch, maxIter        int
	seed                  int64
	auto                  bool
	fs                    *flag.FlagSet // to tell flags given from defaults
}

func (l *learnFlags) register(fs *flag.FlagSet) {
	d := eval.DefaultConfig()
	fs.IntVar(&l.m, "m", d.Learn.M, "weight function: number of Gaussian components")
	fs.Float64Var(&l.sigma, "sigma", d.Sigma, "kernel width sigma (k = sum_s w_s exp(-(I_s-I'_s)^2/(2 sigma^2)))")
	fs.Float64Var(&l.c, "C", d.C, "SVM C (given: fixed, with -gauss, instead of chosen in every fold)")
	fs.Float64Var(&l.gauss, "gauss", 0, "SVM kernel (given: fixed, with -C, instead of chosen in every fold): 0 the WKPI kernel, s > 0 the Gaussian of the WKPI distance exp(-D^2 / (s m)), m the median D^2 of training pairs")
	fs.BoolVar(&l.svmChoice, "svm-choice", true, "choose the SVM kernel (the WKPI kernel or the Gaussian of its distance) and C from 1, 10, 100, 1000 in every fold by 3-fold inner CV of the unlearned kernel on its training graphs; off with -svm-choice=false, -C, -gauss or -grid")
	fs.Float64Var(&l.penalty, "penalty", d.Learn.Penalty, "penalty c in c * sum_r exp(-w_r)")
	fs.Float64Var(&l.prior, "prior", d.Learn.Prior, "weight of the prior anchoring the mixture at its initial placement (0: the paper's objective)")
	fs.Float64Var(&l.contrast, "contrast", d.Learn.Contrast, "weight of the barrier keeping the kernel's mean pairwise distance from collapsing (0: the paper's objective)")
	fs.StringVar(&l.init, "init", d.Learn.Init, "initial centres: kcenter, kmeans or random")
	fs.StringVar(&l.optimizer, "optimizer", d.Learn.Optimizer, "gd (Armijo gradient descent) or lbfgs")
	fs.StringVar(&l.kind, "kernel", "wkpi", "wkpi or alt (altWKPI)")
	fs.BoolVar(&l.channels, "channel-scales", d.Learn.Channels, "also learn one scale per image block (channel x descriptor) by kernel-target alignment")
	fs.StringVar(&l.objective, "objective", d.Learn.Objective, "metric learning objective: tc (the paper's total cost) or cka (kernel-target alignment of the component weights)")
	fs.IntVar(&l.batch, "batch", 0, "mini-batch size for metric learning (0: whole training set)")
	fs.IntVar(&l.maxIter, "iter", d.Learn.MaxIter, "maximum learning iterations")
	fs.Int64Var(&l.seed, "seed", 1, "random seed (folds, initialisation, batches)")
	fs.BoolVar(&l.auto, "auto", true, "choose between these settings and size-aware ones (the same descriptors, images unnormalised, sigma 1) by inner CV of the unlearned kernels on the training graphs (eval: every outer fold's); off with -auto=false, -raw, -labels, -kernel alt, -grid or -select")
	l.fs = fs
}

// autoChoice says whether the automatic choice runs: -auto (on by
// default) unless a flag that fixes what it chooses is given; fixing
// flags contradict an explicit -auto. conflicts are eval's further flags
// that fix the protocol (-grid, -select), when given.
func (l *learnFlags) autoChoice(ff *featureFlags, conflicts ...string) (bool, error) {
	given := l.given()
	var fixed []string
	for name, on := range map[string]bool{"raw": ff.raw, "labels": ff.labels, "kernel": l.kind != "wkpi"} {
		if on {
			fixed = append(fixed, "-"+name)
		}
	}
	for _, name := range conflicts {
		if given[name] {
			fixed = append(fixed, "-"+name)
		}
	}
	slices.Sort(fixed)
	switch {
	case !l.auto:
		return false, nil
	case len(fixed) == 0:
		return true, nil
	case given["auto"]:
		return false, fmt.Errorf("-auto does not combine with %s", strings.Join(fixed, ", "))
	}
	return false, nil
}

// given are the names of the flags set on the command line.
func (l *learnFlags) given() map[string]bool {
	given := map[string]bool{}
	l.fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}

func (l *learnFlags) config() (eval.Config, error) {
	cfg := eval.DefaultConfig()
	cfg.Sigma, cfg.C, cfg.Gauss = l.sigma, l.c, l.gauss
	given := l.given()
	switch {
	case !(l.gauss >= 0):
		return cfg, fmt.Errorf("-gauss %g: want 0 (the WKPI kernel) or a positive scale", l.gauss)
	case given["svm-choice"] && l.svmChoice && (given["C"] || given["gauss"]):
		return cfg, errors.New("-svm-choice does not combine with -C or -gauss, which fix what it chooses")
	case !l.svmChoice || given["C"] || given["gauss"]:
		cfg.SVM = nil
	}
	cfg.Learn.M, cfg.Learn.Penalty, cfg.Learn.Init, cfg.Learn.Optimizer = l.m, l.penalty, l.init, l.optimizer
	cfg.Learn.BatchSize, cfg.Learn.MaxIter, cfg.Learn.Seed = l.batch, l.maxIter, l.seed
	cfg.Learn.Prior, cfg.Learn.Contrast = l.prior, l.contrast
	cfg.Learn.Objective, cfg.Learn.Channels = l.objective, l.channels
	if err := learn.CheckObjective(l.objective); err != nil {
		return cfg, fmt.Errorf("-objective: %w", err)
	}
	switch l.kind {
	case "wkpi":
		cfg.Variant = kernel.WKPI
	case "alt":
		cfg.Variant = kernel.Alt
	default:
		return cfg, fmt.Errorf("-kernel %q: want wkpi or alt", l.kind)
	}
	return cfg, nil
}

// prepare computes the features of the flags; in node-label mode the
// vocabulary is fitted on every graph, the training set of `wkpi train`.
func prepare(ctx context.Context, ff *featureFlags, ds *graph.Dataset, prog progress.Func) (*eval.WKPI, error) {
	s, err := ff.labelSettings(ds, nil)
	if err != nil {
		return nil, err
	}
	return prepareFor(ctx, s, ds, prog)
}

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var lf learnFlags
	var folds, inner, repeats, nystrom *int
	var gridName, selectBy, shardText *string
	ff, ds, err := parseDataset("eval", args, stderr, func(fs *flag.FlagSet) {
		lf.register(fs)
		folds = fs.Int("folds", 10, "cross-validation folds")
		inner = fs.Int("inner", 10, "inner folds of nested CV (-grid)")
		repeats = fs.Int("repeats", 1, "repeat the CV with seeds seed, seed+1, ...")
		gridName = fs.String("grid", "", "nested CV over a grid: paper, or m=3,4;sigma=0.1,1;C=1,10")
		selectBy = fs.String("select", "", "cost: choose m and sigma per fold by the smallest training cost (grid: -grid or paper)")
		shardText = fs.String("shard", "", "run share i/N of the jobs (repeat x outer fold) and write it to -out for `wkpi merge`")
		nystrom = fs.Int("nystrom", 0, "approximate the SVMs' kernel matrices from this many landmark training graphs (Nyström; 0: exact)")
	})
	if err != nil {
		return err
	}
	cfg, err := lf.config()
	if err != nil {
		return err
	}
	if cfg.Nystrom = *nystrom; cfg.Nystrom < 0 {
		return fmt.Errorf("-nystrom %d: want 0 (exact) or a number of landmarks", cfg.Nystrom)
	}
	if *selectBy != "" && *selectBy != "cost" {
		return fmt.Errorf("-select %q: want cost", *selectBy)
	}
	var grid eval.Grid
	if *gridName != "" || *selectBy != "" {
		if grid, err = parseGrid(*gridName); err != nil {
			return err
		}
	}
	shard, err := shardFor(*shardText, ff.out)
	if err != nil {
		return err
	}
	if ff.labels && shard != nil {
		return fmt.Errorf("-labels does not combine with -shard yet")
	}
	auto, err := lf.autoChoice(ff, "grid", "select")
	if err != nil {
		return err
	}
	var sizeAware eval.Candidate // built once, on the first run that needs it

	prog := progressFor(ff.progress, stderr)
	var w *eval.WKPI
	if !ff.labels {
		if w, err = prepare(ctx, ff, ds, prog); err != nil {
			return err
		}
	}
	var reports []eval.Report
	for r := range *repeats {
		plan := eval.Plan{Folds: *folds, Seed: lf.seed + int64(r)}
		if shard != nil {
			if plan.Only = shard.Folds(r, *repeats, *folds); len(plan.Only) == 0 {
				continue
			}
		}
		run := func(w *eval.WKPI, plan eval.Plan) (eval.Report, error) {
			switch {
			case auto:
				if sizeAware.W == nil {
					if sizeAware, err = eval.SizeAware(w, cfg); err != nil {
						return eval.Report{}, err
					}
				}
				return eval.CrossValidateChosen(ctx, []eval.Candidate{{W: w, Config: cfg}, sizeAware}, plan, eval.ChoiceOptions{}, prog)
			case *selectBy == "cost":
				return w.SelectByCost(ctx, cfg, grid, plan, prog)
			case *gridName != "":
				return w.Nested(ctx, cfg, grid, plan, *inner, prog)
			default:
				return w.CrossValidate(ctx, cfg, plan, prog)
			}
		}
		var rep eval.Report
		if ff.labels {
			rep, err = labelFolds(ctx, ff, ds, plan, prog, run)
		} else {
			rep, err = run(w, plan)
		}
		if err != nil {
			return err
		}
		reports = append(reports, rep)
	}
	if shard != nil {
		return saveShard(ff, ds, cfg, grid, auto, *selectBy, *gridName, *folds, *inner, *repeats, lf.seed, *shard, reports, stdout)
	}
	return printReports(stdout, ds, ff.mode(), reports)
}

// parseGrid reads "paper" or "m=3,4;sigma=0.1,1;C=1,10" (missing keys
// take the paper's values).
func parseGrid(s string) (eval.Grid, error) {
	g := eval.PaperGrid()
	if s == "" || s == "paper" {
		return g, nil
	}
	for _, part := range strings.Split(s, ";") {
		key, vals, ok := strings.Cut(part, "=")
		if !ok {
			return g, fmt.Errorf("-grid %q: %q is not key=v1,v2", s, part)
		}
		var nums []float64
		for _, v := range strings.Split(vals, ",") {
			x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || !(x > 0) {
				return g, fmt.Errorf("-grid %q: %q is not a positive number", s, v)
			}
			nums = append(nums, x)
		}
		switch strings.TrimSpace(key) {
		case "m":
			g.Ms = nil
			for _, x := range nums {
				g.Ms = append(g.Ms, int(x))
			}
		case "sigma":
			g.Sigmas = nums
		case "C":
			g.Cs = nums
		default:
			return g, fmt.Errorf("-grid %q: unknown key %q (want m, sigma, C)", s, key)
		}
	}
	return g, nil
}

// svmKernel names an SVM kernel form (eval.Config.Gauss) in a table.
func svmKernel(gauss float64) string {
	if gauss > 0 {
		return fmt.Sprintf("gauss %g", gauss)
	}
	return "wkpi"
}

func printReports(stdout io.Writer, ds *graph.Dataset, mode string, reports []eval.Report) error {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "repeat\tfold\tm\tsigma\tC\tsvm kernel\titerations\tlearned\tunlearned\t")
	var accs, base, all []float64
	var secs float64
	for r, rep := range reports {
		for f, fold := range rep.Folds {
			fmt.Fprintf(tw, "%d\t%d\t%d\t%g\t%g\t%s\t%d\t%.3f\t%.3f\t\n", r, f, fold.Config.Learn.M, fold.Config.Sigma, fold.Config.C, svmKernel(fold.Config.Gauss), fold.Trace.Iterations, fold.Accuracy, fold.Baseline)
			all = append(all, fold.Accuracy)
		}
		accs = append(accs, rep.Learned.Accuracy)
		base = append(base, rep.Baseline.Accuracy)
		secs += rep.Seconds
	}
	tw.Flush()
	mean, std := crossval.MeanStd(accs)
	bmean, bstd := crossval.MeanStd(base)
	if len(reports) == 1 {
		std, bstd = reports[0].Learned.Std, reports[0].Baseline.Std
	}
	fmt.Fprintf(stdout, "\n%s (%s protocol), %s: accuracy %.1f ± %.1f %% with the learned weight function, %.1f ± %.1f %% with the initial one\n",
		ds.Name, reports[0].Protocol, mode, 100*mean, 100*std, 100*bmean, 100*bstd)
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
	fmt.Fprintf(stdout, "learned - unlearned over %d folds: paired t-test p = %.3g, Wilcoxon signed-rank p = %.3g\n", len(all), paired.TP, paired.WilcoxonP)
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
	}{ds.Name, reports[0].Protocol, mode, mean, std, all, bmean, bstd, len(reports), secs, paired.TP, paired.WilcoxonP}
	return json.NewEncoder(stdout).Encode(line)
}

func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var lf learnFlags
	ff, ds, err := parseDataset("train", args, stderr, lf.register)
	if err != nil {
		return err
	}
	if ff.out == "" {
		return fmt.Errorf("-out model.json is required")
	}
	cfg, err := lf.config()
	if err != nil {
		return err
	}
	auto, err := lf.autoChoice(ff)
	if err != nil {
		return err
	}
	prog := progressFor(ff.progress, stderr)
	w, err := prepare(ctx, ff, ds, prog)
	if err != nil {
		return err
	}
	var m *model.Model
	if auto {
		sizeAware, err := eval.SizeAware(w, cfg)
		if err != nil {
			return err
		}
		var ch eval.Choice
		m, ch, err = eval.TrainChosen(ctx, []eval.Candidate{{W: w, Config: cfg}, sizeAware}, ds.Name, ds.Classes, eval.ChoiceOptions{Seed: lf.seed}, prog)
		if err != nil {
			return err
		}
		unit, _ := crossval.MeanStd(ch.Inner[0])
		sized, _ := crossval.MeanStd(ch.Inner[1])
		fmt.Fprintf(stderr, "wkpi train: automatic choice: %s (inner CV accuracy of the unlearned kernels: %.3f unit images, %.3f size-aware)\n",
			[]string{"unit images", "size-aware images"}[ch.Chosen], unit, sized)
	} else if m, err = w.Train(ctx, ds.Name, ds.Classes, cfg, prog); err != nil {
		return err
	}
	out, closeOut, err := output(ff.out, stdout)
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
	fmt.Fprintf(stderr, "wkpi train: %s (%s): %d graphs, SVM on %s with C %g, %d support vectors, %d learning iterations -> %s\n",
		ds.Name, m.Features.Mode(), len(ds.Graphs), kind, m.C, len(m.Support), m.Trace.Iterations, ff.out)
	return nil
}

func runPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("model", "", "model file from wkpi train (required)")
	asJSON := fs.Bool("json", false, "print one JSON object per graph")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *path == "" || fs.NArg() == 0 {
		return fmt.Errorf("usage: wkpi predict -model model.json FILE...")
	}
	f, err := os.Open(*path)
	if err != nil {
		return err
	}
	m, err := model.Load(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", *path, err)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	if !*asJSON {
		fmt.Fprintln(tw, "file\tgraph\tclass\tdecision\tpoints")
	}
	for _, name := range fs.Args() {
		graphs, err := readGraphs(name)
		if err != nil {
			return err
		}
		preds, err := m.Predict(ctx, graphs)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for i, p := range preds {
			if *asJSON {
				rec := struct {
					File     string    `json:"file"`
					Graph    int       `json:"graph"`
					Class    string    `json:"class"`
					Decision []float64 `json:"decision"`
					Points   int       `json:"points"`
				}{name, i, p.Label, p.Decision, len(p.Points)}
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
			fmt.Fprintf(tw, "%s\t%d\t%s\t%.4g\t%s\n", name, i, p.Label, p.Decision, note)
		}
	}
	return tw.Flush()
}

// readGraphs reads any input format: a TU dataset (folder or zip), an SWC
// neuron, or a single-graph file.
func readGraphs(name string) ([]*graph.Graph, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if info.IsDir() || strings.EqualFold(filepath.Ext(name), ".zip") {
		ds, err := tu.Read(name)
		if err != nil {
			return nil, err
		}
		return ds.Graphs, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(filepath.Ext(name), ".swc") {
		g, err := swc.Parse(filepath.Base(name), data)
		if err != nil {
			return nil, err
		}
		return []*graph.Graph{g}, nil
	}
	return graphfile.Parse(filepath.Base(name), data)
}
