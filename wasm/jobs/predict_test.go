package jobs

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"wkpi-web/core/testenv"
	"wkpi-web/wasm/protocol"
)

var quick struct {
	once  sync.Once
	model []byte
	file  string
	err   error
}

// quickModel trains a MUTAG model with the CLI (`wkpi train -iter 20`,
// a few seconds) once per test binary and returns its file and JSON. It
// is of structure only (-preset default), so that graphs without atoms,
// such as an edge list, classify too.
func quickModel(t *testing.T) (string, []byte) {
	t.Helper()
	quick.once.Do(func() {
		dir, err := os.MkdirTemp("", "jobs-model")
		if err != nil {
			quick.err = err
			return
		}
		quick.file = filepath.Join(dir, "model.json")
		out, err := exec.Command("go", "run", "../../cmd/wkpi", "train", "-data", "../../data/MUTAG", "-preset", "default", "-out", quick.file, "-iter", "20").CombinedOutput()
		if err != nil {
			quick.err = fmt.Errorf("wkpi train: %v\n%s", err, out)
			return
		}
		quick.model, quick.err = os.ReadFile(quick.file)
	})
	if quick.err != nil {
		t.Fatalf("%v (run make data)", quick.err)
	}
	return quick.file, quick.model
}

// typed is what a user might type in the Classify tab: MUTAG-like nitro
// aromatics, a line without a name, a blank line, a comment, CRLF.
const typed = "c1ccc(cc1)[N+](=O)[O-] nitrobenzene\r\n" +
	"O=[N+]([O-])c1ccc2c(c1)Cc1ccccc1-2\t2-nitrofluorene\n" +
	"\n" +
	"# a comment\n" +
	"Nc1ccccc1\n" +
	"c1ccc2cc3ccccc3cc2c1 anthracene, the parent\n" +
	"CCO\n"

// TestTypedSMILESAsWkpiPredict: typed SMILES classify as `wkpi predict`
// classifies the same lines in a .smi file (decisions within 1e-12), with
// the names of the lines, and a SMILES without a name is named by itself.
func TestTypedSMILESAsWkpiPredict(t *testing.T) {
	modelFile, model := quickModel(t)
	smi := filepath.Join(t.TempDir(), "typed.smi")
	if err := os.WriteFile(smi, []byte(typed), 0o644); err != nil {
		t.Fatal(err)
	}
	want := testenv.WkpiPredict(t, modelFile, smi)
	var w Worker
	got := w.Run(context.Background(), protocol.Request{Kind: protocol.Predict, Model: model,
		Inputs: []protocol.File{{Name: protocol.TypedSMILES, Data: []byte(typed)}}}, nil, nil)
	if got.Event != protocol.Done {
		t.Fatal(got.Error)
	}
	if len(got.Graphs) != 5 || len(want) != 5 {
		t.Fatalf("%d predictions, wkpi predict %d; want 5", len(got.Graphs), len(want))
	}
	names := []string{"nitrobenzene", "2-nitrofluorene", "Nc1ccccc1", "anthracene, the parent", "CCO"}
	for i, g := range got.Graphs {
		c := want[i]
		if g.Name != names[i] || g.File != protocol.TypedSMILES || g.Index != i {
			t.Errorf("graph %d: %s #%d named %q, want %s #%d named %q", i, g.File, g.Index, g.Name, protocol.TypedSMILES, i, names[i])
		}
		if c.Name != g.Name && !strings.HasPrefix(c.Name, "line ") {
			t.Errorf("graph %d: named %q, wkpi predict %q", i, g.Name, c.Name)
		}
		if g.Label != c.Class || len(g.Points) != c.Points || len(g.Decision) != len(c.Decision) {
			t.Errorf("graph %d: class %s, %d points, %d decisions; wkpi predict %+v", i, g.Label, len(g.Points), len(g.Decision), c)
			continue
		}
		for k := range g.Decision {
			if d := math.Abs(g.Decision[k] - c.Decision[k]); d > 1e-12 {
				t.Errorf("graph %d decision %d: %.17g, wkpi predict %.17g", i, k, g.Decision[k], c.Decision[k])
			}
		}
	}
	if got.Info == nil || strings.Join(got.Info.Classes, " ") != "-1 1" {
		t.Errorf("the response names the model's classes %+v", got.Info)
	}
}

// TestPredictNamesAndBadRecords: predictions carry the names the files
// give (SD title, table name column); a file with bad records is refused
// whole, naming its bad lines and characters.
func TestPredictNamesAndBadRecords(t *testing.T) {
	_, model := quickModel(t)
	mol, err := os.ReadFile("testdata/nitrobenzene.mol")
	if err != nil {
		t.Fatal(err)
	}
	var w Worker
	run := func(files ...protocol.File) protocol.Response {
		return w.Run(context.Background(), protocol.Request{Kind: protocol.Predict, Model: model, Inputs: files}, nil, nil)
	}
	got := run(protocol.File{Name: "nitro.mol", Data: mol},
		protocol.File{Name: "mols.csv", Data: []byte("ID,SMILES\nm1,CCO\nm2,c1ccccc1\n")},
		protocol.File{Name: "plain.smi", Data: []byte("CCN\n")},
		protocol.File{Name: "bowtie.edges", Data: []byte("a b\nb c\nc a\nc d\nd e\ne c\n")})
	if got.Event != protocol.Done {
		t.Fatal(got.Error)
	}
	var names []string
	for _, g := range got.Graphs {
		names = append(names, g.File+"|"+g.Name)
	}
	if want := "nitro.mol|nitrobenzene mols.csv|m1 mols.csv|m2 plain.smi|line 1 bowtie.edges|"; strings.Join(names, " ") != want {
		t.Errorf("names %q, want %q", strings.Join(names, " "), want)
	}

	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"one bad line", "CCO\nC1CC ring\nCCN\n", []string{"typed.smi line 2", `SMILES "C1CC"`, "character 2", "ring bond 1 is never closed"}},
		{"several", "CC(=O\nCCO\nC1CC\nC%\nCCX\n", []string{"4 of 5 lines cannot be read, so none is classified", "typed.smi line 1", "typed.smi line 3", "typed.smi line 4", "and 1 more"}},
	} {
		got := run(protocol.File{Name: protocol.TypedSMILES, Data: []byte(tc.text)})
		for _, s := range tc.want {
			if got.Event != protocol.Failed || !strings.Contains(got.Error, s) {
				t.Errorf("%s: %q, want an error containing %q", tc.name, got.Error, s)
			}
		}
	}
}

// TestPredictNamesTheGraph: a graph the model's descriptors cannot take
// (a dummy atom under the bond-order descriptor) fails Classify and
// Explain with its file and line, as `wkpi predict` names it.
func TestPredictNamesTheGraph(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bonds.json")
	out, err := exec.Command("go", "run", "../../cmd/wkpi", "train", "-data", "../../data/MUTAG", "-extra", "bonds", "-labels=false",
		"-auto=false", "-svm-choice=false", "-iter", "20", "-progress", "off", "-out", file).CombinedOutput()
	if err != nil {
		t.Fatalf("wkpi train: %v\n%s", err, out)
	}
	model, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const want = "r.smi line 2: descriptor 1 (bonds): bonds needs a molecule: atom 0 is a dummy atom (*, an attachment point or R group), which stands for no element: write the atom or group it stands for"
	inputs := []protocol.File{{Name: "r.smi", Data: []byte("CCO a\n*CC b\n")}}
	var w Worker
	for _, req := range []protocol.Request{
		{Kind: protocol.Predict, Model: model, Inputs: inputs},
		{Kind: protocol.Explain, Model: model, Inputs: inputs, Graph: 1},
	} {
		if got := w.Run(context.Background(), req, nil, nil); got.Event != protocol.Failed || got.Error != want {
			t.Errorf("%s: %s %q, want %q", req.Kind, got.Event, got.Error, want)
		}
	}
}
