package smiles

import (
	"fmt"
	"strconv"

	"wkpi-web/core/graph"
)

// ChemistryError is what Check finds wrong with a molecule, naming its
// atoms 0-based, as Parse numbers them.
type ChemistryError struct{ Msg string }

func (e *ChemistryError) Error() string { return e.Msg }

// Check reports the first problem RDKit's sanitisation (2022.09) refuses
// a molecule file's molecule for (g.Atoms holding its charges and
// hydrogens; an atom with an aromatic bond is aromatic, as in a
// molfile), or nil:
//
//   - an atom whose bonds and hydrogens exceed the largest valence its
//     element allows with its charge (five-bonded carbon, a neutral
//     four-bonded oxygen), after RDKit's clean-up of nitro groups and
//     halogen oxides; elements RDKit gives no largest valence (the
//     transition metals, magnesium) are not checked;
//   - an aromatic atom that lies on no ring (c1ccccc1c);
//   - aromatic bonds that no alternation of single and double bonds can
//     replace (c1ccnc1, a pyrrole written without its [nH]).
//
// Parse itself reads syntax only; ParseMolecule checks too.
func Check(g *graph.Graph) error { return check(g, nil) }

// check is Check with the atoms written aromatic (lowercase in a SMILES),
// or nil for those with an aromatic bond.
func check(g *graph.Graph, lowercase []bool) error {
	m := newMolecule(Charged(g))
	if lowercase != nil {
		m.written = lowercase
	}
	for a := range g.N {
		if err := m.checkValence(a); err != nil {
			return err
		}
	}
	ringBond := m.ringBonds()
	for a := range g.N {
		if !m.written[a] {
			continue
		}
		inRing := false
		for _, k := range m.inc[a] {
			inRing = inRing || ringBond[k]
		}
		if !inRing {
			return &ChemistryError{fmt.Sprintf("atom %d (%s) is aromatic but on no ring", a, m.symbol(a))}
		}
	}
	m.kekulize()
	var left []byte // the atoms left with an aromatic bond, as text
	for a := range g.N {
		if !m.written[a] {
			continue
		}
		for _, k := range m.inc[a] {
			if m.order[k] == 1.5 {
				left = strconv.AppendInt(append(left, ' '), int64(a), 10)
				break
			}
		}
	}
	if left != nil {
		return &ChemistryError{"the aromatic atoms" + string(left) + " have no Kekulé form " +
			"(no alternation of single and double bonds fits their valences; a pyrrole-type nitrogen is written [nH])"}
	}
	return nil
}

// checkValence is RDKit's strict explicit-valence check of atom a: its
// integer explicit valence (explicitValence), shifted by its charge the
// way the element's outer electrons say, must not exceed the largest
// valence of its element.
func (m *molecule) checkValence(a int) error {
	z := m.z[a]
	list, ok := valenceList[z]
	if !ok {
		return nil
	}
	most := list[len(list)-1]
	if most <= 0 {
		return nil // noble gases: RDKit takes anything
	}
	// RDKit's isAromaticAtom: written aromatic, or with an aromatic bond.
	aromatic := m.written[a]
	for _, k := range m.inc[a] {
		aromatic = aromatic || m.order[k] == 1.5
	}
	ev := explicitValence(z, m.charge[a], m.bondSum(a)+float64(m.hs[a]), aromatic)
	effective := ev + m.charge[a]
	if nOuter(z) >= 4 {
		effective = ev - m.charge[a]
	}
	if effective <= most {
		return nil
	}
	atom := m.symbol(a)
	if m.charge[a] != 0 {
		atom += fmt.Sprintf(", charge %+d", m.charge[a])
	}
	return &ChemistryError{fmt.Sprintf("atom %d (%s) has valence %d, more than it allows (%d)", a, atom, ev, most+ev-effective)}
}
