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

// TestNewOptionsRejectBadValues: -objective and -persistence name their
// choices when given something else.
func TestNewOptionsRejectBadValues(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	for _, c := range []struct{ flag, value, want string }{
		{"-objective", "fisher", "tc or cka"},
		{"-persistence", "log", "sqrt"},
	} {
		code, _, stderr := wkpi(t, "eval", "-data", dir, c.flag, c.value)
		if code == 0 || !strings.Contains(stderr, c.value) || !strings.Contains(stderr, c.want) {
			t.Errorf("%s %s: exit %d, stderr %q", c.flag, c.value, code, stderr)
		}
	}
}

// TestSVMChoiceFlags: by default every fold chooses the SVM's kernel and
// C (the table says which); -C or -gauss fix them in every fold;
// -svm-choice with them, or a negative -gauss, is an error.
func TestSVMChoiceFlags(t *testing.T) {
	dir := testenv.Dataset(t, "MUTAG")
	code, stdout, stderr := wkpi(t, "eval", "-data", dir, "-folds", "3", "-auto=false")
	if code != 0 || !strings.Contains(stdout, "SVM kernel and C chosen in every fold") {
		t.Fatalf("default eval: exit %d, %q, %s", code, stdout, stderr)
	}
	code, stdout, stderr = wkpi(t, "eval", "-data", dir, "-folds", "3", "-auto=false", "-gauss", "1", "-C", "7")
	if code != 0 || strings.Contains(stdout, "chosen in every fold") {
		t.Fatalf("fixed -gauss 1 -C 7: exit %d, %q, %s", code, stdout, stderr)
	}
	var rows int
	for _, line := range strings.Split(stdout, "\n") {
		f := strings.Fields(line)
		if len(f) == 14 && f[0] == "0" { // 13 columns, "svm kernel" of two words
			rows++
			if f[4] != "7" || f[5]+" "+f[6] != "gauss 1" {
				t.Errorf("fixed fold row %q: want C 7 and gauss 1", line)
			}
		}
	}
	if rows != 3 {
		t.Errorf("%d fold rows with the fixed kernel, want 3:\n%s", rows, stdout)
	}
	for _, args := range [][]string{{"-svm-choice", "-C", "10"}, {"-gauss", "-1"}} {
		code, _, stderr := wkpi(t, append([]string{"eval", "-data", dir}, args...)...)
		if code == 0 || !strings.Contains(stderr, args[0]) {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}
