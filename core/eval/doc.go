// Package eval evaluates WKPI-SVM classifiers on one dataset's features
// (features.Set): in every outer fold of a stratified cross-validation it
// learns the weight function on the training graphs (core/learn), trains
// a C-SVC on the WKPI kernel (core/kernel, core/svm) and tests it, and on
// the same folds does the same with the initial (unlearned) weight
// function, so that a Report gives learned against unlearned accuracy
// fold by fold. WKPI.Train fits one setting on a whole dataset and
// returns a model (core/model). It is the last stage of the pipeline; the
// generic parts of the experiments (folds, accuracies, population
// spreads, the median heuristic) are core/crossval's.
//
// Every fold keeps its test graphs' per-class SVM scores (Fold.Scores,
// svm.Model.Scores) for the learned and the unlearned SVM: with two
// classes the decision value of the positive class (the second), with
// more scikit-learn's one-vs-rest shape of the one-vs-one votes. From
// them and the predictions each fold gets, beside accuracy, ROC-AUC,
// balanced accuracy and macro F1 (crossval.Evaluate), and a Report
// their means and spreads over the folds (crossval.Summary).
//
// Protocols (the Protocol interface, in the style of gonum's
// optimize.Method): Fixed, WKPI.CrossValidate with one Config; Nested,
// WKPI.Nested over a Grid, every outer fold choosing its cell by inner CV
// on its training graphs; Cost, WKPI.SelectByCost, the paper's second
// protocol (the cell of least training cost); Auto, CrossValidateChosen
// (below). Setup.Protocol gives the one a Spec names, and Run runs it on
// a Source: features shared by all folds, or (Source.PerFold) fitted to
// each fold's training graphs, as the node-label vocabulary is, through
// ByTrainingFolds. The command line, the page's workers and compare all
// go through Run. A Plan runs some folds only, and Merge joins the
// reports of disjoint folds, so that a pool of workers can share one
// cross-validation.
//
// Automatic choices, always by inner CV on the training graphs alone:
// Choose and CrossValidateChosen choose between candidate feature sets of
// one dataset per outer fold (`wkpi eval -auto`: unit or size-aware
// images, SizeAware), and TrainChosen does so for a model; Config.SVM
// (SVMGrid) has every fold choose its SVM's kernel, the WKPI kernel or
// the Gaussian of the WKPI distance, and C by inner CV of the unlearned
// kernel. Learning objectives other than TC (kernel-target alignment) and
// per-block channel scales are in align.go; both need the WKPI kernel's
// linearity in the pixel weights.
//
// Kernel matrices come from a pair table per kernel width (kernel.Table,
// bounded by WKPI.MaxTableBytes) shared by all folds and weight
// functions, from direct computation, or with Config.Nystrom from a
// Nyström approximation on landmark training graphs.
//
// A run's independent jobs (outer fold x repeat) can be cut into shards
// (Shard) run apart, each saved as a Part that names its run (RunID);
// MergeParts refuses missing, duplicated or foreign parts and gives the
// reports of the run in one process.
package eval
