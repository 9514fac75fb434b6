package model

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
)

// labelModel is small() in node-label mode: degree plus the groups C, N,
// O and other, so five blocks of the 2x3 grid.
func labelModel() *Model {
	m := small()
	m.Features.Labels = &features.Labels{Vocabulary: []string{"0", "1", "2"}, Time: 1, Names: map[string]string{"0": "C", "1": "N", "2": "O"}}
	m.Support = [][]float64{make([]float64, 30), make([]float64, 30)}
	m.Support[0][7], m.Support[1][20] = 1, 1
	return m
}

// The vocabulary, time and code table survive a round trip, and the
// reloaded model classifies a molfile (element symbols) exactly as the
// same molecule written with the dataset's codes.
func TestLabelModelRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := labelModel().Save(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"labels":{"vocabulary":["0","1","2"],"time":1,"names":{"0":"C","1":"N","2":"O"}}`) {
		t.Fatalf("file does not hold the node-label mode: %s", buf.String())
	}
	m, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if encode(t, m) != encode(t, labelModel()) {
		t.Errorf("round trip changed the model")
	}
	data, err := os.ReadFile("../features/testdata/nitrobenzene.mol")
	if err != nil {
		t.Fatal(err)
	}
	mol, err := graphfile.Parse("nitrobenzene.mol", data)
	if err != nil {
		t.Fatal(err)
	}
	coded, err := graph.New(9, mol[0].Edges, nil, []string{"0", "0", "0", "0", "0", "0", "1", "2", "2"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Predict(context.Background(), []*graph.Graph{mol[0], coded})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p[0].Decision, p[1].Decision) {
		t.Errorf("molfile decision %v, codes %v", p[0].Decision, p[1].Decision)
	}
	// Without the code table the model refuses element symbols.
	m.Features.Labels.Names = nil
	if _, err := m.Predict(context.Background(), mol); err == nil || !strings.Contains(err.Error(), "no code table") {
		t.Errorf("no code table: error %v", err)
	}
}

// A model written before the node-label mode existed has no "labels" key;
// it loads as structure only.
func TestOldModelIsStructureOnly(t *testing.T) {
	old := encode(t, small())
	if strings.Contains(old, `"labels"`) {
		t.Fatalf("a structure-only model writes a labels key: %s", old)
	}
	m, err := Load(strings.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	if m.Features.Labels != nil || m.Features.Mode() != "structure only" {
		t.Errorf("old model: labels %v, mode %q", m.Features.Labels, m.Features.Mode())
	}
	// A model in label mode with a support image of the structure-only
	// size is refused: the blocks no longer match.
	bad := labelModel()
	bad.Support = small().Support
	if err := bad.Validate(); err == nil {
		t.Error("label model with structure-only support images passed Validate")
	}
}
