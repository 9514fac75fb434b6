// Package scaffold computes the Bemis-Murcko scaffolds of molecular
// graphs and canonical keys for them, in pure Go, so that a
// cross-validation can keep each scaffold in one fold (MoleculeNet's
// scaffold split: the test folds hold chemistry the training folds lack).
//
// A molecule is a *graph.Graph as core/smiles and the molfile reader make
// it: node labels are element symbols (C, N, Cl, or the wildcard *), edge
// labels bond types "1", "2", "3", "4" (aromatic) or "$"; the words
// single, double, triple, aromatic and quadruple of a TU README's table
// are read too. Other graphs are refused (ErrNoElements, ErrNoBonds).
//
// Of is the scaffold as RDKit's GetScaffoldForMol (C++ MurckoDecompose)
// computes it, checked against RDKit 2022.09: the atoms on rings, the
// atoms on the paths between rings (linkers), and every atom joined to
// those by a double bond, so that the O of a ring or linking C=O and
// both O of a linking sulfonyl stay, while an acetyl group, a nitrile or
// a nitro group go whole. An acyclic molecule has the empty scaffold.
// Key is the canonical form of the scaffold (Canonical: the exact
// canonical labelling of graph.Graph.CanonicalLabelling, no hash), and
// Groups numbers a dataset's molecules by their keys.
//
// Before taking the scaffold, bonds are normalised as RDKit's
// sanitisation would make them: an aromatic bond outside rings is single,
// and ring bonds that are double in some Kekulé structure and single in
// another are aromatic, so that C1=CC=CC=C1 and c1ccccc1, or the three
// Kekulé structures of naphthalene, give one key. This is not RDKit's
// aromaticity model (Hückel's rule over ring systems), and they part in
// these cases, none of which splits or merges RDKit's groups in a dataset
// written one way throughout:
//
//   - rings with a single Kekulé structure that RDKit calls aromatic
//     (pyrrole C1=CNC=C1, furan, thiophene, 2-pyridone) keep their single
//     and double bonds, so read from Kekulé SMILES they are another key
//     than read from aromatic SMILES (c1cc[nH]c1);
//   - rings that alternate but that RDKit does not call aromatic
//     (cyclooctatetraene, biphenylene's four-membered ring) are aromatic
//     here: two bond-shift isomers of such a ring share a key;
//   - an exocyclic C=C can make a ring aromatic in RDKit (p-xylylene,
//     C=c1ccc(=C)cc1) and not here.
//
// Against RDKit's MurckoScaffoldSmiles(mol=...) on RDKit's NCI sample
// (first_5K.smi: 4,999 molecules, 4,993 of which RDKit reads; see
// TestGroupsAgainstRDKit and testdata/nci_rdkit.txt, which lists every
// difference): read as written (Kekulé), the keys make 1,051 groups to
// RDKit's 1,070, and 4,711 molecules sit in a group equal to RDKit's;
// read from RDKit's canonical aromatic SMILES, 1,049 groups and 4,704
// molecules. No RDKit group is split. The groups the keys merge differ
// only in what these graphs do not carry: formal charges (a pyridinium
// c1cc[nH+]cc1 beside pyridine c1ccncc1, Co+3 beside Co) and, read from
// aromatic SMILES, which aromatic n carries a tautomer's H. With charges
// and hydrogen counts cleared from RDKit's scaffolds, the keys of the
// aromatic SMILES group the sample exactly as RDKit does. MUTAG's 188
// molecules, read from its TU files, fall into 46 groups, RDKit's
// (TestMUTAGAgainstRDKit).
package scaffold
