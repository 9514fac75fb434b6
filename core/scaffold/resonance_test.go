package scaffold

import (
	"slices"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
)

func TestResonanceBonds(t *testing.T) {
	for _, c := range []struct {
		smiles string
		want   [][2]int // marked bonds as atom pairs
	}{
		{"c1ccccc1[N+](=O)[O-]", [][2]int{{6, 7}, {6, 8}}},
		{"c1ccccc1N(=O)=O", [][2]int{{6, 7}, {6, 8}}}, // cleaned up to the charge pair
		{"CC(=O)[O-]", [][2]int{{1, 2}, {1, 3}}},
		{"CC(=O)O", nil}, // an acid's OH is no anion
		{"CS(=O)(=O)[O-]", [][2]int{{1, 2}, {1, 3}, {1, 4}}},
		{"CS(=O)(=O)O", nil},
		{"OP(=O)([O-])[O-]", [][2]int{{1, 2}, {1, 3}, {1, 4}}}, // not the OH
		{"CO[N+](=O)[O-]", [][2]int{{2, 3}, {2, 4}}},           // a nitrate's terminal oxygens
		{"CC(C)=O", nil},
		{"C[N+](C)(C)[O-]", nil},              // an N-oxide: one oxygen
		{"O=N[O-]", [][2]int{{0, 1}, {1, 2}}}, // nitrite: two neighbours only
		{"[O-]C=O", [][2]int{{0, 1}, {1, 2}}}, // formate
	} {
		g, err := smiles.Parse(c.smiles)
		if err != nil {
			t.Fatal(err)
		}
		mol, err := Molecule(g, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got [][2]int
		for k, marked := range ResonanceBonds(mol) {
			if marked {
				got = append(got, [2]int{mol.Edges[k].U, mol.Edges[k].V})
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.smiles, got, c.want)
		}
	}
}

// A TU dataset's nitro group has no charges: its N's bonds (1 + 1 + 2)
// exceed nitrogen's valence, so its oxygens are the anion's; a
// carboxylic acid's carbon has its valence and keeps its OH.
func TestResonanceBondsWithoutCharges(t *testing.T) {
	for _, c := range []struct {
		name  string
		atoms []string
		bonds []string // C-X, X-O, X-O
		want  []bool
	}{
		{"nitro", []string{"C", "N", "O", "O"}, []string{Single, Double, Single}, []bool{false, true, true}},
		{"carboxylic acid", []string{"C", "C", "O", "O"}, []string{Single, Double, Single}, nil},
	} {
		g, err := graph.New(4, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 1, V: 3}}, c.bonds, c.atoms)
		if err != nil {
			t.Fatal(err)
		}
		want := c.want
		if want == nil {
			want = make([]bool, 3)
		}
		if got := ResonanceBonds(g); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", c.name, got, want)
		}
	}
}
