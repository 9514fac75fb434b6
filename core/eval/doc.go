// Package eval holds the generic machinery of classification
// experiments: stratified k-fold splits, accuracy and confusion matrices,
// cross-validation of any Learner, nested cross-validation over a
// parameter grid, and repetition with different seeds.
//
// Learners see only sample indices into the caller's dataset, so the
// package knows nothing of graphs, kernels or SVMs.
//
// Choose and CrossValidateChosen choose between candidate feature sets
// of one dataset per outer fold by inner CV on that fold's training
// graphs (`wkpi eval -auto`); Config.SVM (SVMGrid) has every fold choose
// its SVM's kernel, the WKPI kernel or the Gaussian of the WKPI distance,
// and C by inner CV of the unlearned kernel on its training graphs. Learning objectives other
// than TC (kernel-target alignment) and per-block channel scales are in
// align.go; both need the WKPI kernel's linearity in the pixel weights.
//
// A run's independent jobs (outer fold x repeat) can be cut into shards
// (Shard) run apart, each saved as a Part that names its run (RunID);
// MergeParts refuses missing, duplicated or foreign parts and gives the
// reports of the run in one process.
//
// Spreads over folds or repeats are population standard deviations
// (divide by n, numpy's np.std default), the convention of the tables
// of Zhao and Wang (2019) and most graph-kernel papers.
package eval
