// Package graphstats computes plain graph statistics, the floor any
// topological method must beat (the "stats" method of `wkpi compare`):
// node and edge counts, mean and largest degree, density, a histogram of
// node degrees in fixed bins, the number of connected components, the
// cycle rank (E - V + C, the number of independent cycles) and the number
// of triangles.
//
// Statistics have very different scales, so a classifier on them
// standardises every feature (zero mean, unit population standard
// deviation); Fit takes those statistics from the training samples only,
// so nothing is learned from a test fold.
package graphstats
