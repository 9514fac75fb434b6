// Package graph holds the plain data that every later stage of the WKPI
// pipeline reads: a simple undirected graph with optional node and edge
// labels, and a labelled dataset of graphs.
//
// A Graph is normalised on construction (edges ordered U < V, sorted,
// without duplicates), so that parsers may hand it edges in any order and
// any multiplicity (TU files list each edge twice, IMDB-BINARY four times).
package graph
