package smiles

import "strings"

// elementList holds the symbols of elements 1 (H) to 118 (Og) in order.
// Lookups return substrings of this constant, so node labels never keep
// the parsed string alive.
const elementList = "H He " +
	"Li Be B C N O F Ne " +
	"Na Mg Al Si P S Cl Ar " +
	"K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr " +
	"Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe " +
	"Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn " +
	"Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og"

// element returns the canonical symbol equal to sym, if sym is one.
func element(sym string) (string, bool) {
	for rest := elementList; rest != ""; {
		var e string
		e, rest, _ = strings.Cut(rest, " ")
		if e == sym {
			return e, true
		}
	}
	return "", false
}

// aromaticSymbol maps the aromatic symbols OpenSMILES allows in brackets
// to their element.
func aromaticSymbol(sym string) (string, bool) {
	switch sym {
	case "b":
		return "B", true
	case "c":
		return "C", true
	case "n":
		return "N", true
	case "o":
		return "O", true
	case "p":
		return "P", true
	case "s":
		return "S", true
	case "se":
		return "Se", true
	case "as":
		return "As", true
	case "te":
		return "Te", true
	}
	return "", false
}
