package features

import (
	"context"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
	"wkpi-web/core/persistence"
	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

func labelled(t *testing.T, labels []string, edges ...graph.Edge) *graph.Graph {
	t.Helper()
	g, err := graph.New(len(labels), edges, nil, labels)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The vocabulary counts nodes of the training graphs only: "z", which only
// the held-out graph has, gets no group of its own, and that graph's nodes
// all fall into "other".
func TestFitVocabularyTrainingOnly(t *testing.T) {
	e := func(u, v int) graph.Edge { return graph.Edge{U: u, V: v} }
	graphs := []*graph.Graph{
		labelled(t, []string{"a", "a", "b"}, e(0, 1), e(1, 2)),
		labelled(t, []string{"a", "c"}, e(0, 1)),
		labelled(t, []string{"z", "z", "z", "z"}, e(0, 1), e(1, 2), e(2, 3)),
	}
	train := []int{0, 1}
	// Counts a:3, b:1, c:1 (ties in label order); z:4 is not counted.
	if got, want := FitVocabulary(graphs, train, 5, nil), []string{"a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("vocabulary %v, want %v", got, want)
	}
	if got, want := FitVocabulary(graphs, train, 1, nil), []string{"a"}; !slices.Equal(got, want) {
		t.Errorf("k=1: vocabulary %v, want %v", got, want)
	}
	if got, want := FitVocabulary(graphs, nil, 1, nil), []string{"z"}; !slices.Equal(got, want) {
		t.Errorf("all graphs: vocabulary %v, want %v", got, want)
	}
	l := &Labels{Vocabulary: FitVocabulary(graphs, train, 5, nil)}
	group, err := l.group(graphs[2], nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{3, 3, 3, 3}; !slices.Equal(group, want) {
		t.Errorf("held-out graph's groups %v, want %v (all other)", group, want)
	}
	// Codes tie numerically: "2" before "10".
	codes := []*graph.Graph{labelled(t, []string{"10", "2"}, e(0, 1))}
	if got, want := FitVocabulary(codes, nil, 2, nil), []string{"2", "10"}; !slices.Equal(got, want) {
		t.Errorf("numeric ties: %v, want %v", got, want)
	}
	// Named codes tie by their names, as the element symbols of the same
	// molecules would (MUTAG: I is 4 and Br 6, one atom of each).
	named := []*graph.Graph{labelled(t, []string{"4", "6"}, e(0, 1))}
	if got, want := FitVocabulary(named, nil, 1, map[string]string{"4": "I", "6": "Br"}), []string{"6"}; !slices.Equal(got, want) {
		t.Errorf("named ties: %v, want %v (Br before I)", got, want)
	}
}

// TestWithLabelsOrder: the training graphs choose which labels get a
// group, the counts over all graphs their order, so that two folds that
// choose the same labels get the same settings (one feature set), and a
// label the training graphs do not choose gets no group.
func TestWithLabelsOrder(t *testing.T) {
	e := func(u, v int) graph.Edge { return graph.Edge{U: u, V: v} }
	graphs := []*graph.Graph{
		labelled(t, []string{"a", "a", "b"}, e(0, 1), e(1, 2)),
		labelled(t, []string{"b", "b", "b", "a"}, e(0, 1), e(1, 2), e(2, 3)),
		labelled(t, []string{"a", "a", "a", "a", "c", "c", "c", "c", "c", "c"}, e(0, 1)),
	}
	// All graphs: c 6, a 7, b 4 -> a, c, b. Graph 1 alone: b 3, a 1.
	var s Settings
	for _, tc := range []struct {
		train []int
		k     int
		want  []string
	}{
		{[]int{1}, 2, []string{"a", "b"}},
		{[]int{0}, 2, []string{"a", "b"}},
		{[]int{1}, 1, []string{"b"}},
		{[]int{0, 2}, 2, []string{"a", "c"}},
		{nil, 3, []string{"a", "c", "b"}},
	} {
		got, err := s.WithLabels(graphs, tc.train, tc.k, 0, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Labels.Vocabulary, tc.want) {
			t.Errorf("train %v, k %d: vocabulary %v, want %v", tc.train, tc.k, got.Labels.Vocabulary, tc.want)
		}
	}
	// One LabelFit serves every training set, in any order, and the
	// settings it gives share no vocabulary.
	fit, err := s.FitLabels(graphs, 2, 0, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	first := fit.For([]int{1})
	first.Labels.Vocabulary[0] = "changed"
	for _, tc := range []struct {
		train []int
		want  []string
	}{
		{[]int{0, 2}, []string{"a", "c"}},
		{[]int{1}, []string{"a", "b"}},
		{nil, []string{"a", "c"}},
		{[]int{0, 2}, []string{"a", "c"}},
	} {
		if got := fit.For(tc.train).Labels.Vocabulary; !slices.Equal(got, tc.want) {
			t.Errorf("one fit, train %v: vocabulary %v, want %v", tc.train, got, tc.want)
		}
	}
}

// Nitrobenzene as a hand-written MOL block (element symbols) reaches
// MUTAG's codes through the table of MUTAG's README (C 0, N 1, O 2): the
// ring carbons, the nitrogen and both oxygens land in their groups.
func TestLabelGroupsFromMolfile(t *testing.T) {
	data, err := os.ReadFile("testdata/nitrobenzene.mol")
	if err != nil {
		t.Fatal(err)
	}
	mols, err := graphfile.Parse("nitrobenzene.mol", data)
	if err != nil {
		t.Fatal(err)
	}
	names, _, err := tu.ReadLabelNames(testenv.Dataset(t, "MUTAG"))
	if err != nil {
		t.Fatal(err)
	}
	mol := mols[0]
	l := &Labels{Vocabulary: []string{"0", "2", "1"}, Names: names} // C, O, N
	group, err := l.group(mol, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 0, 0, 0, 0, 0, 2, 1, 1}; !slices.Equal(group, want) {
		t.Errorf("groups %v, want %v", group, want)
	}
	// The same molecule written with MUTAG's codes gets the same diagrams.
	coded := labelled(t, []string{"0", "0", "0", "0", "0", "0", "1", "2", "2"}, mol.Edges...)
	s := Default(filtration.KindDegree)
	s.Labels = l
	a, err := GraphDiagramsOf(mol, s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := GraphDiagramsOf(coded, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 1+4 || len(a) != len(b) {
		t.Fatalf("%d and %d diagrams, want 5 (degree, C, O, N, other)", len(a), len(b))
	}
	for k := range a {
		if !sameDiagrams(a[k], b[k]) {
			t.Errorf("descriptor %d: %v from the molfile, %v from codes", k, a[k], b[k])
		}
	}
	// Without the table the model cannot tell which code is carbon.
	l.Names = nil
	if _, err := l.group(mol, nil); err == nil || !strings.Contains(err.Error(), "no code table") {
		t.Errorf("no table: error %v, want one that says no code table is known", err)
	}
	// A model trained on element symbols needs no table for them; an
	// element it has not seen goes to "other".
	l = &Labels{Vocabulary: []string{"C", "N"}}
	if group, err = l.group(mol, nil); err != nil || !slices.Equal(group, []int{0, 0, 0, 0, 0, 0, 1, 2, 2}) {
		t.Errorf("element vocabulary: groups %v, error %v", group, err)
	}
	// Codes against that vocabulary, with no table: an error naming the
	// node and its label, not a molecule of "other" atoms.
	if _, err := l.group(coded, nil); err == nil || !strings.Contains(err.Error(), `node 0 has label "0"`) {
		t.Errorf("codes against element symbols: error %v, want one naming node 0's label", err)
	}
	// No node labels at all: an error, not a structure-only answer.
	if _, err := l.group(mustGraph(t, 2, graph.Edge{U: 0, V: 1}), nil); err == nil {
		t.Error("graph without node labels: no error")
	}
}

func sameDiagrams(a, b persistence.Diagrams) bool {
	return slices.Equal(a.Ord0, b.Ord0) && slices.Equal(a.Ext0, b.Ext0) && slices.Equal(a.Rel1, b.Rel1) && slices.Equal(a.Ext1, b.Ext1)
}

// The label blocks are the extended persistence of each group's heat
// (filtration.LabelHeat, tested against an eigendecomposition there), and
// Compute gives every graph one image block per channel and descriptor.
func TestLabelDiagramsAndImages(t *testing.T) {
	e := func(u, v int) graph.Edge { return graph.Edge{U: u, V: v} }
	ds := &graph.Dataset{
		Graphs: []*graph.Graph{
			labelled(t, []string{"0", "0", "1", "0", "2"}, e(0, 1), e(1, 2), e(2, 3), e(3, 4), e(0, 2)),
			labelled(t, []string{"1", "0", "0", "0"}, e(0, 1), e(1, 2), e(2, 3)),
			labelled(t, []string{"0", "1", "1", "0", "0", "7"}, e(0, 1), e(0, 2), e(0, 3), e(3, 4), e(4, 5)),
		},
		Labels: []int{0, 1, 0}, Classes: []string{"x", "y"},
	}
	s := Default(filtration.KindDegree)
	s.Labels = &Labels{Vocabulary: FitVocabulary(ds.Graphs, []int{0, 1}, 2, nil), Time: 0.7}
	if !slices.Equal(s.Labels.Vocabulary, []string{"0", "1"}) {
		t.Fatalf("vocabulary %v", s.Labels.Vocabulary)
	}
	for gi, g := range ds.Graphs {
		got, err := GraphDiagramsOf(g, s)
		if err != nil {
			t.Fatal(err)
		}
		group, _ := s.Labels.group(g, nil)
		heat, err := filtration.LabelHeat(g, group, 3, 0.7)
		if err != nil {
			t.Fatal(err)
		}
		for k, h := range heat {
			want := persistence.Extended(g, h).DropZero()
			d := got[1+k]
			if len(d.Ext0) != len(want.Ext0) || len(d.Ext1) != len(want.Ext1) || len(d.Ord0) != len(want.Ord0) || len(d.Rel1) != len(want.Rel1) {
				t.Fatalf("graph %d group %d: %v, want %v", gi, k, d, want)
			}
			for i, p := range d.Ext0 {
				if math.Abs(p.Birth-want.Ext0[i].Birth) > 1e-11 || math.Abs(p.Death-want.Ext0[i].Death) > 1e-11 {
					t.Errorf("graph %d group %d Ext0 %v, want %v", gi, k, d.Ext0, want.Ext0)
				}
			}
		}
	}
	set, err := Compute(context.Background(), ds, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := set.Settings.Blocks(), 2*(1+3); got != want {
		t.Fatalf("%d blocks, want %d", got, want)
	}
	pixels := set.Grid.Rows * set.Grid.Cols
	for i, img := range set.Images {
		if img.Len != set.Settings.Blocks()*pixels {
			t.Errorf("graph %d: %d pixels, want %d", i, img.Len, set.Settings.Blocks()*pixels)
		}
		if len(set.GraphDiagrams(i)) != 4 {
			t.Errorf("graph %d: %d diagrams, want 4", i, len(set.GraphDiagrams(i)))
		}
	}
	if len(set.Settings.Scales) != 4 {
		t.Errorf("%d scales, want one per descriptor (4)", len(set.Settings.Scales))
	}
	if s.Mode() != "node labels" || Default(filtration.KindRicci).Mode() != "structure only" {
		t.Errorf("modes %q, %q", s.Mode(), Default(filtration.KindRicci).Mode())
	}
	for _, tc := range []struct{ extra, mode string }{
		{"bonds,en", ModeMoleculesLabels},
		{"degree:#3", ModeAtomTypesLabels},
	} {
		m := s
		extra, err := filtration.ParseList(tc.extra)
		if err != nil {
			t.Fatal(err)
		}
		m.Extra = extra
		if m.Mode() != tc.mode {
			t.Errorf("labels with %s: mode %q, want %q", tc.extra, m.Mode(), tc.mode)
		}
	}
}

// TestBondingLabels: with Labels.Bonding the vocabulary holds bonding
// types, MUTAG's coded graphs (read through the README's tables) give
// the vocabulary and diagrams of the same molecules named, two writings
// of nitrobenzene give the same diagrams, and a graph that is no
// molecule is an error that names it.
func TestBondingLabels(t *testing.T) {
	coded, named, codes := mutagNamed(t, 40)
	s := Default(filtration.KindHKS)
	withCodes := s
	withCodes.Codes = codes
	a, err := withCodes.WithLabels(coded, nil, 4, 3, codes.Nodes, true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.WithLabels(named, nil, 4, 3, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	// The commonest atoms of MUTAG's first 40: carbon, then the nitro
	// groups' oxygens and nitrogens (O.2x, N.2), then fluorine.
	if want := []string{"C", smiles.BondingHeteroDoubleO, smiles.BondingDoubleN, "F"}; !slices.Equal(a.Labels.Vocabulary, want) || !slices.Equal(b.Labels.Vocabulary, want) {
		t.Errorf("vocabularies %v (codes) and %v (named), want %v", a.Labels.Vocabulary, b.Labels.Vocabulary, want)
	}
	for i := range coded {
		x, err := GraphDiagramsOf(coded[i], a)
		if err != nil {
			t.Fatal(err)
		}
		y, err := GraphDiagramsOf(named[i], b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(x, y) {
			t.Errorf("graph %d: diagrams through the tables differ from the named graph's", i)
		}
	}

	mols := []*graph.Graph{parse(t, "c1ccccc1N(=O)=O"), parse(t, "c1ccccc1[N+](=O)[O-]")}
	m, err := s.WithLabels(mols, nil, 4, 3, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	x, err := GraphDiagramsOf(mols[0], m)
	if err != nil {
		t.Fatal(err)
	}
	y, err := GraphDiagramsOf(mols[1], m)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(x, y) {
		t.Errorf("two writings of nitrobenzene: %v and %v", x, y)
	}

	bare := mustGraph(t, 2, graph.Edge{U: 0, V: 1})
	bare.NodeLabels = []string{"L0", "L1"}
	if _, err := s.WithLabels([]*graph.Graph{mols[0], bare}, nil, 4, 3, nil, true); err == nil || !strings.Contains(err.Error(), "graph 1") {
		t.Errorf("a graph that is no molecule: %v", err)
	}
}

// TestBondingRules: a model keeps the version of the bonding types'
// rules its vocabulary was fitted with, and types new molecules by it:
// one written before there were versions (SYBYL's types alone) reads
// a nitro group's oxygens as O.2 and 2-nitroaniline's NH2 as N.3, one of
// version 2 a phenol's OH as O.H and a pyrrole's N as N.ar, as they were
// trained to; a version newer than the program's is refused.
func TestBondingRules(t *testing.T) {
	mol := parse(t, "Nc1ccc(O)cc1[N+](=O)[O-].c1cc[nH]c1")
	s := Default(filtration.KindHKS)
	fit, err := s.WithLabels([]*graph.Graph{mol}, nil, 8, 3, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if fit.Labels.BondingRules != smiles.BondingRules {
		t.Fatalf("fitted with rules %d, want %d", fit.Labels.BondingRules, smiles.BondingRules)
	}
	vocabulary := []string{"C", "N.3", "O.2", "N.H", "O.2x", "O.H", "O.Ha", "N.ar", "N.az"}
	groupOf := func(rules int) []string {
		l := &Labels{Vocabulary: vocabulary, Bonding: true, BondingRules: rules}
		if err := l.validate(); err != nil {
			t.Fatal(err)
		}
		group, err := l.group(mol, mol)
		if err != nil {
			t.Fatal(err)
		}
		names := make([]string, len(group))
		for v, k := range group {
			names[v] = "other"
			if k < len(vocabulary) {
				names[v] = vocabulary[k]
			}
		}
		return names
	}
	// The nitro N is N.2, outside the vocabulary.
	for _, c := range []struct {
		rules int
		want  []string
	}{
		{0, []string{"N.3", "C", "C", "C", "C", "O.H", "C", "C", "other", "O.2", "O.2", "C", "C", "C", "N.ar", "C"}}, // without a rules version
		{2, []string{"N.H", "C", "C", "C", "C", "O.H", "C", "C", "other", "O.2x", "O.2x", "C", "C", "C", "N.ar", "C"}},
		{smiles.BondingRules, []string{"N.H", "C", "C", "C", "C", "O.Ha", "C", "C", "other", "O.2x", "O.2x", "C", "C", "C", "N.az", "C"}},
	} {
		if got := groupOf(c.rules); !slices.Equal(got, c.want) {
			t.Errorf("rules %d: %v, want %v", c.rules, got, c.want)
		}
	}
	l := &Labels{Vocabulary: vocabulary, Bonding: true, BondingRules: smiles.BondingRules + 1}
	if err := l.validate(); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("rules from a newer program: %v", err)
	}
}
