package app

import (
	"encoding/json"
	"fmt"
	"testing"

	"wkpi-web/core/eval"
	"wkpi-web/wasm/protocol"
)

// fakeBackend records what the page keeps; other methods are not used.
type fakeBackend struct {
	Backend
	kept    map[string][]byte
	urls    int
	revoked int
}

func (f *fakeBackend) Put(key string, data []byte) { f.kept[key] = data }
func (f *fakeBackend) ObjectURL(data []byte, mime string) string {
	f.urls++
	return fmt.Sprint("blob:", f.urls)
}
func (f *fakeBackend) RevokeURL(string) { f.revoked++ }

func TestKeptModels(t *testing.T) {
	b := &fakeBackend{kept: map[string][]byte{}}
	r := &Root{Backend: b}
	info := &protocol.Info{Dataset: "MUTAG"}
	r.keepModel(&trained{name: "MUTAG", data: []byte("1"), info: info})
	if got := r.uniqueName("MUTAG"); got != "MUTAG (2)" {
		t.Errorf("unique name %q", got)
	}
	r.keepModel(&trained{name: r.uniqueName("MUTAG"), data: []byte("2"), info: info, accuracy: 0.9})
	r.keepModel(&trained{name: "MUTAG", data: []byte("3"), info: info}) // replaces the first
	ms := &r.models
	if len(ms.kept) != 2 || ms.kept[0].name != "MUTAG" || string(ms.kept[0].data) != "3" || ms.current != ms.kept[0] || b.revoked != 1 {
		t.Fatalf("models %v, current %v, %d URLs revoked", ms.kept, ms.current, b.revoked)
	}
	var saved []savedModel
	if err := json.Unmarshal(b.kept[keyModels], &saved); err != nil || len(saved) != 2 || saved[1].Name != "MUTAG (2)" ||
		string(saved[1].Data) != "2" || saved[1].Accuracy != 0.9 || string(b.kept[keyCurrent]) != "MUTAG" {
		t.Errorf("saved %+v (%v), current %q", saved, err, b.kept[keyCurrent])
	}
	r.deleteModel("MUTAG")
	if len(ms.kept) != 1 || ms.current == nil || ms.current.name != "MUTAG (2)" || string(b.kept[keyCurrent]) != "MUTAG (2)" {
		t.Errorf("after deleting the current model: %v, current %v", ms.kept, ms.current)
	}
	// A saved run comes back as a finished run with the same results.
	rep := eval.Report{Folds: folds([]float64{1}, 0.5)}
	s := savedRun{Key: "demo:MUTAG", Used: protocol.Training{Folds: 1}, Folds: rep.Folds, Report: &rep, Info: info, Before: []float64{1}, After: []float64{2}}
	data, _ := json.Marshal(s)
	var back savedRun
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	c := back.run()
	if len(c.jobs) != 0 || !c.modelDone || !c.restored || c.finished() != c.units || c.report.Folds[0].Accuracy != 1 || c.after[0] != 2 {
		t.Errorf("restored run %+v", c)
	}
}
