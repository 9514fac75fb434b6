package smiles

import (
	"wkpi-web/core/graph"
)

// Bonding types: node labels for molecules that tell a nitrogen or an
// oxygen by how it is bonded, as a chemist's atom types do (after the
// Tripos SYBYL types N.ar, N.2, N.am, N.3, O.2, O.3; Clark, Cramer and
// Van Opdenbosch, J. Comput. Chem. 10, 982-1012, 1989), so that the heat
// of a label group tells an amine from an amide and a hydroxyl from an
// ether, which the element alone cannot. Four splits go beyond SYBYL's,
// after what ECFP's atom invariants and pharmacophore types read
// (hydrogens, neighbours, rings): a nitrogen with a hydrogen (a
// hydrogen-bond donor, N.H) from one without; an oxygen double-bonded to
// a carbon from one on a heteroatom (S=O, P=O, a nitro group's, O.2x);
// an alcohol's hydroxyl from the more acidic ones of acids, phenols and
// oximes (O.Ha); and an azine's aromatic nitrogen, in a six-membered
// ring (N.ar), from an azole's (N.az). Every other atom keeps its
// element symbol: carbon's bonding is what the bond-order filtrations
// already see.
const (
	// BondingAromaticN is an aromatic nitrogen whose smallest ring has
	// six atoms: an azine's (pyridine, pyrimidine, quinoline).
	BondingAromaticN = "N.ar"
	// BondingAzoleN is any other aromatic nitrogen: an azole's (pyrrole,
	// imidazole, indole, triazole).
	BondingAzoleN = "N.az"
	// BondingDoubleN is any other nitrogen with a double or triple bond
	// (imine, nitrile, azo, nitro).
	BondingDoubleN = "N.2"
	// BondingAmideN is any other nitrogen single-bonded to a non-aromatic
	// carbon that has a double bond to O or S: amides, thioamides, ureas,
	// carbamates, imides.
	BondingAmideN = "N.am"
	// BondingDonorN is any other nitrogen with a hydrogen: primary and
	// secondary amines, anilines, sulfonamides' NH, hydrazines.
	BondingDonorN = "N.H"
	// BondingSingleN is any other nitrogen: tertiary amines and anilines,
	// quaternary ammonium.
	BondingSingleN = "N.3"
	// BondingDoubleO is an oxygen with a double bond or a negative formal
	// charge, except those of O.2x: carbonyl, carboxylate.
	BondingDoubleO = "O.2"
	// BondingHeteroDoubleO is an oxygen with a double bond or a negative
	// charge whose one neighbour is no carbon: S=O, P=O, N=O, a nitro
	// group's, an N-oxide's.
	BondingHeteroDoubleO = "O.2x"
	// BondingHydroxylO is any other oxygen with no heavy neighbour or
	// one saturated carbon: the hydroxyl of an alcohol, water.
	BondingHydroxylO = "O.H"
	// BondingAcidicHydroxylO is any other oxygen with one heavy
	// neighbour: the hydroxyl of an acid, a phenol, an enol, an oxime or
	// another heteroatom.
	BondingAcidicHydroxylO = "O.Ha"
	// BondingEtherO is any other oxygen: ethers, esters' single-bonded O,
	// furans.
	BondingEtherO = "O.3"
)

// BondingRules is the version of the rules BondingTypes follows, which
// models keep with their vocabulary: 1 is SYBYL's types alone (N.H typed
// N.3, O.2x typed O.2), 2 adds the hydrogen and heteroatom splits, 3 the
// acidic hydroxyl (O.Ha, typed O.H before) and the azole nitrogen (N.az,
// typed N.ar before).
const BondingRules = 3

// BondingTypesOf returns the bonding types of g under rules version
// rules (1 to BondingRules), so that a model types atoms as it was
// trained to.
func BondingTypesOf(g *graph.Graph, rules int) []string {
	types := BondingTypes(g)
	for a, t := range types {
		switch {
		case rules < 3 && t == BondingAzoleN:
			types[a] = BondingAromaticN
		case rules < 3 && t == BondingAcidicHydroxylO:
			types[a] = BondingHydroxylO
		case rules < 2 && t == BondingDonorN:
			types[a] = BondingSingleN
		case rules < 2 && t == BondingHeteroDoubleO:
			types[a] = BondingDoubleO
		}
	}
	return types
}

// BondingTypes returns the bonding type of every atom of g, whose node
// labels are element symbols and edge labels bond types: N and O by the
// rules of the Bonding* constants, read on the molecule as RDKit
// sanitises it (its aromaticity, its bond types), every other atom its
// element symbol. g.Atoms, when present, holds the charges; a molecule
// without them (a TU dataset's) gets them as GasteigerCharges does, so
// that it has the types of the same molecule read from SMILES.
func BondingTypes(g *graph.Graph) []string {
	m := newMolecule(Charged(g))
	aromatic, bonds := m.sanitized()
	multiple := func(a int) bool { // a double or triple bond
		for _, k := range m.inc[a] {
			if bonds[k] == BondDouble || bonds[k] == BondTriple {
				return true
			}
		}
		return false
	}
	acyl := func(a int) bool { // a non-aromatic C=O or C=S carbon
		if m.z[a] != 6 || aromatic[a] {
			return false
		}
		for _, k := range m.inc[a] {
			if b := m.z[m.other(k, a)]; bonds[k] == BondDouble && (b == 8 || b == 16) {
				return true
			}
		}
		return false
	}
	saturatedCarbon := func(a int) bool { // four single bonds, counting hydrogens
		return m.z[a] == 6 && !aromatic[a] && !multiple(a) && len(m.inc[a])+m.hs[a] == 4
	}
	smallestRing := make([]int, g.N)
	for _, r := range m.rings {
		for _, a := range r.atoms {
			if smallestRing[a] == 0 || len(r.atoms) < smallestRing[a] {
				smallestRing[a] = len(r.atoms)
			}
		}
	}
	out := make([]string, g.N)
	for a := range g.N {
		out[a] = m.symbol(a)
		switch m.z[a] {
		case 7:
			out[a] = BondingSingleN
			switch {
			case aromatic[a] && smallestRing[a] == 6:
				out[a] = BondingAromaticN
			case aromatic[a]:
				out[a] = BondingAzoleN
			case multiple(a):
				out[a] = BondingDoubleN
			default:
				for _, k := range m.inc[a] {
					if bonds[k] == BondSingle && acyl(m.other(k, a)) {
						out[a] = BondingAmideN
					}
				}
				if out[a] == BondingSingleN && m.hs[a] > 0 {
					out[a] = BondingDonorN
				}
			}
		case 8:
			switch {
			case multiple(a) || m.charge[a] < 0:
				out[a] = BondingDoubleO
				if len(m.inc[a]) == 1 && m.z[m.other(m.inc[a][0], a)] != 6 {
					out[a] = BondingHeteroDoubleO
				}
			case len(m.inc[a]) == 0:
				out[a] = BondingHydroxylO
			case len(m.inc[a]) == 1 && !aromatic[a]:
				out[a] = BondingAcidicHydroxylO
				if c := m.other(m.inc[a][0], a); saturatedCarbon(c) {
					out[a] = BondingHydroxylO
				}
			default:
				out[a] = BondingEtherO
			}
		}
	}
	return out
}
