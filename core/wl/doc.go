// Package wl implements the Weisfeiler-Lehman subtree kernel of
// Shervashidze et al., "Weisfeiler-Lehman graph kernels" (JMLR 2011), the
// graph kernel the WKPI paper compares with (its Table 2).
//
// Every node starts with one label: the same for all nodes (structure
// only, the setting of the WKPI paper) or, with Options.NodeLabels, the
// dataset's node label. Each of h iterations replaces a node's label by a
// new one that stands for the pair (its label, the sorted multiset of its
// neighbours' labels); new labels are numbered by a dictionary shared by
// all graphs given together, so equal subtree patterns get equal numbers
// in every graph. A graph's feature vector counts how many of its nodes
// carry each label, over iterations 0..h (label numbers are never reused
// across iterations), and the kernel is the dot product of these
// vectors:
//
//	k(G, G') = sum_{i=0..h} sum_l c_i(G, l) c_i(G', l)
//
// Gram and Cross are exact dot products of the sparse vectors, so a test
// graph's row against the training graphs is what the kernel on their
// union would give (the dictionary must have seen both: compute Features
// over training and test graphs together).
package wl
