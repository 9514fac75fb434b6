package fingerprint

import (
	"sort"

	"gonum.org/v1/gonum/mat"
)

// Sparse is a count vector over environment identifiers: IDs ascending,
// Counts[i] > 0 the count of IDs[i].
type Sparse struct {
	IDs    []uint32
	Counts []int
}

func newSparse(counts map[uint32]int) Sparse {
	s := Sparse{IDs: make([]uint32, 0, len(counts)), Counts: make([]int, 0, len(counts))}
	for id := range counts {
		s.IDs = append(s.IDs, id)
	}
	sort.Slice(s.IDs, func(i, j int) bool { return s.IDs[i] < s.IDs[j] })
	for _, id := range s.IDs {
		s.Counts = append(s.Counts, counts[id])
	}
	return s
}

// MinMax is the Tanimoto similarity of two count vectors, sum of minima
// over sum of maxima (the MinMax kernel; 1 for two empty vectors).
func MinMax(a, b Sparse) float64 {
	lo, hi := 0, 0
	i, j := 0, 0
	for i < len(a.IDs) || j < len(b.IDs) {
		switch {
		case j == len(b.IDs) || i < len(a.IDs) && a.IDs[i] < b.IDs[j]:
			hi += a.Counts[i]
			i++
		case i == len(a.IDs) || b.IDs[j] < a.IDs[i]:
			hi += b.Counts[j]
			j++
		default:
			lo += min(a.Counts[i], b.Counts[j])
			hi += max(a.Counts[i], b.Counts[j])
			i++
			j++
		}
	}
	if hi == 0 {
		return 1
	}
	return float64(lo) / float64(hi)
}

// Bits folds the vector into a bit vector of n bits (n > 0), setting bit
// id mod n for every identifier, as RDKit folds a sparse fingerprint.
func (s Sparse) Bits(n int) []uint64 {
	v := make([]uint64, (n+63)/64)
	for _, id := range s.IDs {
		b := int(id % uint32(n))
		v[b/64] |= 1 << (b % 64)
	}
	return v
}

// Tanimoto is the Tanimoto similarity of two bit vectors of equal length,
// common bits over bits set in either (1 for two empty vectors).
func Tanimoto(a, b []uint64) float64 {
	both, either := 0, 0
	for w := range a {
		both += popcount(a[w] & b[w])
		either += popcount(a[w] | b[w])
	}
	if either == 0 {
		return 1
	}
	return float64(both) / float64(either)
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// Gram is the MinMax Gram matrix of count vectors; its diagonal is 1.
func Gram(fps []Sparse) *mat.SymDense {
	n := len(fps)
	k := mat.NewSymDense(n, nil)
	for i := range n {
		k.SetSym(i, i, 1)
		for j := i + 1; j < n; j++ {
			k.SetSym(i, j, MinMax(fps[i], fps[j]))
		}
	}
	return k
}

// CrossGram is the MinMax kernel between rows (new molecules) and columns
// (training molecules).
func CrossGram(rows, cols []Sparse) *mat.Dense {
	k := mat.NewDense(max(len(rows), 1), max(len(cols), 1), nil)
	if len(rows) == 0 || len(cols) == 0 {
		return &mat.Dense{}
	}
	for i, r := range rows {
		for j, c := range cols {
			k.Set(i, j, MinMax(r, c))
		}
	}
	return k
}
