package main

import (
	"encoding/json"
	"strings"
	"testing"

	"wkpi-web/core/testenv"
)

// TestExtraDescriptors: -extra adds one block of channels per descriptor
// (hks@t sets its time), and a bad entry ends with one line naming it.
func TestExtraDescriptors(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	code, stdout, stderr := wkpi(t, "images", "-data", dir, "-rows", "10", "-extra", "hks@0.5,degree")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rec struct {
		Settings struct {
			Extra []struct {
				Kind    string  `json:"kind"`
				HKSTime float64 `json:"hks_time"`
			} `json:"extra"`
			Scales []struct{ Shift, Scale float64 } `json:"scales"`
		} `json:"settings"`
		Grid   struct{ Rows, Cols int } `json:"grid"`
		Images [][]float64              `json:"images"`
	}
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatal(err)
	}
	if x := rec.Settings.Extra; len(x) != 2 || x[0].Kind != "hks" || x[0].HKSTime != 0.5 || x[1].Kind != "degree" {
		t.Fatalf("extra %+v, want hks at 0.5 and degree", x)
	}
	if len(rec.Settings.Scales) != 3 {
		t.Fatalf("%d scales, want 3", len(rec.Settings.Scales))
	}
	if want := 6 * rec.Grid.Rows * rec.Grid.Cols; len(rec.Images[0]) != want {
		t.Fatalf("%d pixels, want 3 descriptors x 2 channels x grid = %d", len(rec.Images[0]), want)
	}
	for _, bad := range []string{"curvature", "degree@2", "hks@-1", "hks@x"} {
		code, _, stderr := wkpi(t, "images", "-data", dir, "-extra", bad)
		if code == 0 || !strings.Contains(stderr, strings.Split(bad, "@")[0]) {
			t.Errorf("-extra %s: exit %d, stderr %q", bad, code, stderr)
		}
	}
}
