package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"wkpi-web/core/features"
	"wkpi-web/core/graphfile"
	"wkpi-web/core/testenv"
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
	members := map[string][]byte{}
	for _, f := range fs {
		members[name+"/"+f.Name] = f.Data // one sub-folder, as TU's zips
	}
	return protocol.File{Name: name + ".zip", Data: testenv.Zip(t, members)}
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
		// Without the README no table names the codes: atom types, the
		// commonest first (TestLoadSummaryMolecules).
		AtomTypes: []string{"0", "2", "1", "5", "3", "6"},
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

// TestLoadSummaryMolecules: a Load says whether the graphs are
// molecules and, when their atoms are typed by integer codes that no
// table names, the commonest of those types. Oracle: the datasets'
// READMEs, read by hand: MUTAG's and PTC_MR's node tables name elements
// and their edge tables bond types, NCI1's and PROTEINS' READMEs have no
// tables (PROTEINS' nodes are secondary-structure elements); without its
// README MUTAG's labels are bare codes, and the STAR graphs have no
// labels. The types: `sort DS_node_labels.txt | uniq -c | sort -rn`,
// the first spec.AtomTypeGroups.
func TestLoadSummaryMolecules(t *testing.T) {
	withReadme := func(dir string) []protocol.File {
		readme, err := os.ReadFile(filepath.Join(dir, "README.txt"))
		if err != nil {
			t.Fatal(err)
		}
		return append(files(t, dir), protocol.File{Name: "README.txt", Data: readme})
	}
	mutag := withReadme("../../data/MUTAG")
	for _, tc := range []struct {
		name      string
		files     []protocol.File
		molecules bool
		types     []string
	}{
		{"MUTAG with its README", mutag, true, nil},
		{"MUTAG zip with its README", []protocol.File{zipped(t, "MUTAG", mutag)}, true, nil},
		{"PTC_MR with its README", withReadme("../../data/PTC_MR"), true, nil},
		{"SMILES table", []protocol.File{withOptions(protocol.File{Name: "mols.csv", Data: []byte(mols)}, protocol.DataOptions{SkipBad: true})}, true, nil},
		{"MUTAG without its README", files(t, "../../data/MUTAG"), false, []string{"0", "2", "1", "5", "3", "6"}},
		{"NCI1 with its README", withReadme("../../data/NCI1"), false, []string{"3", "1", "2", "4", "5", "7"}},
		{"PROTEINS with its README", withReadme("../../data/PROTEINS"), false, []string{"0", "1", "2"}},
		{"STAR, no labels", files(t, "testdata"), false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := load(tc.files...)
			if r.Event != protocol.Done {
				t.Fatal(r.Error)
			}
			if r.Summary.Molecules != tc.molecules || !slices.Equal(r.Summary.AtomTypes, tc.types) {
				t.Errorf("molecules %v, atom types %q; want %v, %q", r.Summary.Molecules, r.Summary.AtomTypes, tc.molecules, tc.types)
			}
		})
	}
}

func sumText(s protocol.Summary) string {
	e, _ := protocol.Response{Summary: &s}.Envelope()
	return string(e.Header)
}

// TestEveryKindHasAHandler: the worker does every kind of job of
// protocol.Kinds and no other, and reads a dataset exactly for the kinds
// whose row says so: on a worker that holds none, those fail for the
// want of it and the others for reasons of their own (empty inputs).
func TestEveryKindHasAHandler(t *testing.T) {
	var w Worker
	handlers := w.handlers()
	for _, k := range protocol.Kinds() {
		if handlers[k.Kind] == nil {
			t.Errorf("no handler for %q", k.Kind)
		}
		delete(handlers, k.Kind)
		r := w.Run(context.Background(), protocol.Request{Kind: k.Kind, Dataset: "absent"}, nil, nil)
		if read := strings.Contains(r.Error, `worker does not hold dataset "absent"`); read != k.ReadsDataset {
			t.Errorf("%q (reads a dataset: %v): %s %q", k.Kind, k.ReadsDataset, r.Event, r.Error)
		}
	}
	for k := range handlers {
		t.Errorf("a handler for %q, which protocol.Kinds lacks", k)
	}
}

// TestClassifierKinds: the classifier program runs exactly the kinds whose
// row says Classifier, and names the kind it refuses.
func TestClassifierKinds(t *testing.T) {
	var w Worker
	var c Classifier
	runs := w.classifierHandlers()
	for _, k := range protocol.Kinds() {
		if (runs[k.Kind] != nil) != k.Classifier {
			t.Errorf("%q: a classifier handler %v, row says %v", k.Kind, runs[k.Kind] != nil, k.Classifier)
		}
		r := c.Run(context.Background(), protocol.Request{Kind: k.Kind, Dataset: "absent"}, nil, nil)
		refused := r.Error == fmt.Sprintf("the classifier program does not do %q jobs", k.Kind)
		if r.Event != protocol.Failed || refused == k.Classifier {
			t.Errorf("%q on the classifier: %s %q", k.Kind, r.Event, r.Error)
		}
	}
	// Its jobs answer as the full worker's do.
	_, model := quickModel(t)
	typedFile := []protocol.File{{Name: protocol.TypedSMILES, Data: []byte(typed)}}
	for _, req := range []protocol.Request{
		{Kind: protocol.Inspect, Model: model},
		{Kind: protocol.Predict, Model: model, Inputs: typedFile},
		{Kind: protocol.Explain, Model: model, Inputs: typedFile, Graph: 1},
	} {
		full, small := w.Run(context.Background(), req, nil, nil), c.Run(context.Background(), req, nil, nil)
		for _, r := range []protocol.Response{full, small} {
			if r.Explained != nil {
				r.Explained.Millis = 0 // how long it took
			}
		}
		a, errA := full.Envelope()
		b, errB := small.Envelope()
		same := errA == nil && errB == nil && bytes.Equal(a.Header, b.Header) && slices.EqualFunc(a.Blobs, b.Blobs, bytes.Equal)
		if full.Event != protocol.Done || !same {
			t.Errorf("%q: the full worker %s %q, the classifier %s %q; answers equal: %v", req.Kind, full.Event, full.Error, small.Event, small.Error, same)
		}
	}
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
	oneFold := Defaults()
	oneFold.Folds = 1
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
		{protocol.Request{Kind: protocol.CrossValidate, Dataset: "s", Training: &oneFold}, `folds: "1": want`},
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
	record := func(stage string, done, total int) {
		if len(stages) == 0 || stages[len(stages)-1] != stage {
			stages = append(stages, stage)
		}
	}
	r := w.Run(context.Background(), protocol.Request{
		Kind: protocol.Explore, Dataset: "s", Files: files(t, "testdata"), Graph: 0,
		Descriptor: protocol.Descriptor{Kind: "degree"},
	}, record, nil)
	if r.Event != protocol.Done {
		t.Fatalf("explore: %+v", r)
	}
	// The first Explore computes the dataset's features.
	if strings.Join(stages, ",") != "diagrams,images,graph" {
		t.Fatalf("progress stages %v", stages)
	}
	// Hand-worked: star K(1,3), degree 3 at the centre and 1 at the leaves.
	// Sublevel: three leaves born at 1, two die at 3 when the centre joins;
	// one component spans [1,3]; superlevel pairs all have zero persistence;
	// a tree has no cycle.
	d := r.Explored.Diagrams
	want := protocol.Diagrams{Ord0: []protocol.Point{{Birth: 1, Death: 3}, {Birth: 1, Death: 3}}, Ext0: []protocol.Point{{Birth: 1, Death: 3}}}
	if len(d.Ord0) != 2 || len(d.Ext0) != 1 || len(d.Rel1) != 0 || len(d.Ext1) != 0 ||
		d.Ord0[0] != want.Ord0[0] || d.Ord0[1] != want.Ord0[1] || d.Ext0[0] != want.Ext0[0] {
		t.Fatalf("diagrams %+v, want %+v", d, want)
	}
	vals := append([]float64(nil), r.Arrays["values"]...)
	sort.Float64s(vals)
	if len(vals) != 4 || vals[0] != 1 || vals[2] != 1 || vals[3] != 3 {
		t.Fatalf("values %v", r.Arrays["values"])
	}
	if got := r.Explored.Channels; strings.Join(got, ",") != "ord0+ext0,rel1+ext1" {
		t.Fatalf("channels %q, want the two of features.Default", got)
	}
	// The star's three points are all in channel 0; it has no 1-dim point.
	zero0, zero1 := channelZero(t, r)
	if zero0 || !zero1 {
		t.Fatalf("star: channel 0 empty %v, channel 1 empty %v; want only channel 1 empty", zero0, zero1)
	}
	stages = nil
	// The triangle's degree is constant: every point is on the diagonal and
	// dropped, so both channels are empty; the features are reused.
	r = w.Run(context.Background(), protocol.Request{Kind: protocol.Explore, Dataset: "s", Graph: 1,
		Descriptor: protocol.Descriptor{Kind: "degree"}}, record, nil)
	if r.Event != protocol.Done {
		t.Fatalf("explore graph 1: %+v", r)
	}
	if strings.Join(stages, ",") != "graph" {
		t.Fatalf("second explore stages %v: the features were recomputed", stages)
	}
	if zero0, zero1 := channelZero(t, r); !zero0 || !zero1 {
		t.Fatalf("triangle: channel 0 empty %v, channel 1 empty %v; want both empty", zero0, zero1)
	}
}

// channelZero splits an Explore response's image into its two channels
// and says which are all zero.
func channelZero(t *testing.T, r protocol.Response) (bool, bool) {
	t.Helper()
	g, img := r.Explored.Grid, r.Arrays["image"]
	n := g.Rows * g.Cols
	if len(r.Explored.Channels) != 2 || n == 0 || len(img) != 2*n {
		t.Fatalf("grid %+v, %d channels, %d pixels", g, len(r.Explored.Channels), len(img))
	}
	zero := func(v []float64) bool { return slices.Max(v) == 0 && slices.Min(v) == 0 }
	return zero(img[:n]), zero(img[n:])
}

// TestExploreWithoutFeatures explores Jaccard on MUTAG: MUTAG has no
// triangle, so every edge's Jaccard index is 0, every point is on the
// diagonal and the dataset has no features. The diagrams still show, and
// the response says why there is no image.
func TestExploreWithoutFeatures(t *testing.T) {
	var w Worker
	r := w.Run(context.Background(), protocol.Request{Kind: protocol.Explore, Dataset: "m", Files: files(t, "../../data/MUTAG"),
		Descriptor: protocol.Descriptor{Kind: "jaccard"}}, nil, nil)
	if r.Event != protocol.Done {
		t.Fatal(r.Error)
	}
	ex := r.Explored
	// MUTAG graph 0: 17 nodes, 19 edges, connected: 1 Ext0 and 3 Ext1
	// points, of zero persistence here and so dropped.
	if n := len(ex.Diagrams.Ord0) + len(ex.Diagrams.Ext0) + len(ex.Diagrams.Rel1) + len(ex.Diagrams.Ext1); n != 0 {
		t.Errorf("%d points off the diagonal, want none: %+v", n, ex.Diagrams)
	}
	if len(r.Arrays["values"]) != 17 || slices.Max(r.Arrays["values"]) != 0 {
		t.Errorf("values %v, want 17 zeros", r.Arrays["values"])
	}
	if r.Arrays["image"] != nil || ex.Grid != (protocol.Grid{}) || !strings.Contains(ex.ImageError, "no finite diagram point") {
		t.Errorf("image %v on %+v, error %q; want no image and the reason", r.Arrays["image"], ex.Grid, ex.ImageError)
	}
}

// TestExploreImageIsTheTrainingImage compares the Explore job with an
// independent features.Compute over the whole dataset, with the settings
// a cross-validation uses: the image of graph i must be set.Images[i] on
// set.Grid, and the diagrams set.Diagrams[i]. A changed descriptor
// parameter must give other features, not the cached ones.
func TestExploreImageIsTheTrainingImage(t *testing.T) {
	fs := files(t, "../../data/MUTAG")
	ds, err := Parse(fs)
	if err != nil {
		t.Fatal(err)
	}
	var w Worker
	if r := w.Run(context.Background(), protocol.Request{Kind: protocol.Load, Dataset: "m", Files: fs}, nil, nil); r.Event != protocol.Done {
		t.Fatal(r.Error)
	}
	for _, tc := range []struct {
		desc  protocol.Descriptor
		graph int
	}{
		{protocol.Descriptor{Kind: "degree"}, 5},
		{protocol.Descriptor{Kind: "ricci"}, 0},
		{protocol.Descriptor{Kind: "ricci", Alpha: 0.25}, 0},
		{protocol.Descriptor{Kind: "hks"}, 17},
		{protocol.Descriptor{Kind: "hks", HKSTime: 0.3}, 17},
	} {
		t.Run(fmt.Sprintf("%+v", tc.desc), func(t *testing.T) {
			// The CV's settings come from config; Explore shows one
			// descriptor at a time, so it must match them for that
			// descriptor alone. Explore's 0 is the descriptor's default,
			// which the settings spell out.
			tr := Defaults()
			tr.Descriptor, tr.Extra = tc.desc.Kind, features.NoExtra
			if tc.desc.Alpha != 0 {
				tr.Alpha = tc.desc.Alpha
			}
			if tc.desc.HKSTime != 0 {
				tr.HKSTime = tc.desc.HKSTime
			}
			u, _, err := config(&tr)
			if err != nil {
				t.Fatal(err)
			}
			s := u.Features
			set, err := features.Compute(context.Background(), ds, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := w.Run(context.Background(), protocol.Request{Kind: protocol.Explore, Dataset: "m", Graph: tc.graph, Descriptor: tc.desc}, nil, nil)
			if r.Event != protocol.Done {
				t.Fatal(r.Error)
			}
			g := set.Grid
			if want := (protocol.Grid{MinX: g.MinX, MinY: g.MinY, Pixel: g.Pixel, Rows: g.Rows, Cols: g.Cols}); r.Explored.Grid != want {
				t.Errorf("grid %+v, want the dataset's %+v", r.Explored.Grid, want)
			}
			if !reflect.DeepEqual(r.Explored.Channels, s.Channels) {
				t.Errorf("channels %q, want %q", r.Explored.Channels, s.Channels)
			}
			if !reflect.DeepEqual(r.Arrays["image"], set.Images[tc.graph].Dense()) {
				t.Errorf("image of graph %d differs from features.Compute's", tc.graph)
			}
			// The same diagrams as the features', in the same JSON.
			if got, want := mustJSON(t, r.Explored.Diagrams), mustJSON(t, set.Diagrams[tc.graph]); got != want {
				t.Errorf("diagrams %+v, want %+v", r.Explored.Diagrams, set.Diagrams[tc.graph])
			}
			if n := ds.Graphs[tc.graph].N; len(r.Arrays["values"]) != n {
				t.Errorf("%d values for %d nodes", len(r.Arrays["values"]), n)
			}
		})
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

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDrawMolecule: a Draw gives the graph as a molecule to draw when it
// is one: a SMILES table's own SMILES; for MUTAG with its README a
// molfile whose atoms are the README's elements (read by hand: 0 C, 1 N,
// 2 O, 3 F, 4 I, 5 Cl, 6 Br) and bonds its bond types (0 aromatic, 1
// single, 2 double, 3 triple: molfile types 4, 1, 2, 3), node for node
// and edge for edge, a nitro group charge-separated as its file would
// have it; nothing for MUTAG without its README, for PROTEINS
// (secondary-structure elements) and for unlabelled graphs.
func TestDrawMolecule(t *testing.T) {
	readme := func(dir string) []protocol.File {
		data, err := os.ReadFile(filepath.Join(dir, "README.txt"))
		if err != nil {
			t.Fatal(err)
		}
		return append(files(t, dir), protocol.File{Name: "README.txt", Data: data})
	}
	draw := func(fs []protocol.File, i int) *protocol.Drawing {
		t.Helper()
		var w Worker
		r := w.Run(context.Background(), protocol.Request{Kind: protocol.Draw, Dataset: "d", Files: fs, Graph: i}, nil, nil)
		if r.Event != protocol.Done {
			t.Fatal(r.Error)
		}
		return r.Drawing
	}
	table := protocol.File{Name: "mols.csv", Data: []byte("smiles,y\nCCO,a\nc1ccccc1[N+](=O)[O-],b\n")}
	if d := draw([]protocol.File{table}, 1); d.Molecule != "c1ccccc1[N+](=O)[O-]" || d.LayOut {
		t.Errorf("SMILES table: molecule %q, lay out %v", d.Molecule, d.LayOut)
	}

	ds, err := Parse(files(t, "../../data/MUTAG"))
	if err != nil {
		t.Fatal(err)
	}
	elements := map[string]string{"0": "C", "1": "N", "2": "O", "3": "F", "4": "I", "5": "Cl", "6": "Br"}
	bonds := map[string]string{"0": "4", "1": "1", "2": "2", "3": "3"}
	// The last molecule, as TU writes it, has a five-bonded carbon: it is
	// drawn as written, but its molfile is no molecule RDKit (or ReadFile)
	// accepts.
	if d := draw(readme("../../data/MUTAG"), 187); !d.LayOut {
		t.Error("MUTAG graph 187: a molfile written from the graph is to be laid out")
	} else if f, err := graphfile.ReadFile("mutag.mol", []byte(d.Molecule), graphfile.Options{}); err != nil || f.Records[0].Err == nil ||
		f.Records[0].Err.Error() != "mutag.mol: molecule on line 1: atom 10 (C) has valence 5, more than it allows (4)" {
		t.Errorf("MUTAG graph 187 read back: %v %+v", err, f)
	}
	for _, i := range []int{0, 1, 186} {
		d := draw(readme("../../data/MUTAG"), i)
		if !strings.Contains(d.Molecule, "\nM  CHG  2 ") {
			t.Errorf("MUTAG graph %d: no charges for its nitro group:\n%s", i, d.Molecule)
		}
		if !d.LayOut {
			t.Errorf("MUTAG graph %d: a molfile written from the graph is to be laid out", i)
		}
		f, err := graphfile.ReadFile("mutag.mol", []byte(d.Molecule), graphfile.Options{})
		if err != nil || f.Records[0].Err != nil {
			t.Fatalf("MUTAG graph %d: %v %v\n%s", i, err, f.Records[0].Err, d.Molecule)
		}
		g, h := ds.Graphs[i], f.Records[0].Graph
		if h.N != g.N || !reflect.DeepEqual(h.Edges, g.Edges) {
			t.Fatalf("MUTAG graph %d: %d atoms, bonds %v; the graph has %d nodes, edges %v", i, h.N, h.Edges, g.N, g.Edges)
		}
		for v, l := range g.NodeLabels {
			if h.NodeLabels[v] != elements[l] {
				t.Errorf("MUTAG graph %d: atom %d is %s, code %s", i, v, h.NodeLabels[v], l)
			}
		}
		for k, l := range g.EdgeLabels {
			// Aromatic bonds outside rings are single (scaffold.Molecule).
			if got := h.EdgeLabels[k]; got != bonds[l] && !(l == "0" && got == "1") {
				t.Errorf("MUTAG graph %d: bond %v is of type %s, code %s", i, g.Edges[k], got, l)
			}
		}
	}
	for _, c := range []struct {
		name string
		fs   []protocol.File
	}{
		{"MUTAG without its README", files(t, "../../data/MUTAG")},
		{"PROTEINS with its README", readme("../../data/PROTEINS")},
		{"STAR, no labels", files(t, "testdata")},
	} {
		if d := draw(c.fs, 0); d.Molecule != "" {
			t.Errorf("%s: drawn as the molecule %q", c.name, d.Molecule)
		}
	}
}
