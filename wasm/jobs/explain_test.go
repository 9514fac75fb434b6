package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"wkpi-web/wasm/protocol"
)

// TestExplainAsWkpiExplain: the Explain job gives, for each typed SMILES,
// the explanation `wkpi explain -format json` gives for the same line
// (the same JSON, functional groups included: nitrobenzene's nitro and
// benzene ring), with the SMILES to draw, the element symbols, a layout
// per node and the prediction's row; an index beyond the inputs is
// refused.
func TestExplainAsWkpiExplain(t *testing.T) {
	modelFile, model := quickModel(t)
	smi := filepath.Join(t.TempDir(), "typed.smi")
	if err := os.WriteFile(smi, []byte(typed), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "../../cmd/wkpi", "explain", "-format", "json", "-model", modelFile, smi)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("wkpi explain: %v\n%s", err, stderr.Bytes())
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	smiles := []string{"c1ccc(cc1)[N+](=O)[O-]", "O=[N+]([O-])c1ccc2c(c1)Cc1ccccc1-2", "Nc1ccccc1", "c1ccc2cc3ccccc3cc2c1", "CCO"}
	var w Worker
	for i := 0; dec.More(); i++ {
		var cli struct {
			protocol.Explanation
			File  string `json:"file"`
			Index int    `json:"index"`
		}
		if err := dec.Decode(&cli); err != nil {
			t.Fatal(err)
		}
		got := w.Run(context.Background(), protocol.Request{Kind: protocol.Explain, Model: model, Graph: i,
			Inputs: []protocol.File{{Name: protocol.TypedSMILES, Data: []byte(typed)}}}, nil, nil)
		if got.Event != protocol.Done {
			t.Fatalf("graph %d: %s", i, got.Error)
		}
		ex := got.Explained
		want, _ := json.Marshal(cli.Explanation)
		have, _ := json.Marshal(ex.Explanation)
		// The CLI names a typed line by its .smi name ("line 5"), the
		// page by the SMILES itself.
		if cli.Graph != ex.Explanation.Graph {
			cli.Explanation.Graph = ex.Explanation.Graph
			want, _ = json.Marshal(cli.Explanation)
		}
		if !bytes.Equal(want, have) {
			t.Errorf("graph %d: the job's explanation differs from wkpi explain's:\n%.300s\n%.300s", i, have, want)
		}
		if i == 0 {
			// Nitrobenzene: ring 0-5, N 6, O 7 and 8.
			var names []string
			for _, g := range ex.Explanation.Groups {
				names = append(names, fmt.Sprint(g.Name, g.Atoms))
			}
			slices.Sort(names)
			if want := []string{"benzene ring[0 1 2 3 4 5]", "nitro[6 7 8]"}; !slices.Equal(names, want) {
				t.Errorf("nitrobenzene: groups %v, want %v", names, want)
			}
		}
		n := len(ex.Explanation.Nodes)
		if ex.Molecule != smiles[i] || len(ex.Labels) != n || len(got.Arrays["x"]) != n || len(got.Arrays["y"]) != n ||
			ex.Prediction.Label != ex.Explanation.Class || ex.Prediction.Index != i || ex.Grid.Rows == 0 {
			t.Errorf("graph %d: molecule %q, %d labels, %d/%d coordinates for %d nodes, prediction %+v, grid %+v",
				i, ex.Molecule, len(ex.Labels), len(got.Arrays["x"]), len(got.Arrays["y"]), n, ex.Prediction, ex.Grid)
		}
	}
	// The worker keeps its last model prepared, and prepares
	// other model bytes again.
	kept := w.prepared
	w.Run(context.Background(), protocol.Request{Kind: protocol.Explain, Model: model, Inputs: []protocol.File{{Name: protocol.TypedSMILES, Data: []byte(typed)}}}, nil, nil)
	if w.prepared != kept || kept == nil {
		t.Error("the same model was prepared again")
	}
	other := append(slices.Clone(model), '\n')
	if got := w.Run(context.Background(), protocol.Request{Kind: protocol.Explain, Model: other,
		Inputs: []protocol.File{{Name: protocol.TypedSMILES, Data: []byte(typed)}}}, nil, nil); got.Event != protocol.Done || w.prepared == kept {
		t.Errorf("another model: %s, model kept %v", got.Error, w.prepared == kept)
	}
	got := w.Run(context.Background(), protocol.Request{Kind: protocol.Explain, Model: model, Graph: 9,
		Inputs: []protocol.File{{Name: protocol.TypedSMILES, Data: []byte(typed)}}}, nil, nil)
	if got.Event != protocol.Failed || got.Error != "no graph 9 among the 5 classified" {
		t.Errorf("graph 9 of 5: %+v", got)
	}
}
