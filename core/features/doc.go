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
//
// Several descriptor functions may be used at once (Settings.Extra, the
// paper's stated future work): each adds its own copy of every channel.
// Their values are mapped onto [0, 1] by an affine map per descriptor,
// fitted without labels over the whole dataset like the grid, so that all
// blocks (channel x descriptor) share one grid and one weight function;
// each descriptor's block is normalised on its own, so that descriptors
// weigh alike before learning (see multi.go). With one descriptor nothing
// changes, and models saved before Extra existed load as they were.
//
// Node labels (Settings.Labels, off by default: the paper uses structure
// only) add one descriptor per label group: the heat diffusion of the
// indicator of the nodes carrying the label, for the most frequent labels
// of the training graphs (FitVocabulary) and "other" for the rest. The
// vocabulary and the dataset's code -> element table travel in models, so
// that MOL/SDF element symbols reach the codes a TU dataset used; see
// labels.go. Models without Labels are structure only, as before.
package features
