// Package svm trains a C-support vector classifier on a precomputed Gram
// matrix, the way LIBSVM (and scikit-learn's SVC(kernel="precomputed"))
// does: sequential minimal optimisation with second-order working-set
// selection (Fan, Chen and Lin, JMLR 2005), LIBSVM's bias (rho) rule, and
// one-vs-one voting for more than two classes.
//
// It exists because no Go library trains on a precomputed kernel. A Model
// is plain data (JSON-serialisable) that refers to training samples by
// index, so predicting needs only the kernel values of a new sample
// against the training set, and only at SupportVectors.
//
// Sign convention: for every pair (A, B) with A < B, including the
// two-class case, a positive decision value votes for A. This is
// scikit-learn's decision_function_shape="ovo" convention for three or more
// classes; for two classes scikit-learn's decision_function returns the
// negated value (positive means class 1).
package svm
