package scaffold

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

func parse(t testing.TB, s string) *graph.Graph {
	t.Helper()
	g, err := smiles.Parse(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return g
}

func mustKey(t testing.TB, g *graph.Graph) string {
	t.Helper()
	k, err := Key(g)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestOfHand: scaffolds worked out by hand (and checked with RDKit's
// MurckoScaffoldSmiles, quoted): the scaffold's atoms in the molecule's
// order, and its key equal to that of the scaffold written out.
func TestOfHand(t *testing.T) {
	for _, tc := range []struct {
		name, smiles string
		atoms        []int  // the molecule's atoms the scaffold keeps
		scaffold     string // RDKit's MurckoScaffoldSmiles
	}{
		{"benzene", "c1ccccc1", []int{0, 1, 2, 3, 4, 5}, "c1ccccc1"},
		{"toluene", "Cc1ccccc1", []int{1, 2, 3, 4, 5, 6}, "c1ccccc1"},
		{"toluene, Kekulé", "CC1=CC=CC=C1", []int{1, 2, 3, 4, 5, 6}, "c1ccccc1"},
		{"biphenyl", "c1ccccc1-c1ccccc1", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, "c1ccc(-c2ccccc2)cc1"},
		{"biphenyl without '-'", "c1ccccc1c1ccccc1", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, "c1ccc(-c2ccccc2)cc1"},
		{"cyclohexanone keeps its O", "O=C1CCCCC1", []int{0, 1, 2, 3, 4, 5, 6}, "O=C1CCCCC1"},
		{"2-methylcyclohexanone", "CC1CCCCC1=O", []int{1, 2, 3, 4, 5, 6, 7}, "O=C1CCCCC1"},
		{"an acyclic chain", "CCCCC(=O)OCC", nil, ""},
		{"ethanol", "CCO", nil, ""},
		{"a spiro compound", "CC1CCC2(CC1)CCCC2", []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, "C1CCC2(CC1)CCCC2"},
		{"two disconnected rings", "c1ccccc1.CCC1CCCCC1", []int{0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13}, "C1CCCCC1.c1ccccc1"},
		{"a salt: the counter-ion goes", "[Na+].[O-]C(=O)c1ccccc1", []int{4, 5, 6, 7, 8, 9}, "c1ccccc1"},
		{"a linker stays", "Cc1ccc(CCc2ccccc2)cc1", []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}, "c1ccc(CCc2ccccc2)cc1"},
		{"a linking C=O keeps its O", "c1ccccc1C(=O)c1ccccc1", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, "O=C(c1ccccc1)c1ccccc1"},
		{"a side-chain C=O goes", "CC(=O)c1ccccc1", []int{3, 4, 5, 6, 7, 8}, "c1ccccc1"},
		{"an exocyclic C=C stays", "C=C1CCCCC1", []int{0, 1, 2, 3, 4, 5, 6}, "C=C1CCCCC1"},
		{"a nitrile goes", "N#Cc1ccccc1", []int{2, 3, 4, 5, 6, 7}, "c1ccccc1"},
		{"a sulfone linker keeps both O", "c1ccccc1S(=O)(=O)c1ccccc1", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}, "O=S(=O)(c1ccccc1)c1ccccc1"},
		{"N-methylpyrrole", "Cn1cccc1", []int{1, 2, 3, 4, 5}, "c1cc[nH]c1"},
		{"a fused ring with a substituent", "Cc1ccc(C)c2ccccc12", []int{1, 2, 3, 4, 6, 7, 8, 9, 10, 11}, "c1ccc2ccccc2c1"},
	} {
		g := parse(t, tc.smiles)
		s, err := Of(g)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var labels []string
		for _, v := range tc.atoms {
			labels = append(labels, g.NodeLabels[v])
		}
		if s.N != len(tc.atoms) || !slices.Equal(s.NodeLabels, labels) && len(labels) > 0 {
			t.Errorf("%s: scaffold of %d atoms %v, want atoms %v (%v)", tc.name, s.N, s.NodeLabels, tc.atoms, labels)
		}
		want := ""
		if tc.scaffold != "" {
			want = mustKey(t, parse(t, tc.scaffold))
		}
		if got := mustKey(t, g); got != want {
			t.Errorf("%s: key\n%s\nwant that of %s\n%s", tc.name, got, tc.scaffold, want)
		}
	}
}

// TestKeyDistinguishes: different scaffolds get different keys, and
// the same scaffold written otherwise the same key.
func TestKeyDistinguishes(t *testing.T) {
	groups := [][]string{
		{"c1ccccc1", "C1=CC=CC=C1", "CCCc1ccccc1O", "c1ccccc1CCCC(=O)O"},
		{"c1ccncc1", "C1=CC=NC=C1", "Clc1ccncc1"},
		{"C1CCCCC1", "CC1CCCCC1C"},
		{"O=C1CCCCC1", "O=C1CCCCC1CC"},
		{"c1ccc2ccccc2c1", "C1=CC2=CC=CC=C2C=C1", "C1=CC=C2C=CC=CC2=C1"},
		{"c1ccccc1Cc1ccccc1", "C(C1=CC=CC=C1)C1=CC=CC=C1"},
		{"c1ccccc1CCc1ccccc1"},
		{"c1ccccc1-c1ccccc1"},
		{"c1ccccc1.c1ccccc1"},
		{"CCCC", "CCO", "[Na+].[Cl-]", "C#N"},
		{"C1CC1", "CC1CC1C"},
		{"C1CC12CC2"},
	}
	seen := map[string]int{}
	for gi, group := range groups {
		k0 := mustKey(t, parse(t, group[0]))
		for _, s := range group[1:] {
			if k := mustKey(t, parse(t, s)); k != k0 {
				t.Errorf("%s and %s: keys differ:\n%s\n%s", group[0], s, k0, k)
			}
		}
		if other, dup := seen[k0]; dup {
			t.Errorf("%s and %s share a key", group[0], groups[other][0])
		}
		seen[k0] = gi
	}
}

// TestKeyPermutation: a molecule's key and canonical form do not depend
// on the order of its atoms (every molecule of RDKit's NCI sample,
// renumbered at random).
func TestKeyPermutation(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, s := range testenv.NCISmiles(t) {
		g := parse(t, s)
		h := permuted(t, g, rng)
		if a, b := mustKey(t, g), mustKey(t, h); a != b {
			t.Fatalf("%s: key changes when renumbered:\n%s\n%s", s, a, b)
		}
		if a, b := mustCanonical(t, g), mustCanonical(t, h); a != b {
			t.Fatalf("%s: canonical form changes when renumbered:\n%s\n%s", s, a, b)
		}
	}
}

// TestNotMolecules: graphs without element symbols or bond types are
// refused with an error saying what a molecule needs.
func TestNotMolecules(t *testing.T) {
	benzene := parse(t, "c1ccccc1")
	codes := *benzene
	codes.NodeLabels = []string{"0", "0", "0", "0", "0", "0"}
	noLabels := *benzene
	noLabels.NodeLabels = nil
	noBonds := *benzene
	noBonds.EdgeLabels = nil
	badBond := *benzene
	badBond.EdgeLabels = []string{"4", "4", "4", "7", "4", "4"}
	lower := *benzene
	lower.NodeLabels = []string{"c", "C", "C", "C", "C", "C"}
	for _, tc := range []struct {
		name string
		g    *graph.Graph
		want error
		text string
	}{
		{"codes", &codes, ErrNoElements, `node 0 is labelled "0"`},
		{"no node labels", &noLabels, ErrNoElements, "no node labels"},
		{"aromatic symbol", &lower, ErrNoElements, `node 0 is labelled "c"`},
		{"no edge labels", &noBonds, ErrNoBonds, "no edge labels"},
		{"unknown bond", &badBond, ErrNoBonds, `labelled "7"`},
	} {
		_, err := Key(tc.g)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: %v, want %v naming %q", tc.name, err, tc.want, tc.text)
		}
	}
	if _, _, err := Groups([]*graph.Graph{benzene, &codes}); !errors.Is(err, ErrNoElements) || !strings.HasSuffix(err.Error(), `labels: graph 1, node 0 is labelled "0"`) {
		t.Errorf("Groups: %v, want an error naming graph 1", err)
	}
	// Bond names as a TU README gives them, and the wildcard, are read.
	named := *benzene
	named.EdgeLabels = []string{"aromatic", "Aromatic", "aromatic", "aromatic", "aromatic", "aromatic"}
	if k := mustKey(t, &named); k != mustKey(t, benzene) {
		t.Errorf("bond names: key %s", k)
	}
	if _, err := Key(parse(t, "*c1ccccc1")); err != nil {
		t.Errorf("wildcard: %v", err)
	}
}

// TestGroups: groups numbered in order of first appearance, one for all
// acyclic molecules.
func TestGroups(t *testing.T) {
	var graphs []*graph.Graph
	for _, s := range []string{"Cc1ccccc1", "CCO", "c1ccncc1", "C1=CC=CC=C1O", "CCCC"} {
		graphs = append(graphs, parse(t, s))
	}
	groups, keys, err := Groups(graphs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(groups, []int{0, 1, 2, 0, 1}) || len(keys) != 3 || keys[1] != "" {
		t.Fatalf("groups %v, keys %q", groups, keys)
	}
}

// rdkitRecord is RDKit's reading of one SMILES (testdata/rdkit_scaffolds.py).
type rdkitRecord struct {
	OK       bool   `json:"ok"`
	Error    string `json:"error"`
	Scaffold string `json:"scaffold"`
	Graph    string `json:"graph"`
	Aromatic string `json:"aromatic"`
}

func rdkitScaffolds(t *testing.T, list []string) []rdkitRecord {
	t.Helper()
	t.Log("the RDKit oracle needs Debian's python3-rdkit (apt-get install python3-rdkit rdkit-data)")
	py := testenv.Python(t, "rdkit")
	var recs []rdkitRecord
	testenv.RunJSON(t, py, []string{"testdata/rdkit_scaffolds.py"}, map[string]any{"smiles": list}, &recs)
	if len(recs) != len(list) {
		t.Fatalf("oracle: %d records for %d SMILES", len(recs), len(list))
	}
	return recs
}

// partition groups the items by name: the sets of items sharing one.
func partition(names map[int]string) map[string][]int {
	out := map[string][]int{}
	for i, n := range names {
		out[n] = append(out[n], i)
	}
	for _, ids := range out {
		sort.Ints(ids)
	}
	return out
}

// merged lists the classes of coarse that hold items of several classes
// of fine: each as those classes, a class shown by the names describe
// gives its items and its size, "c1ccncc1 (85) + c1cc[nH+]cc1 (6)".
func merged(fine, coarse, describe map[int]string) []string {
	var lines []string
	for _, ids := range partition(coarse) {
		classes := map[string][]int{}
		for _, i := range ids {
			classes[fine[i]] = append(classes[fine[i]], i)
		}
		if len(classes) == 1 {
			continue
		}
		var parts []string
		for _, members := range classes {
			var names []string
			for _, i := range members {
				names = append(names, describe[i])
			}
			slices.Sort(names)
			parts = append(parts, fmt.Sprintf("%s (%d)", strings.Join(slices.Compact(names), " / "), len(members)))
		}
		sort.Strings(parts)
		lines = append(lines, strings.Join(parts, " + "))
	}
	sort.Strings(lines)
	return lines
}

// refines says whether every class of fine lies inside a class of coarse.
func refines(fine, coarse map[int]string) bool {
	for _, ids := range partition(fine) {
		for _, i := range ids[1:] {
			if coarse[i] != coarse[ids[0]] {
				return false
			}
		}
	}
	return true
}

// TestGroupsAgainstRDKit: the partition of RDKit's NCI sample (4,999
// molecules) into scaffold groups, against RDKit's.
//
// RDKit's MurckoScaffoldSmiles writes charges and hydrogen counts, which
// molecular graphs here do not carry; RDKit's scaffold with those cleared
// (the oracle's "graph") is what a key can see. So, for the molecules
// read as NCI writes them (Kekulé) and as RDKit's canonical SMILES writes
// them (aromatic), the test checks that:
//
//   - the keys' partition lies between the two: every MurckoScaffoldSmiles
//     group is inside one key's group, and every key's group inside one
//     group of the graph form;
//   - read from RDKit's aromatic SMILES, it equals the graph form's;
//   - every group that differs from MurckoScaffoldSmiles's is the one
//     listed in testdata/nci_rdkit.txt, which documents them.
func TestGroupsAgainstRDKit(t *testing.T) {
	list := testenv.NCISmiles(t)
	recs := rdkitScaffolds(t, list)
	var lines []string
	for _, mode := range []string{"kekule", "aromatic"} {
		keys, smilesNames, graphNames := map[int]string{}, map[int]string{}, map[int]string{}
		refused := 0
		for i, r := range recs {
			if !r.OK {
				refused++
				continue
			}
			s := list[i]
			if mode == "aromatic" {
				s = r.Aromatic
			}
			keys[i] = mustKey(t, parse(t, s))
			smilesNames[i], graphNames[i] = r.Scaffold, r.Graph
		}
		bySmiles, byGraph := merged(smilesNames, keys, smilesNames), merged(keys, graphNames, smilesNames)
		if a, b := refines(smilesNames, keys), refines(keys, graphNames); !a || !b {
			t.Errorf("%s: MurckoScaffoldSmiles groups inside key groups %v, key groups inside graph-form groups %v", mode, a, b)
		}
		if mode == "aromatic" && len(byGraph) > 0 {
			t.Errorf("aromatic: key groups differ from RDKit's graph form:\n%s", strings.Join(byGraph, "\n"))
		}
		agree := 0
		for _, ids := range partition(keys) {
			same := true
			for _, i := range ids {
				same = same && smilesNames[i] == smilesNames[ids[0]]
			}
			if same && len(ids) == len(partition(smilesNames)[smilesNames[ids[0]]]) {
				agree += len(ids)
			}
		}
		t.Logf("%s: %d molecules (RDKit refuses %d): %d MurckoScaffoldSmiles groups, %d key groups, %d graph-form groups; %d molecules in a group equal to RDKit's",
			mode, len(keys), refused, len(partition(smilesNames)), len(partition(keys)), len(partition(graphNames)), agree)
		for _, l := range bySmiles {
			lines = append(lines, mode+": "+l)
		}
		for _, l := range byGraph {
			lines = append(lines, mode+", one graph form: "+l)
		}
	}
	want, err := os.ReadFile("testdata/nci_rdkit.txt")
	if err != nil {
		t.Fatal(err)
	}
	var wantLines []string
	for l := range strings.SplitSeq(string(want), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			wantLines = append(wantLines, l)
		}
	}
	if !slices.Equal(lines, wantLines) {
		t.Errorf("the groups that differ from RDKit's are not those testdata/nci_rdkit.txt lists; they are:\n%s", strings.Join(lines, "\n"))
	}
}

// TestMUTAGAgainstRDKit: the 188 molecules of MUTAG, as its TU files give
// them (node and edge codes named by its README), fall into the groups
// of RDKit's MurckoDecompose of the same graphs, compared as RDKit's
// canonical SMILES of the scaffold with charges and hydrogen counts
// cleared (MUTAG carries neither; RDKit cannot sanitise its uncharged
// nitro groups, so the graphs go to RDKit as they are).
func TestMUTAGAgainstRDKit(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	ds, err := tu.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	nodes, edges, err := tu.ReadLabelNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	type molecule struct {
		Atoms []string `json:"atoms"`
		Edges [][2]int `json:"edges"`
		Bonds []string `json:"bonds"`
	}
	var mols []molecule
	var graphs []*graph.Graph
	for _, g := range ds.Graphs {
		var m molecule
		for _, l := range g.NodeLabels {
			m.Atoms = append(m.Atoms, nodes[l])
		}
		for i, e := range g.Edges {
			m.Edges = append(m.Edges, [2]int{e.U, e.V})
			m.Bonds = append(m.Bonds, edges[g.EdgeLabels[i]])
		}
		mols = append(mols, m)
		h := *g
		h.NodeLabels, h.EdgeLabels = m.Atoms, m.Bonds
		graphs = append(graphs, &h)
	}
	groups, keys, err := Groups(graphs)
	if err != nil {
		t.Fatal(err)
	}
	py := testenv.Python(t, "rdkit")
	var recs []rdkitRecord
	testenv.RunJSON(t, py, []string{"testdata/rdkit_scaffolds.py"}, map[string]any{"graphs": mols}, &recs)
	ours, theirs := map[int]string{}, map[int]string{}
	for i, r := range recs {
		ours[i], theirs[i] = fmt.Sprint(groups[i]), r.Graph
	}
	if a, b := merged(theirs, ours, theirs), merged(ours, theirs, theirs); len(a)+len(b) > 0 {
		t.Errorf("MUTAG groups differ from RDKit's:\nmerged here: %s\nsplit here: %s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	if len(keys) < 30 {
		t.Errorf("%d scaffolds in MUTAG: the test checks too little", len(keys))
	}
	t.Logf("MUTAG: %d scaffold groups, as RDKit's", len(keys))
}
