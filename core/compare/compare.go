package compare

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"wkpi-web/core/crossval"
	"wkpi-web/core/eval"
	"wkpi-web/core/progress"
)

// Method names, in the order of the paper's tables.
const (
	WKPI      = "WKPI"
	WKPIInit  = "WKPI-init"
	AltWKPI   = "altWKPI"
	TrainPWGK = "trainPWGK"
	PIConst   = "PI-CONST"
	PIPL      = "PI-PL"
	PILinear  = "PI-linear"
	SW        = "SW"
	PWGK      = "PWGK"
	PF        = "PF"
	WL        = "WL"
	ECFP      = "ecfp"
	Stats     = "stats"
	Majority  = "majority"
)

// Names lists every method.
func Names() []string {
	return []string{WKPI, WKPIInit, AltWKPI, TrainPWGK, PIConst, PIPL, PILinear, SW, PWGK, PF, WL, ECFP, Stats, Majority}
}

// Options are the protocol and every method's grid.
type Options struct {
	Folds int   `json:"folds"` // outer stratified folds, shared by all methods
	Seed  int64 `json:"seed"`  // splits the outer folds (inner folds: Seed + fold + 1)
	Inner int   `json:"inner"` // inner folds of the hyper-parameter search
	// Repeats, above 1, repeats the outer cross-validation with seeds
	// Seed, Seed+1, ...: every method's Folds then list all Repeats x
	// Folds folds, repeat by repeat, and the paired comparisons add the
	// corrected repeated k-fold t-test. Default 1 (0 counts as 1).
	Repeats int `json:"repeats,omitempty"`

	// WKPI is the WKPI setting (WKPI, WKPI-init; altWKPI with Variant Alt;
	// trainPWGK's learning options). WKPIGrid, when set, chooses WKPI's
	// and altWKPI's m, sigma and C by nested CV (eval.WKPI.Nested) instead.
	WKPI     eval.Config `json:"wkpi"`
	WKPIGrid *eval.Grid  `json:"wkpi_grid,omitempty"`
	// WKPIAuto has WKPI and WKPI-init choose unit or size-aware images in
	// every fold, as `wkpi eval` does by default
	// (eval.CrossValidateChosen); not altWKPI, nor with WKPIGrid.
	WKPIAuto bool `json:"wkpi_auto,omitempty"`
	// WKPIFeatures, when set, gives WKPI, WKPI-init and altWKPI the
	// features of each outer fold's training graphs (eval.Source.PerFold),
	// as `wkpi eval` computes them in node-label mode, where each fold
	// takes its label vocabulary from its training graphs; the other
	// methods keep the comparison's feature set. Default nil: WKPI uses
	// that set too.
	WKPIFeatures func(train []int) (*eval.WKPI, error) `json:"-"`

	Cs     []float64 `json:"C"`      // SVM C of every other kernel method
	Scales []float64 `json:"scales"` // RBF bandwidths, times the training median (see rbf)

	SWDirections []int     `json:"sw_directions"`
	PWGKRhos     []float64 `json:"pwgk_rho"`     // times the dataset's largest persistence
	PWGKPower    float64   `json:"pwgk_power"`   // p of w_arc = arctan(C pers^p), C = median pers^-p
	PFBandwidths []float64 `json:"pf_bandwidth"` // times the largest persistence
	TrainRho     float64   `json:"train_rho"`    // trainPWGK's rho, times the largest persistence
	WLIterations []int     `json:"wl_iterations"`
	WLNodeLabels bool      `json:"wl_node_labels"`

	// NodeNames and EdgeNames are a TU dataset's README tables of label
	// codes (tu.NodeLabelNames, tu.EdgeLabelNames), nil if it has none:
	// ecfp reads coded labels as elements and bond types through them
	// (Molecules). Default nil.
	NodeNames map[string]string `json:"-"`
	EdgeNames map[string]string `json:"-"`
}

// DefaultOptions is the protocol of `wkpi compare`: 10 outer folds, 3
// inner folds, WKPI at `wkpi eval`'s defaults, and grids small enough
// for the whole comparison on MUTAG in well under a minute.
func DefaultOptions() Options {
	return Options{
		Folds: 10, Seed: 1, Inner: 3,
		WKPI:         eval.DefaultConfig(),
		Cs:           []float64{0.1, 1, 10, 100},
		Scales:       []float64{0.1, 1, 10},
		SWDirections: []int{10, 50},
		PWGKRhos:     []float64{0.05, 0.2},
		PWGKPower:    5,
		PFBandwidths: []float64{0.05, 0.2},
		TrainRho:     0.1,
		WLIterations: []int{1, 2, 3, 4, 5},
	}
}

// Method is one method's cross-validated accuracy on the outer folds.
type Method struct {
	Name     string    `json:"name"`
	Accuracy float64   `json:"accuracy_mean"`
	Std      float64   `json:"accuracy_std"` // population standard deviation over folds
	Folds    []float64 `json:"folds"`
	// ROCAUC and ROCAUCStd are the mean and population standard
	// deviation of ROCAUCFolds, the ROC-AUC of every outer fold
	// (crossval.ROCAUC) from the SVM's per-class scores
	// (svm.Model.Scores); majority scores every graph alike, so its
	// ROC-AUC is 1/2. A fold whose test graphs are of one class has none
	// (NaN, null in JSON) and is left out of the mean.
	ROCAUC      crossval.Metric   `json:"roc_auc_mean"`
	ROCAUCStd   crossval.Metric   `json:"roc_auc_std"`
	ROCAUCFolds []crossval.Metric `json:"roc_auc_folds"`
	// Seconds is the method's wall time, its own matrices included
	// (WKPI and WKPI-init come from one run and both report its time);
	// the shared diagrams and images are not counted.
	Seconds float64 `json:"seconds"`
	// Chosen is the hyper-parameter cell picked in each outer fold.
	Chosen []string `json:"chosen,omitempty"`
	// Paired compares the folds' accuracies with WKPI's (absent for WKPI
	// itself or when WKPI did not run).
	Paired *crossval.Paired `json:"paired,omitempty"`
	// PairedROCAUC compares the folds' ROC-AUCs with WKPI's, over the
	// folds where both have one (absent like Paired, or with fewer than
	// two such folds).
	PairedROCAUC *crossval.Paired `json:"paired_roc_auc,omitempty"`
}

// Result is a whole comparison on one dataset.
type Result struct {
	Dataset string `json:"dataset"`
	// Folds is the folds of one cross-validation; a method's Folds hold
	// more when it was repeated (Options.Repeats).
	Folds   int      `json:"folds,omitempty"`
	Methods []Method `json:"methods"`
	// Skipped names the methods that do not apply to the dataset (ecfp
	// on graphs that are not molecules) and why; they are not in Methods.
	Skipped []Skip `json:"skipped,omitempty"`
}

// Skip is a method left out of a comparison and the reason.
type Skip struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Check validates method names (and rejects repeats).
func Check(names []string) error {
	if len(names) == 0 {
		return fmt.Errorf("compare: no methods")
	}
	for i, n := range names {
		if !slices.Contains(Names(), n) {
			return fmt.Errorf("compare: unknown method %q (want %s)", n, strings.Join(Names(), ", "))
		}
		if slices.Contains(names[:i], n) {
			return fmt.Errorf("compare: method %q listed twice", n)
		}
	}
	return nil
}

// Run runs the methods on d, all on the same outer folds, and pairs each
// with WKPI when WKPI is among them. prog gets stage "methods" after
// each method, and the methods' own stages in between.
func Run(ctx context.Context, d *Data, names []string, o Options, prog progress.Func) (Result, error) {
	if err := Check(names); err != nil {
		return Result{}, err
	}
	res := Result{Dataset: d.Name, Folds: o.Folds}
	repeats := max(o.Repeats, 1)
	for i, n := range names {
		var runs []Method
		for r := range repeats {
			or := o
			or.Seed = o.Seed + int64(r)
			m, err := RunMethod(ctx, d, n, or, prog)
			if errors.Is(err, ErrNotApplicable) {
				res.Skipped = append(res.Skipped, Skip{Name: n, Reason: strings.TrimPrefix(err.Error(), n+": ")})
				break
			}
			if err != nil {
				return Result{}, err
			}
			runs = append(runs, m)
		}
		if len(runs) > 0 {
			res.Methods = append(res.Methods, joinRepeats(runs))
		}
		prog.Report("methods", i+1, len(names))
	}
	return res, Pair(&res)
}

// joinRepeats makes one method of its runs on repeated
// cross-validations: their folds one after the other, and the means and
// standard deviations over all of them.
func joinRepeats(runs []Method) Method {
	if len(runs) == 1 {
		return runs[0]
	}
	m := Method{Name: runs[0].Name}
	var aucs []float64
	for _, r := range runs {
		m.Folds = append(m.Folds, r.Folds...)
		m.Chosen = append(m.Chosen, r.Chosen...)
		m.Seconds += r.Seconds
		for _, a := range r.ROCAUCFolds {
			aucs = append(aucs, float64(a))
		}
	}
	m.Accuracy, m.Std = crossval.MeanStd(m.Folds)
	auc := crossval.Summarize(aucs)
	m.ROCAUC, m.ROCAUCStd, m.ROCAUCFolds = auc.Mean, auc.Std, auc.PerFold
	return m
}

// Pair fills every method's paired comparisons with WKPI's folds, of
// accuracy and of ROC-AUC (nothing when WKPI is not in the result).
func Pair(res *Result) error {
	i := slices.IndexFunc(res.Methods, func(m Method) bool { return m.Name == WKPI })
	if i < 0 {
		return nil
	}
	w := res.Methods[i]
	for k := range res.Methods {
		if k == i {
			continue
		}
		m := &res.Methods[k]
		p, err := crossval.Compare(m.Folds, w.Folds)
		if err != nil {
			return fmt.Errorf("%s against %s: %w", m.Name, WKPI, err)
		}
		m.Paired = &p
		auc, ok, err := crossval.CompareDefined(m.ROCAUCFolds, w.ROCAUCFolds)
		if err != nil {
			return fmt.Errorf("%s against %s: ROC-AUC: %w", m.Name, WKPI, err)
		}
		if ok {
			m.PairedROCAUC = &auc
		}
		if res.Folds > 0 && len(w.Folds) > res.Folds {
			// Repeated cross-validations: their folds share graphs.
			for _, q := range []*crossval.Paired{m.Paired, m.PairedROCAUC} {
				if q != nil {
					p := crossval.CorrectedRepeatedT(q.Differences, res.Folds)
					q.CorrectedTP = &p
				}
			}
		}
	}
	return nil
}

// RunMethod runs one method on the outer folds of o.
func RunMethod(ctx context.Context, d *Data, name string, o Options, prog progress.Func) (Method, error) {
	start := time.Now()
	var (
		res    crossval.Result
		chosen []string
		err    error
	)
	secs := -1.0
	switch name {
	case WKPI, WKPIInit, AltWKPI:
		res, chosen, secs, err = d.runWKPI(ctx, name, o, prog)
	case Majority:
		res, err = d.runMajority(ctx, o, prog)
	default:
		var cells []cell
		if cells, err = d.cells(ctx, name, o, prog); err == nil {
			res, chosen, err = d.nested(ctx, cells, o, prog)
		}
	}
	if err != nil {
		return Method{}, fmt.Errorf("%s: %w", name, err)
	}
	if secs < 0 {
		secs = time.Since(start).Seconds()
	}
	m := Method{Name: name, Folds: res.PerFold, Chosen: chosen, Seconds: secs,
		ROCAUC: res.ROCAUC.Mean, ROCAUCStd: res.ROCAUC.Std, ROCAUCFolds: res.ROCAUC.PerFold}
	m.Accuracy, m.Std = crossval.MeanStd(res.PerFold)
	return m, nil
}
