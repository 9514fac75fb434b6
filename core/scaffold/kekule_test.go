package scaffold

import (
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
)

// kekuleOracle enumerates the Kekulé structures of m by brute force: the
// perfect matchings, by ring bonds, of the atoms that have exactly one
// multiple bond, a double bond in a ring. It returns, per edge, whether
// the edge is double in some structure and single in another, and false
// when there are more than limit structures.
func kekuleOracle(m *molecule, bonds []string, limit int) ([]bool, bool) {
	multiple := make([]int, m.n)
	ringDouble := make([]int, m.n)
	for i, b := range bonds {
		for _, v := range m.edges[i] {
			if b == Double || b == Triple || b == Quadruple {
				multiple[v]++
			}
			if b == Double && m.ring[i] {
				ringDouble[v]++
			}
		}
	}
	in := func(v int) bool { return multiple[v] == 1 && ringDouble[v] == 1 }
	var cand []int // ring bonds between such atoms
	for i, e := range m.edges {
		if m.ring[i] && in(e[0]) && in(e[1]) && (bonds[i] == Single || bonds[i] == Double) {
			cand = append(cand, i)
		}
	}
	matched := make([]bool, m.n)
	uses := make([]int, len(m.edges))
	var chosen []int
	count := 0
	var next func() bool
	next = func() bool {
		v := -1
		for u := range m.n {
			if in(u) && !matched[u] {
				v = u
				break
			}
		}
		if v < 0 {
			if count++; count > limit {
				return false
			}
			for _, i := range chosen {
				uses[i]++
			}
			return true
		}
		for _, i := range cand {
			e := m.edges[i]
			w := e[0] + e[1] - v
			if (e[0] == v || e[1] == v) && !matched[w] {
				matched[v], matched[w] = true, true
				chosen = append(chosen, i)
				ok := next()
				chosen = chosen[:len(chosen)-1]
				matched[v], matched[w] = false, false
				if !ok {
					return false
				}
			}
		}
		return true
	}
	if !next() {
		return nil, false
	}
	out := make([]bool, len(m.edges))
	for i, u := range uses {
		out[i] = u > 0 && u < count
	}
	return out, true
}

// asWritten reads s without normalising its bonds.
func asWritten(t testing.TB, s string) (*molecule, []string) {
	t.Helper()
	g, err := smiles.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	m, err := read(g, elements{})
	if err != nil {
		t.Fatal(err)
	}
	return m, slices.Clone(g.EdgeLabels)
}

// TestAlternatingHand: rings whose Kekulé structures alternate become
// aromatic wherever they alternate; rings with one structure, and
// double bonds leaving a ring, stay as written. RDKit (2022.09) agrees
// except where noted.
func TestAlternatingHand(t *testing.T) {
	for _, tc := range []struct {
		smiles   string
		aromatic int // bonds made aromatic; the others keep their type
	}{
		{"C1=CC=CC=C1", 6},
		{"C1=CC2=CC=CC=C2C=C1", 11},        // naphthalene, fusion bond included
		{"C1=CC=C2C=CC=CC2=C1", 11},        // its other Kekulé structure
		{"C1=CC2=CC=CC=CC2=C1", 10},        // azulene: odd rings (a blossom); the fusion bond is never double (RDKit: single too)
		{"C1=CNC=C1", 0},                   // pyrrole: one structure (RDKit: aromatic)
		{"O=C1C=CC(=O)C=C1", 0},            // p-benzoquinone
		{"C=C1C=CC=C1", 0},                 // fulvene
		{"C=C1C=CC(=C)C=C1", 0},            // p-xylylene (RDKit: an aromatic ring)
		{"C1=CC=CC=CC=C1", 8},              // cyclooctatetraene (RDKit: not aromatic)
		{"CC1=CC=CC=C1C=C", 6},             // the vinyl group stays
		{"C[N+]1=CC=CC=C1", 6},             // pyridinium
		{"C1=CC=C2C(=C1)C1=CC=CC=C21", 14}, // biphenylene (RDKit: the four-membered ring's own bonds single)
	} {
		m, written := asWritten(t, tc.smiles)
		n := 0
		for i, b := range m.bonds {
			switch {
			case b == Aromatic:
				n++
			case b != written[i]:
				t.Errorf("%s: bond %v is %s, written %s", tc.smiles, m.edges[i], b, written[i])
			}
		}
		if n != tc.aromatic {
			t.Errorf("%s: %d bonds aromatic (%s), want %d", tc.smiles, n, strings.Join(m.bonds, ""), tc.aromatic)
		}
	}
}

// TestAlternatingOracle: on every molecule of RDKit's NCI sample, as
// written (Kekulé), the bonds made aromatic are exactly those that the
// enumeration of Kekulé structures finds double in one and single in
// another.
func TestAlternatingOracle(t *testing.T) {
	checked, rings := 0, 0
	for _, s := range testenv.NCISmiles(t) {
		m, written := asWritten(t, s)
		// The oracle sees the bonds as written, less aromatic bonds
		// outside rings (which normalise makes single first).
		want, ok := kekuleOracle(m, written, 100000)
		if !ok {
			t.Fatalf("%s: over 100000 Kekulé structures", s)
		}
		for i, b := range m.bonds {
			if got := b == Aromatic && written[i] != Aromatic; got != want[i] {
				t.Fatalf("%s: bond %d (%v, written %s) aromatic %v, oracle %v", s, i, m.edges[i], written[i], got, want[i])
			}
			if want[i] {
				rings++
			}
		}
		checked++
	}
	if rings < 10000 {
		t.Fatalf("only %d alternating bonds in %d molecules: the test checks too little", rings, checked)
	}
	t.Logf("%d molecules, %d alternating bonds, all as the enumeration finds", checked, rings)
}
