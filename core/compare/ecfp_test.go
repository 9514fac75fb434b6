package compare

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"wkpi-web/core/crossval"
	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
)

// chemblSeries reads RDKit's ChEMBL series CHEMBL2321810 (Free-Wilson
// example): 1,017 SMILES and their activities; the class is activity at
// or above the median.
func chemblSeries(t *testing.T) (smi []string, graphs []*graph.Graph, labels []int) {
	t.Helper()
	names := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(testenv.RDKitData(t, "Contrib/FreeWilson/data/CHEMBL2321810.smi"))), "\n") {
		f := strings.Fields(line)
		names[f[1]] = f[0]
	}
	var acts []float64
	for _, line := range strings.Split(strings.TrimSpace(string(testenv.RDKitData(t, "Contrib/FreeWilson/data/CHEMBL2321810_act.csv"))), "\n")[1:] {
		name, act, _ := strings.Cut(line, ",")
		a, err := strconv.ParseFloat(strings.TrimSpace(act), 64)
		if err != nil {
			t.Fatal(err)
		}
		g, err := smiles.Parse(names[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		smi, graphs, acts = append(smi, names[name]), append(graphs, g), append(acts, a)
	}
	sorted := slices.Sorted(slices.Values(acts))
	median := (sorted[(len(sorted)-1)/2] + sorted[len(sorted)/2]) / 2
	for _, a := range acts {
		c := 0
		if a >= median {
			c = 1
		}
		labels = append(labels, c)
	}
	return smi, graphs, labels
}

// ecfp's outer folds on the ChEMBL series against RDKit's fingerprints,
// RDKit's Tanimoto and scikit-learn's SVC on the same folds with the C our
// inner CV chose in each (the choice itself is crossval.Nested's, tested
// there; a tie between Cs would make a separate choice flaky): the mean
// ROC-AUC must agree within 0.01.
func TestECFPMatchesRDKitSklearn(t *testing.T) {
	smi, graphs, labels := chemblSeries(t)
	t.Log("the oracle needs Debian's python3-rdkit and python3-sklearn")
	py := testenv.Python(t, "rdkit", "sklearn")
	d := &Data{Name: "CHEMBL2321810", Graphs: graphs, Labels: labels, Classes: 2}
	o := DefaultOptions()
	ctx := context.Background()
	cells, err := d.cells(ctx, ECFP, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, chosen, err := d.nested(ctx, cells, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	folds, err := crossval.StratifiedKFold(labels, o.Folds, o.Seed)
	if err != nil {
		t.Fatal(err)
	}
	cs := make([]float64, len(chosen))
	for i, c := range chosen {
		if cs[i], err = strconv.ParseFloat(strings.TrimPrefix(c, "C="), 64); err != nil {
			t.Fatalf("fold %d chose %q", i, c)
		}
	}
	var oracle struct {
		ROCAUC   []float64 `json:"roc_auc"`
		Accuracy []float64 `json:"accuracy"`
	}
	testenv.RunJSON(t, py, []string{"testdata/rdkit_ecfp_svc.py"},
		map[string]any{"smiles": smi, "labels": labels, "fold": folds, "C": cs}, &oracle)
	want, _ := crossval.MeanStd(oracle.ROCAUC)
	wantAcc, _ := crossval.MeanStd(oracle.Accuracy)
	got := float64(res.ROCAUC.Mean)
	gotAcc, _ := crossval.MeanStd(res.PerFold)
	t.Logf("%d molecules, %d active; ROC-AUC %.4f, RDKit + scikit-learn %.4f; accuracy %.4f and %.4f; C per fold %v",
		len(labels), countOnes(labels), got, want, gotAcc, wantAcc, cs)
	if math.Abs(got-want) > 0.01 {
		t.Errorf("ROC-AUC %.4f, RDKit + scikit-learn %.4f", got, want)
	}
}

func countOnes(x []int) int {
	n := 0
	for _, v := range x {
		n += v
	}
	return n
}

// Hand-worked translations: MUTAG's codes through its tables, bond names
// case-insensitive, element labels as they are; a code without a table,
// or a bond label that is no bond type, does not apply.
func TestMolecules(t *testing.T) {
	nodes := map[string]string{"0": "C", "1": "N", "2": "O"}
	edges := map[string]string{"0": "aromatic", "1": "single", "2": "Double"}
	// Nitrosomethane-like C-N=O coded: C(0) -1- N(1) =2= O(2).
	g, err := graph.New(3, []graph.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, []string{"1", "2"}, []string{"0", "1", "2"})
	if err != nil {
		t.Fatal(err)
	}
	mols, err := Molecules([]*graph.Graph{g}, nodes, edges)
	if err != nil {
		t.Fatal(err)
	}
	m := mols[0]
	if !slices.Equal(m.NodeLabels, []string{"C", "N", "O"}) || !slices.Equal(m.EdgeLabels, []string{"1", "2"}) {
		t.Errorf("labels %v %v", m.NodeLabels, m.EdgeLabels)
	}
	var hs []int
	for _, a := range m.Atoms {
		hs = append(hs, a.Hydrogens)
	}
	if !slices.Equal(hs, []int{3, 0, 0}) {
		t.Errorf("hydrogens %v, want CH3-N=O: 3 0 0", hs)
	}
	if g.Atoms != nil || g.NodeLabels[0] != "0" {
		t.Error("the input graph changed")
	}
	// Edge code 0 (aromatic) means nothing without the edge table.
	aromatic, err := graph.New(2, []graph.Edge{{U: 0, V: 1}}, []string{"0"}, []string{"0", "0"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		g            *graph.Graph
		nodes, edges map[string]string
	}{{g, nil, edges}, {aromatic, nodes, nil}} {
		if _, err := Molecules([]*graph.Graph{tc.g}, tc.nodes, tc.edges); !errors.Is(err, ErrNotApplicable) {
			t.Errorf("tables %v %v: error %v, want ErrNotApplicable", tc.nodes, tc.edges, err)
		}
	}
}
