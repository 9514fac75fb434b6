package crossval

import "slices"

// sampled is all of idx, or medianSamples evenly spaced members.
func sampled(idx []int) []int {
	if len(idx) <= medianSamples {
		return idx
	}
	out := make([]int, medianSamples)
	for i := range out {
		out[i] = idx[i*len(idx)/medianSamples]
	}
	return out
}

// medianSamples bounds the samples whose pairs give Median (evenly spaced
// among them): 300 samples are 44850 pairs, plenty for a median, and keep
// the heuristic cheap on NCI1.
const medianSamples = 300

// Median is the median of dist(i, j) over distinct pairs of (up to
// medianSamples evenly spaced members of) idx; 1 when it is not positive
// (all samples identical), so that a kernel scaled by it stays defined.
// It is the median heuristic of RBF widths, taken from training samples
// alone.
func Median(dist func(i, j int) float64, idx []int) float64 {
	idx = sampled(idx)
	var vals []float64
	for a, i := range idx {
		for _, j := range idx[a+1:] {
			vals = append(vals, dist(i, j))
		}
	}
	if len(vals) == 0 {
		return 1
	}
	slices.Sort(vals)
	m := vals[len(vals)/2]
	if len(vals)%2 == 0 {
		m = (vals[len(vals)/2-1] + m) / 2
	}
	if !(m > 0) {
		return 1
	}
	return m
}
