package swc_test

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"wkpi-web/core/graph"
	"wkpi-web/core/swc"
	"wkpi-web/core/testenv"
)

func TestParseHandMade(t *testing.T) {
	data, err := os.ReadFile("testdata/four.swc")
	if err != nil {
		t.Fatal(err)
	}
	g, err := swc.Parse("four.swc", data)
	if err != nil {
		t.Fatal(err)
	}
	// Nodes in file order: ids 1, 2, 4, 3. Distances worked by hand:
	// |(3,4,0)| = 5 (axon, positive); |(0,0,2)| = 2 (basal, negated);
	// 2 + |(0,3,4)| = 7 (apical, negated).
	want := &graph.Graph{
		N:          4,
		Edges:      []graph.Edge{{U: 0, V: 1}, {U: 0, V: 3}, {U: 2, V: 3}},
		NodeLabels: []string{"1", "2", "4", "3"},
		NodeValues: []float64{0, 5, -7, -2},
	}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("got %+v\nwant %+v", g, want)
	}
}

func TestParseForest(t *testing.T) {
	// Two roots, each tree measured from its own root; type "03" is 3.
	g, err := swc.Parse("forest.swc", []byte("1 1 0 0 0 1 -1\n2 03 0 0 1 1 1\n10 1 5 5 5 1 -1\n11 2 5 5 8 1 10\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{0, -1, 0, 3}; !reflect.DeepEqual(g.NodeValues, want) {
		t.Errorf("values %v, want %v", g.NodeValues, want)
	}
	if _, c := g.Components(); c != 2 {
		t.Errorf("%d components, want 2", c)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"empty", "# only a comment\n\n", "x.swc: empty file (no samples)"},
		{"dangling parent", "1 1 0 0 0 1 -1\n2 3 1 0 0 1 7\n", "x.swc line 2: parent 7 of sample 2 is not defined"},
		{"duplicate id", "1 1 0 0 0 1 -1\n2 3 1 0 0 1 1\n2 3 2 0 0 1 1\n", "x.swc line 3: duplicate id 2 (first on line 2)"},
		{"own parent", "1 1 0 0 0 1 -1\n2 3 1 0 0 1 2\n", "x.swc line 2: sample 2 is its own parent"},
		{"cycle", "1 1 0 0 0 1 -1\n2 3 1 0 0 1 3\n3 3 2 0 0 1 2\n", "x.swc line 2: sample 2 lies on a parent cycle"},
		{"no root", "1 3 0 0 0 1 2\n2 3 1 0 0 1 1\n", "x.swc line 1: sample 1 lies on a parent cycle"},
		{"short line", "1 1 0 0 0 1\n", "x.swc line 1: want 7 fields (id type x y z radius parent), got 6"},
		{"bad id", "a 1 0 0 0 1 -1\n", `x.swc line 1: id: "a" is not an integer`},
		{"negative id", "-3 1 0 0 0 1 -1\n", "x.swc line 1: negative id -3"},
		{"bad type", "1 soma 0 0 0 1 -1\n", `x.swc line 1: type: "soma" is not an integer`},
		{"bad coordinate", "1 1 0 y 0 1 -1\n", `x.swc line 1: coordinate "y" is not a finite number`},
		{"infinite coordinate", "1 1 0 Inf 0 1 -1\n", `x.swc line 1: coordinate "Inf" is not a finite number`},
		{"overflow", "1 1 -1e308 0 0 1 -1\n2 2 1e308 0 0 1 1\n", "x.swc line 2: distance to the root overflows"},
		{"bad radius", "1 1 0 0 0 r -1\n", `x.swc line 1: radius "r" is not a number`},
		{"bad parent", "1 1 0 0 0 1 p\n", `x.swc line 1: parent: "p" is not an integer`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := swc.Parse("x.swc", []byte(tc.data))
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v\n         want %s", err, tc.want)
			}
		})
	}
}

// readmeRow is one line of the table in data/neurons-sample/README.md,
// which was computed by an independent checker.
type readmeRow struct {
	class  string
	points int
	types  map[string]int
}

func readmeTable(t *testing.T, dir string) map[string]readmeRow {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[string]readmeRow{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) != 8 || !strings.HasSuffix(strings.TrimSpace(cells[1]), ".swc") {
			continue
		}
		points, err := strconv.Atoi(strings.TrimSpace(cells[4]))
		if err != nil {
			t.Fatal(err)
		}
		types := map[string]int{}
		for kv := range strings.SplitSeq(cells[5], ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(kv), ":")
			types[k], err = strconv.Atoi(v)
			if err != nil {
				t.Fatal(err)
			}
		}
		rows[strings.TrimSpace(cells[1])] = readmeRow{strings.TrimSpace(cells[2]), points, types}
	}
	return rows
}

func TestReadSample(t *testing.T) {
	dir := testenv.Dataset(t, "neurons-sample")
	ds, err := swc.ReadSample(dir)
	if err != nil {
		t.Fatal(err)
	}
	rows := readmeTable(t, dir)
	if len(rows) != 30 || len(ds.Graphs) != 30 {
		t.Fatalf("%d graphs, %d README rows, want 30", len(ds.Graphs), len(rows))
	}
	if want := []string{"interneuron", "principal"}; !reflect.DeepEqual(ds.Classes, want) {
		t.Fatalf("classes %v, want %v", ds.Classes, want)
	}
	// labels.csv lists the 15 interneurons first.
	files := sampleFiles(t, dir)
	for i, g := range ds.Graphs {
		row := rows[files[i]]
		if got := ds.Classes[ds.Labels[i]]; got != row.class {
			t.Errorf("%s: class %s, want %s", files[i], got, row.class)
		}
		if g.N != row.points || len(g.Edges) != g.N-1 {
			t.Errorf("%s: %d nodes, %d edges; want %d nodes in one tree", files[i], g.N, len(g.Edges), row.points)
		}
		types := map[string]int{}
		for _, l := range g.NodeLabels {
			types[l]++
		}
		if !reflect.DeepEqual(types, row.types) {
			t.Errorf("%s: types %v, want %v", files[i], types, row.types)
		}
	}
}

func sampleFiles(t *testing.T, dir string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "labels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		file, _, _ := strings.Cut(line, ",")
		files = append(files, file)
	}
	return files
}

// bruteDescriptor walks every sample up to its root, summing segment
// lengths: quadratic, but independent of Parse's top-down sweep.
func bruteDescriptor(t *testing.T, data []byte) []float64 {
	t.Helper()
	type rec struct {
		parent string
		typ    string
		pos    [3]float64
	}
	byID := map[string]rec{}
	var order []string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		var r rec
		r.typ, r.parent = f[1], f[6]
		for k := range 3 {
			r.pos[k], _ = strconv.ParseFloat(f[2+k], 64)
		}
		byID[f[0]] = r
		order = append(order, f[0])
	}
	out := make([]float64, len(order))
	for i, id := range order {
		r := byID[id]
		d := 0.0
		for cur := r; cur.parent != "-1"; {
			p := byID[cur.parent]
			d += math.Sqrt((cur.pos[0]-p.pos[0])*(cur.pos[0]-p.pos[0]) +
				(cur.pos[1]-p.pos[1])*(cur.pos[1]-p.pos[1]) +
				(cur.pos[2]-p.pos[2])*(cur.pos[2]-p.pos[2]))
			cur = p
		}
		if r.typ == "3" || r.typ == "4" {
			d = -d
		}
		out[i] = d
	}
	return out
}

func TestDescriptorMatchesBruteForce(t *testing.T) {
	dir := testenv.Dataset(t, "neurons-sample")
	for _, file := range []string{"principal/C150600B-P2.CNG.swc", "principal/C231296A-P4B2.CNG.swc", "interneuron/C010306C.CNG.swc"} {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		g, err := swc.Parse(file, data)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteDescriptor(t, data)
		for i, v := range g.NodeValues {
			// Sums in a different order: allow rounding.
			if math.Abs(v-want[i]) > 1e-9*math.Max(1, math.Abs(want[i])) {
				t.Fatalf("%s node %d: %v, want %v", file, i, v, want[i])
			}
		}
	}
}

func TestReadSampleErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := swc.ReadSample(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing labels.csv: error %v", err)
	}
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("labels.csv", "file,label\n../x.swc,a\n")
	if _, err := swc.ReadSample(dir); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("escaping path: error %v", err)
	}
	write("labels.csv", "file,label\nbad.swc,a\n")
	write("bad.swc", "1 1 0 0 0 1 5\n")
	if _, err := swc.ReadSample(dir); err == nil || err.Error() != "bad.swc line 1: parent 5 of sample 1 is not defined" {
		t.Errorf("bad file: error %v", err)
	}
}

func BenchmarkParseLargest(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(testenv.Dataset(b, "neurons-sample"), "interneuron/SM081009A1-7-IDE.CNG.swc"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := swc.Parse("x.swc", data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadSampleFS: the neurons sample read from a zip of its folder (an
// fs.FS) is the sample read from the folder; paths outside the folder and
// missing files are errors.
func TestReadSampleFS(t *testing.T) {
	dir := testenv.Dataset(t, "neurons-sample")
	want, err := swc.ReadSample(dir)
	if err != nil {
		t.Fatal(err)
	}
	data := testenv.Zip(t, testenv.Folder(t, dir, "neurons-sample/"))
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := swc.ReadSampleFS(zr, "neurons-sample", "neurons-sample")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read from a zip: %d graphs, classes %v; from the folder: %d graphs, classes %v", len(got.Graphs), got.Classes, len(want.Graphs), want.Classes)
	}

	four, err := os.ReadFile("testdata/four.swc")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		labels, want string
	}{
		{"file,label\n../four.swc,a\n", `S/labels.csv line 2: "../four.swc" is outside the folder of labels.csv`},
		{"file,label\n/four.swc,a\n", `S/labels.csv line 2: "/four.swc" is outside the folder of labels.csv`},
		{"file,label\nfour.swc,a\nmissing.swc,a\n", "S/labels.csv line 3: open S/missing.swc: file does not exist"},
		{"file,label\n", "S/labels.csv: no rows after the header"},
		{"file,label\nfour.swc\n", "S/labels.csv: record on line 2: wrong number of fields"},
	} {
		fsys := fstest.MapFS{"S/labels.csv": {Data: []byte(tc.labels)}, "S/four.swc": {Data: four}, "four.swc": {Data: four}}
		if _, err := swc.ReadSampleFS(fsys, "S", "S"); err == nil || err.Error() != tc.want {
			t.Errorf("labels %q: error %v, want %q", tc.labels, err, tc.want)
		}
	}
	if _, err := swc.ReadSampleFS(fstest.MapFS{}, ".", "S"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no labels.csv: error %v", err)
	}
}
