// Package graph holds the plain data the WKPI pipeline starts from: a
// simple undirected graph with optional node and edge labels, and a
// labelled dataset of graphs. The readers (tu, swc, graphfile) build
// them; filtration, persistence and features turn them into the vectors
// that the later stages (kernels, learning, SVM, evaluation) work on.
//
// A Graph is normalised on construction (edges ordered U < V, sorted,
// without duplicates), so that parsers may hand it edges in any order and
// any multiplicity (TU files list each edge twice, IMDB-BINARY four times).
//
// Graphs also know their symmetry: SymmetryClasses (colour refinement)
// and CanonicalLabelling (individualisation-refinement, exact), for
// scaffolds' canonical forms and for explanations that do not depend on
// how a file numbers its atoms.
package graph
