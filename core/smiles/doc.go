// Package smiles reads SMILES strings into labelled molecular graphs, in
// pure Go (no cgo), so that it runs natively and in WebAssembly.
//
// Parse follows the OpenSMILES grammar and produces graphs in the
// convention of the molfile reader in package graphfile, so that a molecule
// read from SMILES and from a molfile gives the same graph:
//
//   - Nodes are the atoms in their order of appearance in the string, which
//     is also the atom order of RDKit's MolFromSmiles (the tests check this
//     against RDKit). Node labels are element symbols with their usual
//     capitalisation: aromatic c and [nH] become "C" and "N", [Na+] becomes
//     "Na", and the wildcard * stays "*". Chirality and atom classes are
//     read and checked, then dropped; charges, isotopes and hydrogens go
//     to graph.Graph.Atoms (below).
//   - Edge labels are bond types: BondSingle "1" (written -, / or \, or
//     nothing), BondDouble "2" (=), BondTriple "3" (#), BondAromatic "4"
//     (: or nothing between two aromatic atoms) and BondQuadruple "$" ($),
//     which has no molfile type. Bond orders are kept as written, as RDKit
//     reads them before sanitisation: a Kekulé benzene C1=CC=CC=C1 keeps
//     its "1" and "2" bonds (RDKit's sanitised molecule calls them
//     aromatic), and the bond joining the rings of c1ccccc1c1ccccc1 is "4"
//     (sanitised RDKit: single).
//   - Hydrogens are not nodes, except those RDKit's MolFromSmiles keeps by
//     default (RemoveHs of RDKit 2022.09): a [H] with no neighbour ([H+],
//     [H]) or with several, one with a mass ([2H]C keeps its deuterium
//     and [1H] its protium; [0H] counts as no mass), one bonded to another
//     hydrogen ([H][H] is two nodes and a bond), to a wildcard or to an
//     @SP, @TB or @OH centre, and one on a '/' or '\' bond that is the only
//     substituent of a double-bonded atom ([H]/C=C/F keeps it).
//   - Disconnected parts separated by '.' become components of one graph.
//
// # Atom chemistry
//
// Parse fills graph.Graph.Atoms as RDKit's MolFromSmiles (2022.09) leaves
// its atoms: the formal charge and isotope as written, except that
// RDKit's clean-up turns a neutral five-valent nitrogen's N=O into
// [N+][O-] (nitro groups, N-oxides; N=N#N into N=[N+]=[N-]) and a
// halogen's X=O bonds into [X+n]([O-]) (perchlorate); the total hydrogen
// count (GetTotalNumHs): a bracket atom's written count, else the
// implicit hydrogens of RDKit's valence model (B 3, C 4, N 3, O 2, P 3 5
// 7, S 2 4 6, halogens 1, I also 3 5; the smallest allowed valence that
// holds the bonds, a charge shifting it as for the isoelectronic element;
// an aromatic atom fills only its default valence, so c between two
// aromatic bonds has one H, pyridine's n none, and pyrrole needs [nH]),
// plus hydrogens written as atoms and removed; and aromaticity as RDKit
// perceives it after sanitisation: aromatic bonds as written are
// kekulised, then RDKit's model is applied afresh (each ring atom's
// electron donor type, Hückel's 4n+2 rule on single rings of a minimum
// cycle basis and on fused systems of up to six of them), so a Kekulé
// benzene is aromatic and a written c outside a Hückel ring is not.
// Sanitize does the same for a molfile's atoms or a TU dataset's
// translated labels, and Sanitized gives the bond types after
// perception (what a Morgan fingerprint hashes).
//
// The tests compare charge, isotope, aromaticity and hydrogen count atom
// by atom with RDKit for every molecule of RDKit's NCI sample that RDKit
// reads (4,993 of 4,999) and for its 200-molecule SD sample and 47 CDK2
// ligands (package graphfile): all agree except one NCI porphyrin (line
// 2615), where RDKit's symmetrised ring set makes one atom of the
// macrocycle non-aromatic and the minimum cycle basis used here does not.
// RDKit's radicals, dative bonds and clean-up of organometallics and of
// [C,N]=P(=O) are not modelled.
//
// Parse reports malformed input as a *SyntaxError carrying the 1-based
// character position. Beyond the grammar it rejects what cannot be a
// simple graph or is surely a typing error: a ring bond closing on its own
// atom (C11), a ring bond duplicating a bond (C1C1), ring bond symbols that
// disagree at the two ends (C=1CCCC-1), empty branches and bonds or dots
// with nothing after them.
//
// Differences from RDKit's MolFromSmiles (2022.09), all checked by the
// tests against RDKit itself:
//
//   - Parse checks no chemistry; ParseMolecule (and Check, for molfiles)
//     refuses what RDKit's sanitisation refuses, for the same reasons:
//     valences (five-bonded carbon; six molecules of RDKit's NCI sample,
//     metal complexes and over-bonded N and O), aromatic atoms outside
//     rings, and aromatic systems with no Kekulé form (c1cc1, c1ccnc1).
//     The file readers and the command line read SMILES with
//     ParseMolecule.
//   - The empty string is an error ("empty SMILES"); RDKit returns an
//     empty molecule.
//   - RDKit takes the opening symbol of a ring bond written differently at
//     its two ends; Parse reports the conflict.
//   - Parse reads the SMILES string alone. RDKit trims white space, reads
//     a name or a CXSMILES extension after a space, and stops at a
//     non-ASCII character.
//   - / and \ are single bonds. Between two aromatic atoms RDKit's
//     parser calls them aromatic until sanitisation makes them single.
//   - Only OpenSMILES's bracket syntax parses: chirality @TH1-2, @AL1-2,
//     @SP1-3, @TB1-20 and @OH1-30 (RDKit also reads @OH, @TB0 and the
//     like as unspecified), charges of at most two digits, the aromatic
//     symbols b c n o p s se as te, and current element symbols (RDKit
//     also reads [Uuo]). OpenSMILES's own liberties that RDKit refuses are
//     accepted: a dot right after '(' ("C(.C)C"), ring number %01 for 1,
//     and the charge -02.
//   - Like RDKit and unlike OpenSMILES, Parse accepts ring bonds after a
//     branch, C(C)1CC1, and ring numbers above 99 written %(123).
package smiles
