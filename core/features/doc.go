// Package features turns graphs into the vectors the WKPI kernel compares:
// descriptor function (core/filtration), extended persistence diagrams
// (core/persistence), then persistence images (core/pimage) on one grid
// fitted over a whole dataset.
//
// Several channels may be used: each channel is a union of sub-diagrams
// (for instance "ord0+ext0" for 0-dimensional points and "rel1+ext1" for
// 1-dimensional ones); every channel is rendered on the same grid and the
// images are concatenated, so that one weight function over the
// (birth, persistence) plane applies to all of them.
package features
