package tu_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// stats are the dataset summaries that /work/shared/datasets/README.md
// lists, computed there by an independent Python checker.
type stats struct {
	graphs         int
	classes        map[string]int
	nodes, edges   int
	minN, maxN     int
	nodeLabels     int      // distinct node labels
	edgeLabels     []string // distinct edge labels, sorted; nil when absent
	isolated       int
	isolatedGraphs int
	disconnected   int
	nodeValues     bool
}

func measure(ds *graph.Dataset) stats {
	s := stats{graphs: len(ds.Graphs), classes: map[string]int{}, minN: 1 << 30}
	for _, l := range ds.Labels {
		s.classes[ds.Classes[l]]++
	}
	nl, el := map[string]bool{}, map[string]bool{}
	for _, g := range ds.Graphs {
		s.nodes += g.N
		s.edges += len(g.Edges)
		s.minN, s.maxN = min(s.minN, g.N), max(s.maxN, g.N)
		for _, l := range g.NodeLabels {
			nl[l] = true
		}
		for _, l := range g.EdgeLabels {
			el[l] = true
		}
		iso := 0
		for _, nb := range g.Neighbors() {
			if len(nb) == 0 {
				iso++
			}
		}
		s.isolated += iso
		if iso > 0 {
			s.isolatedGraphs++
		}
		if _, c := g.Components(); c > 1 {
			s.disconnected++
		}
		s.nodeValues = s.nodeValues || g.NodeValues != nil
	}
	s.nodeLabels = len(nl)
	for l := range el {
		s.edgeLabels = append(s.edgeLabels, l)
	}
	sort.Strings(s.edgeLabels)
	return s
}

func TestDatasetsMatchPublishedStatistics(t *testing.T) {
	bonds := []string{"0", "1", "2", "3"}
	for _, tc := range []struct {
		name string
		want stats
	}{
		{"MUTAG", stats{188, map[string]int{"-1": 63, "1": 125}, 3371, 3721, 10, 28, 7, bonds, 0, 0, 0, false}},
		{"PTC_MR", stats{344, map[string]int{"-1": 192, "1": 152}, 4915, 5054, 2, 64, 18, bonds, 0, 0, 0, false}},
		{"NCI1", stats{4110, map[string]int{"0": 2053, "1": 2057}, 122747, 132753, 3, 111, 37, nil, 428, 399, 580, false}},
		{"PROTEINS", stats{1113, map[string]int{"1": 663, "2": 450}, 43471, 81044, 4, 620, 3, nil, 5, 5, 46, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := tu.ReadDir(testenv.Dataset(t, tc.name))
			if err != nil {
				t.Fatal(err)
			}
			if ds.Name != tc.name {
				t.Errorf("name %q, want %q", ds.Name, tc.name)
			}
			if got := measure(ds); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("statistics\n got %+v\nwant %+v", got, tc.want)
			}
			checkInvariants(t, ds)
		})
	}
}

// checkInvariants asserts what every later stage relies on.
func checkInvariants(t *testing.T, ds *graph.Dataset) {
	t.Helper()
	if len(ds.Labels) != len(ds.Graphs) {
		t.Fatalf("%d labels for %d graphs", len(ds.Labels), len(ds.Graphs))
	}
	for i, l := range ds.Labels {
		if l < 0 || l >= len(ds.Classes) {
			t.Fatalf("graph %d: class %d of %d", i, l, len(ds.Classes))
		}
	}
	for i, g := range ds.Graphs {
		if err := graphOK(g); err != nil {
			t.Fatalf("graph %d: %v", i, err)
		}
	}
}

func graphOK(g *graph.Graph) error {
	for k, e := range g.Edges {
		if e.U < 0 || e.U >= e.V || e.V >= g.N {
			return errors.New("edge out of range or not U<V")
		}
		if k > 0 {
			p := g.Edges[k-1]
			if p.U > e.U || (p.U == e.U && p.V >= e.V) {
				return errors.New("edges not sorted and distinct")
			}
		}
	}
	if g.NodeLabels != nil && len(g.NodeLabels) != g.N {
		return errors.New("node labels not parallel")
	}
	if g.EdgeLabels != nil && len(g.EdgeLabels) != len(g.Edges) {
		return errors.New("edge labels not parallel")
	}
	if g.NodeValues != nil && len(g.NodeValues) != g.N {
		return errors.New("node values not parallel")
	}
	return nil
}

// readAll returns the files of a dataset folder keyed by base name.
func readAll(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = data
	}
	return files
}

func zipOf(t *testing.T, files map[string][]byte, folder string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if folder != "" {
		if _, err := zw.Create(folder + "/"); err != nil {
			t.Fatal(err)
		}
		// A macOS archiver's resource forks must be ignored.
		add("__MACOSX/"+folder+"/._"+folder+"_A.txt", []byte("junk"))
	}
	for name, data := range files {
		add(path(folder, name), data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func path(folder, name string) string {
	if folder == "" {
		return name
	}
	return folder + "/" + name
}

func TestZipFilesAndDirAgree(t *testing.T) {
	for _, name := range []string{"MUTAG", "PROTEINS"} {
		t.Run(name, func(t *testing.T) {
			dir := testenv.Dataset(t, name)
			want, err := tu.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			files := readAll(t, dir)
			for _, folder := range []string{"", name} {
				z := zipOf(t, files, folder)
				got, err := tu.ReadZip(bytes.NewReader(z), int64(len(z)))
				if err != nil {
					t.Fatalf("zip with folder %q: %v", folder, err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("zip with folder %q differs from the folder", folder)
				}
				zipPath := filepath.Join(t.TempDir(), name+".zip")
				if err := os.WriteFile(zipPath, z, 0o644); err != nil {
					t.Fatal(err)
				}
				if got, err := tu.Read(zipPath); err != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("Read(%s): differs from the folder (err %v)", zipPath, err)
				}
			}
			paths := map[string][]byte{}
			for base, data := range files {
				paths["upload/"+name+"/"+base] = data
			}
			if got, err := tu.ReadFiles(paths); err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("ReadFiles with paths differs from the folder (err %v)", err)
			}
			if got, err := tu.Read(dir); err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("Read(dir) differs from ReadDir (err %v)", err)
			}
		})
	}
}

func TestIMDBStyleQuadrupleEdges(t *testing.T) {
	// Each undirected edge is listed four times; labels file has CRLF and
	// trailing blank lines; graph 2 has an isolated node.
	ds, err := tu.ReadDir("testdata/IMDBTINY")
	if err != nil {
		t.Fatal(err)
	}
	want := &graph.Dataset{
		Name: "IMDBTINY",
		Graphs: []*graph.Graph{
			{N: 3, Edges: edges(0, 1, 0, 2, 1, 2)},
			{N: 3, Edges: edges(0, 1)},
		},
		Labels:  []int{0, 1},
		Classes: []string{"0", "1"},
	}
	if !reflect.DeepEqual(ds, want) {
		t.Errorf("got %+v\nwant %+v", ds, want)
	}
}

func TestUnsortedIndicatorAndLabels(t *testing.T) {
	// Nodes of graphs 1 and 2 interleave; labels use ",", "1/2" classes,
	// node and edge labels and a 1-column attribute file.
	files := map[string][]byte{
		"X_A.txt":               []byte("1,3\n3,1\n2,4\n4,2\n4,5\n5,4\n"),
		"X_graph_indicator.txt": []byte("1\n2\n1\n2\n2\n"),
		"X_graph_labels.txt":    []byte("2\n1\n"),
		"X_node_labels.txt":     []byte("a\nb\nc\nd\ne\n"),
		"X_edge_labels.txt":     []byte("s\ns\nd\nd\nt\nt\n"),
		"X_node_attributes.txt": []byte("0.5\n1\n1.5\n2\n2.5\n"),
		"README.txt":            []byte("ignored"),
	}
	ds, err := tu.ReadFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	want := &graph.Dataset{
		Name: "X",
		Graphs: []*graph.Graph{
			{N: 2, Edges: edges(0, 1), EdgeLabels: []string{"s"}, NodeLabels: []string{"a", "c"}, NodeValues: []float64{0.5, 1.5}},
			{N: 3, Edges: edges(0, 1, 1, 2), EdgeLabels: []string{"d", "t"}, NodeLabels: []string{"b", "d", "e"}, NodeValues: []float64{1, 2, 2.5}},
		},
		Labels:  []int{1, 0},
		Classes: []string{"1", "2"},
	}
	if !reflect.DeepEqual(ds, want) {
		t.Errorf("got %+v\nwant %+v", ds, want)
	}
}

func TestMalformed(t *testing.T) {
	valid := func() map[string][]byte {
		return map[string][]byte{
			"M_A.txt":               []byte("1, 2\n2, 1\n3, 4\n4, 3\n"),
			"M_graph_indicator.txt": []byte("1\n1\n2\n2\n"),
			"M_graph_labels.txt":    []byte("-1\n1\n"),
		}
	}
	if _, err := tu.ReadFiles(valid()); err != nil {
		t.Fatalf("valid base case: %v", err)
	}
	for _, tc := range []struct {
		name, file, data, want string
	}{
		{"node id too big", "M_A.txt", "1, 2\n2, 1\n3, 4000\n", "M_A.txt line 3: node id 4000 out of range 1..4"},
		{"huge node id", "M_A.txt", "1, 1000000000000\n", "M_A.txt line 1: node id 1000000000000 out of range 1..4"},
		{"node id overflow", "M_A.txt", "1, 99999999999999999999\n", "M_A.txt line 1: 99999999999999999999 is out of range"},
		{"node id zero", "M_A.txt", "0, 1\n", "M_A.txt line 1: node id 0 out of range 1..4"},
		{"not a number", "M_A.txt", "1, 2\n2, 1\nx1, 2\n", `M_A.txt line 3: "x1" is not a number`},
		{"three fields", "M_A.txt", "1, 2, 3\n", "M_A.txt line 1: want 2 node ids, got 3 fields"},
		{"empty edge file", "M_A.txt", "\n\n", "M_A.txt: empty file"},
		{"cross-graph edge", "M_A.txt", "2, 3\n", "M_A.txt line 1: edge (2, 3) joins graph 1 and graph 2"},
		{"self-loop", "M_A.txt", "1, 2\n2, 2\n", "M_A.txt line 2: node 2: self-loop"},
		// Blank lines are skipped but still counted in the line numbers.
		{"error after blank lines", "M_A.txt", "\n1, 2\n\n2, x\n", `M_A.txt line 4: "x" is not a number`},
		{"too few labels", "M_graph_labels.txt", "1\n", "M_graph_labels.txt: 1 labels for 2 graphs"},
		{"too many labels", "M_graph_labels.txt", "1\n1\n1\n", "M_graph_labels.txt: 3 labels for 2 graphs"},
		{"huge graph id", "M_graph_indicator.txt", "1\n1\n2\n1000000000000\n", "M_graph_labels.txt: 2 labels for 1000000000000 graphs"},
		{"graph id zero", "M_graph_indicator.txt", "1\n0\n2\n2\n", "M_graph_indicator.txt line 2: graph id 0 out of range (ids start at 1)"},
		{"graph without nodes", "M_graph_indicator.txt", "1\n1\n3\n3\n", "M_graph_labels.txt: 2 labels for 3 graphs"},
		{"gap in graph ids", "M_graph_labels.txt", "1\n1\n1\n", "M_graph_labels.txt: 3 labels for 2 graphs"},
		{"node labels count", "M_node_labels.txt", "0\n1\n2\n", "M_node_labels.txt: 3 labels for 4 nodes"},
		{"edge labels count", "M_edge_labels.txt", "0\n1\n", "M_edge_labels.txt: 2 labels for 4 lines of M_A.txt"},
		// A blank line is no label: three labels remain for four nodes.
		{"blank label", "M_node_labels.txt", "0\n\n1\n2\n", "M_node_labels.txt: 3 labels for 4 nodes"},
		{"only blank lines", "M_graph_labels.txt", " \n\t\n\r\n", "M_graph_labels.txt: empty file"},
		{"empty label field", "M_node_labels.txt", "0\n1,\n1\n2\n", "M_node_labels.txt line 2: empty field"},
		{"attribute not a number", "M_node_attributes.txt", "1\n2\nz\n4\n", `M_node_attributes.txt line 3: "z" is not a number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := valid()
			files[tc.file] = []byte(tc.data)
			_, err := tu.ReadFiles(files)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v\n         want %s", err, tc.want)
			}
		})
	}
	t.Run("gap graph has no nodes", func(t *testing.T) {
		files := valid()
		files["M_graph_indicator.txt"] = []byte("1\n1\n3\n3\n")
		files["M_graph_labels.txt"] = []byte("1\n1\n1\n")
		files["M_A.txt"] = []byte("1, 2\n")
		_, err := tu.ReadFiles(files)
		if want := "M_graph_indicator.txt: graph 2 has no nodes"; err == nil || err.Error() != want {
			t.Errorf("error %v, want %s", err, want)
		}
	})
	for _, missing := range []string{"M_graph_indicator.txt", "M_graph_labels.txt"} {
		files := valid()
		delete(files, missing)
		_, err := tu.ReadFiles(files)
		if want := "missing required file " + missing; err == nil || err.Error() != want {
			t.Errorf("error %v, want %s", err, want)
		}
	}
	files := valid()
	delete(files, "M_A.txt")
	if _, err := tu.ReadFiles(files); err == nil || !strings.Contains(err.Error(), "DS_A.txt") {
		t.Errorf("no A file: error %v", err)
	}
	files = valid()
	files["N_A.txt"] = []byte("1, 2\n")
	if _, err := tu.ReadFiles(files); err == nil || !strings.Contains(err.Error(), "M, N") {
		t.Errorf("two datasets: error %v", err)
	}
	files = valid()
	files["a/M_A.txt"], files["b/M_A.txt"] = files["M_A.txt"], files["M_A.txt"]
	delete(files, "M_A.txt")
	if _, err := tu.ReadFiles(files); err == nil || err.Error() != "two files named M_A.txt" {
		t.Errorf("duplicate base names: error %v", err)
	}
	if _, err := tu.Read("testdata/IMDBTINY/IMDBTINY_A.txt"); err == nil || !strings.Contains(err.Error(), "not a folder or .zip") {
		t.Errorf("Read of a text file: error %v", err)
	}
}

func BenchmarkReadDirNCI1(b *testing.B) {
	dir := testenv.Dataset(b, "NCI1")
	for b.Loop() {
		if _, err := tu.ReadDir(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// edges builds an edge list from flattened pairs u0, v0, u1, v1, ...
func edges(ends ...int) []graph.Edge {
	var out []graph.Edge
	for i := 0; i+1 < len(ends); i += 2 {
		out = append(out, graph.Edge{U: ends[i], V: ends[i+1]})
	}
	return out
}

func TestMultiColumnAttributesIgnored(t *testing.T) {
	ds, err := tu.ReadFiles(map[string][]byte{
		"P_A.txt":               []byte("1, 2\n2, 1\n"),
		"P_graph_indicator.txt": []byte("1\n1\n"),
		"P_graph_labels.txt":    []byte("1\n"),
		"P_node_attributes.txt": []byte("0.5, 1\n2, 3\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Graphs[0].NodeValues != nil {
		t.Errorf("NodeValues %v from a 2-column file, want nil", ds.Graphs[0].NodeValues)
	}
}

// TestBlankLinesAnywhere: users' files have blank lines at the start,
// between records and at the end, and spaces or tabs around the lines;
// they must read as the same dataset as the clean files.
func TestBlankLinesAnywhere(t *testing.T) {
	clean := map[string][]byte{
		"B_A.txt":               []byte("1, 2\n2, 1\n3, 4\n4, 3\n"),
		"B_graph_indicator.txt": []byte("1\n1\n2\n2\n"),
		"B_graph_labels.txt":    []byte("-1\n1\n"),
		"B_node_labels.txt":     []byte("C\nN\nO\nC\n"),
		"B_edge_labels.txt":     []byte("0\n0\n1\n1\n"),
	}
	messy := map[string][]byte{
		"B_A.txt":               []byte("\n\n  1, 2\n\n2 ,1  \r\n\t\n3,4\n4, 3\n\n\n"),
		"B_graph_indicator.txt": []byte("\r\n1\n 1\n\n2\n2\t\n"),
		"B_graph_labels.txt":    []byte("\n-1\n\n\n1\n"),
		"B_node_labels.txt":     []byte("C\n\nN\nO\n \nC"),
		"B_edge_labels.txt":     []byte(" \n0\n0\n\n1\n1\n\n"),
	}
	want, err := tu.ReadFiles(clean)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tu.ReadFiles(messy)
	if err != nil {
		t.Fatalf("blank lines and whitespace refused: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with blank lines %+v\nwithout %+v", got, want)
	}
	// Graph 0 is the edge C-N of label 0, graph 1 the edge O-C of label 1.
	if g := got.Graphs[1]; got.Classes[got.Labels[1]] != "1" || g.NodeLabels[0] != "O" || g.EdgeLabels[0] != "1" {
		t.Errorf("records matched wrongly across files: %+v", got)
	}
}
