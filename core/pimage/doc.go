// Package pimage turns persistence diagrams into persistence images
// (Adams et al., "Persistence images: a stable vector representation of
// persistent homology", JMLR 2017), the fixed-length vectors the WKPI
// kernel weighs pixel by pixel.
//
// A point (b, d) is moved to the birth-persistence plane (b, |d-b|), so
// that the superlevel (Rel1) and extended (Ext1) points, which have
// d <= b, land in the same half-plane as the sublevel ones. Each point
// contributes a weighted isotropic Gaussian of standard deviation Tau, and
// each pixel holds the exact integral of their sum over its square.
//
// Layout: a Grid has Rows rows along persistence and Cols columns along
// birth. Pixel (r, c) covers births [MinX + c·Pixel, MinX + (c+1)·Pixel]
// and persistences [MinY + r·Pixel, MinY + (r+1)·Pixel]; images are stored
// row-major, index r·Cols + c, so row 0 is the lowest persistence. A
// dataset's images are kept as their non-zero pixels (Sparse): most of a
// multi-channel image is zero.
package pimage
