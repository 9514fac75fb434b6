package explain

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
	"wkpi-web/core/wire"
)

// molecule parses s and reads it as features.Settings.Molecule does.
func molecule(t *testing.T, s string) (*graph.Graph, *graph.Graph) {
	t.Helper()
	g, err := smiles.Parse(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	mol, err := features.Settings{Extra: []filtration.Options{{Kind: filtration.KindBonds}}}.Molecule(g)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return g, mol
}

// groupList writes groups as "name atoms; ...", the form the cases are
// worked in.
func groupList(gs []wire.GroupScore) string {
	s := make([]string, len(gs))
	for i, g := range gs {
		s[i] = g.Name + " " + strings.Trim(fmt.Sprint(g.Atoms), "[]")
	}
	return strings.Join(s, "; ")
}

func TestFindGroups(t *testing.T) {
	for _, c := range []struct{ name, smiles, want string }{
		// Atoms numbered as written: the ring 0-5, then N 6 and its O 7, 8.
		{"nitrobenzene", "c1ccccc1[N+](=O)[O-]", "nitro 6 7 8; benzene ring 0 1 2 3 4 5"},
		{"nitrobenzene, five-valent N", "c1ccccc1N(=O)=O", "nitro 6 7 8; benzene ring 0 1 2 3 4 5"},
		// O 0, C 1, =O 2, ring 3-6 8 9 with Cl 7 on C 6.
		{"4-chlorobenzoic acid", "OC(=O)c1ccc(Cl)cc1", "carboxylic acid 0 1 2; benzene ring 3 4 5 6 8 9; chlorine 7"},
		// C 0, C 1, =O 2, N 3, ring 4-9: the N is the amide's, no amine.
		{"acetanilide", "CC(=O)Nc1ccccc1", "amide 1 2 3; benzene ring 4 5 6 7 8 9"},
		{"benzonitrile", "N#Cc1ccccc1", "nitrile 0 1; benzene ring 2 3 4 5 6 7"},
		{"pyridine", "c1ccncc1", "pyridine ring 0 1 2 3 4 5"},
		{"pyrimidine: two N, no pyridine", "c1cncnc1", "aromatic ring 0 1 2 3 4 5"},
		{"quinoline", "c1ccc2ncccc2c1", "pyridine ring 3 4 5 6 7 8; benzene ring 0 1 2 3 8 9"},
		{"Kekulé benzene", "C1=CC=CC=C1", "benzene ring 0 1 2 3 4 5"},
		{"Kekulé nitrobenzene", "C1=CC=C(C=C1)[N+](=O)[O-]", "nitro 6 7 8; benzene ring 0 1 2 3 4 5"},
		{"naphthalene: two rings sharing 3 and 8", "c1ccc2ccccc2c1", "benzene ring 0 1 2 3 8 9; benzene ring 3 4 5 6 7 8"},
		// Every bond of the middle ring lies on an outer ring too.
		{"coronene", "c1cc2ccc3ccc4ccc5ccc6ccc1c1c2c3c4c5c61",
			"benzene ring 0 1 2 17 18 19; benzene ring 2 3 4 5 19 20; benzene ring 5 6 7 8 20 21; benzene ring 8 9 10 11 21 22; " +
				"benzene ring 11 12 13 14 22 23; benzene ring 14 15 16 17 18 23; benzene ring 18 19 20 21 22 23"},
		{"indole", "c1ccc2[nH]ccc2c1", "aromatic ring 3 4 5 6 7; benzene ring 0 1 2 3 7 8"},
		{"nitric acid", "O[N+]([O-])=O", "nitrate 0 1 2 3"},
		{"ethyl acetate", "CCOC(=O)C", "ester 2 3 4"},
		{"acetone", "CC(=O)C", "carbonyl 1 2"},
		{"ketene: no carbonyl", "C=C=O", ""},
		{"ethanol", "CCO", "hydroxyl 2"},
		{"triethylamine", "CCN(CC)CC", "amine 2"},
		{"aniline: the N is an amine", "Nc1ccccc1", "amine 0; benzene ring 1 2 3 4 5 6"},
		{"methanesulfonamide", "CS(=O)(=O)N", "sulfonamide 1 2 3 4"},
		{"dimethyl sulfone", "CS(=O)(=O)C", "sulfonyl 1 2 3"},
		{"ethanethiol", "CCS", "thiol 2"},
		{"dimethyl sulfide", "CSC", "thioether 1"},
		{"thiophene: an aromatic ring, no thioether", "c1ccsc1", "aromatic ring 0 1 2 3 4"},
		{"urea", "NC(=O)N", "amide 0 1 2 3"},
		{"trifluoromethyl", "FC(F)(F)c1ccccc1", "benzene ring 4 5 6 7 8 9; fluorine 0; fluorine 2; fluorine 3"},
	} {
		_, mol := molecule(t, c.smiles)
		got := FindGroups(mol)
		// The listing's order is fixed; the cases list rings before
		// halogens as FindGroups does, so compare as sets.
		gotList := strings.Split(groupList(got), "; ")
		wantList := strings.Split(c.want, "; ")
		slices.Sort(gotList)
		slices.Sort(wantList)
		if !slices.Equal(gotList, wantList) {
			t.Errorf("%s (%s): groups %q, want %q", c.name, c.smiles, groupList(got), c.want)
		}
	}
}

// TestGroupScores checks that a group's score is its atoms' scores
// (and with Simplices its bonds'), its share that over the sum of all
// |scores|, and that groups come largest |score| first.
func TestGroupScores(t *testing.T) {
	ds := mutag(t)
	r := rand.New(rand.NewPCG(7, 8))
	g, _ := molecule(t, "OC(=O)c1ccc(cc1)[N+](=O)[O-]")
	for _, k := range kinds()[:2] {
		m := handMade(t, ds, k, r)
		for _, a := range []Attribution{Nodes, Simplices} {
			e, err := New(prepared(t, m), Options{Attribution: a})
			if err != nil {
				t.Fatal(err)
			}
			ex, err := e.Explain(g)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := groupList(ex.Groups), "nitro 9 10 11; carboxylic acid 0 1 2; benzene ring 3 4 5 6 7 8"; !sameItems(got, want) {
				t.Fatalf("%s, %s: groups %q, want %q", k.name, a, got, want)
			}
			var total float64
			for _, n := range ex.Nodes {
				total += math.Abs(n.Score)
			}
			if a == Simplices {
				for _, ed := range ex.Edges {
					total += math.Abs(ed.Score)
				}
			}
			for i, gr := range ex.Groups {
				var want float64
				for _, v := range gr.Atoms {
					want += ex.Nodes[v].Score
				}
				if a == Simplices {
					for _, ed := range ex.Edges {
						if slices.Contains(gr.Atoms, ed.U) && slices.Contains(gr.Atoms, ed.V) {
							want += ed.Score
						}
					}
				}
				if math.Abs(gr.Score-want) > 1e-12 || math.Abs(gr.Share-want/total) > 1e-12 {
					t.Errorf("%s, %s: %s scored %v (share %v), want %v (%v)", k.name, a, gr.Name, gr.Score, gr.Share, want, want/total)
				}
				if i > 0 && math.Abs(gr.Score) > math.Abs(ex.Groups[i-1].Score) {
					t.Errorf("%s, %s: %s (%v) after %s (%v)", k.name, a, gr.Name, gr.Score, ex.Groups[i-1].Name, ex.Groups[i-1].Score)
				}
			}
		}
	}
	// A graph that is no molecule has no groups.
	plain, err := graph.New(3, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(prepared(t, handMade(t, ds, kinds()[0], r)), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ex, err := e.Explain(plain)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Groups) != 0 {
		t.Errorf("an unlabelled path has groups %v", ex.Groups)
	}
}

// TestGroupsTU checks that a TU graph's codes are read through the
// model's code tables: MUTAG's first graph is a nitro-anthracene (atoms
// 0-13 three fused benzene rings, N 14 and O 15, 16); without the tables
// its labels are no elements and it has no groups.
func TestGroupsTU(t *testing.T) {
	ds := mutag(t)
	m := handMade(t, ds, kinds()[0], rand.New(rand.NewPCG(9, 10)))
	readme := testenv.Dataset(t, "MUTAG") + "/README.txt"
	text, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := tu.NodeLabelNames(text)
	if err != nil {
		t.Fatal(err)
	}
	edges, err := tu.EdgeLabelNames(text)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		codes *features.Codes
		want  string
	}{
		{&features.Codes{Nodes: nodes, Edges: edges}, "nitro 14 15 16; benzene ring 0 1 2 3 4 5; benzene ring 3 4 6 7 8 9; benzene ring 8 9 10 11 12 13"},
		{nil, ""},
	} {
		m.Features.Codes = c.codes
		e, err := New(prepared(t, m), DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		ex, err := e.Explain(ds.Graphs[0])
		if err != nil {
			t.Fatal(err)
		}
		if got := groupList(ex.Groups); !sameItems(got, c.want) {
			t.Errorf("codes %v: groups %q, want %q", c.codes != nil, got, c.want)
		}
	}
}

// sameItems compares two "; "-separated lists as sets.
func sameItems(a, b string) bool {
	x, y := strings.Split(a, "; "), strings.Split(b, "; ")
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// TestGroupsRDKit compares the nitro groups, carbonyls, nitriles,
// halogens, benzene and pyridine rings found in RDKit's NCI sample with
// RDKit's SMARTS matches ([N+](=O)[O-] or N(=O)=O; [CX3]=[OX1]; C#N;
// [F,Cl,Br,I]; c1ccccc1; n1ccccc1), as atom sets, on all 4,999 molecules. A
// carbonyl is the C and O of every carbonyl, carboxylic acid, ester and
// amide group; RDKit's nitro matches on a nitrate's N are left out.
func TestGroupsRDKit(t *testing.T) {
	py := testenv.Python(t, "rdkit")
	all := testenv.NCISmiles(t)
	list := all
	var oracle []map[string][][]int
	testenv.RunJSON(t, py, []string{"testdata/rdkit_groups.py"}, list, &oracle)
	if len(oracle) != len(list) {
		t.Fatalf("the oracle gave %d answers for %d molecules", len(oracle), len(list))
	}
	kinds := []string{"nitro", "carbonyl", "nitrile", "halogen", "benzene ring", "pyridine ring"}
	found, differ, read := map[string]int{}, map[string]int{}, 0
	for i, s := range list {
		if oracle[i] == nil {
			continue
		}
		g, err := smiles.Parse(s)
		if err != nil {
			continue
		}
		mol, err := features.Settings{Extra: []filtration.Options{{Kind: filtration.KindBonds}}}.Molecule(g)
		if err != nil {
			continue
		}
		read++
		groups := FindGroups(mol)
		got := rdkitKinds(mol, groups)
		// RDKit's nitro SMARTS also matches nitrate, named apart here.
		oracle[i]["nitro"] = slices.DeleteFunc(oracle[i]["nitro"], func(match []int) bool {
			return slices.ContainsFunc(groups, func(g wire.GroupScore) bool { return g.Name == "nitrate" && slices.Contains(g.Atoms, match[0]) })
		})
		for _, k := range kinds {
			want := oracle[i][k]
			found[k] += len(want)
			if fmt.Sprint(got[k]) != fmt.Sprint(want) {
				differ[k]++
				t.Errorf("line %d %s: %s %v, RDKit %v", i+1, s, k, got[k], want)
			}
		}
	}
	for _, k := range kinds {
		t.Logf("%s: %d RDKit matches in the %d molecules both read, %d molecules differ", k, found[k], read, differ[k])
	}
}

// rdkitKinds sorts found groups into the oracle's kinds: atom sets,
// sorted, a carbonyl being the C=O of a carbonyl, acid, ester or amide.
func rdkitKinds(mol *graph.Graph, groups []wire.GroupScore) map[string][][]int {
	out := map[string][][]int{}
	for _, gr := range groups {
		switch gr.Name {
		case "nitro", "nitrile", "benzene ring", "pyridine ring":
			out[gr.Name] = append(out[gr.Name], gr.Atoms)
		case "fluorine", "chlorine", "bromine", "iodine":
			out["halogen"] = append(out["halogen"], gr.Atoms)
		case "carbonyl", "carboxylic acid", "ester", "amide":
			for i, ed := range mol.Edges {
				if mol.EdgeLabels[i] == double && slices.Contains(gr.Atoms, ed.U) && slices.Contains(gr.Atoms, ed.V) {
					out["carbonyl"] = append(out["carbonyl"], []int{ed.U, ed.V})
				}
			}
		}
	}
	for k, sets := range out {
		slices.SortFunc(sets, slices.Compare)
		out[k] = sets
	}
	return out
}
