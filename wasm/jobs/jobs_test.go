package jobs

import (
	"archive/zip"
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"wkpi-web/core/persistence"
	"wkpi-web/wasm/protocol"
)

// files reads every .txt file of a TU folder as upload files.
func files(t testing.TB, dir string) []protocol.File {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*_*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no TU files in %s (run make data): %v", dir, err)
	}
	var fs []protocol.File
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, protocol.File{Name: filepath.Base(p), Data: b})
	}
	return fs
}

func zipped(t *testing.T, name string, fs []protocol.File) protocol.File {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range fs {
		w, err := zw.Create(name + "/" + f.Name) // one sub-folder, as TU's zips
		if err != nil {
			t.Fatal(err)
		}
		w.Write(f.Data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return protocol.File{Name: name + ".zip", Data: buf.Bytes()}
}

func TestLoadSummary(t *testing.T) {
	mutag := files(t, "../../data/MUTAG")
	// Oracle: the statistics in /work/shared/datasets/README.md.
	want := protocol.Summary{
		Name: "MUTAG", Graphs: 188,
		Classes:    []protocol.Class{{Label: "-1", Count: 63}, {Label: "1", Count: 125}},
		Nodes:      protocol.Stats{Total: 3371, Min: 10, Max: 28, Mean: 3371.0 / 188},
		Edges:      protocol.Stats{Total: 3721, Mean: 3721.0 / 188},
		NodeLabels: true, EdgeLabels: true,
	}
	for _, tc := range []struct {
		name  string
		files []protocol.File
	}{
		{"text files", mutag},
		{"zip", []protocol.File{zipped(t, "MUTAG", mutag)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w Worker
			r := w.Run(context.Background(), protocol.Request{ID: 7, Kind: protocol.Load, Dataset: "m", Files: tc.files}, nil, nil)
			if r.Event != protocol.Done || r.ID != 7 {
				t.Fatalf("response %+v", r)
			}
			s := *r.Summary
			s.Edges.Min, s.Edges.Max = 0, 0 // not in the README
			if math.Abs(s.Nodes.Mean-want.Nodes.Mean) > 1e-12 || math.Abs(s.Edges.Mean-want.Edges.Mean) > 1e-12 {
				t.Fatalf("means %v %v", s.Nodes.Mean, s.Edges.Mean)
			}
			s.Nodes.Mean, s.Edges.Mean = want.Nodes.Mean, want.Edges.Mean
			if got, w := sumText(s), sumText(want); got != w {
				t.Fatalf("summary\n got %s\nwant %s", got, w)
			}
		})
	}
}

func sumText(s protocol.Summary) string {
	e, _ := protocol.Response{Summary: &s}.Envelope()
	return string(e.Header)
}

func TestWorkerKeepsDataset(t *testing.T) {
	var w Worker
	star := files(t, "testdata")
	ctx := context.Background()
	if r := w.Run(ctx, protocol.Request{Kind: protocol.Draw, Dataset: "s", Graph: 1}, nil, nil); r.Event != protocol.Failed {
		t.Fatalf("draw without a dataset: %+v", r)
	}
	if r := w.Run(ctx, protocol.Request{Kind: protocol.Load, Dataset: "s", Files: star}, nil, nil); r.Event != protocol.Done {
		t.Fatalf("load: %+v", r)
	}
	r := w.Run(ctx, protocol.Request{Kind: protocol.Draw, Dataset: "s", Graph: 1}, nil, nil)
	if r.Event != protocol.Done || r.Drawing.N != 3 || r.Drawing.Class != "b" || len(r.Drawing.Edges) != 3 {
		t.Fatalf("draw from the held dataset: %+v %+v", r, r.Drawing)
	}
	for _, tc := range []struct {
		req  protocol.Request
		want string
	}{
		{protocol.Request{Kind: protocol.Draw, Dataset: "other"}, `worker does not hold dataset "other"`},
		{protocol.Request{Kind: protocol.Draw, Dataset: "s", Graph: 2}, "graph 2 does not exist: the dataset has graphs 0..1"},
		{protocol.Request{Kind: "fly", Dataset: "s"}, `unknown job kind "fly"`},
		{protocol.Request{Kind: protocol.Train, Dataset: "s"}, "no training settings"},
		{protocol.Request{Kind: protocol.CrossValidate, Dataset: "s", Training: &protocol.Training{Folds: 1}}, "at least 2 folds"},
		{protocol.Request{Kind: protocol.Explore, Dataset: "s", Descriptor: protocol.Descriptor{Kind: "nope"}}, "graph 0:"},
	} {
		r := w.Run(ctx, tc.req, nil, nil)
		if r.Event != protocol.Failed || !strings.Contains(r.Error, tc.want) {
			t.Errorf("%+v: got %q, want an error containing %q", tc.req, r.Error, tc.want)
		}
	}
}

func TestMalformedUploadNamesFileAndLine(t *testing.T) {
	fs := files(t, "testdata")
	for i := range fs {
		if fs[i].Name == "STAR_A.txt" {
			fs[i].Data = []byte("1, 2\n2, x\n")
		}
	}
	var w Worker
	r := w.Run(context.Background(), protocol.Request{Kind: protocol.Load, Dataset: "bad", Files: fs}, nil, nil)
	if r.Event != protocol.Failed || !strings.Contains(r.Error, "STAR_A.txt") || !strings.Contains(r.Error, "line 2") {
		t.Fatalf("got %+v, want an error naming STAR_A.txt line 2", r)
	}
}

func TestExploreStarDegree(t *testing.T) {
	var w Worker
	var stages []string
	r := w.Run(context.Background(), protocol.Request{
		Kind: protocol.Explore, Dataset: "s", Files: files(t, "testdata"), Graph: 0,
		Descriptor: protocol.Descriptor{Kind: "degree"}, Rows: 10,
	}, func(stage string, done, total int) { stages = append(stages, stage) }, nil)
	if r.Event != protocol.Done {
		t.Fatalf("explore: %+v", r)
	}
	if strings.Join(stages, ",") != "descriptor,persistence,image" {
		t.Fatalf("progress stages %v", stages)
	}
	// Hand-worked: star K(1,3), degree 3 at the centre and 1 at the leaves.
	// Sublevel: three leaves born at 1, two die at 3 when the centre joins;
	// one component spans [1,3]; superlevel pairs all have zero persistence;
	// a tree has no cycle.
	d := r.Explored.Diagrams
	want := persistence.Diagrams{Ord0: []persistence.Point{{Birth: 1, Death: 3}, {Birth: 1, Death: 3}}, Ext0: []persistence.Point{{Birth: 1, Death: 3}}}
	if len(d.Ord0) != 2 || len(d.Ext0) != 1 || len(d.Rel1) != 0 || len(d.Ext1) != 0 ||
		d.Ord0[0] != want.Ord0[0] || d.Ord0[1] != want.Ord0[1] || d.Ext0[0] != want.Ext0[0] {
		t.Fatalf("diagrams %+v, want %+v", d, want)
	}
	vals := append([]float64(nil), r.Arrays["values"]...)
	sort.Float64s(vals)
	if len(vals) != 4 || vals[0] != 1 || vals[2] != 1 || vals[3] != 3 {
		t.Fatalf("values %v", r.Arrays["values"])
	}
	// Three points of persistence 2, linear weight 2/2 = 1 each; the grid
	// keeps 3 tau on each side, so the image holds erf(3/sqrt 2)^2 of each.
	img, g := r.Arrays["image"], r.Explored.Grid
	if g.Rows != 10 || len(img) != g.Rows*g.Cols {
		t.Fatalf("grid %+v with %d pixels", g, len(img))
	}
	mass := 0.0
	for _, v := range img {
		mass += v
	}
	if want := 3 * math.Pow(math.Erf(3/math.Sqrt2), 2); math.Abs(mass-want) > 1e-3 {
		t.Fatalf("image mass %v, want about %v", mass, want)
	}
}

func TestLayout(t *testing.T) {
	var w Worker
	r := w.Run(context.Background(), protocol.Request{Kind: protocol.Draw, Dataset: "m", Files: files(t, "../../data/MUTAG"), Graph: 0}, nil, nil)
	if r.Event != protocol.Done {
		t.Fatal(r.Error)
	}
	x, y := r.Arrays["x"], r.Arrays["y"]
	if len(x) != r.Drawing.N || len(y) != r.Drawing.N {
		t.Fatalf("%d, %d coordinates for %d nodes", len(x), len(y), r.Drawing.N)
	}
	for i := range x {
		if !(x[i] >= 0.05-1e-12 && x[i] <= 0.95+1e-12 && y[i] >= 0.05-1e-12 && y[i] <= 0.95+1e-12) {
			t.Fatalf("node %d at (%v, %v), outside the drawing", i, x[i], y[i])
		}
	}
	// A force layout puts neighbours closer than the average pair.
	adj, all := mean(r.Drawing.Edges, x, y), 0.0
	n := 0
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			all += math.Hypot(x[i]-x[j], y[i]-y[j])
			n++
		}
	}
	if all /= float64(n); adj > 0.5*all {
		t.Fatalf("mean edge length %v, mean pair distance %v: layout does not pull neighbours together", adj, all)
	}
	again := w.Run(context.Background(), protocol.Request{Kind: protocol.Draw, Dataset: "m", Graph: 0}, nil, nil)
	for i := range x {
		if again.Arrays["x"][i] != x[i] || again.Arrays["y"][i] != y[i] {
			t.Fatal("layout is not deterministic")
		}
	}
}

func mean(edges [][2]int, x, y []float64) float64 {
	s := 0.0
	for _, e := range edges {
		s += math.Hypot(x[e[0]]-x[e[1]], y[e[0]]-y[e[1]])
	}
	return s / float64(len(edges))
}

func TestExploreHonoursCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var w Worker
	r := w.Run(ctx, protocol.Request{Kind: protocol.Explore, Dataset: "s", Files: files(t, "testdata"),
		Descriptor: protocol.Descriptor{Kind: "degree"}}, nil, nil)
	if r.Event != protocol.Failed || r.Error != "canceled" {
		t.Fatalf("got %+v, want a canceled failure", r)
	}
}
