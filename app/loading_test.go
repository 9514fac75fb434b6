package app

import (
	"reflect"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// TestPickGraphDropsOldAnswers: picking another graph leaves the drawing
// of the one before running (a drawing is cheap) and cancels its explore
// job; neither's late answer shows, the new drawing does.
func TestPickGraphDropsOldAnswers(t *testing.T) {
	b := newFakeBackend()
	r, e := mount(t, b)
	r.data.key, r.data.summary = "demo:TOY", &protocol.Summary{Name: "TOY", Graphs: 6}
	r.tab = "explore"
	r.act(func(ctx app.Context) { r.pickGraph(ctx, 0) })
	e.ConsumeAll()
	r.tab = "data"
	r.act(func(ctx app.Context) { r.pickGraph(ctx, 1) })
	e.ConsumeAll()
	draws, explores := b.of(protocol.Draw), b.of(protocol.Explore)
	if len(draws) != 2 || len(explores) != 1 {
		t.Fatalf("%d drawings, %d explore jobs; want 2 and 1", len(draws), len(explores))
	}
	if want := []int64{explores[0].req.ID}; !reflect.DeepEqual(b.canceled, want) {
		t.Errorf("canceled %v, want the explore job %v alone", b.canceled, want)
	}
	explores[0].h.Done(protocol.Response{Explored: &protocol.Explored{}})
	draws[1].h.Done(protocol.Response{Drawing: &protocol.Drawing{Graph: 1}})
	draws[0].h.Done(protocol.Response{Drawing: &protocol.Drawing{Graph: 0}})
	e.ConsumeAll()
	if r.explore.explored != nil {
		t.Error("graph 0's persistence shows after graph 1 was picked")
	}
	if r.data.drawing == nil || r.data.drawing.Graph != 1 {
		t.Errorf("drawing %+v shown, want graph 1's", r.data.drawing)
	}
	if r.jobs != 0 {
		t.Errorf("%d jobs counted after every job ended", r.jobs)
	}
}
