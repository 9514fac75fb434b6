package scaffold

import (
	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
)

// Molecule returns g as a molecule with the bond types of RDKit's
// sanitisation (smiles.Sanitized: its clean-up of over-bonded groups,
// then its aromaticity model), so that descriptors read the same bond
// types whichever way a molecule was written: C1=CC=CC=C1 and c1ccccc1
// both give six aromatic bonds, C1=CC=CS1 and c1ccsc1 five, CN(=O)=O and
// C[N+](=O)[O-] one single and one double N-O bond.
// Node labels are element symbols and edge labels bond types ("1", "2",
// "3", "4" aromatic, "$"); nodes and edges keep g's order, so the
// result's edge i is g's edge i. Node and edge labels that are codes are
// first read through nodeNames and edgeNames, a TU dataset's README
// tables (tu.NodeLabelNames: MUTAG's node 0 is C; tu.EdgeLabelNames: its
// edge 0 aromatic); nil tables keep the labels. A graph that is not then
// a molecule is an error wrapping ErrNoElements or ErrNoBonds.
func Molecule(g *graph.Graph, nodeNames, edgeNames map[string]string) (*graph.Graph, error) {
	h := *g
	h.NodeLabels, h.EdgeLabels = Rename(g.NodeLabels, nodeNames), Rename(g.EdgeLabels, edgeNames)
	if h.EdgeLabels == nil && len(h.Edges) == 0 {
		h.EdgeLabels = []string{}
	}
	if h.EdgeLabels != nil && h.NodeLabels != nil {
		// A neutral five-valent nitrogen's N=O as the charge pair the
		// readers make of it, so that CN(=O)=O and C[N+](=O)[O-] are
		// one molecule.
		h.EdgeLabels = smiles.CleanedBonds(&h)
	}
	m, err := read(&h, elements{})
	if err != nil {
		return nil, err
	}
	h.EdgeLabels = m.bonds
	_, h.EdgeLabels = smiles.Sanitized(&h)
	return &h, nil
}

// Rename maps labels through names (a code table), keeping those it
// lacks; nil labels or a nil table give labels as they are.
func Rename(labels []string, names map[string]string) []string {
	if labels == nil || names == nil {
		return labels
	}
	out := make([]string, len(labels))
	for i, l := range labels {
		if n, ok := names[l]; ok {
			out[i] = n
		} else {
			out[i] = l
		}
	}
	return out
}
