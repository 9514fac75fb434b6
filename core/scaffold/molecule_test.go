package scaffold

import (
	"slices"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
)

func TestMolecule(t *testing.T) {
	for _, c := range []struct {
		smiles string
		want   []string // bond types in edge order
	}{
		{"C1=CC=CC=C1", []string{"4", "4", "4", "4", "4", "4"}},
		{"c1ccccc1-c1ccccc1", []string{"4", "4", "4", "4", "4", "4", "1", "4", "4", "4", "4", "4", "4"}},
		// RDKit's aromaticity, whichever way the ring is written: a
		// thiophene, a pyrrole, a 2-pyridone (its C=O stays double).
		{"C1=CC=CS1", []string{"4", "4", "4", "4", "4"}},
		{"c1ccsc1", []string{"4", "4", "4", "4", "4"}},
		{"C1=CNC=C1", []string{"4", "4", "4", "4", "4"}},
		{"O=C1C=CC=CN1", []string{"2", "4", "4", "4", "4", "4", "4"}},
		{"O=c1cccc[nH]1", []string{"2", "4", "4", "4", "4", "4", "4"}},
		// Bonds outside rings stay as written: a charge-separated nitro
		// group keeps one single and one double N-O bond, and the
		// five-valent writing gets them too (RDKit's clean-up), as do
		// an azide and a perchlorate.
		{"C[N+](=O)[O-]", []string{"1", "2", "1"}},
		{"CN(=O)=O", []string{"1", "1", "2"}},
		{"CN=N#N", []string{"1", "2", "2"}},
		{"CN=[N+]=[N-]", []string{"1", "2", "2"}},
		{"OCl(=O)(=O)=O", []string{"1", "1", "1", "1"}},
	} {
		g, err := smiles.Parse(c.smiles)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Molecule(g, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.smiles, err)
		}
		if !slices.Equal(m.EdgeLabels, c.want) {
			t.Errorf("%s: bonds %v, want %v", c.smiles, m.EdgeLabels, c.want)
		}
	}
	// Codes through tables; labels the tables lack stay.
	g, err := graph.New(3, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, []string{"0", "1"}, []string{"0", "1", "C"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Molecule(g, map[string]string{"0": "C", "1": "N"}, map[string]string{"0": "aromatic", "1": "single"})
	if err != nil || !slices.Equal(m.NodeLabels, []string{"C", "N", "C"}) || !slices.Equal(m.EdgeLabels, []string{"1", "1"}) {
		t.Errorf("through tables: %v, %v", m, err)
	}
	if _, err := Molecule(g, nil, nil); err == nil {
		t.Error("codes without tables read as a molecule")
	}
}
