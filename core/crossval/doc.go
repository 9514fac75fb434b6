// Package crossval holds the generic machinery of classification
// experiments: stratified k-fold splits (StratifiedKFold, Split) and
// grouped ones that keep each group whole in one fold (GroupKFold),
// accuracy and confusion matrices, cross-validation of any Learner,
// nested cross-validation over a parameter grid, repetition with
// different seeds, the median heuristic of RBF widths (Median), and the
// paired tests of two methods' accuracies on the same folds (Compare:
// Wilcoxon signed-rank and paired t, as scipy.stats computes them).
//
// Beyond accuracy, every fold gets the metrics scikit-learn reports for
// unbalanced classes (Evaluate): balanced accuracy, macro F1 and ROC-AUC
// (binary, or macro one-vs-rest for more classes), each defined as its
// sklearn counterpart (see BalancedAccuracy, F1Macro, ROCAUC). ROC-AUC
// needs scores, which a Predictor gives by being a Scorer; it is
// undefined (NaN, a Metric, null in JSON) for a test set of one class,
// and a Summary over folds averages the defined values and counts the
// others.
//
// Learners see only sample indices into the caller's dataset and the
// labels, so the package knows nothing of graphs, kernels or SVMs: of
// this module it imports only core/progress and core/wire (the paired
// test's plain result type). core/eval (WKPI, learned
// against unlearned) and core/compare (WKPI against the baselines) build
// on it.
//
// Spreads over folds or repeats are population standard deviations
// (divide by n, numpy's np.std default), the convention of the tables
// of Zhao and Wang (2019) and most graph-kernel papers.
package crossval
