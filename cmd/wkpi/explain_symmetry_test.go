package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"wkpi-web/core/explain"
	chemistry "wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
)

// symmetryModels are the two MUTAG models the symmetry tests explain with,
// trained with `wkpi train` defaults once per test binary: structure only
// and -labels; and the SMILES they explain, every 25th of RDKit's NCI
// sample (200 molecules).
var symmetryModels struct {
	once   sync.Once
	dir    string
	models map[string]string // name -> model file
	smi    string            // the molecules, "SMILES name" lines
	smiles []string
	err    string
}

func symmetrySetup(t *testing.T) (models map[string]string, smi string, smiles []string) {
	t.Helper()
	if testing.Short() {
		t.Skip("trains two models")
	}
	data := testenv.Dataset(t, "MUTAG")
	nci := testenv.NCISmiles(t)
	s := &symmetryModels
	s.once.Do(func() {
		dir, err := os.MkdirTemp("", "wkpi-symmetry")
		if err != nil {
			s.err = err.Error()
			return
		}
		s.dir, s.models = dir, map[string]string{}
		for name, flags := range map[string][]string{"default": nil, "no labels": {"-labels=false"}} {
			file := filepath.Join(dir, name+".json")
			var out, errOut strings.Builder
			if code := run(context.Background(), append([]string{"train", "-data", data, "-out", file}, flags...), nil, &out, &errOut); code != 0 {
				s.err = errOut.String()
				return
			}
			s.models[name] = file
		}
		var lines strings.Builder
		for i := 0; i < len(nci); i += 25 {
			// A molecule whose chemistry RDKit refuses (line 1826, a
			// cobalt complex) is no molecule to explain: the next one
			// stands in.
			j := i
			for j+1 < len(nci) {
				if _, err := chemistry.ParseMolecule(nci[j]); err == nil {
					break
				}
				j++
			}
			s.smiles = append(s.smiles, nci[j])
			fmt.Fprintf(&lines, "%s nci%d\n", nci[j], j)
		}
		s.smi = filepath.Join(dir, "nci.smi")
		if err := os.WriteFile(s.smi, []byte(lines.String()), 0o644); err != nil {
			s.err = err.Error()
		}
	})
	if s.err != "" {
		t.Fatal(s.err)
	}
	return s.models, s.smi, s.smiles
}

// explanations reads `wkpi explain -format json` output.
func explanations(t *testing.T, out string) []explain.Explanation {
	t.Helper()
	var all []explain.Explanation
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var ex explain.Explanation
		if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
			t.Fatal(err)
		}
		all = append(all, ex)
	}
	return all
}

// rdkitRanks is RDKit's symmetry classes of every atom of each SMILES,
// nil where RDKit refuses the molecule: [plain, resonant], each from
// CanonicalRankAtoms with breakTies=False on the sanitised molecule
// (aromatic bonds, charges and hydrogens counted); resonant first gives
// the terminal O (S) atoms that a resonance form swaps, X(=O)[O-] as
// RDKit's SMARTS finds them (nitro, carboxylate, sulfonate), one bond
// type and one charge, so that they rank alike.
const rdkitRanks = `
import json, sys
from rdkit import Chem, RDLogger
RDLogger.DisableLog("rdApp.*")
patterns = [Chem.MolFromSmarts(p) for p in ("[*:1](=[OX1+0:2])-[OX1-1:3]", "[*:1](=[SX1+0:2])-[SX1-1:3]")]
out = []
for s in json.load(sys.stdin):
    mol = Chem.MolFromSmiles(s)
    if mol is None:
        out.append(None)
        continue
    plain = list(Chem.CanonicalRankAtoms(mol, breakTies=False))
    rw = Chem.RWMol(mol)
    for p in patterns:
        for x, a, b in mol.GetSubstructMatches(p):
            for t in (a, b):
                rw.GetBondBetweenAtoms(x, t).SetBondType(Chem.BondType.ONEANDAHALF)
                rw.GetAtomWithIdx(t).SetFormalCharge(-1)
    out.append([plain, list(Chem.CanonicalRankAtoms(rw, breakTies=False))])
json.dump(out, sys.stdout)
`

// TestExplainSymmetric: under the default MUTAG model (the molecules
// preset, with node labels) and the one without node labels, with either
// attribution, atoms RDKit ranks alike once the bonds a resonance form
// swaps are made alike (symmetric atoms, and the two oxygens of a nitro
// group or a carboxylate) get scores equal to 1e-9 on each of 200 NCI
// molecules, and the node
// scores (with simplices, nodes and edges) sum to decision - reference to
// 1e-9.
func TestExplainSymmetric(t *testing.T) {
	models, smi, smiles := symmetrySetup(t)
	py := testenv.Python(t, "rdkit")
	var rdkit [][2][]int
	testenv.RunJSON(t, py, []string{"-c", rdkitRanks}, smiles, &rdkit)
	for _, name := range []string{"default", "no labels"} {
		for _, attribution := range []explain.Attribution{explain.Nodes, explain.Simplices} {
			code, stdout, stderr := wkpi(t, "explain", "-model", models[name], "-format", "json", "-attribution", string(attribution), smi)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", name, code, stderr)
			}
			all := explanations(t, stdout)
			if len(all) != len(smiles) {
				t.Fatalf("%s: %d explanations of %d molecules", name, len(all), len(smiles))
			}
			var pairs, resonant, refused int
			for i, ex := range all {
				sum := 0.0
				for _, n := range ex.Nodes {
					sum += n.Score
				}
				if attribution == explain.Simplices {
					for _, e := range ex.Edges {
						sum += e.Score
					}
				}
				if d := sum - (ex.Decision - ex.Reference); math.Abs(d) > 1e-9 {
					t.Errorf("%s, %s: %s: scores sum to %v, decision - reference %v", name, attribution, smiles[i], sum, ex.Decision-ex.Reference)
				}
				if rdkit[i][0] == nil {
					refused++
					continue
				}
				plain, ranks := rdkit[i][0], rdkit[i][1]
				for u := range ex.Nodes {
					for v := range u {
						if ranks[u] != ranks[v] {
							continue
						}
						pairs++
						if plain[u] != plain[v] {
							resonant++
						}
						if d := ex.Nodes[u].Score - ex.Nodes[v].Score; math.Abs(d) > 1e-9 {
							t.Errorf("%s, %s: %s: symmetric atoms %d and %d scored %v and %v", name, attribution, smiles[i], v, u, ex.Nodes[v].Score, ex.Nodes[u].Score)
						}
					}
				}
			}
			t.Logf("%s model, %s: %d pairs of symmetric atoms in %d molecules (%d refused by RDKit), %d of them alike by resonance alone", name, attribution, pairs, len(all)-refused, refused, resonant)
			if resonant == 0 {
				t.Errorf("%s, %s: no pair of atoms alike by resonance alone: the check checks nothing", name, attribution)
			}
		}
	}
}

// TestExplainWasm: `wkpi explain` built for GOOS=js GOARCH=wasm, the
// browser's platform, run under Node.js (Go's go_js_wasm_exec), gives
// every atom of the 200 NCI molecules the score the native build gives,
// to 1e-9, under both models: the heat kernel signature, whose last bits
// differ between the platforms, no longer decides which of two tied
// atoms a persistence point is handed to.
func TestExplainWasm(t *testing.T) {
	models, smi, smiles := symmetrySetup(t)
	if _, err := exec.LookPath("node"); err != nil {
		msg := "the wasm build runs under Node.js, not found: " + err.Error()
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip("SKIPPED: " + msg)
	}
	exe := filepath.Join(runtime.GOROOT(), "lib", "wasm", "go_js_wasm_exec")
	if _, err := os.Stat(exe); err != nil {
		t.Fatalf("Go's wasm runner: %v", err)
	}
	wasm := filepath.Join(t.TempDir(), "wkpi.wasm")
	testenv.GoWasm(t, "build", "-o", wasm, ".")
	for _, name := range []string{"default", "no labels"} {
		code, stdout, stderr := wkpi(t, "explain", "-model", models[name], "-format", "json", smi)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		native := explanations(t, stdout)
		cmd := exec.Command(exe, wasm, "explain", "-model", models[name], "-format", "json", smi)
		var errOut strings.Builder
		cmd.Stderr = &errOut
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: wasm wkpi explain: %v\n%s", name, err, errOut.String())
		}
		browser := explanations(t, string(out))
		if len(browser) != len(native) || len(native) != len(smiles) {
			t.Fatalf("%s: %d explanations in wasm, %d native, of %d molecules", name, len(browser), len(native), len(smiles))
		}
		worst := 0.0
		for i := range native {
			a, b := native[i], browser[i]
			if a.Class != b.Class || math.Abs(a.Decision-b.Decision) > 1e-9 || math.Abs(a.Reference-b.Reference) > 1e-9 {
				t.Errorf("%s: %s: class %s, decision %v, reference %v natively; %s, %v, %v in wasm", name, smiles[i], a.Class, a.Decision, a.Reference, b.Class, b.Decision, b.Reference)
			}
			for v := range a.Nodes {
				d := math.Abs(a.Nodes[v].Score - b.Nodes[v].Score)
				worst = max(worst, d)
				if d > 1e-9 {
					t.Errorf("%s: %s: atom %d scored %v natively, %v in wasm", name, smiles[i], v, a.Nodes[v].Score, b.Nodes[v].Score)
				}
			}
		}
		t.Logf("%s model: %d molecules, largest difference of an atom's score %.3g", name, len(native), worst)
	}
}

// TestExplainWritings: a molecule written another way, its atoms numbered
// otherwise (two writings of each of the 200 NCI molecules from RDKit,
// testdata/rdkit_writings.py, one aromatic and one Kekulé), gets the same
// decision and, atom for atom, the same scores to 1e-9 (with Simplices,
// bond for bond too), under both models: ties of a descriptor are broken
// by a canonical order of the atoms, not by how the file numbers them.
func TestExplainWritings(t *testing.T) {
	models, smi, smiles := symmetrySetup(t)
	py := testenv.Python(t, "rdkit")
	const writings = 2
	var rdkit [][]struct {
		SMILES string `json:"smiles"`
		Atoms  []int  `json:"atoms"`
	}
	testenv.RunJSON(t, py, []string{filepath.Join("testdata", "rdkit_writings.py")}, map[string]any{"smiles": smiles, "writings": writings, "seed": 1}, &rdkit)
	var lines strings.Builder
	var from []int // per line of the file: the molecule it writes
	for i, ws := range rdkit {
		for _, w := range ws {
			fmt.Fprintf(&lines, "%s nci%d\n", w.SMILES, i)
			from = append(from, i)
		}
	}
	other := filepath.Join(t.TempDir(), "writings.smi")
	if err := os.WriteFile(other, []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"default", "no labels"} {
		for _, attribution := range []explain.Attribution{explain.Nodes, explain.Simplices} {
			var runs [2][]explain.Explanation
			for r, file := range []string{smi, other} {
				code, stdout, stderr := wkpi(t, "explain", "-model", models[name], "-format", "json", "-attribution", string(attribution), file)
				if code != 0 {
					t.Fatalf("%s: exit %d: %s", name, code, stderr)
				}
				runs[r] = explanations(t, stdout)
			}
			given, written := runs[0], runs[1]
			if len(given) != len(smiles) || len(written) != len(from) {
				t.Fatalf("%s, %s: %d and %d explanations of %d and %d molecules", name, attribution, len(given), len(written), len(smiles), len(from))
			}
			seen := make([]int, len(rdkit))
			worst := 0.0
			for l, b := range written {
				i := from[l]
				w := rdkit[i][seen[i]]
				seen[i]++
				a := given[i]
				if a.Class != b.Class || math.Abs(a.Decision-b.Decision) > 1e-9 {
					t.Errorf("%s, %s: %s written %s: class %s, decision %v; as given %s, %v", name, attribution, smiles[i], w.SMILES, b.Class, b.Decision, a.Class, a.Decision)
					continue
				}
				for v, n := range b.Nodes {
					d := math.Abs(n.Score - a.Nodes[w.Atoms[v]].Score)
					worst = max(worst, d)
					if d > 1e-9 {
						t.Errorf("%s, %s: %s written %s: atom %d (%d as given) scored %v, as given %v", name, attribution, smiles[i], w.SMILES, v, w.Atoms[v], n.Score, a.Nodes[w.Atoms[v]].Score)
					}
				}
				bonds := map[[2]int]float64{}
				for _, e := range a.Edges {
					bonds[[2]int{min(e.U, e.V), max(e.U, e.V)}] = e.Score
				}
				for _, e := range b.Edges {
					u, v := w.Atoms[e.U], w.Atoms[e.V]
					if d := math.Abs(e.Score - bonds[[2]int{min(u, v), max(u, v)}]); d > 1e-9 {
						worst = max(worst, d)
						t.Errorf("%s, %s: %s written %s: bond %d-%d scored %v, as given %v", name, attribution, smiles[i], w.SMILES, u, v, e.Score, bonds[[2]int{min(u, v), max(u, v)}])
					}
				}
			}
			t.Logf("%s model, %s: %d writings of %d molecules, largest difference of a score %.3g", name, attribution, len(written), len(given), worst)
		}
	}
}
