// Package kernel implements the weighted kernel for persistence images
// (WKPI) of Zhao & Wang, "Learning metrics for persistence-based summaries
// and applications for graph classification" (NeurIPS 2019), Definitions
// 3.1 and 3.3, and the alternative kernel of their Remark 2 (altWKPI, in
// the form below as we read that remark).
//
// A persistence image is a vector of N pixels, a []float64 or, for the
// sets of images the Gram, cross and split passes take, a pimage.Sparse
// of its non-zero pixels; several channels (for example the dim-0 and
// dim-1 images) are concatenated, each on the same grid, and the pixel
// centres are given as N (birth, persistence) pairs, so the centres repeat
// per channel. The weight function is a Mixture of m
// Gaussians, evaluated once at the pixel centres to give pixel weights w_s.
//
// With sigma the kernel width,
//
//	WKPI:    k(A, B) = sum_s w_s exp(-(A_s - B_s)^2 / (2 sigma^2))
//	altWKPI: k(A, B) = exp(-sum_s w_s (A_s - B_s)^2 / (2 sigma^2))
//
// The authors' code writes exp(-d^2/sigma'^2), so their sigma' relates to
// ours by sigma'^2 = 2 sigma^2 (sigma' = sqrt(2) sigma).
//
// The WKPI pseudo-metric is D^2(A, B) = k(A,A) + k(B,B) - 2k(A,B)
// = sum_s w_s (2 - 2 exp(-(A_s - B_s)^2 / (2 sigma^2))). Both kernels are
// computed through the weighted divergence Div(A, B) = sum_s w_s f(A_s - B_s)
// with f(0) = 0 (f(d) = 2 - 2exp(-d^2/2sigma^2) for WKPI, f(d) = d^2 for
// altWKPI), so pixels where both images are exactly zero cost nothing. A
// Gram or cross matrix pass holds one image of a row dense and sweeps the
// other's non-zero pixels: a pair's divergence is both images' divergences
// from an all-zero image (computed once per image) corrected on the pixels
// they share, the only ones that need f of a difference (and for WKPI an
// exp, computed by WKPITerm's table-driven method). This is what makes it
// fast on persistence images. Splits computes the kernels of several
// subsets of one image set (a cross-validation's folds) with several
// weight vectors each in one pass, the pixel terms of a pair shared by
// all of them.
package kernel
