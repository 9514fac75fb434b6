package graphfile_test

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
)

// edges builds an edge list from flattened pairs u0, v0, u1, v1, ...
func edges(ends ...int) []graph.Edge {
	var out []graph.Edge
	for i := 0; i+1 < len(ends); i += 2 {
		out = append(out, graph.Edge{U: ends[i], V: ends[i+1]})
	}
	return out
}

func TestFixtures(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []*graph.Graph
	}{
		{"social.edges", []*graph.Graph{{
			// alice 0, bob 1, carol 2, dave 3 (isolated), erin 4, frank 5.
			N: 6, Edges: edges(0, 1, 0, 2, 1, 2, 4, 5),
		}}},
		{"triangle.graphml", []*graph.Graph{{
			// a-b is given twice; its first label, "double", wins.
			N: 4, Edges: edges(0, 1, 0, 2, 1, 2),
			NodeLabels: []string{"C", "N", "O", "S"},
			EdgeLabels: []string{"double", "single", "single"},
		}}},
		{"benzene.mol", []*graph.Graph{{
			N: 6, Edges: edges(0, 1, 0, 5, 1, 2, 2, 3, 3, 4, 4, 5),
			NodeLabels: []string{"C", "C", "C", "C", "C", "C"},
			// Bonds i-(i+1) alternate double/single from 1-2; 6-1 is single.
			EdgeLabels: []string{"2", "1", "1", "2", "1", "2"},
			// A Kekulé benzene is aromatic, one hydrogen on each carbon.
			Atoms: repeatAtom(graph.Atom{Hydrogens: 1, Aromatic: true}, 6),
		}}},
		{"two.sdf", []*graph.Graph{
			{N: 3, Edges: edges(0, 1, 1, 2), NodeLabels: []string{"C", "C", "O"}, EdgeLabels: []string{"1", "1"},
				Atoms: []graph.Atom{{Hydrogens: 3}, {Hydrogens: 2}, {Hydrogens: 1}}}, // ethanol
			{N: 2, Edges: edges(0, 1), NodeLabels: []string{"C", "O"}, EdgeLabels: []string{"2"},
				Atoms: []graph.Atom{{Hydrogens: 2}, {}}}, // formaldehyde
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			got, err := graphfile.Parse(tc.file, data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %s\nwant %s", show(got), show(tc.want))
			}
			// Without a known extension the content must be recognised.
			sniffed, err := graphfile.Parse("upload", data)
			if err != nil || !reflect.DeepEqual(sniffed, tc.want) {
				t.Errorf("sniffed: got %s, err %v", show(sniffed), err)
			}
		})
	}
}

func show(gs []*graph.Graph) string {
	var b strings.Builder
	for _, g := range gs {
		fmt.Fprintf(&b, "%+v ", *g)
	}
	return b.String()
}

func TestInline(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       []*graph.Graph
	}{
		{"labelled.csv", "a,b,x\r\nb,c,y\r\n", []*graph.Graph{{N: 3, Edges: edges(0, 1, 1, 2), EdgeLabels: []string{"x", "y"}}}},
		{"g.json", `{"nodes": 3, "edges": [[2, 1], [0, 1]]}`, []*graph.Graph{{N: 3, Edges: edges(0, 1, 1, 2)}}},
		{"g.json", `[{"nodes": ["C", "O"], "edges": [[0, 1]], "edge_labels": ["2"], "node_values": [0.5, -1]},
		             {"nodes": 1, "edges": []}]`, []*graph.Graph{
			{N: 2, Edges: edges(0, 1), NodeLabels: []string{"C", "O"}, EdgeLabels: []string{"2"}, NodeValues: []float64{0.5, -1}},
			{N: 1},
		}},
		{"two.graphml", `<graphml><key id="label" for="all"/>
			<graph><node id="1"><data key="label">x</data></node><node id="2"/><edge source="1" target="2"><data key="label">e</data></edge></graph>
			<graph><node id="n"/></graph></graphml>`, []*graph.Graph{
			{N: 2, Edges: edges(0, 1), NodeLabels: []string{"x", ""}, EdgeLabels: []string{"e"}},
			// graph.New gives an empty, non-nil label list when labels exist.
			{N: 1, NodeLabels: []string{""}, EdgeLabels: []string{}},
		}},
		{"chain.sdf", chain(120) + "\n\n", []*graph.Graph{chainGraph(120)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := graphfile.Parse(tc.name, []byte(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %s\nwant %s", show(got), show(tc.want))
			}
		})
	}
}

// chain writes a molfile of n carbons in a path; from atom 100 on, bond
// lines run the two 3-digit atom numbers together ("100101  1"), which
// only the fixed-column layout can split.
func chain(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "chain\n\n\n%3d%3d  0  0  0  0  0  0  0  0999 V2000\n", n, n-1)
	for range n {
		b.WriteString("    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n")
	}
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "%3d%3d%3d  0  0  0  0\n", i, i+1, 1)
	}
	b.WriteString("M  END\n$$$$\n")
	return b.String()
}

// repeatAtom returns n copies of a.
func repeatAtom(a graph.Atom, n int) []graph.Atom {
	out := make([]graph.Atom, n)
	for i := range out {
		out[i] = a
	}
	return out
}

// chainGraph is the molfile chain(n): n carbons in a row, CH3 at the ends.
func chainGraph(n int) *graph.Graph {
	g := &graph.Graph{N: n}
	for i := 0; i+1 < n; i++ {
		g.Edges = append(g.Edges, graph.Edge{U: i, V: i + 1})
		g.EdgeLabels = append(g.EdgeLabels, "1")
	}
	for range n {
		g.NodeLabels = append(g.NodeLabels, "C")
	}
	g.Atoms = repeatAtom(graph.Atom{Hydrogens: 2}, n)
	g.Atoms[0].Hydrogens, g.Atoms[n-1].Hydrogens = 3, 3
	return g
}

func TestErrors(t *testing.T) {
	benzene, err := os.ReadFile("testdata/benzene.mol")
	if err != nil {
		t.Fatal(err)
	}
	v3000 := strings.Replace(string(benzene), "V2000", "V3000", 1)
	badBond := strings.Replace(string(benzene), "  6  1  1", "  6  9  1", 1)
	short := strings.Replace(string(benzene), "  6  6  0", " 60  6  0", 1)
	for _, tc := range []struct{ name, data, want string }{
		{"g.txt", "", "g.txt: empty file (no nodes)"},
		{"g.txt", "a b\nb b\n", `g.txt line 2: self-loop on node "b"`},
		{"g.txt", "a b c d\n", `g.txt line 1: want "u v" or "u v label", got 4 fields`},
		{"g.csv", "a,,b\n", "g.csv line 1: empty field 2"},
		{"g.txt", "a b x\nb c\n", "g.txt line 2: edges on lines 1 and 2 disagree on having a label"},
		{"m.mol", v3000, `m.mol line 5: V3000 connection table line "    1.4000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0" does not start with "M  V30 "`},
		{"m.mol", badBond, "m.mol line 16: atom number 9 out of range 1..6"},
		{"m.mol", short, "m.mol line 4: counts line promises 60 atoms and 6 bonds, but the file ends first"},
		{"m.mol", "x\n\n\n 1 0\nnot an atom line\n", `m.mol line 5: atom line "not an atom line" has no element symbol`},
		{"m.mol", "x\n\n", "m.mol: this is not a molfile: it ends before line 4, where a molfile's counts line belongs; " + molExpected},
		{"m.mol", "x\n\n\nabc\n", `m.mol: this is not a molfile: line 4, where a molfile's counts line belongs, is "abc", with neither V2000 nor V3000 nor atom and bond counts; ` + molExpected},
		{"m.mol", "x\n\n\n-1 0\n", "m.mol line 4: negative atom or bond count"},
		{"m.mol", "x\n\n\n2 1\nC 0 0 C\n0 0 0 O\n1 1 1\n", "m.mol line 7: bond from atom 1 to itself"},
		{"m.sdf", "\n\n", "m.sdf: empty file (no molecules)"},
		{"g.graphml", "<graphml><graph><node id='a'/><edge source='a' target='z'/></graph></graphml>", `g.graphml line 1: edge target "z" is not a declared node`},
		{"g.graphml", "<graphml>\n<graph>\n<node id='a'/>\n<node id='a'/></graph></graphml>", `g.graphml line 4: duplicate node id "a"`},
		{"g.graphml", "<graphml><graph><node id='a'/><edge source='a' target='a'/></graph></graphml>", `g.graphml line 1: self-loop on node "a"`},
		{"g.graphml", "<graphml>\n<graph>\n<node id='a'>\n</graph>", "g.graphml line 4: element <node> closed by </graph>"},
		{"g.graphml", "<graphml/>", "g.graphml: no <graph> element"},
		{"g.graphml", "<graphml><node id='a'/></graphml>", "g.graphml line 1: <node> outside a <graph>"},
		{"g.json", `{"nodes": 2, "edges": [[0, 1, 2]]}`, "g.json: graph 1: edge 1: want [u, v], got 3 numbers"},
		{"g.json", `{"nodes": 2, "edges": [[0, 5]]}`, "g.json: graph 1: edge (0, 5): node out of range 0..1"},
		{"g.json", `{"nodes": 2, "edges": [[1, 1]]}`, "g.json: graph 1: edge (1, 1): self-loop"},
		{"g.json", `{"nodes": 1e12}`, "g.json: graph 1: \"nodes\" must be a count or an array of label strings"},
		{"g.json", `{"nodes": 1000000000000}`, "g.json: graph 1: \"nodes\": count 1000000000000 out of range 0..16777216"},
		{"g.json", `{"edges": []}`, `g.json: graph 1: missing "nodes"`},
		{"g.json", `{"nodes": 2, "node_values": [1]}`, "g.json: graph 1: 1 node values for 2 nodes"},
		{"g.json", `{"nodes": 2, "edges": [[0, 1]], "edge_labels": []}`, "g.json: graph 1: 0 edge labels for 1 edges"},
		{"g.json", "{\"nodes\": 2,\n \"edge_label\": []}", `g.json: json: unknown field "edge_label"`},
		{"g.json", "{\"nodes\": 2,\n \"edges\": [[0, \"1\"]]}", "g.json line 2: json: cannot unmarshal string into Go struct field jsonGraphObject.edges of type int"},
		{"g.json", "{\"nodes\": 2,\n\n ]", "g.json line 3: invalid character ']' looking for beginning of object key string"},
		{"g.json", `[]`, "g.json: empty array (no graphs)"},
		{"g.json", `{"nodes": 1} {}`, "g.json: data after the JSON value"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			gs, err := graphfile.Parse(tc.name, []byte(tc.data))
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v\n         want %s\n(graphs %s)", err, tc.want, show(gs))
			}
		})
	}
	if _, err := graphfile.Parse("g.json", []byte(`{"nodes": 2, "edges": [[1, 1]]}`)); !errors.Is(err, graph.ErrSelfLoop) {
		t.Errorf("self-loop error %v does not wrap graph.ErrSelfLoop", err)
	}
}

func BenchmarkParseSDF(b *testing.B) {
	// 100 records of a 999-atom chain, the largest a V2000 counts line allows.
	data := []byte(strings.Repeat(chain(999), 100))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := graphfile.Parse("many.sdf", data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSniff: without a telling extension the content chooses the
// format, and content that does not read cleanly in it, or reads as two
// formats, is an error naming the formats tried; nothing is read as an
// edge list between SMILES strings.
func TestSniff(t *testing.T) {
	benzene := []*graph.Graph{mustSMILES(t, "c1ccccc1")}
	for _, tc := range []struct {
		name, data string
		want       []*graph.Graph // nil: wantErr
		wantErr    string
	}{
		{"mols", "c1ccccc1 benzene\n", benzene, ""},
		{"mols.txt", "c1ccccc1\tbenzene\n", benzene, ""},
		{"mols", "[Na+].[Cl-] salt\n", []*graph.Graph{mustSMILES(t, "[Na+].[Cl-]")}, ""},
		{"mols.csv", "name,SMILES\nbenzene,c1ccccc1\n", benzene, ""},
		{"g.csv", "1,2\n2,3\n", []*graph.Graph{{N: 3, Edges: edges(0, 1, 1, 2)}}, ""},
		// b and c are SMILES (boron, carbon), a is not: an edge list.
		{"g.csv", "a,b\nb,c\nc,a\n", []*graph.Graph{{N: 3, Edges: edges(0, 1, 0, 2, 1, 2)}}, ""},
		{"g.txt", "a b\nb c\n", []*graph.Graph{{N: 3, Edges: edges(0, 1, 1, 2)}}, ""},
		{"g", "hello world\nfoo\n", []*graph.Graph{{N: 3, Edges: edges(0, 1)}}, ""},
		{"g", `[{"nodes": 2, "edges": [[0, 1]]}]`, []*graph.Graph{{N: 2, Edges: edges(0, 1)}}, ""},
		{"mols", "c1ccccc1 benzene\nC1CC broken\nCCO ethanol\n", nil,
			`mols: not a graph file in any format tried: as SMILES lines (the first token of most lines is a SMILES): line 2: SMILES "C1CC": character 2: ring bond 1 is never closed; not as an edge list, whose nodes would be named by SMILES`},
		{"mols.txt", "c1ccccc1 benzene\nC1CC broken\nCCO ethanol\n", nil,
			`mols.txt: not a graph file in any format tried: as SMILES lines (the first token of most lines is a SMILES): line 2: SMILES "C1CC": character 2: ring bond 1 is never closed; not as an edge list, whose nodes would be named by SMILES`},
		// A name, then a SMILES (RDKit's cdk2.smi, ZINC exports).
		{"mols", "ZINC1\tc1ccccc1\n", benzene, ""},
		{"mols.txt", "ID SMILES\nbz c1ccccc1\n", benzene, ""},
		{"mols", "bz c1ccccc1\nbad C1CC\ntol Cc1ccccc1\n", nil,
			`mols: not a graph file in any format tried: as SMILES lines (the second token of most lines is a SMILES): line 2: SMILES "C1CC": character 2: ring bond 1 is never closed; not as an edge list, whose nodes would be named by SMILES`},
		{"g", "C O\nO N\n", nil, "g: cannot tell the format: the content reads both as SMILES lines and as an edge list; name the file .smi or .edges"},
		{"g", "x y z w\n", nil, `g: not a graph file in any format tried: as SMILES lines: line 1: SMILES "x": character 1: unknown element "x"; as an edge list: line 1: want "u v" or "u v label", got 4 fields`},
		{"g.csv", "CCO,1.5\nCC,2\n", nil, `g.csv: the first column reads as SMILES, but no header row names a SMILES column: add a header such as "smiles,activity" to read molecules, or name an edge list .edges`},
		{"g", "<graphml><graph><node id='a'/><edge source='a' target='b'/></graph></graphml>", nil,
			`g: not a graph file in any format tried: as a GraphML file (guessed from the content): line 1: edge target "b" is not a declared node`},
		{"g", "<graphml><graph>", nil, "g: not a graph file in any format tried: as a GraphML file (guessed from the content): line 1: unexpected EOF"},
	} {
		got, err := graphfile.Parse(tc.name, []byte(tc.data))
		if tc.want != nil && (err != nil || !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("%s %q: got %s, %v", tc.name, tc.data, show(got), err)
		}
		if tc.want == nil && errText(err) != tc.wantErr {
			t.Errorf("%s %q: error %v\n          want %s", tc.name, tc.data, err, tc.wantErr)
		}
	}
}
