package app

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// demoDisabled reports whether r's Data tab offers demo name disabled.
func demoDisabled(t *testing.T, r *Root, name string) bool {
	t.Helper()
	for _, b := range elems(app.HTMLString(r.dataTab()), "button") {
		if b["id"] == "demo-"+name {
			_, off := b["disabled"]
			return off
		}
	}
	t.Fatalf("no button demo-%s in the Data tab", name)
	return false
}

// TestDemosWaitForRestore: the page's first render already waits for the
// saved dataset, so a demo cannot be clicked before OnMount has run and its
// restore has answered (a browser test once clicked in that gap).
func TestDemosWaitForRestore(t *testing.T) {
	b := newFakeBackend()
	r := newRoot(b)
	if !demoDisabled(t, r, Demos[0]) {
		t.Error("before OnMount the demo buttons are enabled")
	}
	e := app.NewTestEngine()
	if err := e.Load(&harness{root: r}); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	if demoDisabled(t, r, Demos[0]) {
		t.Errorf("after the restore found nothing the demo buttons stay disabled (loading %q)", r.data.loading)
	}
	if demoDisabled(t, newRoot(nil), Demos[0]) {
		t.Error("the prerendered page shows the demo buttons disabled")
	}
}
