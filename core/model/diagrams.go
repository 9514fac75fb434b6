package model

import (
	"fmt"
	"math"

	"wkpi-web/core/features"
	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
)

// Version 3 of the file keeps each support vector's persistence diagrams
// instead of its image: the image is features.Render of them on the
// model's grid, a deterministic function, and the diagrams take about
// 1/40 of the image's bytes (MUTAG: 1.4 KB of JSON against 54 KB of
// sparse float64 in base64). JSON numbers are written in their shortest
// form that reads back to the same float64, so the diagrams, and the
// images rendered from them, are the trainer's bit for bit.

// maxSupportPoints caps the diagram points of all support vectors
// together, so that a corrupt file cannot make Load render for minutes:
// each point costs a few bytes of the file and a Gaussian on the grid. A
// 1,000-molecule model of the molecules preset has about 300 K.
const maxSupportPoints = 1 << 22

// subDiagrams are the four lists of a descriptor's diagrams, in the
// file's order (ord0, rel1, ext0, ext1).
func subDiagrams(d *persistence.Diagrams) [4]*[]persistence.Point {
	return [4]*[]persistence.Point{&d.Ord0, &d.Rel1, &d.Ext0, &d.Ext1}
}

// encodeDiagrams writes one support vector's diagrams as the file keeps
// them: per descriptor, its four sub-diagrams, each a flat list of
// birth, death, birth, death...
func encodeDiagrams(ds []persistence.Diagrams) [][4][]float64 {
	out := make([][4][]float64, len(ds))
	for k := range ds {
		for j, pts := range subDiagrams(&ds[k]) {
			flat := make([]float64, 0, 2*len(*pts)) // [] rather than null
			for _, p := range *pts {
				flat = append(flat, p.Birth, p.Death)
			}
			out[k][j] = flat
		}
	}
	return out
}

// decodeDiagrams reads what encodeDiagrams wrote for the support vectors
// of a model with the given number of descriptors, refusing a wrong count
// of descriptors or sub-diagrams, an odd list and more than maxPoints
// points in all (Load: maxSupportPoints), saying which. (JSON holds no
// NaN or infinity: Load refuses them as bad JSON.)
func decodeDiagrams(file [][][][]float64, descriptors, maxPoints int) ([][]persistence.Diagrams, error) {
	points := 0
	out := make([][]persistence.Diagrams, len(file))
	for i, sv := range file {
		if len(sv) != descriptors {
			return nil, fmt.Errorf("support vector %d: diagrams of %d descriptors, the features have %d", i, len(sv), descriptors)
		}
		out[i] = make([]persistence.Diagrams, descriptors)
		for k, lists := range sv {
			if len(lists) != 4 {
				return nil, fmt.Errorf("support vector %d descriptor %d: %d sub-diagrams, want 4 (ord0, rel1, ext0, ext1)", i, k, len(lists))
			}
			for j, dst := range subDiagrams(&out[i][k]) {
				flat := lists[j]
				if len(flat)%2 != 0 {
					return nil, fmt.Errorf("support vector %d descriptor %d sub-diagram %d: %d numbers, want birth-death pairs", i, k, j, len(flat))
				}
				if points += len(flat) / 2; points > maxPoints {
					return nil, fmt.Errorf("over %d diagram points: more than this build renders", maxPoints)
				}
				for p := 0; p < len(flat); p += 2 {
					*dst = append(*dst, persistence.Point{Birth: flat[p], Death: flat[p+1]})
				}
			}
		}
	}
	return out, nil
}

// renderSupport renders each support vector's diagrams on the grid.
func renderSupport(diagrams [][]persistence.Diagrams, grid pimage.Grid, s features.Settings) ([][]float64, error) {
	support := make([][]float64, len(diagrams))
	for i, ds := range diagrams {
		img, err := features.Render(ds, grid, s)
		if err != nil {
			return nil, fmt.Errorf("support vector %d: %w", i, err)
		}
		support[i] = img
	}
	return support, nil
}

// renderable returns diagrams when every support image renders from them
// bit for bit, nil otherwise: such a model keeps its images in the file
// (version 2).
func renderable(diagrams [][]persistence.Diagrams, support [][]float64, grid pimage.Grid, s features.Settings) [][]persistence.Diagrams {
	again, err := renderSupport(diagrams, grid, s)
	if err != nil {
		return nil
	}
	for i, img := range again {
		if !bitEqual(img, support[i]) {
			return nil
		}
	}
	return diagrams
}

// bitEqual tells whether a and b hold the same float64s bit for bit.
func bitEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
