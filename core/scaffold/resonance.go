package scaffold

import (
	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
)

// ResonanceBonds marks the bonds of mol (a Molecule) that join an atom
// to terminal atoms a resonance form swaps: of the atom's terminal
// neighbours of one element, those bonded by a double bond and those
// bonded by a single bond that are anions without hydrogens, when there
// are both (the oxygens of a nitro group, a carboxylate, a sulfonate or
// a phosphate anion; not a carboxylic acid's OH).
// Which of them a file writes with the double bond is its writer's
// choice, not the molecule's. Without atom facts (a TU dataset's graph,
// no charges) a single-bonded terminal atom counts as such an anion only
// when the atom's bonds exceed the largest valence of its element (a
// nitro group's N, bonds 1 + 1 + 2 = 4 > 3; a carboxylic acid's C and a
// sulfonic acid's S keep their OH).
func ResonanceBonds(mol *graph.Graph) []bool {
	marked := make([]bool, len(mol.Edges))
	if mol.NodeLabels == nil || mol.EdgeLabels == nil {
		return marked
	}
	incident := make([][]int, mol.N)
	for k, e := range mol.Edges {
		incident[e.U] = append(incident[e.U], k)
		incident[e.V] = append(incident[e.V], k)
	}
	for a := range mol.N {
		var sum float64
		for _, k := range incident[a] {
			sum += smiles.BondOrder(mol.EdgeLabels[k])
		}
		valence := smiles.MaxValence(mol.NodeLabels[a])
		overBonded := valence >= 0 && sum > float64(valence)
		// Terminal neighbours by element: their double bonds and their
		// single bonds to anions without hydrogens.
		type group struct{ double, anion []int }
		groups := map[string]*group{}
		for _, k := range incident[a] {
			e := mol.Edges[k]
			b := e.U
			if b == a {
				b = e.V
			}
			if len(incident[b]) != 1 {
				continue
			}
			g := groups[mol.NodeLabels[b]]
			if g == nil {
				g = &group{}
				groups[mol.NodeLabels[b]] = g
			}
			switch mol.EdgeLabels[k] {
			case Double:
				g.double = append(g.double, k)
			case Single:
				if mol.Atoms != nil && mol.Atoms[b].Charge == -1 && mol.Atoms[b].Hydrogens == 0 || mol.Atoms == nil && overBonded {
					g.anion = append(g.anion, k)
				}
			}
		}
		for _, g := range groups {
			if len(g.double) > 0 && len(g.anion) > 0 {
				for _, k := range append(g.double, g.anion...) {
					marked[k] = true
				}
			}
		}
	}
	return marked
}
