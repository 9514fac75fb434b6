package wire

// Trace records a training run (core/learn): Cost[0] is the objective at
// the start and Cost[i] after major iteration (or batch step) i.
type Trace struct {
	Cost       []float64 `json:"cost"`
	Iterations int       `json:"iterations"`
	Converged  bool      `json:"converged"`
}

// Paired is a paired comparison of two methods over the same folds
// (core/crossval: a baseline against WKPI in core/compare; the learned
// weight function against the initial one in `wkpi eval`).
type Paired struct {
	// Differences are the first method's fold accuracies minus the
	// second's (the reference's), fold by fold.
	Differences []float64 `json:"differences"`
	// WilcoxonP is the two-sided p-value of the Wilcoxon signed-rank test
	// and TP that of the paired t-test; both are 1 when every difference
	// is 0 (no evidence of a difference; scipy raises or returns NaN).
	WilcoxonP float64 `json:"wilcoxon_p"`
	TP        float64 `json:"t_p"`
	// CorrectedTP, over repeated cross-validations (wkpi compare
	// -repeats), is the p-value of the corrected repeated k-fold t-test
	// (crossval.CorrectedRepeatedT), the one of the three that allows for
	// folds sharing training graphs; absent for one repeat.
	CorrectedTP *float64 `json:"corrected_t_p,omitempty"`
}
