package smiles

import (
	"math"
	"slices"
	"strings"
)

// RDKit's periodic table (2022.09) for the valence model: the allowed
// valences of the main-group elements, first the default one; -1 last
// means any valence above the others (the alkaline earths). Elements
// not listed (the transition metals, lanthanides and actinides) have no
// default valence and get no implicit hydrogens. TestPeriodicTable checks
// both tables against RDKit.
var valenceList = map[int][]int{
	1: {1}, 2: {0}, 3: {1}, 4: {2}, 5: {3}, 6: {4}, 7: {3}, 8: {2}, 9: {1}, 10: {0},
	11: {1}, 12: {2, -1}, 13: {3, 6}, 14: {4, 6}, 15: {3, 5, 7}, 16: {2, 4, 6}, 17: {1}, 18: {0},
	19: {1}, 20: {2, -1}, 31: {3}, 32: {4}, 33: {3, 5, 7}, 34: {2, 4, 6}, 35: {1}, 36: {0},
	37: {1}, 38: {2, -1}, 49: {3}, 50: {2, 4}, 51: {3, 5, 7}, 52: {2, 4, 6}, 53: {1, 3, 5}, 54: {0, 2, 4, 6},
	55: {1}, 56: {2, -1}, 81: {3}, 82: {2, 4}, 83: {3, 5, 7}, 84: {2, 4, 6}, 85: {1, 3, 5}, 86: {0},
	87: {1}, 88: {2, -1},
}

// outerElectrons lists the valence-shell electrons of elements 0 (the
// wildcard) to 118, as RDKit's periodic table gives them.
var outerElectrons = [119]int{0, 1, 2, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 2, 3, 4, 5, 6, 7, 8,
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 4, 5, 6, 7, 8, 9, 10, 11,
	2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}

// AtomicNumber returns the atomic number of an element symbol as Parse
// writes node labels ("C", "Cl"), or 0 for the wildcard "*" and anything
// that is not an element.
func AtomicNumber(symbol string) int {
	z := 1
	for rest := elementList; rest != ""; z++ {
		var e string
		e, rest, _ = strings.Cut(rest, " ")
		if e == symbol {
			return z
		}
	}
	return 0
}

// nOuter returns the valence-shell electron count of element z.
func nOuter(z int) int {
	if z < 0 || z >= len(outerElectrons) {
		return 0
	}
	return outerElectrons[z]
}

// MaxValence returns the largest valence RDKit allows a neutral atom of
// the element symbol ("N": 3, "S": 6), or -1 when it sets none.
func MaxValence(symbol string) int {
	if v, ok := valenceList[AtomicNumber(symbol)]; ok {
		return slices.Max(v)
	}
	return -1
}

// defaultValence returns the first allowed valence of element z, or -1.
func defaultValence(z int) int {
	if v, ok := valenceList[z]; ok {
		return v[0]
	}
	return -1
}

// isEarly tells whether hydrogen adds to element z as H- (left of carbon),
// which flips the sign of the charge in the valence model.
func isEarly(z int) bool {
	switch nOuter(z) {
	case 1, 2, 3:
		return z > 1
	case 4:
		return z > 14 // Ge, Sn, Pb
	case 5:
		return z > 33 // Sb, Bi
	}
	return false
}

// moreElectronegative is RDKit's surrogate order: more outer electrons,
// then the lighter element.
func moreElectronegative(a, b int) bool {
	na, nb := nOuter(a), nOuter(b)
	return na > nb || (na == nb && a < b)
}

// chargeShift is the charge as the valence model counts it: positive
// charge raises the valence of an element right of carbon (NH4+) and
// lowers that of one left of it; carbon counts every charge as lowering
// (a carbocation and a carbanion both take three bonds).
func chargeShift(z, charge int) int {
	if isEarly(z) {
		charge = -charge
	}
	if z == 6 && charge > 0 {
		charge = -charge
	}
	return charge
}

// explicitValence is RDKit's integer explicit valence of an atom whose
// bonds and written hydrogens add up to accum (aromatic bonds 1.5 each).
// An aromatic atom above its default valence takes the nearest allowed
// valence below accum if within 1.5; a half-integer sum rounds up.
func explicitValence(z, charge int, accum float64, aromatic bool) int {
	chg := chargeShift(z, charge)
	dv := defaultValence(z)
	if aromatic && dv >= 0 && accum > float64(dv+chg) {
		pval := dv + chg
		for _, v := range valenceList[z] {
			if v < 0 || float64(v+chg) > accum {
				break
			}
			pval = v + chg
		}
		if accum-float64(pval) <= 1.5 {
			accum = float64(pval)
		}
	}
	return int(math.Round(accum + 0.1))
}

// implicitHydrogens is RDKit's implicit hydrogen count of an atom without
// a written hydrogen count (a SMILES organic-subset atom, a molfile atom)
// whose bonds add up to accum: the smallest allowed valence that holds
// the bonds, minus them; an aromatic atom only ever fills its default
// valence.
func implicitHydrogens(z, charge int, accum float64, aromatic bool) int {
	if z == 0 {
		return 0
	}
	ev := explicitValence(z, charge, accum, aromatic)
	if z == 1 && ev == 0 {
		if charge == 0 {
			return 1
		}
		return 0
	}
	dv := defaultValence(z)
	if dv < 0 {
		return 0
	}
	chg := chargeShift(z, charge)
	if aromatic {
		return max(dv+chg-ev, 0)
	}
	for _, v := range valenceList[z] {
		if v < 0 {
			break
		}
		if ev <= v+chg {
			return v + chg - ev
		}
	}
	return 0
}

// BondOrder is the valence a bond label contributes: aromatic 1.5, and 0
// for labels that are no bond order (molfile query bonds).
func BondOrder(label string) float64 {
	switch label {
	case BondSingle:
		return 1
	case BondDouble:
		return 2
	case BondTriple:
		return 3
	case BondAromatic:
		return 1.5
	case BondQuadruple:
		return 4
	}
	return 0
}
