// Package swc reads neuron morphologies in the SWC format as trees whose
// nodes carry the descriptor that WKPI (Zhao & Wang 2019) filters neurons
// by.
//
// Each non-comment line is "id type x y z radius parent" (whitespace
// separated; '#' starts a comment; extra trailing columns are ignored).
// Samples become nodes in file order, parent links become edges, and the
// SWC type code (1 soma, 2 axon, 3 basal dendrite, 4 apical dendrite, ...)
// becomes the node label.
//
// Graph.NodeValues holds the geodesic distance of each sample to its root:
// the Euclidean length of the path along the tree. It is negated on
// dendrite samples (types 3 and 4) and positive elsewhere, so a sublevel
// filtration sweeps dendrites and axon from opposite ends.
//
// A parent of -1 (any negative id) marks a root. Several roots are
// accepted and give a forest, each tree measured from its own root:
// NeuroMorpho files have one root, but traced fragments are sometimes
// saved together and rejecting them would gain nothing. Duplicate ids,
// parents that are never defined, and cycles are errors.
package swc
