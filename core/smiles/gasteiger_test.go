package smiles

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/testenv"
)

// gasteigerCases cover each hybridisation rule, the shared formal
// charges and the parameters RDKit lacks.
var gasteigerCases = strings.Fields(`CCO CC(=O)O CC(=O)[O-] c1ccccc1[N+](=O)[O-] c1ccccc1N(=O)=O Nc1ccccc1 CC(=O)N
	c1ccncc1 c1cc[nH]c1 C1=CNC=C1 c1ccsc1 c1ccoc1 CS(C)=O CS(=O)(=O)N OP(=O)(O)O CC#N C#C C=C=C FC(F)(F)c1ccccc1
	[Cl-] [NH4+] NC(=[NH2+])c1ccccc1 OB(O)c1ccccc1 [H]C([H])([H])O C[Si](C)(C)C CSSC C=CC=O C[S-] CN=[N+]=[N-]
	[Na+].[O-]C(=O)C CC(=O)OC1=CC=CC=C1C(=O)O c1ccc2c(c1)[nH]c1ccccc12 O=c1cc[nH]cc1 [O-][n+]1ccccc1 ICI BrCBr`)

// GasteigerCharges gives RDKit's charges on every molecule of the NCI
// sample and the cases above, to 1e-9, wherever RDKit's are numbers.
func TestGasteigerMatchesRDKit(t *testing.T) {
	inputs := append(gasteigerCases, testenv.NCISmiles(t)...)
	out := rdkitAtomsOf(t, inputs)
	compared, skipped, failed := 0, 0, 0
	for i, want := range out.Gasteiger {
		if want == nil {
			if i < len(gasteigerCases) {
				t.Errorf("RDKit refuses %q", inputs[i])
			}
			continue
		}
		if d := gasteigerDiff(inputs[i], want, &skipped); d != "" {
			failed++
			if failed <= 20 {
				t.Errorf("%q: %s", inputs[i], d)
			}
			continue
		}
		compared++
	}
	t.Logf("%d molecules equal to RDKit's charges (%d failed); %d atoms RDKit gives NaN not compared", compared, failed, skipped)
}

// gasteigerDiff compares the charges of s with RDKit's, atom by atom,
// skipping those RDKit gives NaN (counted in skipped).
func gasteigerDiff(s string, want []*float64, skipped *int) string {
	g, err := Parse(s)
	if err != nil {
		return fmt.Sprintf("Parse refuses what RDKit reads: %v", err)
	}
	got := GasteigerCharges(g)
	if len(got) != len(want) {
		return fmt.Sprintf("%d atoms, RDKit %d", len(got), len(want))
	}
	for a, w := range want {
		if math.IsNaN(got[a]) || math.IsInf(got[a], 0) {
			return fmt.Sprintf("atom %d (%s): charge %v", a, g.NodeLabels[a], got[a])
		}
		if w == nil {
			*skipped++
			continue
		}
		if math.Abs(got[a]-*w) > 1e-9 {
			return fmt.Sprintf("atom %d (%s): %.12f, RDKit %.12f", a, g.NodeLabels[a], got[a], *w)
		}
	}
	return ""
}

// A molecule without atom chemistry, as a TU dataset gives it (a nitro
// group with one N=O and one N-O, no charges, no hydrogen counts), gets
// the charges of the same molecule read from SMILES.
func TestGasteigerWithoutAtoms(t *testing.T) {
	for _, s := range []string{"c1ccccc1[N+](=O)[O-]", "Oc1ccc(cc1)[N+](=O)[O-]", "CC(=O)Nc1ccccc1Cl", "c1ccncc1"} {
		g, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		want := GasteigerCharges(g)
		bare := graph.Graph{N: g.N, Edges: g.Edges, NodeLabels: g.NodeLabels, EdgeLabels: CleanedBonds(g)}
		got := GasteigerCharges(&bare)
		for a := range want {
			if math.Abs(got[a]-want[a]) > 1e-12 {
				t.Errorf("%s without atom chemistry: atom %d %.6f, with %.6f", s, a, got[a], want[a])
			}
		}
	}
}
