package smiles

import (
	"wkpi-web/core/graph"
)

// GasteigerCharges returns each atom's Gasteiger-Marsili partial charge
// (J. Gasteiger and M. Marsili, "Iterative partial equalization of
// orbital electronegativity", Tetrahedron 36(22), 1980), as RDKit's
// ComputeGasteigerCharges gives it with its defaults (12 iterations):
// charge flows along every bond from the atom of lower to the atom of
// higher orbital electronegativity, a + b q + c q^2 with a, b, c those of
// the atom's element and hybridisation, in steps damped by 1/2 each
// iteration; an atom's hydrogens that are not nodes take part as one
// group. Formal charges start the iteration, shared among the atoms of
// one element that a conjugated bond path of two steps joins (a
// carboxylate's two oxygens start at -1/2 each).
//
// g is a molecule as Parse or the molfile reader give it: element symbols
// as node labels, bond types as edge labels, and g.Atoms with charges and
// hydrogen counts. A graph without g.Atoms (a TU dataset's molecule) gets
// the hydrogens of the valence model, and a neutral nitrogen with four
// bonds (a nitro group written with one N=O and one N-O) the charges of
// its charge-separated form, +1 and -1 on its singly bonded terminal
// oxygen. Hybridisation follows RDKit's (conjugation included: an
// amide's or aniline's nitrogen is sp2).
//
// Atoms whose element and hybridisation have no parameters (metals, a
// five-coordinate atom other than S) keep their starting charge and
// exchange none: RDKit gives them, and every atom bonded to them, NaN.
//
// Written here rather than taken from a library: no Go package computes
// partial charges, and the descriptors need them in the browser too.
func GasteigerCharges(g *graph.Graph) []float64 {
	m := newMolecule(Charged(g))
	aromatic, bondTypes := m.sanitized()
	order := make([]float64, len(bondTypes))
	for k, b := range bondTypes {
		order[k] = BondOrder(b)
	}
	conj := m.conjugated(order)
	n := g.N
	params := make([][3]float64, n)
	known := make([]bool, n)
	ionX := make([]float64, n)
	for a := range n {
		params[a], known[a] = gasteigerParams[gasteigerKey{element: m.symbol(a), mode: m.gasteigerMode(a, order, aromatic[a], conj)}]
		ionX[a] = params[a][0] + params[a][1] + params[a][2]
		if m.z[a] == 1 {
			ionX[a] = ionXH
		}
	}
	q := m.startingCharges(conj)
	hq := make([]float64, n) // the charge of all of an atom's hydrogens
	hp := gasteigerParams[gasteigerKey{"H", "*"}]
	energy := make([]float64, n)
	damp := 0.5
	for range gasteigerIterations {
		for a := range n {
			energy[a] = params[a][0] + q[a]*(params[a][1]+params[a][2]*q[a])
		}
		for a := range n {
			if !known[a] {
				continue
			}
			dq := 0.0
			for _, k := range m.inc[a] {
				b := m.other(k, a)
				if !known[b] {
					continue
				}
				dq += flow(energy[b]-energy[a], ionX[a], ionX[b])
			}
			if nh := m.hs[a]; nh > 0 {
				qh := hq[a] / float64(nh)
				dh := flow(hp[0]+qh*(hp[1]+hp[2]*qh)-energy[a], ionX[a], ionXH)
				dq += float64(nh) * dh
				hq[a] -= float64(nh) * dh * damp
			}
			q[a] += damp * dq
		}
		damp *= 0.5
	}
	return q
}

// flow is the charge an atom of electronegativity x (at zero charge: its
// ionX) takes from a neighbour of x' whose energy exceeds its own by dx:
// divided by the ionX of the atom that gives the electrons.
func flow(dx, x, xNeighbour float64) float64 {
	if dx < 0 {
		return dx / xNeighbour
	}
	return dx / x
}

const (
	gasteigerIterations = 12
	ionXH               = 20.02 // the hydrogen's a + b + c as RDKit fixes it
)

type gasteigerKey struct{ element, mode string }

// gasteigerParams are a, b, c of the orbital electronegativity a + b q +
// c q^2 per element and hybridisation: Gasteiger and Marsili's table as
// RDKit holds it, and RDKit's additions for P sp2, Si, B, Be, Mg and Al
// (computed as PyBabel does).
var gasteigerParams = map[gasteigerKey][3]float64{
	{"H", "*"}:   {7.17, 6.24, -0.56},
	{"C", "sp3"}: {7.98, 9.18, 1.88}, {"C", "sp2"}: {8.79, 9.32, 1.51}, {"C", "sp"}: {10.39, 9.45, 0.73},
	{"N", "sp3"}: {11.54, 10.82, 1.36}, {"N", "sp2"}: {12.87, 11.15, 0.85}, {"N", "sp"}: {15.68, 11.7, -0.27},
	{"O", "sp3"}: {14.18, 12.92, 1.39}, {"O", "sp2"}: {17.07, 13.79, 0.47},
	{"F", "sp3"}: {14.66, 13.85, 2.31}, {"Cl", "sp3"}: {11.00, 9.69, 1.35}, {"Br", "sp3"}: {10.08, 8.47, 1.16},
	{"I", "sp3"}: {9.9, 7.96, 0.96},
	{"S", "sp3"}: {10.14, 9.13, 1.38}, {"S", "so"}: {10.14, 9.13, 1.38}, {"S", "so2"}: {12.00, 10.81, 1.20},
	{"S", "sp2"}: {10.88, 9.49, 1.33},
	{"P", "sp3"}: {8.90, 8.24, 0.96}, {"P", "sp2"}: {9.665, 8.530, 0.735},
	{"Si", "sp3"}: {7.300, 6.567, 0.657}, {"Si", "sp2"}: {7.905, 6.748, 0.443}, {"Si", "sp"}: {9.065, 7.027, -0.002},
	{"B", "sp3"}: {5.980, 6.820, 1.605}, {"B", "sp2"}: {6.420, 6.807, 1.322},
	{"Be", "sp3"}: {3.845, 6.755, 3.165}, {"Be", "sp2"}: {4.005, 6.725, 3.035},
	{"Mg", "sp2"}: {3.565, 5.572, 2.197}, {"Mg", "sp3"}: {3.300, 5.587, 2.447}, {"Mg", "sp"}: {4.040, 5.472, 1.823},
	{"Al", "sp3"}: {5.375, 4.953, 0.867}, {"Al", "sp2"}: {5.795, 5.020, 0.695},
}

// symbol is atom a's element symbol.
func (m *molecule) symbol(a int) string {
	if m.g.NodeLabels == nil {
		return ""
	}
	return m.g.NodeLabels[a]
}

// Charged returns g when it has Atoms, else a copy whose Atoms are those
// of RDKit's reading of a molfile without charges (Sanitize), with a
// nitro group's charges (chargeSeparate): the molecule a file would hold
// for a TU dataset's graph, whose nitro groups are N(=O)O, uncharged.
func Charged(g *graph.Graph) *graph.Graph {
	if g.Atoms != nil {
		return g
	}
	h := *g
	Sanitize(&h)
	chargeSeparate(&h)
	return &h
}

// chargeSeparate gives a neutral nitrogen with four bonds the charge +1
// and one singly bonded terminal oxygen neighbour -1, the charges a
// molfile or SMILES would have given a nitro group that a TU dataset
// writes with one N=O and one N-O and no charges.
func chargeSeparate(g *graph.Graph) {
	m := newMolecule(g)
	for a := range g.N {
		if m.z[a] != 7 || m.charge[a] != 0 || m.bondSum(a) != 4 {
			continue
		}
		for _, k := range m.inc[a] {
			if b := m.other(k, a); m.z[b] == 8 && m.order[k] == 1 && len(m.inc[b]) == 1 && m.charge[b] == 0 {
				g.Atoms[a].Charge, g.Atoms[b].Charge = 1, -1
				g.Atoms[a].Hydrogens, g.Atoms[b].Hydrogens = 0, 0
				break
			}
		}
	}
}

// conjugated marks the bonds RDKit calls conjugated, given each bond's
// order after aromaticity perception (aromatic 1.5): aromatic bonds, and
// at an atom with two or three neighbours (hydrogens counted) that can
// give electrons to a pi system, each multiple bond together with every
// other bond to such an atom.
func (m *molecule) conjugated(order []float64) []bool {
	conj := make([]bool, len(order))
	for k, o := range order {
		conj[k] = o == 1.5
	}
	for a := range m.g.N {
		if !m.conjugationCandidate(a) {
			continue
		}
		if s := len(m.inc[a]) + m.hs[a]; s < 2 || s > 3 {
			continue
		}
		for _, k1 := range m.inc[a] {
			if order[k1] < 1.5 {
				continue
			}
			for _, k2 := range m.inc[a] {
				if k2 == k1 {
					continue
				}
				b := m.other(k2, a)
				if len(m.inc[b])+m.hs[b] > 3 || !m.conjugationCandidate(b) {
					continue
				}
				conj[k1], conj[k2] = true, true
			}
		}
	}
	return conj
}

// conjugationCandidate is RDKit's test of an atom that may take part in
// a conjugated system: it has electrons to give, and beyond the first two
// rows of the table it is no pnictogen or chalcogen unless a terminal
// chalcogen (the C-P bonds of a phenylphosphine are not conjugated).
func (m *molecule) conjugationCandidate(a int) bool {
	z, outer := m.z[a], nOuter(m.z[a])
	deg := len(m.inc[a]) + m.hs[a]
	return (z <= 10 || (outer != 5 && outer != 6) || (outer == 6 && deg < 2)) && m.countElectrons(a) > 0
}

// gasteigerMode is the hybridisation RDKit gives atom a, as the key of
// the parameter table: from its neighbours (hydrogens counted) and lone
// pairs, 2 orbitals sp, 3 sp2, 4 sp3 unless it has at most three
// neighbours and a conjugated bond (the OH oxygen of an acid, an amide's
// nitrogen: sp2). A hydrogen is "*"; a sulfur with none of these,
// "so2", "so" or "sp3" by its oxygen neighbours.
func (m *molecule) gasteigerMode(a int, order []float64, aromatic bool, conj []bool) string {
	if m.z[a] == 1 {
		return "*"
	}
	deg := len(m.inc[a]) + m.hs[a]
	sum := float64(m.hs[a])
	hasConj := false
	for _, k := range m.inc[a] {
		sum += order[k]
		hasConj = hasConj || conj[k]
	}
	valence := explicitValence(m.z[a], m.charge[a], sum, aromatic)
	// An atom with more bonds than outer electrons (a magnesium with four)
	// has no lone pairs, not a negative number of them.
	lonePairs := max(nOuter(m.z[a])-valence-m.charge[a], 0) / 2
	switch deg + lonePairs {
	case 2:
		return "sp"
	case 3:
		return "sp2"
	case 4:
		if deg > 3 || !hasConj {
			return "sp3"
		}
		return "sp2"
	}
	if m.z[a] != 16 {
		return ""
	}
	oxygens := 0
	for _, k := range m.inc[a] {
		if m.z[m.other(k, a)] == 8 {
			oxygens++
		}
	}
	switch oxygens {
	case 2:
		return "so2"
	case 1:
		return "so"
	}
	return "sp3"
}

// startingCharges shares each formal charge among the atoms of its
// element two conjugated bonds away, RDKit's start of the iteration.
func (m *molecule) startingCharges(conj []bool) []float64 {
	q := make([]float64, m.g.N)
	for a := range m.g.N {
		formal := float64(m.charge[a])
		if formal == 0 || q[a] != 0 {
			continue
		}
		shared := []int{a}
		for _, k1 := range m.inc[a] {
			if !conj[k1] {
				continue
			}
			b := m.other(k1, a)
			for _, k2 := range m.inc[b] {
				if k2 == k1 || !conj[k2] {
					continue
				}
				if c := m.other(k2, b); m.z[c] == m.z[a] {
					formal += float64(m.charge[c])
					shared = append(shared, c)
				}
			}
		}
		for _, c := range shared {
			q[c] = formal / float64(len(shared))
		}
	}
	return q
}
