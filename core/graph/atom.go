package graph

// Atom is the chemistry of one node of a molecule, beyond its element
// symbol (the node label). The SMILES and molfile readers fill it; graphs
// of other formats have none (Graph.Atoms is nil).
type Atom struct {
	// Charge is the formal charge: +1 for [NH4+], -1 for [O-].
	Charge int `json:"charge,omitempty"`
	// Hydrogens counts the hydrogens attached to the atom that are not
	// nodes of the graph: those written in a bracket atom ([NH2+]) and the
	// implicit ones of the valence model, as RDKit's GetTotalNumHs counts
	// them after its default reading (sanitised, hydrogens removed).
	Hydrogens int `json:"hydrogens,omitempty"`
	// Isotope is the mass number written for the atom ([13C] gives 13), or
	// 0 for the natural mixture.
	Isotope int `json:"isotope,omitempty"`
	// Aromatic is RDKit's aromaticity perception of the sanitised molecule:
	// a Kekulé benzene's carbons are aromatic, a written c outside a
	// Hückel ring is not.
	Aromatic bool `json:"aromatic,omitempty"`
}
