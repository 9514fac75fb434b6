package app

import (
	"math"
	"strings"
	"testing"

	"wkpi-web/wasm/protocol"
)

func paired(mean, std, tp, wp float64, diffs ...float64) protocol.PairedTest {
	return protocol.PairedTest{ComparePaired: protocol.ComparePaired{Differences: diffs, TP: tp, WilcoxonP: wp}, Mean: mean, Std: std}
}

// TestVerdict: the verdict reads the worker's test (the decision is the
// paired t-test's at 5 %) and calls out a kernel at the majority rate.
func TestVerdict(t *testing.T) {
	for _, tc := range []struct {
		name    string
		test    protocol.PairedTest
		learned float64
		want    string
	}{
		{"gain in every fold", paired(0.25, 0, 0, 0.5, 0.25, 0.25), 0.9,
			"Learning helped: learned minus initial weight function: +25.0 ± 0.0 points over 2 folds (paired t-test p = 0, Wilcoxon signed-rank p = 0.5)."},
		{"significant loss", paired(-0.2, 0.05, 0.012, 0.031, -0.2, -0.25, -0.15), 0.9,
			"Learning made it worse: learned minus initial weight function: -20.0 ± 5.0 points over 3 folds (paired t-test p = 0.012, Wilcoxon signed-rank p = 0.031)."},
		{"a gain within the noise", paired(0.1, 0.1, 0.18, 0.25, 0.1, 0.2, 0), 0.9,
			"Learning did not help here: learned minus initial weight function: +10.0 ± 10.0 points over 3 folds (paired t-test p = 0.18, Wilcoxon signed-rank p = 0.25); the difference is within the folds' noise."},
		{"no difference", paired(0, 0, 1, 1, 0, 0), 0.9, "Learning did not help here:"},
		{"one fold", paired(0.5, 0, 1, 1, 0.5), 0.9, "Too few folds to test whether learning helped."},
		{"at the majority rate", paired(-0.16, 0.01, 0.04, 0.5, -0.14, -0.18), 0.665,
			"Learning made it worse: learned minus initial weight function: -16.0 ± 1.0 points over 2 folds (paired t-test p = 0.04, Wilcoxon signed-rank p = 0.5). The learned kernel does no better than always answering class 1 (66.5 %)."},
	} {
		if got := verdict(tc.test, tc.learned, 0.665, "1"); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	// The ROC-AUCs' test, when the worker gave one, follows.
	withAUC := paired(0, 0, 1, 1, 0, 0)
	auc := paired(-0.002, 0.004, 0.34, 0.32, 0, -0.004)
	withAUC.ROCAUC = &auc
	if got, want := verdict(withAUC, 0.9, 0.665, "1"), "the difference is within the folds' noise. ROC-AUC: learned minus initial -0.002 ± 0.004 over 2 folds (paired t-test p = 0.34, Wilcoxon signed-rank p = 0.32)."; !strings.HasSuffix(got, want) {
		t.Errorf("with ROC-AUC: %q, want it to end %q", got, want)
	}
	if r, c := majority([]protocol.Class{{Label: "-1", Count: 63}, {Label: "1", Count: 125}}); math.Abs(r-125.0/188) > 1e-12 || c != "1" {
		t.Errorf("majority %v %q", r, c)
	}
}
