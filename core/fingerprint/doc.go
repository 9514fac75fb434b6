// Package fingerprint computes Morgan (ECFP) fingerprints of molecules
// and the Tanimoto kernels on them: the chemist's baseline beside WKPI.
//
// Morgan.Environments follows RDKit's default Morgan generator (2022.09,
// rdFingerprintGenerator.GetMorganGenerator(radius=2)): every atom starts
// from RDKit's connectivity invariant (atomic number, degree counting
// hydrogens, total hydrogen count, formal charge, isotope mass minus the
// standard atomic weight truncated, ring membership), hashed with boost's
// 32-bit hash_combine; each radius hashes the previous invariant with the
// sorted (bond type, neighbour invariant) pairs, bond types being those of
// RDKit's sanitised molecule (aromatic after perception, see package
// smiles). An environment whose bond set equals one already kept (a
// smaller radius, or an earlier one in RDKit's order at the same radius)
// is dropped, and its atom takes no further part. The identifiers are
// RDKit's own: the tests find them equal, and the partition of (atom,
// radius) environments into equal-identifier classes equal, for 4,992 of
// the 4,993 molecules of RDKit's NCI sample that RDKit reads and for all
// 1,017 of its ChEMBL series CHEMBL2321810. The exception is a porphyrin
// whose aromaticity differs (package smiles). Isotope masses are exact
// for common isotopes and the mass number otherwise.
//
// The molecule must come with atom chemistry (graph.Graph.Atoms, filled by
// the SMILES and molfile readers, or by smiles.Sanitize for a graph whose
// labels were translated to elements); other graphs give ErrNoChemistry.
//
// MinMax is the Tanimoto kernel of count vectors (sum of minima over sum
// of maxima), Tanimoto that of bit vectors (Sparse.Bits folds a count
// vector as RDKit folds one); Gram builds the unit-diagonal MinMax Gram
// matrix an SVM takes as a precomputed kernel.
package fingerprint
