package smiles

import (
	"fmt"
	"strings"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/testenv"
)

// rdkitAtoms is the oracle's answer (testdata/rdkit_atoms.py).
type rdkitAtoms struct {
	Molecules [][][4]int `json:"molecules"`
	// Bonds are each molecule's bonds after sanitisation: begin, end and
	// label (BondSingle, ...).
	Bonds [][][3]any `json:"bonds"`
	// Gasteiger are ComputeGasteigerCharges' charges, nil where RDKit
	// gives NaN.
	Gasteiger [][]*float64 `json:"gasteiger"`
	Valences  [][]int      `json:"valences"`
	Outer     []int        `json:"outer"`
}

func rdkitAtomsOf(t *testing.T, list []string) rdkitAtoms {
	t.Helper()
	t.Log("the RDKit oracle needs Debian's python3-rdkit (apt-get install python3-rdkit rdkit-data)")
	py := testenv.Python(t, "rdkit")
	var out rdkitAtoms
	testenv.RunJSON(t, py, []string{"testdata/rdkit_atoms.py"}, map[string]any{"smiles": list}, &out)
	if len(out.Molecules) != len(list) {
		t.Fatalf("oracle answered for %d of %d SMILES", len(out.Molecules), len(list))
	}
	return out
}

// atomDiff returns the first atom whose chemistry differs from RDKit's.
func atomDiff(s string, want [][4]int) string {
	g, err := Parse(s)
	if err != nil {
		return fmt.Sprintf("Parse refuses what RDKit reads: %v", err)
	}
	if len(g.Atoms) != len(want) {
		return fmt.Sprintf("%d atoms, RDKit %d", len(g.Atoms), len(want))
	}
	for i, a := range g.Atoms {
		got := [4]int{a.Charge, a.Isotope, 0, a.Hydrogens}
		if a.Aromatic {
			got[2] = 1
		}
		if got != want[i] {
			return fmt.Sprintf("atom %d (%s): [charge isotope aromatic H] %v, RDKit %v", i, g.NodeLabels[i], got, want[i])
		}
	}
	return ""
}

// The valence tables are RDKit's.
func TestPeriodicTable(t *testing.T) {
	out := rdkitAtomsOf(t, []string{})
	for z := 1; z <= 118; z++ {
		want := out.Valences[z-1]
		got, ok := valenceList[z]
		if !ok {
			got = []int{-1}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("element %d: valences %v, RDKit %v", z, got, want)
		}
	}
	for z, n := range out.Outer {
		if nOuter(z) != n {
			t.Errorf("element %d: %d outer electrons, RDKit %d", z, nOuter(z), n)
		}
	}
}

// chemistryTolerance is the number of NCI molecules (of 4,993 RDKit reads)
// whose atoms may differ from RDKit's; see the package documentation.
const chemistryTolerance = 1

// Charge, isotope, aromaticity and total hydrogen count of every atom of
// every NCI molecule RDKit reads, and of RDKit's canonical SMILES of it
// (aromatic input), must equal RDKit's.
func TestChemistryMatchesRDKitNCI(t *testing.T) {
	inputs := testenv.NCISmiles(t)
	out := rdkitAtomsOf(t, inputs)
	read, differ := 0, 0
	for i, want := range out.Molecules {
		if want == nil {
			continue
		}
		read++
		if d := atomDiff(inputs[i], want); d != "" {
			differ++
			t.Logf("NCI line %d %q: %s", i+1, inputs[i], d)
		}
	}
	if differ > chemistryTolerance {
		t.Errorf("%d of %d molecules differ from RDKit (tolerance %d)", differ, read, chemistryTolerance)
	}
	t.Logf("%d of %d molecules RDKit reads have RDKit's atom chemistry", read-differ, read)
}

func TestChemistryMatchesRDKitCases(t *testing.T) {
	cases := strings.Fields(`c1ccccc1 C1=CC=CC=C1 c1ccncc1 c1cc[nH]c1 c1ccoc1 c1ccsc1 O=c1cccc[nH]1
		C[n+]1ccccc1 [O-][N+](=O)c1ccccc1 c1ccc2ccccc2c1 c1ccc2cc3ccccc3cc2c1 C1=CC2=CC=CC=C2C=C1
		[NH4+] [13CH4] [2H]C([2H])([2H])[2H] [CH3-] [CH3+] CC(=O)[O-] C[S+](C)C OS(=O)(=O)O
		[B-](F)(F)(F)F [Na+].[Cl-] c1ccc2c(c1)[nH]c1ccccc12 C1=CC=C2C=CC=CC2=C1 c1cc2ccc3cccc4ccc(c1)c2c34
		O=C1C=CC(=O)C=C1 c1ccc(cc1)-c1ccccc1 [cH-]1cccc1 C1=CC=[C-]C1 c1cc[o+]cc1 C=1C=C[CH+]C=CC=1
		P(=O)(O)(O)O CP(C)C S1C=CC=C1 [se]1cccc1 N1C=CC=C1 c1ccc2[nH]ccc2c1 Cn1cnc2c1c(=O)n(C)c(=O)n2C`)
	out := rdkitAtomsOf(t, cases)
	for i, want := range out.Molecules {
		if want == nil {
			t.Errorf("RDKit refuses %q", cases[i])
			continue
		}
		if d := atomDiff(cases[i], want); d != "" {
			t.Errorf("%q: %s", cases[i], d)
		}
	}
}

// bondDiff returns the first bond whose type after CleanedBonds differs
// from RDKit's sanitised one, among those that neither RDKit nor the
// string makes aromatic (CleanedBonds perceives no aromaticity).
func bondDiff(s string, want [][3]any) string {
	return bondsDiff(s, want, func(g *graph.Graph, k int, rdkit string) bool {
		return rdkit == BondAromatic || g.EdgeLabels[k] == BondAromatic
	}, CleanedBonds, "cleaned")
}

// sanitizedDiff returns the first bond whose type after Sanitized differs
// from RDKit's sanitised one.
func sanitizedDiff(s string, want [][3]any) string {
	return bondsDiff(s, want, func(*graph.Graph, int, string) bool { return false }, func(g *graph.Graph) []string {
		_, bonds := Sanitized(g)
		return bonds
	}, "sanitised")
}

// bondsDiff returns the first bond of s, skip aside, whose type in
// bonds(g) differs from RDKit's (want, the oracle's [begin, end, type]).
func bondsDiff(s string, want [][3]any, skip func(g *graph.Graph, k int, rdkit string) bool, bonds func(*graph.Graph) []string, name string) string {
	g, err := Parse(s)
	if err != nil {
		return fmt.Sprintf("Parse refuses what RDKit reads: %v", err)
	}
	rdkit := make(map[graph.Edge]string, len(want))
	for _, b := range want {
		u, v := int(b[0].(float64)), int(b[1].(float64))
		rdkit[graph.Edge{U: min(u, v), V: max(u, v)}] = b[2].(string)
	}
	got := bonds(g)
	for k, e := range g.Edges {
		w, ok := rdkit[e]
		if !ok {
			return fmt.Sprintf("bond %d-%d: RDKit has none", e.U, e.V)
		}
		if skip(g, k, w) {
			continue
		}
		if got[k] != w {
			return fmt.Sprintf("bond %d-%d (%s-%s) written %q: %s %q, RDKit %q", e.U, e.V, g.NodeLabels[e.U], g.NodeLabels[e.V], g.EdgeLabels[k], name, got[k], w)
		}
	}
	return ""
}

// matchBondsRDKit checks diff on cases (which RDKit must read) and on the
// NCI molecules, but those in except.
func matchBondsRDKit(t *testing.T, cases []string, except map[string]bool, diff func(s string, want [][3]any) string) {
	t.Helper()
	inputs := append(cases, testenv.NCISmiles(t)...)
	out := rdkitAtomsOf(t, inputs)
	for i, want := range out.Bonds {
		if want == nil {
			if i < len(cases) {
				t.Errorf("RDKit refuses %q", cases[i])
			}
			continue
		}
		if except[inputs[i]] {
			continue
		}
		if d := diff(inputs[i], want); d != "" {
			t.Errorf("%q: %s", inputs[i], d)
		}
	}
}

// CleanedBonds gives RDKit's bond types after sanitisation wherever
// neither makes a bond aromatic: on over-bonded groups as the five-valent
// writings put them and on every NCI molecule.
func TestCleanedBondsMatchRDKit(t *testing.T) {
	cases := strings.Fields(`CN(=O)=O c1ccccc1N(=O)=O O=N(=O)c1ccc(cc1)N(=O)=O C[N+](=O)[O-] CN=N#N CN=[N+]=[N-]
		OCl(=O)(=O)=O [O-]Cl(=O)(=O)=O OBr(=O)=O OI(=O)(=O)=O CON(=O)=O O=N(=O)OC CC(=O)[O-] OS(=O)(=O)O`)
	matchBondsRDKit(t, cases, nil, bondDiff)
}

// Sanitized gives every bond RDKit's type after sanitisation, aromatic
// ones included, on every NCI molecule (written in Kekulé form) but one
// and on heteroaromatic rings written either way, so that all writings of
// a molecule read alike.
func TestSanitizedMatchesRDKit(t *testing.T) {
	cases := strings.Fields(`C1=CC=CS1 c1ccsc1 C1=CNC=C1 c1cc[nH]c1 O1C=CC=C1 o1cccc1 O=C1C=CC=CN1 O=c1cccc[nH]1
		CC1=NC=CS1 Cc1nccs1 C1=CC=C2C=CC=CC2=C1 c1ccc2ccccc2c1 O=C1OC2=CC=CC=C2C=C1 O=c1ccc2ccccc2o1 C1=CC=CC=C1C1=CC=CO1`)
	// A porphyrin. Its atoms are aromatic for both, but RDKit makes
	// aromatic the bonds of its 16-atom macrocycle and of one pyrrole ring
	// where Sanitized takes three other pyrrole rings: the fused ring
	// systems are searched otherwise (known, not fixed).
	porphyrin := "CC1=C2NC(=C1CCC(O)=O)C=C3N=C(C=C4NC(=CC5=NC(=C2)C(=C5C)C=C)C(=C4C)C=C)C(=C3CCC(O)=O)C"
	matchBondsRDKit(t, cases, map[string]bool{porphyrin: true}, sanitizedDiff)
}
