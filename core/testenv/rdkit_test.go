package testenv_test

import (
	"fmt"
	"strings"
	"testing"

	"wkpi-web/core/testenv"
)

// recorder is a testing.TB that notes a skip or a failure instead of
// ending the test.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Skip(args ...any)  { r.skipped = fmt.Sprint(args...) }
func (r *recorder) Fatal(args ...any) { r.failed = fmt.Sprint(args...) }

// TestRDKitPath: a missing sample file skips the test with the apt-get
// hint, or fails it under CI; a present one is found under
// /usr/share/RDKit, and NCISmiles lists its 4,999 SMILES.
func TestRDKitPath(t *testing.T) {
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		r := &recorder{TB: t}
		testenv.RDKitPath(r, "Data/none.smi")
		got, other := r.skipped, r.failed
		if ci != "" {
			got, other = r.failed, r.skipped
		}
		if !strings.Contains(got, "/usr/share/RDKit/Data/none.smi") || !strings.Contains(got, "apt-get install rdkit-data") || other != "" {
			t.Errorf("CI=%q: skipped %q, failed %q", ci, r.skipped, r.failed)
		}
	}
	t.Setenv("CI", "")
	if p := testenv.RDKitPath(t, "Data/NCI/first_5K.smi"); p != "/usr/share/RDKit/Data/NCI/first_5K.smi" {
		t.Errorf("path %s", p)
	}
	if s := testenv.NCISmiles(t); len(s) != 4999 || strings.ContainsAny(s[0], " \t") {
		t.Errorf("%d SMILES, the first %q", len(s), s[0])
	}
}
