package fingerprint

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
)

func morganOracle(t *testing.T, list []string) ([][][]any, []string, []float64) {
	t.Helper()
	t.Log("the RDKit oracle needs Debian's python3-rdkit (apt-get install python3-rdkit rdkit-data)")
	py := testenv.Python(t, "rdkit")
	var out struct {
		Molecules [][][]any `json:"molecules"`
		Mismatch  []string  `json:"mismatch"`
		Weights   []float64 `json:"weights"`
	}
	testenv.RunJSON(t, py, []string{"testdata/rdkit_morgan.py"}, map[string]any{"smiles": list, "radius": 2}, &out)
	if len(out.Molecules) != len(list) {
		t.Fatalf("oracle answered for %d of %d SMILES", len(out.Molecules), len(list))
	}
	return out.Molecules, out.Mismatch, out.Weights
}

// classes turns environments grouped by identifier into a canonical
// text: each class its sorted "atom/radius" members, classes sorted.
func classes(groups map[uint32][]string) string {
	var cs []string
	for _, members := range groups {
		sort.Strings(members)
		cs = append(cs, strings.Join(members, " "))
	}
	sort.Strings(cs)
	return strings.Join(cs, " | ")
}

func ours(g *graph.Graph) (string, map[uint32][]string, error) {
	envs, err := Morgan{}.Environments(g)
	if err != nil {
		return "", nil, err
	}
	groups := map[uint32][]string{}
	for _, e := range envs {
		groups[e.ID] = append(groups[e.ID], fmt.Sprintf("%d/%d", e.Atom, e.Radius))
	}
	return classes(groups), groups, nil
}

func theirs(mol [][]any) (string, map[uint32][]string) {
	groups := map[uint32][]string{}
	for _, entry := range mol {
		id := uint32(entry[0].(float64))
		for _, e := range entry[1].([]any) {
			ar := e.([]any)
			groups[id] = append(groups[id], fmt.Sprintf("%d/%d", int(ar[0].(float64)), int(ar[1].(float64))))
		}
	}
	return classes(groups), groups
}

// morganTolerance is how many NCI molecules (of the 4,993 RDKit reads) may
// have a partition of environments other than RDKit's: the porphyrin whose
// aromaticity differs (see package smiles).
const morganTolerance = 1

// The partition of (atom, radius) environments into classes of equal
// identifier, and so the counts, must be RDKit's for every NCI molecule
// RDKit reads; the identifiers themselves come from the same hash and
// are counted equal where they are.
func TestMorganMatchesRDKitNCI(t *testing.T) {
	checkMorgan(t, testenv.NCISmiles(t), morganTolerance)
}

// The same for the ChEMBL series of RDKit's Free-Wilson example, written
// with aromatic atoms (kekulised, then perceived afresh).
func TestMorganMatchesRDKitChEMBL(t *testing.T) {
	data := string(testenv.RDKitData(t, chemblSmiles))
	var inputs []string
	for _, line := range strings.Split(strings.TrimSpace(data), "\n") {
		inputs = append(inputs, strings.Fields(line)[0])
	}
	checkMorgan(t, inputs, 0)
}

// chemblSmiles is RDKit's ChEMBL activity series (1,017 molecules).
const chemblSmiles = "Contrib/FreeWilson/data/CHEMBL2321810.smi"

func checkMorgan(t *testing.T, inputs []string, tolerance int) {
	mols, mismatch, _ := morganOracle(t, inputs)
	if len(mismatch) > 0 {
		t.Errorf("oracle: RDKit's two Morgan APIs disagree on %d molecules, e.g. %q", len(mismatch), mismatch[0])
	}
	read, differ, sameIDs := 0, 0, 0
	for i, mol := range mols {
		if mol == nil {
			continue
		}
		read++
		g, err := smiles.Parse(inputs[i])
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		got, gotGroups, err := ours(g)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		want, wantGroups := theirs(mol)
		if got != want {
			differ++
			t.Logf("line %d %q:\n got %s\nwant %s", i+1, inputs[i], got, want)
			continue
		}
		same := len(gotGroups) == len(wantGroups)
		for id := range gotGroups {
			_, ok := wantGroups[id]
			same = same && ok
		}
		if same {
			sameIDs++
		}
	}
	if differ > tolerance {
		t.Errorf("%d of %d molecules have environment classes other than RDKit's (tolerance %d)", differ, read, tolerance)
	}
	t.Logf("%d of %d molecules: RDKit's environment classes; %d also RDKit's identifiers", read-differ, read, sameIDs)
}

func TestAtomicWeights(t *testing.T) {
	_, _, w := morganOracle(t, []string{})
	for z, want := range w {
		if atomicWeight[z] != float64(float32(want)) && fmt.Sprintf("%g", atomicWeight[z]) != fmt.Sprintf("%.6g", want) {
			t.Errorf("element %d: weight %g, RDKit %g", z, atomicWeight[z], want)
		}
	}
}
