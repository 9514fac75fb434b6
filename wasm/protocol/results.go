package protocol

import "wkpi-web/core/wire"

// The types of this file mirror what the page needs of core/eval's Fold,
// Report and Result, with the same JSON field names and shapes, so that
// the page links no pipeline code and results it saved from the core
// types (app's savedRun) still load. Package wasm/jobs converts the core
// types to them.

// Fold is one finished fold of a cross-validation (eval.Fold): what the
// page shows of it, and what a MergeCV job needs to merge it.
type Fold struct {
	Index    int        `json:"index"`
	Config   FoldConfig `json:"config"`
	Trace    Trace      `json:"trace"`
	Accuracy float64    `json:"accuracy"`
	Baseline float64    `json:"baseline_accuracy"`
	// The fold's other metrics, learned and baseline; a nil ROC-AUC (JSON
	// null) is a fold whose test graphs are of one class.
	BalancedAccuracy         float64  `json:"balanced_accuracy"`
	F1Macro                  float64  `json:"f1_macro"`
	ROCAUC                   *float64 `json:"roc_auc"`
	BaselineBalancedAccuracy float64  `json:"baseline_balanced_accuracy"`
	BaselineF1Macro          float64  `json:"baseline_f1_macro"`
	BaselineROCAUC           *float64 `json:"baseline_roc_auc"`
	// InnerAccuracy is the chosen cell's inner CV accuracy (nested), or
	// Cost its training cost (selection by cost).
	InnerAccuracy float64 `json:"inner_accuracy,omitempty"`
	Cost          float64 `json:"cost,omitempty"`
	// ChannelScales are the learned per-block scales.
	ChannelScales []float64 `json:"channel_scales,omitempty"`
	// Candidate is the feature set the automatic choice took: 1 is
	// size-aware (eval.CrossValidateChosen).
	Candidate int `json:"candidate,omitempty"`
	// Test are the fold's samples; Predicted and BaselinePredicted the
	// classes the learned and the initial weight function's SVMs gave them.
	Test              []int `json:"test"`
	Predicted         []int `json:"predicted"`
	BaselinePredicted []int `json:"baseline_predicted"`
	// Scores and BaselineScores are the SVMs' per-class scores of the
	// test samples, which a MergeCV job needs for the ROC-AUC.
	Scores         [][]float64 `json:"scores,omitempty"`
	BaselineScores [][]float64 `json:"baseline_scores,omitempty"`
}

// FoldConfig is what the page shows of the setting a fold used
// (eval.Config): the one a grid search or the SVM's choice picked.
type FoldConfig struct {
	Sigma float64   `json:"sigma"`
	C     float64   `json:"C"`
	Learn FoldLearn `json:"learn"`
	// Gauss is the SVM kernel's form: 0 the WKPI kernel, s > 0 the
	// Gaussian of the WKPI distance at s times the median.
	Gauss float64 `json:"gauss,omitempty"`
}

// FoldLearn is what the page shows of a fold's learning options
// (learn.Options).
type FoldLearn struct {
	M int `json:"m"` // mixture components
}

// Trace is how a fold's learning went (learn.Trace).
type Trace = wire.Trace

// Report is a cross-validated evaluation (eval.Report): the learned
// kernel's result and, on the same folds, the initial weight function's.
type Report struct {
	Protocol string  `json:"protocol"` // "fixed", "nested", "cost" or "auto"
	Learned  Result  `json:"learned"`
	Baseline Result  `json:"baseline"`
	Folds    []Fold  `json:"folds"`
	Seconds  float64 `json:"seconds"`
}

// Result is one classifier's cross-validated result (crossval.Result, whose
// JSON names are its Go names).
type Result struct {
	// Accuracy and Std are the mean and population standard deviation of
	// PerFold, the accuracy on each test fold.
	Accuracy float64   `json:"Accuracy"`
	Std      float64   `json:"Std"`
	PerFold  []float64 `json:"PerFold"`
	// ROCAUC, BalancedAccuracy and F1Macro summarise those metrics over
	// the folds (crossval.Summary).
	ROCAUC           MetricSummary `json:"ROCAUC"`
	BalancedAccuracy MetricSummary `json:"BalancedAccuracy"`
	F1Macro          MetricSummary `json:"F1Macro"`
	// Confusion pools all test predictions, [true][predicted].
	Confusion [][]int `json:"Confusion"`
	// Predictions[i] is the class predicted for sample i in its test fold.
	Predictions []int   `json:"Predictions"`
	Seconds     float64 `json:"Seconds"`
}

// MetricSummary is a metric over the folds (crossval.Summary): nil (JSON null)
// where it is undefined, Undefined counting such folds.
type MetricSummary struct {
	Mean      *float64   `json:"mean"`
	Std       *float64   `json:"std"`
	PerFold   []*float64 `json:"per_fold"`
	Undefined int        `json:"undefined,omitempty"`
}

// CVPart is the result of some folds of a cross-validation, with what
// a MergeCV job needs to combine the parts (eval.Merge): the dataset's
// labels and number of classes.
type CVPart struct {
	Report  Report `json:"report"`
	Labels  []int  `json:"labels"`
	Classes int    `json:"classes"`
}

// MergedCV is a MergeCV job's result: the report of the whole run and the
// paired comparison of the learned with the initial weight function over
// its folds.
type MergedCV struct {
	Report Report     `json:"report"`
	Test   PairedTest `json:"test"`
}

// PairedTest compares the learned weight function's fold accuracies with
// the initial one's, as `wkpi compare` pairs methods (core/compare):
// Differences are learned minus initial, fold by fold; Mean and Std their
// mean and sample standard deviation; TP and WilcoxonP the two-sided
// p-values of the paired t-test and of the Wilcoxon signed-rank test.
// ROCAUC is the same of the folds' ROC-AUCs, over the folds that have
// one (nil with fewer than two).
type PairedTest struct {
	ComparePaired
	Mean   float64     `json:"mean"`
	Std    float64     `json:"std"`
	ROCAUC *PairedTest `json:"roc_auc,omitempty"`
}
