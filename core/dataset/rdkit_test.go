package dataset_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"wkpi-web/core/dataset"
	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// RDKit's NCI sample (rdkit-data): 4,999 lines "SMILES\tid", and
// the same SMILES in the same order with their TPSA (Daylight), after a
// comment line and without a header.
const (
	nciSMI  = "Data/NCI/first_5K.smi"
	nciTPSA = "Data/NCI/first_5k.tpsa.csv"
)

// nciRow is one molecule of the NCI sample.
type nciRow struct {
	smiles, id string
	tpsa       float64
}

// nciRows joins first_5K.smi and first_5k.tpsa.csv line by line, checking
// that they list the same SMILES, and keeps the 4,993 molecules whose
// chemistry RDKit accepts (smiles.ParseMolecule, checked against RDKit;
// TestNCIRefused reads the other six).
func nciRows(tb testing.TB) []nciRow {
	smi := strings.Split(strings.TrimSpace(string(testenv.RDKitData(tb, nciSMI))), "\n")
	tpsa := strings.Split(strings.TrimSpace(string(testenv.RDKitData(tb, nciTPSA))), "\n")
	if !strings.HasPrefix(tpsa[0], "#") || len(tpsa)-1 != len(smi) {
		tb.Fatalf("%d SMILES, %d TPSA lines after %q", len(smi), len(tpsa)-1, tpsa[0])
	}
	rows := make([]nciRow, 0, len(smi))
	for i, line := range smi {
		s, id, _ := strings.Cut(line, "\t")
		ts, tv, _ := strings.Cut(tpsa[i+1], ",")
		v, err := strconv.ParseFloat(tv, 64)
		if ts != s || err != nil {
			tb.Fatalf("line %d: %q %q, TPSA %q", i+1, s, ts, tv)
		}
		if _, err := smiles.ParseMolecule(s); err == nil {
			rows = append(rows, nciRow{s, id, v})
		}
	}
	if len(rows) != 4993 {
		tb.Fatalf("%d NCI molecules RDKit's chemistry accepts, RDKit 4,993", len(rows))
	}
	return rows
}

// TestNCIRefused: the whole NCI sample as a table refuses the six
// molecules whose chemistry RDKit refuses, naming their rows; -skip-bad
// reads the other 4,993.
func TestNCIRefused(t *testing.T) {
	data := testenv.RDKitData(t, nciSMI)
	var b strings.Builder
	b.WriteString("SMILES,id,class\n")
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		s, id, _ := strings.Cut(line, "\t")
		fmt.Fprintf(&b, "%s,%s,%d\n", s, id, i%2)
	}
	_, _, err := dataset.Parse("nci.csv", []byte(b.String()), dataset.Options{})
	const want = `nci.csv: 6 of 4999 rows cannot be read: row 1826 (line 1827): SMILES "N[Co](N)(N)([NH3+])([NH3+])[NH3+].Cl[Sb-3](Cl)(Cl)(Cl)(Cl)Cl": atom 8 (Sb, charge -3) has valence 6, more than it allows (4)`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v\nwant %s...", err, want)
	}
	ds, rep, err := dataset.Parse("nci.csv", []byte(b.String()), dataset.Options{SkipBad: true})
	if err != nil {
		t.Fatal(err)
	}
	var rows []int
	for _, sk := range rep.Skipped {
		rows = append(rows, sk.Index)
	}
	if len(ds.Graphs) != 4993 || fmt.Sprint(rows) != "[1826 2098 3227 3400 4509 4597]" {
		t.Errorf("%d graphs; skipped rows %v, want RDKit's refusals (NCI lines 1826 2098 3227 3400 4509 4597)", len(ds.Graphs), rows)
	}
}

// nciCSV writes the NCI sample as a MoleculeNet-style table.
func nciCSV(rows []nciRow) []byte {
	var b strings.Builder
	b.WriteString("SMILES,NSC_id,TPSA\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%s,%s,%s\n", r.smiles, r.id, strconv.FormatFloat(r.tpsa, 'f', -1, 64))
	}
	return []byte(b.String())
}

// TestNCITable reads 4,993 NCI molecules as a SMILES+TPSA table:
// every graph is smiles.Parse of its row (the smiles package is checked
// against RDKit), every name the row's id, the median TPSA is Python's
// statistics.median of the file's values, and the threshold at it puts
// each molecule on its side.
func TestNCITable(t *testing.T) {
	rows := nciRows(t)
	data := nciCSV(rows)
	// TPSA is a measurement: without a threshold it is refused.
	_, _, err := dataset.Parse("nci.csv", data, dataset.Options{Target: "TPSA"})
	if err == nil || !strings.Contains(err.Error(), `nci.csv: the target "TPSA" holds real numbers ("34.14" in row 1 (line 2)): give a threshold`) {
		t.Fatalf("TPSA without a threshold: %v", err)
	}
	in, err := dataset.Inspect("nci.csv", data, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var tpsa dataset.Column
	for _, c := range in.Columns {
		if c.Name == "TPSA" {
			tpsa = c
		}
	}
	if in.SMILES != "SMILES" || in.Name != "NSC_id" || in.Target != "TPSA" || in.Records != len(rows) || len(in.Bad) != 0 || !tpsa.Numeric || tpsa.Values != len(rows) {
		t.Fatalf("inspection %+v, TPSA %+v", in, tpsa)
	}
	py := testenv.Python(t, "statistics")
	values := make([]float64, len(rows))
	for i, r := range rows {
		values[i] = r.tpsa
	}
	var median float64
	testenv.RunJSON(t, py, []string{"-c", "import json, statistics, sys; print(json.dumps(statistics.median(json.load(sys.stdin))))"}, values, &median)
	if tpsa.Median != median {
		t.Fatalf("Inspect's median %v, Python's %v", tpsa.Median, median)
	}
	start := time.Now()
	ds, rep, err := dataset.Parse("nci.csv", data, dataset.Options{Threshold: &median})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	// Issue 20 asks for 5,000 SMILES in under a second (BenchmarkParseNCI5K
	// measures it); a tenth of that is typical natively.
	if took > time.Second {
		t.Errorf("reading 4,993 molecules took %v, more than 1 s", took)
	}
	if rep.Median != median || !rep.Numeric || rep.Target != "TPSA" || len(rep.Skipped) != 0 || len(ds.Graphs) != len(rows) {
		t.Fatalf("report %+v, %d graphs", rep, len(ds.Graphs))
	}
	cut := strconv.FormatFloat(median, 'g', -1, 64)
	if !reflect.DeepEqual(ds.Classes, []string{"TPSA < " + cut, "TPSA >= " + cut}) {
		t.Errorf("classes %v", ds.Classes)
	}
	counts := [2]int{}
	for i, r := range rows {
		want := 0
		if r.tpsa >= median {
			want = 1
		}
		counts[want]++
		if ds.Labels[i] != want || ds.Names[i] != r.id || !reflect.DeepEqual(ds.Graphs[i], mustSMILES(t, r.smiles)) {
			t.Fatalf("row %d (%s): label %d name %q, want %d %q; graph equal %v", i+1, r.smiles, ds.Labels[i], ds.Names[i], want, r.id,
				reflect.DeepEqual(ds.Graphs[i], mustSMILES(t, r.smiles)))
		}
	}
	t.Logf("4,993 NCI molecules read in %v: TPSA median %v, %d below, %d at or above", took, median, counts[0], counts[1])
}

// mutagElements and mutagBonds are MUTAG's label codes (its README.txt:
// node labels 0..6 = C N O F I Cl Br, edge labels 0..3 = aromatic, single,
// double, triple), as molfile symbols and bond types.
var mutagBonds = map[string]string{"0": "4", "1": "1", "2": "2", "3": "3"}

// asMolecule relabels a MUTAG graph with element symbols and bond types,
// its nodes permuted: node i of the result is node order[i] of g (nil
// keeps the order).
func asMolecule(t *testing.T, g *graph.Graph, elements map[string]string, order []int) *graph.Graph {
	t.Helper()
	if order == nil {
		order = make([]int, g.N)
		for i := range order {
			order[i] = i
		}
	}
	pos := make([]int, g.N)
	labels := make([]string, g.N)
	for i, old := range order {
		pos[old] = i
		labels[i] = elements[g.NodeLabels[old]]
	}
	edges := make([]graph.Edge, len(g.Edges))
	bonds := make([]string, len(g.Edges))
	for k, e := range g.Edges {
		edges[k] = graph.Edge{U: pos[e.U], V: pos[e.V]}
		bonds[k] = mutagBonds[g.EdgeLabels[k]]
	}
	m, err := graph.New(g.N, edges, bonds, labels)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// writeMUTAG writes MUTAG as mutag.csv (SMILES) and mutag.sdf with RDKit
// (testdata/mutag_rdkit.py) and returns RDKit's atom output order of
// each SMILES and what RDKit's sanitisation refuses each molecule for
// ("" when it accepts it).
func writeMUTAG(t *testing.T, ds *graph.Dataset, elements map[string]string, dir string) (orders [][]int, refused []string) {
	t.Log("the RDKit oracle needs Debian's python3-rdkit (apt-get install python3-rdkit rdkit-data)")
	py := testenv.Python(t, "rdkit")
	type mol struct {
		Name  string   `json:"name"`
		Label string   `json:"label"`
		Atoms []string `json:"atoms"`
		Bonds [][3]any `json:"bonds"`
	}
	var mols []mol
	for i, g := range ds.Graphs {
		m := mol{Name: fmt.Sprintf("mutag_%d", i+1), Label: ds.Classes[ds.Labels[i]]}
		for _, l := range g.NodeLabels {
			m.Atoms = append(m.Atoms, elements[l])
		}
		for k, e := range g.Edges {
			m.Bonds = append(m.Bonds, [3]any{e.U, e.V, mutagBonds[g.EdgeLabels[k]]})
		}
		mols = append(mols, m)
	}
	var out []struct {
		Smiles string `json:"smiles"`
		Order  []int  `json:"order"`
		Error  string `json:"error"`
	}
	req := map[string]any{"graphs": mols, "csv": filepath.Join(dir, "mutag.csv"), "sdf": filepath.Join(dir, "mutag.sdf")}
	testenv.RunJSON(t, py, []string{"testdata/mutag_rdkit.py"}, req, &out)
	orders, refused = make([][]int, len(out)), make([]string, len(out))
	for i, o := range out {
		orders[i], refused[i] = o.Order, o.Error
	}
	return orders, refused
}

// TestMUTAGThreeFormats: MUTAG written by RDKit as a SMILES table and as
// an SD file reads back, through Read, as the TU graphs relabelled with
// element symbols and bond types: the SD file in TU's atom order, the
// SMILES in the order RDKit wrote the atoms (_smilesAtomOutputOrder).
// Classes, labels and names agree too. The molecules whose chemistry
// RDKit refuses (9 of 188, as TU writes them) are refused, named by their
// rows and records, and -skip-bad reads the others. (cmd/wkpi's tests run
// eval on the three.)
func TestMUTAGThreeFormats(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	ds, err := tu.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	elements, _, err := tu.ReadLabelNames(dir)
	if err != nil || len(elements) != 7 {
		t.Fatalf("MUTAG's code table %v, %v", elements, err)
	}
	tmp := t.TempDir()
	orders, refused := writeMUTAG(t, ds, elements, tmp)
	var want []int // TU graphs RDKit's chemistry accepts
	var bad []string
	for i, r := range refused {
		if r == "" {
			want = append(want, i)
		} else {
			bad = append(bad, fmt.Sprint(i+1))
		}
	}
	if len(want) != 179 {
		t.Fatalf("RDKit refuses %d MUTAG molecules, want 9", 188-len(want))
	}
	for _, file := range []string{"mutag.csv", "mutag.sdf"} {
		if _, _, err := dataset.Read(filepath.Join(tmp, file), dataset.Options{}); err == nil || !strings.Contains(err.Error(), ": 9 of 188 ") {
			t.Errorf("%s without -skip-bad: %v", file, err)
		}
		got, rep, err := dataset.Read(filepath.Join(tmp, file), dataset.Options{SkipBad: true})
		if err != nil {
			t.Fatal(err)
		}
		var skipped []string
		for _, sk := range rep.Skipped {
			skipped = append(skipped, fmt.Sprint(sk.Index))
		}
		if strings.Join(skipped, " ") != strings.Join(bad, " ") {
			t.Errorf("%s: skipped %v, RDKit refuses %v", file, skipped, bad)
		}
		if got.Name != "mutag" || rep.Target != "mutagenic" || !reflect.DeepEqual(got.Classes, ds.Classes) || len(got.Graphs) != len(want) {
			t.Fatalf("%s: classes %v, %d graphs, report %+v", file, got.Classes, len(got.Graphs), rep)
		}
		atoms, bonds := 0, 0
		for k, i := range want {
			g := ds.Graphs[i]
			var order []int
			if file == "mutag.csv" {
				order = orders[i]
			}
			// The structure only: the readers' atom chemistry (hydrogens,
			// aromaticity) has no TU counterpart.
			bare := *got.Graphs[k]
			bare.Atoms = nil
			if want := asMolecule(t, g, elements, order); !reflect.DeepEqual(&bare, want) {
				t.Fatalf("%s graph %d:\n got %+v\nwant %+v", file, i+1, bare, *want)
			}
			if got.Names[k] != fmt.Sprintf("mutag_%d", i+1) || got.Labels[k] != ds.Labels[i] {
				t.Fatalf("%s graph %d named %q, class %d; want %d", file, i+1, got.Names[k], got.Labels[k], ds.Labels[i])
			}
			atoms += g.N
			bonds += len(g.Edges)
		}
		t.Logf("%s: 179 molecules, %d atoms, %d bonds, equal to the TU graphs; refused as by RDKit: %v", file, atoms, bonds, bad)
	}
}
