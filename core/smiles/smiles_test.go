package smiles_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
)

// describe renders a graph as "labels | u-v:label ...", edges sorted as
// graph.New sorts them.
func describe(g *graph.Graph) string {
	var b strings.Builder
	b.WriteString(strings.Join(g.NodeLabels, " "))
	b.WriteString(" |")
	for k, e := range g.Edges {
		fmt.Fprintf(&b, " %d-%d:%s", e.U, e.V, g.EdgeLabels[k])
	}
	return b.String()
}

// Hand-worked molecules: node order is the order of the atoms in the
// string, hydrogens are dropped unless RDKit would keep them.
var parseCases = []struct{ smiles, want string }{
	// Rings, aromaticity, bond orders.
	{"c1ccccc1", "C C C C C C | 0-1:4 0-5:4 1-2:4 2-3:4 3-4:4 4-5:4"},
	{"C1=CC=CC=C1", "C C C C C C | 0-1:2 0-5:1 1-2:1 2-3:2 3-4:1 4-5:2"},
	{"CC(=O)O", "C C O O | 0-1:1 1-2:2 1-3:1"},
	{"C1CC1C1CC1", "C C C C C C | 0-1:1 0-2:1 1-2:1 2-3:1 3-4:1 3-5:1 4-5:1"},
	{"C%10CC%10C%10CC%10", "C C C C C C | 0-1:1 0-2:1 1-2:1 2-3:1 3-4:1 3-5:1 4-5:1"},
	{"C%99CC1CC%99C1", "C C C C C C | 0-1:1 0-4:1 1-2:1 2-3:1 2-5:1 3-4:1 4-5:1"},
	{"C%(123)CC%(123)", "C C C | 0-1:1 0-2:1 1-2:1"},
	{"C1CC%01", "C C C | 0-1:1 0-2:1 1-2:1"}, // %01 is ring 1 in OpenSMILES
	{"C12CC1C2", "C C C C | 0-1:1 0-2:1 0-3:1 1-2:1 2-3:1"},
	{"C=1CCCC1", "C C C C C | 0-1:1 0-4:2 1-2:1 2-3:1 3-4:1"},
	{"C1CCCC=1", "C C C C C | 0-1:1 0-4:2 1-2:1 2-3:1 3-4:1"},
	{"C=1CCCC=1", "C C C C C | 0-1:1 0-4:2 1-2:1 2-3:1 3-4:1"},
	{"C/1CCCC\\1", "C C C C C | 0-1:1 0-4:1 1-2:1 2-3:1 3-4:1"},
	{"c1ccccc1c1ccccc1", "C C C C C C C C C C C C | 0-1:4 0-5:4 1-2:4 2-3:4 3-4:4 4-5:4 5-6:4 6-7:4 6-11:4 7-8:4 8-9:4 9-10:4 10-11:4"},
	{"c1ccccc1-c1ccccc1", "C C C C C C C C C C C C | 0-1:4 0-5:4 1-2:4 2-3:4 3-4:4 4-5:4 5-6:1 6-7:4 6-11:4 7-8:4 8-9:4 9-10:4 10-11:4"},
	{"c1cc[nH]c1", "C C C N C | 0-1:4 0-4:4 1-2:4 2-3:4 3-4:4"},
	{"Cc1ccoc1", "C C C C O C | 0-1:1 1-2:4 1-5:4 2-3:4 3-4:4 4-5:4"},
	{"Sc1ccsc1", "S C C C S C | 0-1:1 1-2:4 1-5:4 2-3:4 3-4:4 4-5:4"},
	{"[se]1cccc1", "Se C C C C | 0-1:4 0-4:4 1-2:4 2-3:4 3-4:4"},
	{"[as]1cccc1.[te]1cccc1.b1cccc1.p1cccc1", "As C C C C Te C C C C B C C C C P C C C C | 0-1:4 0-4:4 1-2:4 2-3:4 3-4:4 5-6:4 5-9:4 6-7:4 7-8:4 8-9:4 10-11:4 10-14:4 11-12:4 12-13:4 13-14:4 15-16:4 15-19:4 16-17:4 17-18:4 18-19:4"},
	{"C:C", "C C | 0-1:4"},
	{"c-c", "C C | 0-1:1"},
	{"c=c", "C C | 0-1:2"},
	{"C#N", "C N | 0-1:3"},
	{"[Mo]$[Mo]", "Mo Mo | 0-1:$"},
	{"F/C=C/F", "F C C F | 0-1:1 1-2:2 2-3:1"},
	{"F/C=C\\F", "F C C F | 0-1:1 1-2:2 2-3:1"},
	// Branches, dots, symbols.
	{"CC(C)(C)C", "C C C C C | 0-1:1 1-2:1 1-3:1 1-4:1"},
	{"C(C)1CC1", "C C C C | 0-1:1 0-2:1 0-3:1 2-3:1"},
	{"C(C(C(C)))C", "C C C C C | 0-1:1 0-4:1 1-2:1 2-3:1"},
	{"C(.C)C", "C C C | 0-2:1"},
	{"C1.C1", "C C | 0-1:1"},
	{"[Na+].[Cl-]", "Na Cl |"},
	{"ClCBr", "Cl C Br | 0-1:1 1-2:1"},
	{"BrB(I)P", "Br B I P | 0-1:1 1-2:1 1-3:1"},
	{"*C", "* C | 0-1:1"},
	{"[*][2*]", "* * | 0-1:1"},
	// Bracket atoms: isotopes, charges, chirality, classes.
	{"[NH4+]", "N |"},
	{"[13CH4]", "C |"},
	{"N[C@@H](C)C(=O)O", "N C C C O O | 0-1:1 1-2:1 1-3:1 3-4:2 3-5:1"},
	{"[C@TH1H](F)(Cl)Br", "C F Cl Br | 0-1:1 0-2:1 0-3:1"},
	{"C=[C@AL2]=C", "C C C | 0-1:2 1-2:2"},
	{"[Pt@SP3](F)(Cl)(Br)I", "Pt F Cl Br I | 0-1:1 0-2:1 0-3:1 0-4:1"},
	{"[As@TB20](F)(Cl)(Br)(I)N", "As F Cl Br I N | 0-1:1 0-2:1 0-3:1 0-4:1 0-5:1"},
	{"[Co@OH30](F)(Cl)(Br)(I)(N)O", "Co F Cl Br I N O | 0-1:1 0-2:1 0-3:1 0-4:1 0-5:1 0-6:1"},
	{"[Fe++].[O--].[Fe+3].[O-2].[N+15].[C+0]", "Fe O Fe O N C |"},
	{"[CH3:1][OH:12]", "C O | 0-1:1"},
	{"[238U@@H2+3:7]", "U |"},
	{"[Cs][Sc][Hg][Og]", "Cs Sc Hg Og | 0-1:1 1-2:1 2-3:1"},
	// Hydrogens: dropped as RDKit's MolFromSmiles drops them.
	{"C([H])([H])C", "C C | 0-1:1"},
	{"[H]C([H])([H])[H]", "C |"},
	{"[H]c1ccccc1", "C C C C C C | 0-1:4 0-5:4 1-2:4 2-3:4 3-4:4 4-5:4"},
	{"[HH]C", "C |"},
	{"[H+]C", "C |"},
	{"[H:1]C", "C |"},
	{"[0H]C", "C |"},
	{"[H]=C", "C |"},
	{"[H][C@@](F)(Cl)Br", "C F Cl Br | 0-1:1 0-2:1 0-3:1"},
	{"F/C([H])=C/F", "F C C F | 0-1:1 1-2:2 2-3:1"},
	{"[H]/C(C)=C/F", "C C C F | 0-1:1 0-2:2 2-3:1"},
	{"[H]C=C/F", "C C F | 0-1:2 1-2:1"},
	// ... and kept where RDKit keeps them.
	{"[H]", "H |"},
	{"[H+]", "H |"},
	{"[HH]", "H |"},
	{"[H][H]", "H H | 0-1:1"},
	{"[H]C.[H]", "C H |"},
	{"[2H]C", "H C | 0-1:1"},
	{"[1H]C", "H C | 0-1:1"},
	{"[2H][H]", "H H | 0-1:1"},
	{"C[H]C", "C H C | 0-1:1 1-2:1"},
	{"*[H]", "* H | 0-1:1"},
	{"[H]/C=C/F", "H C C F | 0-1:1 1-2:2 2-3:1"},
	{"[H]/C=C", "H C C | 0-1:1 1-2:2"},
	{"C=C\\1.[H]1", "C C H | 0-1:2 1-2:1"},
	{"[H][Pt@SP1]([H])(Cl)Cl", "H Pt H Cl Cl | 0-1:1 1-2:1 1-3:1 1-4:1"},
}

func TestParse(t *testing.T) {
	for _, c := range parseCases {
		g, err := smiles.Parse(c.smiles)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.smiles, err)
			continue
		}
		if got := describe(g); got != c.want {
			t.Errorf("Parse(%q)\n got %s\nwant %s", c.smiles, got, c.want)
		}
	}
}

// elementSymbols lists elements 1 to 118, typed apart from the parser's
// table (the oracle test checks them against RDKit's symbols).
const elementSymbols = `H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar
	K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr
	Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe
	Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn
	Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og`

// Every element of the periodic table parses in brackets under its own
// symbol.
func TestParseElements(t *testing.T) {
	table := strings.Fields(elementSymbols)
	if len(table) != 118 {
		t.Fatalf("test table has %d elements", len(table))
	}
	for _, sym := range table {
		g, err := smiles.Parse("[" + sym + "]")
		if err != nil {
			t.Errorf("[%s]: %v", sym, err)
			continue
		}
		if g.N != 1 || g.NodeLabels[0] != sym {
			t.Errorf("[%s]: %s", sym, describe(g))
		}
	}
}

// Malformed SMILES, with the 1-based position of the culprit.
var errorCases = []struct {
	smiles string
	pos    int
	msg    string // a fragment of the message
}{
	{"", 0, "empty SMILES"},
	{"C1CC", 2, "ring bond 1 is never closed"},
	{"C1CC2CC1", 5, "ring bond 2 is never closed"},
	{"C%12CC", 2, "ring bond 12 is never closed"},
	{"[Xx]", 2, `unknown element "Xx"`},
	{"[Cx]", 2, `unknown element "Cx"`},
	{"[Uuo]", 2, `unknown element "Uu"`},
	{"Q", 1, `unknown element "Q"`},
	{"CCx", 3, `unknown element "x"`},
	{"Na", 1, "element Na must be written in brackets, [Na]"},
	{"CCH", 3, "element H must be written in brackets"},
	{"CXe", 2, "element Xe must be written in brackets"},
	{"[si]1cccc1", 2, `"si" is not an aromatic element`},
	{"[cl]", 2, `"cl" is not an aromatic element`},
	{"[NH4+", 1, "'[' is never closed"},
	{"C[C", 2, "'[' is never closed"},
	{"[C[N]", 1, "'[' is never closed"},
	{"[", 1, "'[' is never closed"},
	{"C[13", 2, "'[' is never closed"},
	{"[]", 2, "bracket atom without an element symbol"},
	{"[+]", 2, "bracket atom without an element symbol"},
	{"[13]", 4, "bracket atom without an element symbol"},
	{"C(C", 2, "'(' is never closed"},
	{"C(C(C)", 2, "'(' is never closed"},
	{"CC)", 3, "')' without a matching '('"},
	{"(C)C", 1, "branch '(' with no atom before it"},
	{"C((C))", 3, "branch '(' right after '('"},
	{"C.(C)", 3, "branch '(' right after '.'"},
	{"C=(C)C", 2, "bond '=' before '('"},
	{"C()C", 2, "empty branch '()'"},
	{"CC=", 3, "bond '=' has no atom after it"},
	{"C(=)C", 3, "bond '=' has no atom after it"},
	{"C#", 2, "bond '#' has no atom after it"},
	{"=C", 1, "bond '=' with no atom before it"},
	{"C==C", 3, "two bonds in a row ('=' after '=')"},
	{"C-/C", 3, "two bonds in a row"},
	{"C11", 3, "ring bond 1 closes on the atom that opened it"},
	{"C1C1", 4, "ring bond 1 joins two atoms that are already bonded"},
	{"C12CC12", 7, "ring bond 2 joins two atoms that are already bonded"},
	{"C1(1)", 4, "ring bond number must follow an atom"},
	{"1C", 1, "ring bond number must follow an atom"},
	{"C.1", 3, "ring bond number must follow an atom"},
	{"C%1C", 2, "'%' must be followed by two digits"},
	{"C%", 2, "'%' must be followed by two digits"},
	{"C%(12", 2, "needs 1 to 5 digits and ')'"},
	{"C%()C", 2, "needs 1 to 5 digits and ')'"},
	{"C%(123456)C", 2, "needs 1 to 5 digits and ')'"},
	{"C..C", 3, "'.' right after '.'"},
	{".C", 1, "'.' with no atom before it"},
	{"C.", 2, "'.' with no atom after it"},
	{"C(C.)C", 4, "'.' with no atom after it"},
	{"C=.C", 2, "bond '=' before '.' has no atom after it"},
	{"C.=C", 3, "bond '=' right after '.'"},
	{"C=1CCCC-1", 8, "ring bond 1 is '=' where it opens (position 2) but '-' here"},
	{"C#1CCCC=1", 8, "ring bond 1 is '#' where it opens"},
	{"[C+++]", 5, "unexpected '+' in bracket atom"},
	{"[C+-]", 4, "unexpected '-' in bracket atom"},
	{"[C++2]", 5, "unexpected '2' in bracket atom"},
	{"[C+123]", 6, "charge has more than two digits"},
	{"[C+H]", 4, "unexpected 'H' in bracket atom"},
	{"[CH12]", 5, "hydrogen count has more than one digit"},
	{"[CHH]", 4, "unexpected 'H' in bracket atom"},
	{"[C:]", 3, "atom class ':' without a number"},
	{"[C:1:2]", 5, "unexpected ':' in bracket atom"},
	{"[C@TH3]", 3, "invalid chirality @TH3"},
	{"[C@AL0]", 3, "invalid chirality @AL0"},
	{"[C@SP4]", 3, "invalid chirality @SP4"},
	{"[C@TB21]", 3, "invalid chirality @TB21"},
	{"[C@TB01]", 3, "invalid chirality @TB01"},
	{"[C@OH31]", 3, "invalid chirality @OH31"},
	{"[C@OH]", 3, "invalid chirality @OH"},
	{"[C@@@]", 5, "unexpected '@' in bracket atom"},
	{"[C@X]", 4, "unexpected 'X' in bracket atom"},
	{"[H]2", 4, "ring bond 2 is never closed"},
	{"CC CC", 3, "unexpected white space"},
	{" C", 1, "unexpected white space"},
	{"C\t", 2, "unexpected white space"},
	{"C>C", 2, "unexpected character '>'"},
	{"CCé", 3, "unexpected character 'é'"},
}

func TestParseErrors(t *testing.T) {
	for _, c := range errorCases {
		g, err := smiles.Parse(c.smiles)
		if err == nil {
			t.Errorf("Parse(%q) = %s, want an error", c.smiles, describe(g))
			continue
		}
		var se *smiles.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q): %T %v, want a *SyntaxError", c.smiles, err, err)
			continue
		}
		if se.Pos != c.pos || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("Parse(%q): position %d %q, want position %d %q", c.smiles, se.Pos, se.Msg, c.pos, c.msg)
		}
		if c.pos > 0 && !strings.Contains(err.Error(), fmt.Sprintf("position %d: ", c.pos)) {
			t.Errorf("Parse(%q): message %q does not name position %d", c.smiles, err, c.pos)
		}
	}
}

func TestSyntaxErrorMessage(t *testing.T) {
	_, err := smiles.Parse("C.é")
	if got, want := err.Error(), "SMILES position 3: unexpected character 'é'"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	_, err = smiles.Parse("")
	if got, want := err.Error(), "empty SMILES"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
