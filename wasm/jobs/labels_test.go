package jobs

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"wkpi-web/core/model"
	"wkpi-web/wasm/protocol"
)

// TestLabelModelCodeTable: a node-label model trained on MUTAG maps a
// molfile's element symbols to MUTAG's codes through the README.txt that
// comes with the dataset (in its zip, or among its files), and without a
// README the molfile gets an error that says no code table is known.
func TestLabelModelCodeTable(t *testing.T) {
	mol, err := os.ReadFile("testdata/nitrobenzene.mol")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../data/MUTAG/README.txt")
	if err != nil {
		t.Fatal(err)
	}
	tuFiles := files(t, "../../data/MUTAG")
	withReadme := append(tuFiles[:len(tuFiles):len(tuFiles)], protocol.File{Name: "README.txt", Data: readme})
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		files   []protocol.File
		wantErr string
	}{
		{"zip with README", []protocol.File{zipped(t, "MUTAG", withReadme)}, ""},
		{"files with README", withReadme, ""},
		{"files without README", tuFiles, "no code table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w Worker
			tr := Defaults()
			tr.M, tr.Iterations, tr.Labels = 3, 20, true
			r := w.Run(ctx, protocol.Request{Kind: protocol.Train, Dataset: "m", Files: tc.files, Training: &tr}, nil, nil)
			if r.Event != protocol.Done {
				t.Fatal(r.Error)
			}
			m, err := model.Load(bytes.NewReader(r.Model))
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantErr == "" && m.Features.Labels.Names["0"] != "C" {
				t.Errorf("code table %v: want MUTAG's (0 is C)", m.Features.Labels.Names)
			}
			p := w.Run(ctx, protocol.Request{Kind: protocol.Predict, Model: r.Model,
				Inputs: []protocol.File{{Name: "nitrobenzene.mol", Data: mol}}}, nil, nil)
			switch {
			case tc.wantErr == "" && (p.Event != protocol.Done || len(p.Graphs) != 1):
				t.Errorf("classifying nitrobenzene: %s", p.Error)
			case tc.wantErr != "" && (p.Event != protocol.Failed || !strings.Contains(p.Error, tc.wantErr)):
				t.Errorf("classifying nitrobenzene: %v %q, want an error with %q", p.Event, p.Error, tc.wantErr)
			}
		})
	}
}
