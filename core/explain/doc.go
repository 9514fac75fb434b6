// Package explain says which parts of a graph decided a WKPI model's
// prediction, exactly.
//
// A two-class SVM's decision value is f(x) = sum_i c_i K(x_i, x) - rho
// over its support images x_i. Every kernel the models use is a function
// of one number per support image, the weighted pixel divergence
// D_i(x) = sum_s w_s t(x_is - x_s) (package kernel): the WKPI kernel is
// linear in it, k = 1 - D/2 (pixel weights sum to 1), so f(x) - f(r)
// splits exactly pixel by pixel; the Gaussian of the WKPI distance,
// exp(-D/W), and altWKPI are not, and there each support image's change
// phi(D_i(x)) - phi(D_i(r)) is split among the pixels in proportion to
// their change of D_i: integrated gradients along the straight path
// from r to x in the pixel divergences, which has the same completeness
// (the parts sum to the change, exactly) at the cost of one prediction.
//
// The reference r is the empty diagram, whose image is zero: a pixel
// where the graph has no mass contributes nothing.
//
// A pixel's contribution is shared among the persistence points in
// proportion to their mass in that pixel (pimage.Grid.Masses), and a
// point's share goes to the simplices that make it
// (persistence.Origin). With Attribution Nodes (the default) all of it
// reaches nodes: a 0-dimensional point gives half to the vertex where
// its component is born and half to the edge that ends it, an Ext0 point
// half to the vertex of its minimum and half to that of its maximum
// (where values tie, to several vertices and edges, by the origin's
// shares), a cycle equal parts to its edges, and an edge's part is
// split between its two ends;
// an edge's score is then the sum of its ends' scores. With Simplices,
// edges keep their parts. Either way the scores that hold the parts
// (nodes, or nodes and edges) sum to f(x) - f(r).
//
// Every writing of a molecule gets one explanation, and symmetric atoms
// equal scores. The diagrams, and so each point's score, do not depend
// on how ties of the descriptor are broken, but the simplices a point is
// handed to would. A 0-dimensional point (Ord0, Rel1, Ext0) therefore
// names every simplex some order of the tied values could give it, with
// shares (persistence.Origin): a ring whose atoms enter together hands
// its points to all of its atoms and bonds alike. A cycle's point keeps
// the one cycle its sweep finds, and that sweep takes tied values in a
// canonical order of the atoms (package features, through
// graph.Graph.CanonicalLabelling), not in the file's order, which leaves
// only the order among symmetric atoms to chance: of two, the one the
// canonical order takes first would take all. Each part is therefore
// spread evenly over the symmetry class of the vertex (edge) it goes to: the classes of graph.Graph.SymmetryClasses (colour
// refinement) on the graph as the model reads it, its structure, with
// the node labels when the model has label groups and the node values
// when a descriptor is made of them (a descriptor not known to read the
// structure alone keeps every label); for a molecule, bonds that a
// resonance form swaps count alike (scaffold.ResonanceBonds: a nitro
// group's two oxygens, written one N=O and one N-O). A node's score is its
// class's parts over the class's size, so completeness stays exact.
// Where colour refinement is coarser than the automorphisms (regular
// graphs, rare in molecules) a part may reach vertices the model could
// tell apart; it still stays within the class.
//
// Molecules get their functional groups scored (FindGroups: nitro,
// carboxylic acid, ester, amide, carbonyl, nitrile, hydroxyl, amine,
// sulfonyl and sulfonamide, thiol, thioether, benzene and other aromatic
// rings, halogens). The molecule is read as chemistry-aware descriptors
// read it (features.Settings.Molecule: element symbols, TU codes through
// the model's code tables) with RDKit's aromaticity; a graph whose labels
// are no elements and bond types has no groups. A group's score is the
// sum of its atoms' node scores, with Simplices also of the edges between
// two of its atoms, so it is exact as they are; its share is that score
// over the sum of the |scores| of all nodes (and edges, with Simplices).
// Groups may overlap (fused rings share atoms), so shares need not sum
// to 1.
//
// With several classes the SVM has one decision value per pair of
// classes; the explanation is for the predicted class c and sums the
// pairs that involve c, each signed towards c, the one-vs-rest score
// scikit-learn and svm.Model.Scores use; a two-class model's score of its
// predicted class is its decision value signed towards that class.
package explain
