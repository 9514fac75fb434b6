package jobs

import (
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/stat"

	"wkpi-web/core/crossval"
	"wkpi-web/core/eval"
	"wkpi-web/wasm/protocol"
)

// mergeCV runs a MergeCV job with the code the CLI runs: the parts merge
// as `wkpi eval` merges shards' folds (eval.Merge), and the learned and
// initial weight functions' fold accuracies pair as `wkpi compare` pairs
// methods (crossval.Compare: the paired t-test and the Wilcoxon test, with
// its tolerance for equal accuracies).
func mergeCV(parts []protocol.CVPart) (protocol.Response, error) {
	if len(parts) == 0 {
		return protocol.Response{}, errors.New("no parts of a cross-validation to merge")
	}
	var rep protocol.Report
	if len(parts[0].Labels) == 0 {
		// A report merged already, saved by an earlier version of the page.
		if len(parts) > 1 {
			return protocol.Response{}, errors.New("a merged report (a part without labels) must come alone")
		}
		rep = parts[0].Report
	} else {
		first := parts[0]
		reports := make([]eval.Report, len(parts))
		for i, p := range parts {
			if !slices.Equal(p.Labels, first.Labels) || p.Classes != first.Classes {
				return protocol.Response{}, fmt.Errorf("part %d is of another dataset than part 1", i+1)
			}
			reports[i] = evalReport(p.Report)
		}
		merged, err := eval.Merge(first.Labels, first.Classes, reports...)
		if err != nil {
			return protocol.Response{}, err
		}
		rep = reportOf(merged)
	}
	test, err := pairedTest(rep.Folds)
	if err != nil {
		return protocol.Response{}, err
	}
	return protocol.Response{Merged: &protocol.MergedCV{Report: rep, Test: test}}, nil
}

// pairedTest compares the folds' learned accuracies and ROC-AUCs with
// their initial ones.
func pairedTest(folds []protocol.Fold) (protocol.PairedTest, error) {
	learned, initial := make([]float64, len(folds)), make([]float64, len(folds))
	learnedAUC, initialAUC := make([]crossval.Metric, len(folds)), make([]crossval.Metric, len(folds))
	for i, f := range folds {
		learned[i], initial[i] = f.Accuracy, f.Baseline
		learnedAUC[i], initialAUC[i] = evalMetric(f.ROCAUC), evalMetric(f.BaselineROCAUC)
	}
	p, err := crossval.Compare(learned, initial)
	if err != nil {
		return protocol.PairedTest{}, err
	}
	t := withSpread(p)
	if auc, ok, err := crossval.CompareDefined(learnedAUC, initialAUC); err != nil {
		return protocol.PairedTest{}, err
	} else if ok {
		a := withSpread(auc)
		t.ROCAUC = &a
	}
	return t, nil
}

// withSpread is p with the mean and sample standard deviation of its
// differences.
func withSpread(p crossval.Paired) protocol.PairedTest {
	t := protocol.PairedTest{ComparePaired: p}
	if len(p.Differences) > 0 {
		t.Mean = stat.Mean(p.Differences, nil)
	}
	if len(p.Differences) > 1 {
		t.Std = stat.StdDev(p.Differences, nil)
	}
	return t
}
