package smiles

import (
	"fmt"
	"iter"
	"unicode/utf8"

	"wkpi-web/core/graph"
)

// Edge labels, the bond types of the molfile reader (package graphfile).
// A quadruple bond has no molfile type; it gets the SMILES symbol "$".
const (
	BondSingle    = "1"
	BondDouble    = "2"
	BondTriple    = "3"
	BondAromatic  = "4"
	BondQuadruple = "$"
)

// Wildcard is the node label of the unknown atom "*" (RDKit's symbol for it).
const Wildcard = "*"

// SyntaxError reports why a SMILES string cannot be read. Pos is the
// 1-based character position of the offending character (the opening one
// for an unclosed bracket, branch or ring bond), or 0 for an empty string.
type SyntaxError struct {
	Pos int
	Msg string
}

func (e *SyntaxError) Error() string {
	if e.Pos == 0 {
		return e.Msg
	}
	return fmt.Sprintf("SMILES position %d: %s", e.Pos, e.Msg)
}

// Parse reads one SMILES string into a graph of its atoms (hydrogens
// removed as RDKit's MolFromSmiles removes them) and bonds; see the
// package documentation for the labels and for what is checked.
func Parse(s string) (*graph.Graph, error) {
	g, _, err := parse(s)
	return g, err
}

// ParseMolecule is Parse, then Check: it also refuses what RDKit's
// sanitisation refuses, with a *ChemistryError (lowercase atoms are the
// aromatic ones).
func ParseMolecule(s string) (*graph.Graph, error) {
	g, lowercase, err := parse(s)
	if err != nil {
		return nil, err
	}
	if err := check(g, lowercase); err != nil {
		return nil, err
	}
	return g, nil
}

// parse reads s, returning the atoms written aromatic too.
func parse(s string) (*graph.Graph, []bool, error) {
	if s == "" {
		return nil, nil, &SyntaxError{Msg: "empty SMILES"}
	}
	p := parser{s: s}
	if err := p.parse(); err != nil {
		return nil, nil, err
	}
	return p.graph()
}

type atom struct {
	symbol   string // the node label
	aromatic bool
	hydrogen bool // element H: removed unless RDKit would keep it
	isotope  int  // the mass written in brackets, 0 if none
	bracket  bool // written in brackets: its hydrogen count is hcount, none implicit
	hcount   int
	charge   int
	// nonTetrahedral marks @SP, @TB and @OH centres, whose hydrogens
	// RDKit keeps.
	nonTetrahedral bool

	degree   int
	lastBond int // the atom's bonds form a list through bond.next; -1 ends it
}

type bond struct {
	u, v  int
	label string
	// directional marks '/' and '\': a hydrogen on such a bond may define
	// double-bond geometry, and RDKit keeps it then.
	directional bool
	next        [2]int // the previous bond of u and of v
}

// ringOpen is a ring bond number waiting for its partner.
type ringOpen struct {
	atom    int
	bond    byte // the bond symbol written before the number, or 0
	bondPos int  // byte offset of that symbol
	pos     int  // byte offset of the number
}

// Token classes that decide what may come next.
const (
	afterStart = iota
	afterAtom  // an atom, a ring bond or a closed branch
	afterOpen  // '('
	afterDot   // '.'
)

type parser struct {
	s     string
	atoms []atom
	bonds []bond
}

// errAt builds a SyntaxError at byte offset i. The parser stops at the
// first non-ASCII character, so byte offsets are character positions.
func (p *parser) errAt(i int, format string, args ...any) *SyntaxError {
	return &SyntaxError{Pos: i + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) parse() error {
	s := p.s
	// Every atom has a letter or '*', and there are about as many bonds as
	// atoms: sizing the slices by them saves repeated growth without
	// reserving room for the digits of an isotope or a class.
	letters := 0
	for i := range len(s) {
		if isLetter(s[i]) || s[i] == '*' {
			letters++
		}
	}
	p.atoms = make([]atom, 0, letters)
	p.bonds = make([]bond, 0, letters)
	prev := -1 // the atom a following atom or ring bond attaches to
	var pend byte
	pendPos := 0
	last := afterStart
	dotPos := 0
	type branchOpen struct{ atom, pos int }
	var branches []branchOpen
	var rings map[int]ringOpen

	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '[' || c == '*' || isLetter(c):
			a, next, err := p.atom(i)
			if err != nil {
				return err
			}
			idx := len(p.atoms)
			a.lastBond = -1
			p.atoms = append(p.atoms, a)
			if prev >= 0 {
				p.addBond(prev, idx, pend)
			}
			prev, pend, last = idx, 0, afterAtom
			i = next

		case isBond(c):
			if pend != 0 {
				return p.errAt(i, "two bonds in a row (%q after %q)", c, pend)
			}
			if prev < 0 {
				if last == afterDot {
					return p.errAt(i, "bond %q right after '.'", c)
				}
				return p.errAt(i, "bond %q with no atom before it", c)
			}
			pend, pendPos = c, i
			i++

		case c == '(':
			if pend != 0 {
				return p.errAt(pendPos, "bond %q before '('; write it inside the branch", pend)
			}
			switch last {
			case afterStart:
				return p.errAt(i, "branch '(' with no atom before it")
			case afterOpen:
				return p.errAt(i, "branch '(' right after '('")
			case afterDot:
				return p.errAt(i, "branch '(' right after '.'")
			}
			branches = append(branches, branchOpen{prev, i})
			last = afterOpen
			i++

		case c == ')':
			if len(branches) == 0 {
				return p.errAt(i, "')' without a matching '('")
			}
			if pend != 0 {
				return p.errAt(pendPos, "bond %q has no atom after it", pend)
			}
			b := branches[len(branches)-1]
			if last == afterOpen {
				return p.errAt(b.pos, "empty branch '()'")
			}
			if last == afterDot {
				return p.errAt(dotPos, "'.' with no atom after it")
			}
			branches = branches[:len(branches)-1]
			prev, last = b.atom, afterAtom
			i++

		case c == '.':
			if pend != 0 {
				return p.errAt(pendPos, "bond %q before '.' has no atom after it", pend)
			}
			switch last {
			case afterStart:
				return p.errAt(i, "'.' with no atom before it")
			case afterDot:
				return p.errAt(i, "'.' right after '.'")
			}
			// After '(' a dot is fine: OpenSMILES allows "C(.C)C".
			prev, last, dotPos = -1, afterDot, i
			i++

		case isDigit(c) || c == '%':
			if last != afterAtom {
				return p.errAt(i, "ring bond number must follow an atom")
			}
			num, next, err := p.ringNumber(i)
			if err != nil {
				return err
			}
			if rings == nil {
				rings = map[int]ringOpen{}
			}
			if open, ok := rings[num]; ok {
				if err := p.closeRing(num, open, prev, pend, pendPos, i); err != nil {
					return err
				}
				delete(rings, num)
			} else {
				rings[num] = ringOpen{atom: prev, bond: pend, bondPos: pendPos, pos: i}
			}
			pend = 0
			i = next

		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return p.errAt(i, "unexpected white space (a SMILES string is one word)")

		default:
			r, _ := utf8.DecodeRuneInString(s[i:])
			return p.errAt(i, "unexpected character %q", r)
		}
	}

	if pend != 0 {
		return p.errAt(pendPos, "bond %q has no atom after it", pend)
	}
	if last == afterDot {
		return p.errAt(dotPos, "'.' with no atom after it")
	}
	if len(branches) > 0 {
		return p.errAt(branches[len(branches)-1].pos, "'(' is never closed")
	}
	if len(rings) > 0 {
		// Report the first unclosed number, not a random one from the map.
		first := len(s)
		num := 0
		for n, r := range rings {
			if r.pos < first {
				first, num = r.pos, n
			}
		}
		return p.errAt(first, "ring bond %d is never closed", num)
	}
	return nil
}

// closeRing bonds the atom that opened ring bond num to atom, checking the
// two bond symbols written at either end against each other.
func (p *parser) closeRing(num int, open ringOpen, atom int, sym byte, symPos, pos int) error {
	if open.atom == atom {
		return p.errAt(pos, "ring bond %d closes on the atom that opened it", num)
	}
	if open.bond != 0 && sym != 0 && bondLabel(open.bond) != bondLabel(sym) {
		return p.errAt(symPos, "ring bond %d is %q where it opens (position %d) but %q here",
			num, open.bond, open.bondPos+1, sym)
	}
	if p.bonded(open.atom, atom) {
		return p.errAt(pos, "ring bond %d joins two atoms that are already bonded", num)
	}
	// A direction on either end makes the bond directional.
	dir := isDirection(open.bond) || isDirection(sym)
	if sym == 0 {
		sym = open.bond
	}
	p.addBond(open.atom, atom, sym)
	p.bonds[len(p.bonds)-1].directional = dir
	return nil
}

// addBond joins atoms u and v with the bond written as sym (0: none).
func (p *parser) addBond(u, v int, sym byte) {
	label := BondSingle
	if sym != 0 {
		label = bondLabel(sym)
	} else if p.atoms[u].aromatic && p.atoms[v].aromatic {
		label = BondAromatic
	}
	k := len(p.bonds)
	p.bonds = append(p.bonds, bond{
		u: u, v: v, label: label, directional: isDirection(sym),
		next: [2]int{p.atoms[u].lastBond, p.atoms[v].lastBond},
	})
	p.atoms[u].lastBond, p.atoms[v].lastBond = k, k
	p.atoms[u].degree++
	p.atoms[v].degree++
}

// bondsOf yields the bonds of atom a with the neighbour each leads to.
func (p *parser) bondsOf(a int) iter.Seq2[int, int] {
	return func(yield func(k, neighbour int) bool) {
		for k := p.atoms[a].lastBond; k >= 0; {
			b := &p.bonds[k]
			nb, next := b.v, b.next[0]
			if b.v == a {
				nb, next = b.u, b.next[1]
			}
			if !yield(k, nb) {
				return
			}
			k = next
		}
	}
}

// bonded reports whether u and v already share a bond, scanning the
// shorter of their bond lists.
func (p *parser) bonded(u, v int) bool {
	if p.atoms[u].degree > p.atoms[v].degree {
		u, v = v, u
	}
	for _, nb := range p.bondsOf(u) {
		if nb == v {
			return true
		}
	}
	return false
}

func bondLabel(sym byte) string {
	switch sym {
	case '=':
		return BondDouble
	case '#':
		return BondTriple
	case '$':
		return BondQuadruple
	case ':':
		return BondAromatic
	}
	return BondSingle // '-', '/', '\'
}

func isBond(c byte) bool {
	switch c {
	case '-', '=', '#', '$', ':', '/', '\\':
		return true
	}
	return false
}

func isDirection(c byte) bool { return c == '/' || c == '\\' }
func isDigit(c byte) bool     { return c >= '0' && c <= '9' }
func isUpper(c byte) bool     { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool     { return c >= 'a' && c <= 'z' }
func isLetter(c byte) bool    { return isUpper(c) || isLower(c) }

// ringNumber reads a ring bond number at s[i]: a digit, '%' and two
// digits, or RDKit's '%(' digits ')' for numbers above 99.
func (p *parser) ringNumber(i int) (num, next int, err error) {
	s := p.s
	if isDigit(s[i]) {
		return int(s[i] - '0'), i + 1, nil
	}
	if i+1 < len(s) && s[i+1] == '(' {
		j := i + 2
		for j < len(s) && isDigit(s[j]) && j-i-2 < 5 {
			num = 10*num + int(s[j]-'0')
			j++
		}
		if j == i+2 || j >= len(s) || s[j] != ')' {
			return 0, 0, p.errAt(i, "ring bond '%%(' needs 1 to 5 digits and ')'")
		}
		return num, j + 1, nil
	}
	if i+2 < len(s) && isDigit(s[i+1]) && isDigit(s[i+2]) {
		return int(s[i+1]-'0')*10 + int(s[i+2]-'0'), i + 3, nil
	}
	return 0, 0, p.errAt(i, "'%%' must be followed by two digits")
}

// atom reads the atom starting at s[i] and returns the offset after it.
func (p *parser) atom(i int) (atom, int, error) {
	s := p.s
	c := s[i]
	switch c {
	case '[':
		return p.bracketAtom(i)
	case '*':
		return atom{symbol: Wildcard}, i + 1, nil
	case 'B':
		if i+1 < len(s) && s[i+1] == 'r' {
			return atom{symbol: "Br"}, i + 2, nil
		}
		return atom{symbol: "B"}, i + 1, nil
	case 'C':
		if i+1 < len(s) && s[i+1] == 'l' {
			return atom{symbol: "Cl"}, i + 2, nil
		}
		return atom{symbol: "C"}, i + 1, nil
	case 'N', 'O', 'P', 'S', 'F', 'I':
		sym, _ := element(s[i : i+1])
		return atom{symbol: sym}, i + 1, nil
	case 'b', 'c', 'n', 'o', 'p', 's':
		sym, _ := aromaticSymbol(s[i : i+1])
		return atom{symbol: sym, aromatic: true}, i + 1, nil
	}
	// Name the problem: a real element that needs brackets ("Na" reads as
	// N and then a stray 'a'), or no element at all.
	if isLower(c) && i > 0 && isUpper(s[i-1]) {
		if sym, ok := element(s[i-1 : i+1]); ok {
			return atom{}, 0, p.errAt(i-1, "element %s must be written in brackets, [%s]", sym, sym)
		}
	}
	n := 1
	if isUpper(c) && i+1 < len(s) && isLower(s[i+1]) {
		if _, ok := element(s[i : i+2]); ok {
			n = 2
		}
	}
	if sym, ok := element(s[i : i+n]); ok {
		return atom{}, 0, p.errAt(i, "element %s must be written in brackets, [%s]", sym, sym)
	}
	return atom{}, 0, p.errAt(i, "unknown element %q", s[i:i+n])
}

// bracketAtom reads [isotope? symbol chirality? hcount? charge? class?]
// starting at the '[' at s[start]. Only what the graph needs is kept.
func (p *parser) bracketAtom(start int) (atom, int, error) {
	s := p.s
	a := atom{bracket: true}
	j := start + 1
	at := func(k int) byte { // 0 past the end
		if k < len(s) {
			return s[k]
		}
		return 0
	}

	for isDigit(at(j)) {
		// Cap the value: a longer number is still an isotope, and RDKit
		// reads no mass beyond a few hundred anyway.
		a.isotope = min(10*a.isotope+int(s[j]-'0'), 1<<20)
		j++
	}

	switch c := at(j); {
	case isUpper(c):
		n := 1
		if isLower(at(j + 1)) {
			n = 2
		}
		sym, ok := element(s[j : j+n])
		if !ok {
			return a, 0, p.errAt(j, "unknown element %q", s[j:j+n])
		}
		a.symbol, a.hydrogen = sym, sym == "H"
		j += n
	case isLower(c):
		n := 1
		if isLower(at(j + 1)) {
			n = 2
		}
		sym, ok := aromaticSymbol(s[j : j+n])
		if !ok {
			return a, 0, p.errAt(j, "%q is not an aromatic element (b c n o p s se as te)", s[j:j+n])
		}
		a.symbol, a.aromatic = sym, true
		j += n
	case c == '*':
		a.symbol = Wildcard
		j++
	case j >= len(s):
		return a, 0, p.errAt(start, "'[' is never closed")
	default:
		return a, 0, p.errAt(j, "bracket atom without an element symbol")
	}

	if at(j) == '@' {
		k, nonTetra, err := p.chirality(j)
		if err != nil {
			return a, 0, err
		}
		a.nonTetrahedral = nonTetra
		j = k
	}

	if at(j) == 'H' {
		j++
		a.hcount = 1
		if isDigit(at(j)) {
			a.hcount = int(s[j] - '0')
			j++
			if isDigit(at(j)) {
				return a, 0, p.errAt(j, "hydrogen count has more than one digit")
			}
		}
	}

	if sign := at(j); sign == '+' || sign == '-' {
		j++
		a.charge = 1
		switch {
		case at(j) == sign: // "++" or "--"
			a.charge = 2
			j++
		case isDigit(at(j)):
			a.charge = int(s[j] - '0')
			j++
			if isDigit(at(j)) {
				a.charge = 10*a.charge + int(s[j]-'0')
				j++
			}
			if isDigit(at(j)) {
				return a, 0, p.errAt(j, "charge has more than two digits")
			}
		}
		if sign == '-' {
			a.charge = -a.charge
		}
	}

	if at(j) == ':' {
		j++
		if !isDigit(at(j)) {
			return a, 0, p.errAt(j-1, "atom class ':' without a number")
		}
		for isDigit(at(j)) {
			j++
		}
	}

	switch c := at(j); {
	case c == ']':
		return a, j + 1, nil
	case j >= len(s) || c == '[':
		return a, 0, p.errAt(start, "'[' is never closed")
	default:
		r, _ := utf8.DecodeRuneInString(s[j:])
		return a, 0, p.errAt(j, "unexpected %q in bracket atom (expected, in order: chirality, H count, charge, class, ']')", r)
	}
}

// chirality reads a chirality mark at the '@' at s[i] and reports whether
// it is square planar, trigonal bipyramidal or octahedral.
func (p *parser) chirality(i int) (next int, nonTetrahedral bool, err error) {
	s := p.s
	j := i + 1
	if j < len(s) && s[j] == '@' {
		return j + 1, false, nil
	}
	if j+1 >= len(s) {
		return j, false, nil
	}
	var most int
	switch s[j : j+2] {
	case "TH", "AL":
		most = 2
	case "SP":
		most = 3
	case "TB":
		most = 20
	case "OH":
		most = 30
	default:
		return j, false, nil // plain '@'
	}
	class := s[j : j+2]
	k := j + 2
	n := 0
	for k < len(s) && isDigit(s[k]) && k-j-2 < 2 {
		n = 10*n + int(s[k]-'0')
		k++
	}
	if k == j+2 || s[j+2] == '0' || n > most {
		return 0, false, p.errAt(i, "invalid chirality @%s%s (allowed: @TH1-2, @AL1-2, @SP1-3, @TB1-20, @OH1-30)", class, s[j+2:k])
	}
	return k, class == "SP" || class == "TB" || class == "OH", nil
}

// graph drops the hydrogens RDKit's MolFromSmiles drops and builds the
// graph of what remains, in atom order.
func (p *parser) graph() (*graph.Graph, []bool, error) {
	index := make([]int, len(p.atoms)) // new node number, or -1 if dropped
	n := 0
	for i := range p.atoms {
		if p.dropHydrogen(i) {
			index[i] = -1
			continue
		}
		index[i] = n
		n++
	}
	labels := make([]string, 0, n)
	atoms := make([]graph.Atom, 0, n)
	fixed := make([]int, 0, n) // written hydrogen counts, -1 for implicit
	lowercase := make([]bool, 0, n)
	for i, a := range p.atoms {
		if index[i] >= 0 {
			labels = append(labels, a.symbol)
			atoms = append(atoms, graph.Atom{Charge: a.charge, Isotope: a.isotope})
			h := -1
			if a.bracket {
				h = a.hcount
			}
			fixed = append(fixed, h)
			lowercase = append(lowercase, a.aromatic)
		}
	}
	// A removed hydrogen is one more hydrogen of its neighbour.
	removed := make([]int, n)
	for i, a := range p.atoms {
		if index[i] < 0 {
			b := p.bonds[a.lastBond]
			removed[index[b.u+b.v-i]]++
		}
	}
	edges := make([]graph.Edge, 0, len(p.bonds))
	edgeLabels := make([]string, 0, len(p.bonds))
	for _, b := range p.bonds {
		u, v := index[b.u], index[b.v]
		if u < 0 || v < 0 {
			continue
		}
		edges = append(edges, graph.Edge{U: u, V: v})
		edgeLabels = append(edgeLabels, b.label)
	}
	g, err := graph.New(n, edges, edgeLabels, labels)
	if err != nil {
		return nil, nil, fmt.Errorf("SMILES %q: building the graph: %w", p.s, err)
	}
	g.Atoms = atoms
	sanitize(g, fixed, removed, lowercase)
	return g, lowercase, nil
}

// dropHydrogen follows RDKit's RemoveHs defaults (2022.09): a hydrogen
// goes unless it has no neighbour or several, carries a mass, sits on
// another hydrogen, a wildcard or a non-tetrahedral centre, or is the only
// substituent on a double-bonded atom with a '/' or '\' bond (then it
// defines the double bond's geometry).
func (p *parser) dropHydrogen(i int) bool {
	a := p.atoms[i]
	if !a.hydrogen || a.isotope != 0 || a.degree != 1 {
		return false
	}
	b := p.bonds[a.lastBond] // its only bond
	nb := b.u
	if nb == i {
		nb = b.v
	}
	na := p.atoms[nb]
	if na.hydrogen || na.symbol == Wildcard || na.nonTetrahedral {
		return false
	}
	if b.directional && na.degree == 2 {
		for k := range p.bondsOf(nb) {
			if p.bonds[k].label == BondDouble {
				return false
			}
		}
	}
	return true
}
