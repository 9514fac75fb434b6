// Package persistence computes persistence diagrams of a graph filtered by
// a function on its vertices (lower-star filtration: an edge enters at the
// larger value of its ends in the sublevel direction, the smaller in the
// superlevel direction).
//
// It offers 0-dimensional sublevel and superlevel persistence by
// union-find (elder rule) and the extended persistence of the graph,
// split into the four sub-diagrams Ord0, Rel1, Ext0 and Ext1 of
// Cohen-Steiner, Edelsbrunner and Harer (2009), with the point
// conventions of GUDHI's extended_persistence.
//
// Every sweep is a total order: equal values are taken by node index, and
// edges of equal value by their position in Graph.Edges, so results are
// deterministic and zero-persistence points are reproducible. Such points
// are kept, so that diagram sizes follow the graph (|Ext0| = c,
// |Ext1| = m - n + c); Diagrams.DropZero removes them.
package persistence
