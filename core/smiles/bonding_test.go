package smiles_test

import (
	"slices"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/scaffold"
	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
)

// bondingCases are the types of small molecules worked by hand, one
// case per rule and the writings that must agree.
var bondingCases = []struct {
	smiles string
	want   []string
}{
	{"CC(=O)N", []string{"C", "C", "O.2", "N.am"}},                                    // acetamide
	{"NC(=O)N", []string{"N.am", "C", "O.2", "N.am"}},                                 // urea
	{"CC(=S)N", []string{"C", "C", "S", "N.am"}},                                      // thioacetamide
	{"CCN", []string{"C", "C", "N.H"}},                                                // ethylamine
	{"CCN(C)C", []string{"C", "C", "N.3", "C", "C"}},                                  // a tertiary amine has no H
	{"C[NH3+]", []string{"C", "N.H"}},                                                 // methylammonium
	{"C[N+](C)(C)C", []string{"C", "N.3", "C", "C", "C"}},                             // tetramethylammonium
	{"Nc1ccccc1", []string{"N.H", "C", "C", "C", "C", "C", "C"}},                      // aniline
	{"CS(=O)(=O)N", []string{"C", "S", "O.2x", "O.2x", "N.H"}},                        // a sulfonamide's N is no amide
	{"CC#N", []string{"C", "C", "N.2"}},                                               // acetonitrile
	{"CC=NO", []string{"C", "C", "N.2", "O.Ha"}},                                      // an oxime's OH
	{"c1ccncc1", []string{"C", "C", "C", "N.ar", "C", "C"}},                           // pyridine
	{"c1ncc[nH]1", []string{"C", "N.az", "C", "C", "N.az"}},                           // imidazole: both N of a five-membered ring
	{"c1ccc2ncccc2c1", []string{"C", "C", "C", "C", "N.ar", "C", "C", "C", "C", "C"}}, // quinoline
	{"c1ccc2[nH]ccc2c1", []string{"C", "C", "C", "C", "N.az", "C", "C", "C", "C"}},    // indole
	{"c1cc[nH]c1", []string{"C", "C", "C", "N.az", "C"}},                              // pyrrole
	{"[O-][n+]1ccccc1", []string{"O.2x", "N.ar", "C", "C", "C", "C", "C"}},            // pyridine N-oxide
	{"CCO", []string{"C", "C", "O.H"}},                                                // ethanol
	{"Oc1ccccc1", []string{"O.Ha", "C", "C", "C", "C", "C", "C"}},                     // phenol
	{"CC(=O)O", []string{"C", "C", "O.2", "O.Ha"}},                                    // acetic acid
	{"CC(=O)[O-]", []string{"C", "C", "O.2", "O.2"}},                                  // acetate
	{"COC", []string{"C", "O.3", "C"}},                                                // dimethyl ether
	{"CC(=O)OC", []string{"C", "C", "O.2", "O.3", "C"}},                               // methyl acetate
	{"c1ccoc1", []string{"C", "C", "C", "O.3", "C"}},                                  // furan
	{"O", []string{"O.H"}},
	{"C=CO", []string{"C", "C", "O.Ha"}},                                                    // an enol
	{"OS(=O)(=O)O", []string{"O.Ha", "S", "O.2x", "O.2x", "O.Ha"}},                          // sulfuric acid
	{"OCO", []string{"O.H", "C", "O.H"}},                                                    // a hemiacetal's carbon is saturated                                                                 // water
	{"c1ccccc1[N+](=O)[O-]", []string{"C", "C", "C", "C", "C", "C", "N.2", "O.2x", "O.2x"}}, // nitrobenzene
	{"c1ccccc1N(=O)=O", []string{"C", "C", "C", "C", "C", "C", "N.2", "O.2x", "O.2x"}},      // the same, five-valent
	{"ClCBr", []string{"Cl", "C", "Br"}},
	{"COP(=O)(OC)OC", []string{"C", "O.3", "P", "O.2x", "O.3", "C", "O.3", "C"}}, // trimethyl phosphate
	{"CC[N+](C)=C", []string{"C", "C", "N.2", "C", "C"}},                         // an iminium
	{"CC(C)=NN", []string{"C", "C", "C", "N.2", "N.H"}},                          // a hydrazone's NH2
}

func TestBondingTypes(t *testing.T) {
	for _, c := range bondingCases {
		if got := bondingTypesOf(t, c.smiles); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.smiles, got, c.want)
		}
	}
}

// TestBondingTypesWithoutCharges: a TU dataset writes nitrobenzene with
// one N=O, one N-O and no charges (scaffold.Molecule cleans up a
// five-valent N(=O)=O into that); it gets the types of the charged
// writing.
func TestBondingTypesWithoutCharges(t *testing.T) {
	var edges []graph.Edge
	for _, e := range [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {5, 6}, {6, 7}, {6, 8}} {
		edges = append(edges, graph.Edge{U: e[0], V: e[1]})
	}
	g, err := graph.New(9, edges, []string{"4", "4", "4", "4", "4", "4", "1", "2", "1"}, []string{"C", "C", "C", "C", "C", "C", "N", "O", "O"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"C", "C", "C", "C", "C", "C", "N.2", "O.2x", "O.2x"}
	if got := smiles.BondingTypes(g); !slices.Equal(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}

// TestBondingTypesMatchRDKit checks every atom of the NCI sample and of
// the hand-worked cases against the types written as SMARTS and matched
// by RDKit (testdata/rdkit_bonding.py).
func TestBondingTypesMatchRDKit(t *testing.T) {
	t.Log("the RDKit oracle needs Debian's python3-rdkit (apt-get install python3-rdkit rdkit-data)")
	inputs := testenv.NCISmiles(t)
	for _, c := range bondingCases {
		inputs = append(inputs, c.smiles)
	}
	py := testenv.Python(t, "rdkit")
	var out struct{ Types [][]string }
	testenv.RunJSON(t, py, []string{"testdata/rdkit_bonding.py"}, map[string]any{"smiles": inputs}, &out)
	if len(out.Types) != len(inputs) {
		t.Fatalf("oracle answered for %d of %d SMILES", len(out.Types), len(inputs))
	}
	compared, failed := 0, 0
	for i, want := range out.Types {
		if want == nil {
			continue
		}
		if got := bondingTypesOf(t, inputs[i]); !slices.Equal(got, want) {
			if failed++; failed <= 20 {
				t.Errorf("%s: %v, RDKit %v", inputs[i], got, want)
			}
			continue
		}
		compared++
	}
	if compared < 4900 {
		t.Errorf("only %d molecules compared", compared)
	}
	t.Logf("%d molecules' atoms typed as RDKit types them (%d differ)", compared, failed)
}

// bondingTypesOf reads s as the chemistry-aware descriptors read it.
func bondingTypesOf(t *testing.T, s string) []string {
	t.Helper()
	g, err := smiles.Parse(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	mol, err := scaffold.Molecule(g, nil, nil)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return smiles.BondingTypes(mol)
}
