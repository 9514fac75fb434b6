package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"wkpi-web/core/compare"
	"wkpi-web/core/crossval"
	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/spec"
)

// runCompare is `wkpi compare`: every method of the paper's comparison
// on the same folds (core/compare), a table like the paper's Table 5 and
// a last line of JSON.
func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	c := newSettingsFlags("compare", stderr, []spec.Group{spec.GroupDescriptors, spec.GroupImages, spec.GroupLearning, spec.GroupSVM}, "folds", "seed", "repeats")
	var methods, wkpiGrid string
	var inner int
	var wlLabels bool
	c.own(spec.GroupProtocol, func(fs *flag.FlagSet) {
		fs.StringVar(&methods, "methods", strings.Join(compare.Names(), ","), "comma-separated methods: "+strings.Join(compare.Names(), ", "))
		fs.IntVar(&inner, "inner", compare.DefaultOptions().Inner, "inner folds choosing each method's hyper-parameters")
		fs.StringVar(&wkpiGrid, "wkpi-grid", "", "choose WKPI's and altWKPI's m, sigma, C by nested CV over this grid (paper, or m=5;sigma=0.01,0.1;C=1,10,100); default: the fixed -m -sigma -C")
		fs.BoolVar(&wlLabels, "wl-labels", false, "WL starts from the dataset's node labels (default: structure only)")
	})
	c.autoConflicts = []string{"wkpi-grid"}
	c.examples = []string{
		"wkpi compare -data data/MUTAG",
		"wkpi compare -data data/NCI1 -methods WKPI,WKPI-init,PI-CONST",
		"wkpi compare -data data/MUTAG -methods WKPI,ecfp,WL",
		"wkpi compare -data data/MUTAG -methods WKPI,ecfp -repeats 10   # ten 10-fold CVs, seeds 1-10, with the corrected t-test",
	}
	u, ds, err := parseDataset(c, args)
	if err != nil {
		return err
	}
	if err := c.profiles.start(); err != nil {
		return err
	}
	defer c.profiles.stop(&err)
	names := strings.Split(methods, ",")
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	if err := compare.Check(names); err != nil {
		return fmt.Errorf("-methods: %w", err)
	}
	o := compare.DefaultOptions()
	if o.NodeNames, o.EdgeNames, err = c.labelNames(); err != nil {
		return err
	}
	o.WKPI = u.Config
	o.Folds, o.Seed, o.Repeats, o.Inner, o.WLNodeLabels = u.Spec.Folds, u.Spec.Seed, u.Spec.Repeats, inner, wlLabels
	o.WKPIAuto = u.Spec.Automatic() && wkpiGrid == ""
	if wkpiGrid != "" {
		g, err := spec.ParseGrid(wkpiGrid)
		if err != nil {
			return fmt.Errorf("-wkpi-grid: %w", err)
		}
		o.WKPIGrid = &eval.Grid{Ms: g.M, Sigmas: g.Sigma, Cs: g.C}
	}
	prog := progressFor(c.progress, stderr, nil)
	if u.Spec.Labels {
		// WKPI as wkpi eval runs it: each fold's label vocabulary from
		// its training graphs; the other methods read the set below.
		o.WKPIFeatures = c.featureCache(ctx, u, ds, prog)
	}
	set, err := features.Compute(ctx, ds, u.Features, prog)
	if err != nil {
		return err
	}
	data, err := compare.NewData(ds, set)
	if err != nil {
		return err
	}
	res, err := compare.Run(ctx, data, names, o, prog)
	if err != nil {
		return err
	}
	w, closeOut, err := output(c.out, stdout)
	if err != nil {
		return err
	}
	printComparison(w, res, u.Spec.Folds, max(u.Spec.Repeats, 1), u.Spec.Seed)
	if err := json.NewEncoder(w).Encode(res); err != nil {
		closeOut()
		return err
	}
	return closeOut()
}

// printComparison writes the table: accuracy ± std (%), ROC-AUC ± std,
// time, and the paired tests against WKPI over the folds, of accuracy
// (mean difference in points, Wilcoxon and t-test p) and of ROC-AUC
// (mean difference, Wilcoxon p). Over repeated cross-validations, whose
// folds share graphs, the corrected repeated k-fold t-test takes the
// place of both tests.
func printComparison(w io.Writer, res compare.Result, folds, repeats int, seed int64) {
	header := "method\taccuracy %\tROC-AUC\tseconds\taccuracy diff\tWilcoxon p\tpaired t p\tROC-AUC diff\tWilcoxon p\t"
	if repeats == 1 {
		fmt.Fprintf(w, "%s, %d-fold cross-validation, the same folds for every method; differences are the method's minus WKPI's\n", res.Dataset, folds)
	} else {
		fmt.Fprintf(w, "%s, %d-fold cross-validation repeated %d times (seeds %d-%d), the same folds for every method; means over all %d folds; differences are the method's minus WKPI's, tested by the corrected repeated k-fold t-test\n",
			res.Dataset, folds, repeats, seed, seed+int64(repeats)-1, folds*repeats)
		header = "method\taccuracy %\tROC-AUC\tseconds\taccuracy diff\tcorrected t p\tROC-AUC diff\tcorrected t p\t"
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, header)
	for _, m := range res.Methods {
		diff, wp, tp, cp, aucDiff, aucP, aucCP := "", "", "", "", "", "", ""
		if p := m.Paired; p != nil {
			mean, _ := crossval.MeanStd(p.Differences)
			diff, wp, tp, cp = fmt.Sprintf("%+.1f", 100*mean), fmt.Sprintf("%.3f", p.WilcoxonP), fmt.Sprintf("%.3f", p.TP), correctedP(p)
		}
		if p := m.PairedROCAUC; p != nil {
			mean, _ := crossval.MeanStd(p.Differences)
			aucDiff, aucP, aucCP = fmt.Sprintf("%+.3f", mean), fmt.Sprintf("%.3f", p.WilcoxonP), correctedP(p)
		}
		auc := fixed(m.ROCAUC, 3) + " ± " + fixed(m.ROCAUCStd, 3)
		if math.IsNaN(float64(m.ROCAUC)) {
			auc = "-"
		}
		tests := []string{diff, wp, tp, aucDiff, aucP}
		if repeats > 1 {
			tests = []string{diff, cp, aucDiff, aucCP}
		}
		fmt.Fprintf(tw, "%s\t%.1f ± %.1f\t%s\t%.1f\t%s\t\n", m.Name, 100*m.Accuracy, 100*m.Std, auc, m.Seconds, strings.Join(tests, "\t"))
	}
	tw.Flush()
	for _, s := range res.Skipped {
		fmt.Fprintf(w, "%s: %s\n", s.Name, s.Reason)
	}
}

// correctedP formats the corrected repeated k-fold t-test's p, or "" when
// the comparison has none.
func correctedP(p *crossval.Paired) string {
	if p == nil || p.CorrectedTP == nil {
		return ""
	}
	return fmt.Sprintf("%.3f", *p.CorrectedTP)
}
