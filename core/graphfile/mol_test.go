package graphfile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
	"wkpi-web/core/testenv"
)

// SD files of Debian's rdkit-data package (testenv.RDKitPath): NCI's
// first 200 molecules (2D, no hydrogens, 19 data items each) and 47 CDK2
// ligands (3D, explicit hydrogens, 8 data items each).
const (
	nci200 = "Data/NCI/first_200.props.sdf"
	cdk2   = "Contrib/Fastcluster/testdata/cdk2.sdf"
)

// sdfRecord is RDKit's reading of one SD record (testdata/rdkit_sdf.py).
type sdfRecord struct {
	Title string `json:"title"`
	Atoms []string
	Bonds []struct {
		U, V  int
		Order string
	}
	Props [][2]string
	Chem  [][4]int
	Heavy *struct {
		Atoms []string
		Bonds int
	}
}

// graph is the record's graph in the molfile convention.
func (r sdfRecord) graph(t *testing.T) *graph.Graph {
	edges := make([]graph.Edge, len(r.Bonds))
	orders := make([]string, len(r.Bonds))
	for i, b := range r.Bonds {
		edges[i], orders[i] = graph.Edge{U: b.U, V: b.V}, b.Order
	}
	g, err := graph.New(len(r.Atoms), edges, orders, r.Atoms)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// chemDiff returns the first atom whose charge, isotope, aromaticity or
// hydrogen count differs from RDKit's sanitised reading, or "".
func chemDiff(g *graph.Graph, want [][4]int) string {
	if want == nil {
		return "RDKit's sanitised reading refuses it"
	}
	if len(g.Atoms) != len(want) {
		return fmt.Sprintf("%d atoms with chemistry, RDKit %d", len(g.Atoms), len(want))
	}
	for i, a := range g.Atoms {
		got := [4]int{a.Charge, a.Isotope, 0, a.Hydrogens}
		if a.Aromatic {
			got[2] = 1
		}
		if got != want[i] {
			return fmt.Sprintf("atom %d (%s): [charge isotope aromatic H] %v, RDKit %v", i+1, g.NodeLabels[i], got, want[i])
		}
	}
	return ""
}

// TestSDFMatchesRDKit reads two real SD files, and RDKit's V3000 copies
// of them, and checks every record against RDKit's SDMolSupplier: the
// atoms (element by element, in file order), the bonds with their
// molfile types, the title and every data item. RDKit's default reading
// removes hydrogens (and sanitises, which makes Kekulé rings aromatic);
// the reader keeps every atom as written, and the test checks that the
// atoms RDKit's default keeps are exactly the non-hydrogen ones, in
// order, with the bonds among them. (Unsanitised, RDKit's RemoveHs
// would keep one hydrogen of cdk2.sdf that sets the direction of an
// imine's double bond; sanitised, it is removed too.)
func TestSDFMatchesRDKit(t *testing.T) {
	files := []string{testenv.RDKitPath(t, nci200), testenv.RDKitPath(t, cdk2)}
	t.Log("the RDKit oracle needs Debian's python3-rdkit (apt-get install python3-rdkit rdkit-data)")
	py := testenv.Python(t, "rdkit")
	dir := t.TempDir()
	var v3000 []string
	for _, f := range files {
		v3000 = append(v3000, filepath.Join(dir, "v3000-"+filepath.Base(f)))
	}
	var oracle struct{ Files [][]*sdfRecord }
	testenv.RunJSON(t, py, []string{"testdata/rdkit_sdf.py"}, map[string]any{"files": files, "v3000": v3000}, &oracle)
	for k, path := range files {
		want := oracle.Files[k]
		for _, version := range []string{"V2000", "V3000"} {
			if version == "V3000" {
				path = v3000[k]
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(string(data), version); got < len(want) {
				t.Fatalf("%s: %d %s records for %d molecules", path, got, version, len(want))
			}
			f, err := graphfile.ReadFile(filepath.Base(path), data, graphfile.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Records) != len(want) {
				t.Fatalf("%s: %d records, RDKit %d", path, len(f.Records), len(want))
			}
			atoms, bonds, hydrogens, props := 0, 0, 0, 0
			for i, r := range f.Records {
				w := want[i]
				if r.Err != nil || w == nil {
					t.Fatalf("%s record %d: error %v, RDKit read it: %v", path, i+1, r.Err, w != nil)
				}
				bare := *r.Graph
				bare.Atoms = nil
				if g := w.graph(t); !reflect.DeepEqual(&bare, g) {
					t.Errorf("%s record %d:\n got %+v\nwant %+v", path, i+1, bare, *g)
				}
				if d := chemDiff(r.Graph, w.Chem); d != "" {
					t.Errorf("%s record %d: %s", path, i+1, d)
				}
				if w.Title != "" && r.Name != strings.TrimSpace(w.Title) {
					t.Errorf("%s record %d: name %q, RDKit's title %q", path, i+1, r.Name, w.Title)
				}
				if w.Title == "" && r.Name != fmt.Sprintf("record %d", i+1) {
					t.Errorf("%s record %d: untitled, named %q", path, i+1, r.Name)
				}
				var got [][2]string
				for _, p := range r.Props {
					got = append(got, [2]string{p.Key, p.Value})
				}
				if !reflect.DeepEqual(got, w.Props) {
					t.Errorf("%s record %d: data items\n got %q\nwant %q", path, i+1, got, w.Props)
				}
				// RDKit's default reading keeps exactly the heavy atoms.
				var heavy []int
				for a, l := range r.Graph.NodeLabels {
					if l != "H" {
						heavy = append(heavy, a)
					}
				}
				if w.Heavy == nil {
					t.Errorf("%s record %d: RDKit's default reading refuses it", path, i+1)
				} else {
					kept := map[int]bool{}
					var labels []string
					for _, a := range heavy {
						kept[a] = true
						labels = append(labels, r.Graph.NodeLabels[a])
					}
					among := 0
					for _, e := range r.Graph.Edges {
						if kept[e.U] && kept[e.V] {
							among++
						}
					}
					if !reflect.DeepEqual(labels, w.Heavy.Atoms) || among != w.Heavy.Bonds {
						t.Errorf("%s record %d: heavy atoms %v and %d bonds, RDKit's default %v and %d", path, i+1, labels, among, w.Heavy.Atoms, w.Heavy.Bonds)
					}
				}
				atoms += r.Graph.N
				bonds += len(r.Graph.Edges)
				hydrogens += r.Graph.N - len(heavy)
				props += len(r.Props)
			}
			t.Logf("%s (%s): %d records, %d atoms (%d hydrogens), %d bonds, %d data items: all equal to RDKit's",
				filepath.Base(files[k]), version, len(f.Records), atoms, hydrogens, bonds, props)
		}
	}
}

func TestV3000(t *testing.T) {
	// Benzoate with its sodium, as RDKit writes it (aromatic bonds 4,
	// charges as CHG=), with a continued line and skipped blocks.
	v3000 := `benzoate
     RDKit          2D

  0  0  0  0  0  0  0  0  0  0999 V3000
M  V30 BEGIN CTAB
M  V30 COUNTS 10 9 0 0 0
M  V30 BEGIN ATOM
M  V30 1 C 1.5 0 0 0
M  V30 2 C 0.75 -1.29 0 0
M  V30 3 C -0.75 -1.29 0 0
M  V30 4 C -1.5 0 0 0
M  V30 5 C -0.75 1.29 0 0
M  V30 6 C 0.75 1.29 0 0
M  V30 7 C 1.5 2.59 0 0
M  V30 8 O 0.75 3.89 0 0
M  V30 9 O 3 2.59 0 0 CHG=-1 -
M  V30 VAL=1
M  V30 10 Na 4 0 0 0 CHG=1 VAL=-1
M  V30 END ATOM
M  V30 BEGIN BOND
M  V30 1 4 1 2
M  V30 2 4 2 3
M  V30 3 4 3 4
M  V30 4 4 4 5
M  V30 5 4 5 6
M  V30 6 1 6 7
M  V30 7 2 7 8
M  V30 8 1 7 9
M  V30 9 4 6 1
M  V30 END BOND
M  V30 BEGIN SGROUP
M  V30 1 SUP 0 ATOMS=(3 7 8 9) LABEL="CO2 minus"
M  V30 END SGROUP
M  V30 END CTAB
M  END
>  <ACTIVITY>  (1)
5.2

$$$$
`
	f, err := graphfile.ReadFile("benzoate.sdf", []byte(v3000), graphfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := &graph.Graph{N: 10,
		Edges:      edges(0, 1, 0, 5, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 6, 8),
		NodeLabels: []string{"C", "C", "C", "C", "C", "C", "C", "O", "O", "Na"},
		EdgeLabels: []string{"4", "4", "4", "4", "4", "4", "1", "2", "1"},
		// CHG= gives [O-] and [Na+]; the ring is aromatic, CH but for the
		// carbon that carries the carboxylate.
		Atoms: []graph.Atom{{Hydrogens: 1, Aromatic: true}, {Hydrogens: 1, Aromatic: true}, {Hydrogens: 1, Aromatic: true},
			{Hydrogens: 1, Aromatic: true}, {Hydrogens: 1, Aromatic: true}, {Aromatic: true}, {}, {}, {Charge: -1}, {Charge: 1}},
	}
	r := f.Records[0]
	if len(f.Records) != 1 || r.Err != nil || !reflect.DeepEqual(r.Graph, want) {
		t.Fatalf("got %d records, %+v, %v", len(f.Records), r.Graph, r.Err)
	}
	if v, ok := r.Prop("ACTIVITY"); !ok || v != "5.2" || r.Name != "benzoate" || r.Where != "record 1 (line 1)" {
		t.Errorf("ACTIVITY %q %v, name %q, where %q", v, ok, r.Name, r.Where)
	}
	// The same molecule sniffed without an extension.
	if gs, err := graphfile.Parse("upload", []byte(v3000)); err != nil || !reflect.DeepEqual(gs, []*graph.Graph{want}) {
		t.Errorf("sniffed: %v %v", gs, err)
	}

	head := "x\n\n\n  0  0  0  0  0  0  0  0  0  0999 V3000\n"
	ctab := func(body string) string {
		return head + "M  V30 BEGIN CTAB\nM  V30 COUNTS 2 1 0 0 0\n" + body + "M  V30 END CTAB\nM  END\n"
	}
	atoms := "M  V30 BEGIN ATOM\nM  V30 1 C 0 0 0 0\nM  V30 2 O 0 0 0 0\nM  V30 END ATOM\n"
	for _, tc := range []struct{ data, want string }{
		{ctab(atoms + "M  V30 BEGIN BOND\nM  V30 1 1 1 3\nM  V30 END BOND\n"), "m.mol line 12: bond to atom index 3, which the ATOM block does not define"},
		{ctab(atoms + "M  V30 BEGIN BOND\nM  V30 1 1 2 2\nM  V30 END BOND\n"), "m.mol line 12: bond from atom 2 to itself"},
		{ctab(atoms), "m.mol line 6: COUNTS promises 2 atoms and 1 bonds, the blocks hold 2 and 0"},
		{ctab("M  V30 BEGIN ATOM\nM  V30 1 C 0 0 0 0\nM  V30 1 O 0 0 0 0\nM  V30 END ATOM\n"), "m.mol line 9: atom index 1 given twice"},
		{ctab("M  V30 BEGIN ATOM\nM  V30 1 5 0 0 0 0\nM  V30 END ATOM\n"), `m.mol line 8: atom line "1 5 0 0 0 0" has no element symbol`},
		{ctab("M  V30 BEGIN ATOM\nM  V30 1 C 0 0 0 0\n"), "m.mol line 9: END CTAB inside the ATOM block"},
		{head + "M  V30 BEGIN CTAB\nM  V30 COUNTS 0 0 0 0 0\nM  V30 END CTAB\n", "m.mol line 8: V3000 connection table without \"M  END\""},
		{head + "M  V30 COUNTS 0 0\nM  END\n", "m.mol line 4: V3000 molfile without a CTAB block"},
		{head + "M  V30 BEGIN CTAB\nM  V30 END CTAB\nM  END\n", "m.mol line 4: V3000 molfile without a COUNTS line"},
		{head + "M  V30 BEGIN CTAB\nM  V30 COUNTS x 0\nM  V30 END CTAB\nM  END\n", `m.mol line 6: COUNTS line "COUNTS x 0": want two counts >= 0`},
		{head + "M  V30 BEGIN RGROUP 1\nM  END\n", "m.mol line 5: RGROUP blocks are not supported"},
		{head + "  1.0 C\nM  END\n", `m.mol line 5: V3000 connection table line "  1.0 C" does not start with "M  V30 "`},
	} {
		_, err := graphfile.Parse("m.mol", []byte(tc.data))
		if err == nil || err.Error() != tc.want {
			t.Errorf("error %v\n want %s", err, tc.want)
		}
	}
	// An atom list is an "L" atom, as in V2000.
	gs, err := graphfile.Parse("m.mol", []byte(ctab("M  V30 BEGIN ATOM\nM  V30 1 C 0 0 0 0\nM  V30 2 NOT [N,O] 0 0 0 0\nM  V30 END ATOM\nM  V30 BEGIN BOND\nM  V30 1 1 1 2\nM  V30 END BOND\n")))
	if err != nil || !reflect.DeepEqual(gs[0].NodeLabels, []string{"C", "L"}) {
		t.Errorf("atom list: %v %v", gs, err)
	}
}

func TestSDFDataItems(t *testing.T) {
	mol := func(title string) string {
		return title + "\n\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n" +
			"    0.0000    0.0000    0.0000 C   0  0\n    0.0000    0.0000    0.0000 O   0  0\n  1  2  1  0\nM  END\n"
	}
	sdf := mol("first") + "> <ACTIVITY> (1)\n7.5\n\n>  <NOTE>\ntwo\nlines\n\n> DT12\n12\n\n$$$$\n" +
		mol("") + ">  <ID>\nZ-2\n>  <ACTIVITY>\n\n$$$$\n" +
		mol("") + "$$$$\n"
	f, err := graphfile.ReadFile("m.sdf", []byte(sdf), graphfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	type kv = graphfile.Property
	want := []struct {
		name  string
		props []kv
	}{
		// Line is the value's line: each molfile takes 8 lines, a header
		// the line before its value.
		{"first", []kv{{Key: "ACTIVITY", Value: "7.5", Line: 10}, {Key: "NOTE", Value: "two\nlines", Line: 13}, {Key: "DT12", Value: "12", Line: 17}}},
		// No title: the ID item names it; a header right after a value
		// line starts the next item; an empty value is kept empty.
		{"Z-2", []kv{{Key: "ID", Value: "Z-2", Line: 29}, {Key: "ACTIVITY", Value: "", Line: 31}}},
		{"record 3", nil},
	}
	for i, w := range want {
		r := f.Records[i]
		if r.Err != nil || r.Name != w.name || !reflect.DeepEqual(r.Props, w.props) {
			t.Errorf("record %d: name %q props %+v err %v, want %q %+v", i+1, r.Name, r.Props, r.Err, w.name, w.props)
		}
	}
	// A bad record is reported in place; the others are read.
	bad := mol("a") + "$$$$\n" + strings.Replace(mol("b"), "  1  2  1", "  1  3  1", 1) + "$$$$\n" + mol("c") +
		"> <X>\n1\n\n> <X>\n2\n\n$$$$\n" + mol("d") + "d2\n\n\n  0  0\n"
	f, err = graphfile.ReadFile("m.sdf", []byte(bad), graphfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantErr := []string{"",
		"m.sdf line 16: atom number 3 out of range 1..2",
		"m.sdf line 30: data item <X> given twice (lines 27 and 30)",
		`m.sdf line 42: unexpected "d2" after the connection table (is a "$$$$" line missing between two molecules?)`,
	}
	for i, w := range wantErr {
		r := f.Records[i]
		if got := fmt.Sprint(r.Err); w == "" && r.Err != nil || w != "" && got != w || (r.Err == nil) != (r.Graph != nil) {
			t.Errorf("record %d: error %v, want %q", i+1, r.Err, w)
		}
	}
	if where := f.Records[2].Where; where != "record 3 (line 19)" {
		t.Errorf("where %q", where)
	}
}

// TestMoleculeText: each SD record keeps its molfile (to "M  END", the
// data items left out), which read on its own gives the same graph, and
// each SMILES record its SMILES.
func TestMoleculeText(t *testing.T) {
	data, err := os.ReadFile("testdata/two.sdf")
	if err != nil {
		t.Fatal(err)
	}
	f, err := graphfile.ReadFile("two.sdf", data, graphfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range f.Records {
		if !strings.HasSuffix(r.Molecule, "M  END\n") || strings.Contains(r.Molecule, "$$$$") || strings.Contains(r.Molecule, "> <") {
			t.Fatalf("record %d: molecule text %q", i+1, r.Molecule)
		}
		alone, err := graphfile.ReadFile("one.mol", []byte(r.Molecule), graphfile.Options{})
		if err != nil || len(alone.Records) != 1 || !reflect.DeepEqual(alone.Records[0].Graph, r.Graph) {
			t.Errorf("record %d: its molfile alone reads as %+v (%v)", i+1, alone, err)
		}
	}
	s, err := graphfile.ReadFile("x.smi", []byte("CCO ethanol\nc1ccccc1\n"), graphfile.Options{})
	if err != nil || s.Records[0].Molecule != "CCO" || s.Records[1].Molecule != "c1ccccc1" {
		t.Errorf("SMILES records keep %q, %q (%v)", s.Records[0].Molecule, s.Records[1].Molecule, err)
	}
	c, err := graphfile.ReadFile("x.csv", []byte("name,smiles\nethanol,CCO\n"), graphfile.Options{})
	if err != nil || c.Records[0].Molecule != "CCO" {
		t.Errorf("a table's record keeps %+v (%v)", c.Records, err)
	}
}
