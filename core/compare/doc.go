// Package compare runs the comparison of the WKPI paper (Zhao & Wang,
// NeurIPS 2019, Tables 1, 2, 4 and 5) on one dataset: WKPI and every
// baseline on the same stratified outer folds (crossval.StratifiedKFold with
// one seed), each method's own hyper-parameters chosen by inner
// cross-validation on the training folds alone (crossval.Nested: inner
// stratified folds split with seed + fold + 1, best mean inner accuracy,
// ties to the first cell), and a paired test of every method against WKPI
// over the outer folds (Pair: Wilcoxon signed-rank and paired t,
// crossval.Compare). Beside accuracy every method reports its ROC-AUC
// over the outer folds (Method.ROCAUC), from the final SVM's per-class
// scores (svm.Model.Scores, as WKPI's in core/eval); majority scores
// every graph alike, so its ROC-AUC is 1/2.
//
// # Methods
//
// All but majority end in a C-SVC on a precomputed kernel (core/svm);
// C is chosen from Options.Cs = {0.1, 1, 10, 100} by default. Persistence
// methods use the diagrams of WKPI's features (features.Set), one per
// channel (by default dimension 0, ord0+ext0, and dimension 1, rel1+ext1):
// the diagram kernels compare each channel apart and add the channels'
// distances. RBF bandwidths are relative: a kernel exp(-d / (s * m)) of a
// distance-like d uses m, the median of d over training pairs
// (crossval.Median: at most 300 evenly spaced training samples), so the
// grid s in Options.Scales = {0.1, 1, 10} means the same on every
// dataset. P below is the largest persistence of any diagram point of the
// dataset.
//
//   - WKPI: eval.WKPI.CrossValidate at Options.WKPI (the defaults of
//     `wkpi eval`: m = 5, sigma = 0.01, and in every fold the SVM's kernel,
//     WKPI or the Gaussian of its distance, and C in {1, 10, 100, 1000}
//     chosen by 3-fold inner CV of the unlearned kernel, eval.SVMGrid),
//     or, with Options.WKPIGrid, eval.WKPI.Nested over that grid.
//   - WKPI-init: the same run's SVM with the initial (unlearned) weight
//     function (eval's baseline), on the same folds.
//   - altWKPI: the same with kernel.Alt (Remark 2 of the paper).
//   - trainPWGK: PWGK whose weight function (a Gaussian mixture over the
//     (birth, persistence) plane, started from WKPI's initial mixture) is
//     learned with WKPI's cost by pdkernel.LearnPWGK on each training set
//     (inner folds too), rho = 0.1 P, on the union of the channels; the
//     kernel is the Gaussian of its RKHS distance, grid s.
//   - PI-CONST, PI-PL: persistence images (WKPI's grid and Gaussian width)
//     with constant weight, and with the piecewise-linear weight of Adams
//     et al. (0 at persistence 0 rising to 1 at P, pimage.Linear); Gaussian
//     kernel on the squared Euclidean distance of the vectors, grid s.
//   - PI-linear: the linear kernel (dot product) on the PI-CONST vectors.
//   - SW: Sliced Wasserstein distance (Carriere et al. 2017, their
//     Algorithm 1 with M directions, pdkernel.SlicedWasserstein), M in
//     {10, 50}, kernel exp(-SW / (s m)) (their exp(-SW / 2 sigma^2)).
//   - PWGK: linear PWGK (Kusano et al. 2016, exact sums) with
//     w_arc = arctan(C pers^p), p = 5 and C = median persistence^-p (w = pi/4
//     at the median), rho in {0.05, 0.2} P; the Gaussian of the RKHS distance,
//     grid s.
//   - PF: Persistence Fisher distance (Le & Yamada 2018, exact sums, no Fast
//     Gauss Transform: see pdkernel), bandwidth in {0.05, 0.2} P, kernel
//     exp(-d_FIM / (s m)).
//   - WL: Weisfeiler-Lehman subtree kernel (core/wl), structure only unless
//     Options.WLNodeLabels, h in {1, ..., 5}, normalised to unit diagonal.
//   - ecfp: ECFP4, the chemist's baseline: Morgan count fingerprints of
//     radius 2 (core/fingerprint, RDKit's identifiers) with the MinMax
//     (Tanimoto) kernel, unit diagonal; only C is chosen. It needs
//     molecules (Molecules): graphs read from SMILES or molfiles, or TU
//     graphs whose label codes Options.NodeNames and EdgeNames translate;
//     on other graphs it does not apply and Run lists it in
//     Result.Skipped.
//   - stats: graph statistics (core/graphstats) standardised with the
//     training set's means and deviations, RBF kernel, grid s.
//   - majority: predicts the training set's most frequent class; its
//     accuracy is the rate of that class in the test fold.
//
// Distance and kernel matrices over all graphs are computed once per
// method and parameter: they use no labels, so a training Gram matrix and
// a test-against-training block are sub-blocks of them; only the median
// heuristic, the standardisation of stats and trainPWGK's learning depend
// on the training set, and they see only it.
package compare
