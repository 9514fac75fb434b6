// Package pdkernel implements the persistence-diagram kernels that the
// WKPI paper (Zhao & Wang, NeurIPS 2019) compares with: the Sliced
// Wasserstein kernel (SW), the Persistence Weighted Gaussian Kernel (PWGK)
// and the Persistence Fisher kernel (PF), plus trainPWGK, a PWGK whose
// weight function is learned with WKPI's total cost.
//
// # Diagrams
//
// A diagram is a []persistence.Point used as given: (Birth, Death) are the
// coordinates of the plane in which distances are measured, exactly as
// GUDHI's gudhi.representations takes an (n x 2) array. Points with
// Birth > Death (Rel1, Ext1 of extended persistence) are allowed; the
// diagonal projection of (b, d) is ((b+d)/2, (b+d)/2) whichever side it is
// on, and a point's persistence is |d - b|. Empty diagrams are allowed.
// Every function rejects a point with an infinite or NaN coordinate with an
// error naming the diagram and point index ("pdkernel: row diagram 3
// point 2 (0, +Inf) is not finite ..."); drop essential points first.
//
// # API
//
// Every method has a symmetric all-pairs form on one list of diagrams
// (training Gram or distance matrix, n x n) and a Cross form with rows =
// one list (test diagrams) and columns = another (training diagrams),
// len(rows) x len(cols). Both run their rows in parallel over the CPUs
// (kernel.Parts, kernel.Parallel), stop with ctx.Err() when ctx is
// cancelled, and report progress as (stage, rows done, rows) with stage
// "sliced wasserstein", "pwgk", "persistence fisher" or "euclidean".
// All return new [][]float64 matrices; distance matrices have an exact 0
// diagonal.
//
//	func SlicedWasserstein(ctx context.Context, diagrams [][]persistence.Point, directions int, prog progress.Func) ([][]float64, error)
//	func SlicedWassersteinCross(ctx context.Context, rows, cols [][]persistence.Point, directions int, prog progress.Func) ([][]float64, error)
//	func PWGKLinear(ctx context.Context, diagrams [][]persistence.Point, p PWGKParams, prog progress.Func) ([][]float64, error)
//	func PWGKLinearCross(ctx context.Context, rows, cols [][]persistence.Point, p PWGKParams, prog progress.Func) ([][]float64, error)
//	func PWGKSelf(ctx context.Context, diagrams [][]persistence.Point, p PWGKParams) ([]float64, error) // K(D, D) each
//	func PersistenceFisher(ctx context.Context, diagrams [][]persistence.Point, bandwidth float64, prog progress.Func) ([][]float64, error)
//	func PersistenceFisherCross(ctx context.Context, rows, cols [][]persistence.Point, bandwidth float64, prog progress.Func) ([][]float64, error)
//
//	type PWGKParams struct {
//		Rho    float64                            // Gaussian bandwidth on the plane
//		C, P   float64                            // w(p) = arctan(C |d-b|^P) when Weight is nil
//		Weight func(birth, death float64) float64 // optional point weight
//	}
//
// trainPWGK (see below):
//
//	func LearnPWGK(ctx context.Context, diagrams [][]persistence.Point, labels []int, rho float64, init kernel.Mixture, o learn.Options, prog progress.Func) (kernel.Mixture, learn.Trace, error)
//	func MixtureWeight(mix kernel.Mixture) func(birth, death float64) float64 // for PWGKParams.Weight
//	func WeightPoints(diagrams [][]persistence.Point) [][2]float64           // (b, |d-b|) of all points, for learn.InitMixture
//
// Kernels from these matrices (elementwise helpers, new matrices):
//
//	func Exp(m [][]float64, t float64) [][]float64     // exp(-t m_ij)
//	func SquaredDistances(gram [][]float64) [][]float64 // K_ii + K_jj - 2 K_ij of a symmetric Gram, clamped at 0
//	func SquaredDistancesCross(cross [][]float64, rowSelf, colSelf []float64) ([][]float64, error) // K(r,r) + K(c,c) - 2 K(r,c)
//	func SquaredEuclidean(ctx context.Context, vectors [][]float64, prog progress.Func) ([][]float64, error) // |x_i - x_j|^2
//	func SquaredEuclideanCross(ctx context.Context, rows, cols [][]float64, prog progress.Func) ([][]float64, error)
//
// so that, with the papers' parameters:
//
//	SW kernel:   Exp(SW, 1/(2 sigma^2))      Carriere et al.: exp(-SW / (2 sigma^2))
//	PF kernel:   Exp(dFIM, t)                Le & Yamada: exp(-t d_FIM)
//	PWGK:        K = PWGKLinear (the linear PWGK), or Kusano et al.'s Gaussian
//	             PWGK on the RKHS distance: Exp(SquaredDistances(K), 1/(2 tau^2)),
//	             test rows: Exp(SquaredDistancesCross(PWGKLinearCross(test, train),
//	             PWGKSelf(test), PWGKSelf(train)), 1/(2 tau^2))
//	PI RBF:      Exp(SquaredEuclidean(images), 1/(2 sigma^2))
//	trainPWGK:   PWGKParams{Rho: rho, Weight: MixtureWeight(LearnPWGK(...))}
//
// SW and PF distances do not depend on the training set, so one all-pairs
// matrix over a whole dataset can be sliced for every fold; only the
// kernel width is chosen per fold.
//
// PI-PL of the paper's comparison is a persistence image with the
// piecewise-linear weight of Adams et al. (2017), w(t) = 0 for t <= 0,
// t/b for 0 < t < b, 1 for t >= b, with t = |d-b| and b the largest
// persistence over the diagrams: pimage.Linear with MaxPersistence b.
//
// # Conventions and approximations (checked against GUDHI 3.7.1)
//
// SW (Carriere, Cuturi & Oudot, ICML 2017) uses the paper's own
// approximation, its Algorithm 1: M directions theta_k = -pi/2 + k pi/M,
// k = 0..M-1, evenly spaced on the half circle; for each, the points of
// D1 with the diagonal projections of D2, and the points of D2 with the
// diagonal projections of D1, are projected on the line, sorted and
// compared in L1; SW is the mean over the M directions. This is exactly
// GUDHI's SlicedWassersteinDistance(num_directions=M) (the oracle test
// agrees to 1e-15). GUDHI's SlicedWassersteinKernel(bandwidth=b) is
// exp(-SW/b), so b = 2 sigma^2 of the paper. The M-direction value
// approaches the exact SW (M -> infinity) as 1/M^2: 0.4 % off at M = 10,
// GUDHI's default, 0.008 % at M = 100 (closed-form test). Projections are
// sorted once per diagram and merged per pair: O(M (n+m)) per pair.
//
// PWGK (Kusano, Fukumizu & Hiraoka, ICML 2016 / JMLR 2018), linear form:
//
//	K(D, E) = sum_{p in D} sum_{q in E} w(p) w(q) exp(-|p-q|^2 / (2 rho^2))
//
// with w(p) = arctan(C pers(p)^P) by default (their w_arc) or
// PWGKParams.Weight. It is computed exactly, O(nm) per pair (Kusano et al.
// use random Fourier features to scale to large diagrams; on graph
// diagrams of tens of points the exact sum is fast and has no sampling
// error). GUDHI's PersistenceWeightedGaussianKernel(bandwidth=rho,
// weight=w) is this times 1/(sqrt(2 pi) rho); we omit that factor, which
// only scales the Gram matrix (and the SVM's C); the oracle test applies it.
//
// PF (Le & Yamada, NeurIPS 2018): for diagrams D_i, D_j, on the multiset
// Theta = D_i, Delta(D_i), D_j, Delta(D_j) (Delta: diagonal projections),
// rho_i(z) = sum over u in D_i and Delta(D_j) of exp(-|z-u|^2 /
// (2 bandwidth^2)), normalised to sum 1 over Theta (rho_j likewise with
// D_j and Delta(D_i)), and d_FIM = arccos(min(1, sum_z sqrt(rho_i(z)
// rho_j(z)))). This is GUDHI's PersistenceFisherDistance(bandwidth)
// without kernel_approx, the exact O((n+m)^2) sums. We use the exact sums
// and not the paper's Fast Gauss Transform: on graph diagrams (MUTAG: 10
// points a diagram) they take milliseconds for all pairs and carry no
// approximation error, which keeps the 1e-9 agreement with GUDHI. Per pair
// only the four cross blocks (D_i, Delta(D_i)) x (D_j, Delta(D_j)) are
// evaluated; the within-diagram sums are computed once per diagram. Two
// empty diagrams are at distance 0 (GUDHI cannot take empty diagrams).
// GUDHI's PersistenceFisherKernel(bandwidth_fisher=b) is exp(-d_FIM/b),
// i.e. t = 1/b.
//
// Two exact speed-ups serve PWGK and PF, changing results by rounding
// only (both paths are checked against GUDHI). Sums run over the distinct
// points of each diagram with their multiplicities (NCI1: 59151 points,
// 29697 distinct within their diagrams). And the Gaussian is separable,
// exp(-c |x-y|^2) = e(x_1-y_1) e(x_2-y_2), while graph descriptors take
// few values (Ricci curvature: NCI1's births, deaths and midpoints take 86
// values, PROTEINS' 2885), so when the values number at most 3072 a pair
// of points costs two look-ups in a table of e over those values instead
// of an exponential.
//
// Speed (go test -bench . ./core/pdkernel on this 2-core machine, Ricci
// curvature diagrams with all four sub-diagrams, other jobs running):
// all pairs of MUTAG (188 graphs, 10 points a diagram) take 9-45 ms for
// SW (M = 10), 10 ms for PF and 1 ms for PWGK; PTC_MR (344 graphs) 40-100,
// 11-28 and 2.5 ms; PROTEINS (1113 graphs, 44 points a diagram) 3-6 s,
// 13 s and 2.6 s.
//
// # trainPWGK
//
// LearnPWGK learns the PWGK weight function as a kernel.Mixture evaluated
// at each point's (birth, persistence) = (b, |d-b|), the plane of WKPI's
// weight function, by minimising WKPI's total cost (package learn)
//
//	TC(w) = sum_t cost(t,t) / cost(t,.),  D^2(D,E) = K(D,D) + K(E,E) - 2K(D,E)
//
// with the linear PWGK K above, plus package learn's penalty, contrast
// barrier and prior (learn.Options Penalty, Contrast, Prior). D^2 is a
// quadratic form in the point weights and TC is invariant under scaling
// them; the parametrisation is learn's (W = m softmax(u), centres in the
// box of the points widened by a quarter, Sigma above a floor, here half
// the smaller of rho and a tenth of the box). The gradient is exact and
// checked by finite differences; the objective is checked against
// learn.DirectCost on SquaredDistances(PWGKLinear(...)). It works per
// distinct point and uses the separability of the Gaussian, so a step
// costs O(U (Vb + Vd)) per class for U distinct points on Vb distinct
// births and Vd distinct deaths: 1-4 ms for a whole run on MUTAG, 3-7 s on
// PROTEINS (learn.DefaultOptions, rho 0.1).
package pdkernel
