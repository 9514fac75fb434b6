package pimage

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSparseRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name  string
		dense []float64
	}{
		{"empty", nil},
		{"all zero", make([]float64, 70)},
		{"one pixel", []float64{0, 0, 3.5, 0}},
		{"first and last", []float64{-1, 0, 0, 0, 0, 2}},
		{"tiny and huge", []float64{math.SmallestNonzeroFloat64, 0, math.MaxFloat64}},
	} {
		checkSparse(t, tc.name, tc.dense)
	}
	for range 50 {
		dense := make([]float64, 1+r.IntN(300))
		density := r.Float64()
		for p := range dense {
			if r.Float64() < density {
				dense[p] = r.NormFloat64()
			}
		}
		checkSparse(t, "random", dense)
	}
}

// checkSparse checks NewSparse(dense) against its definition and that
// Dense gives dense back.
func checkSparse(t *testing.T, name string, dense []float64) {
	t.Helper()
	s := NewSparse(dense)
	if s.Len != len(dense) || len(s.Idx) != len(s.Val) || cap(s.Idx) != len(s.Idx) || cap(s.Val) != len(s.Val) {
		t.Fatalf("%s: Len %d, %d indices (cap %d), %d values (cap %d), want Len %d and exact lengths", name, s.Len, len(s.Idx), cap(s.Idx), len(s.Val), cap(s.Val), len(dense))
	}
	n := 0
	for p, v := range dense {
		if v == 0 {
			continue
		}
		if n >= len(s.Idx) || int(s.Idx[n]) != p || s.Val[n] != v {
			t.Fatalf("%s: non-zero pixel %d (%g) is not entry %d of %v / %v", name, p, v, n, s.Idx, s.Val)
		}
		n++
	}
	if n != len(s.Idx) {
		t.Fatalf("%s: %d entries for %d non-zero pixels", name, len(s.Idx), n)
	}
	if got := s.Dense(); !slices.Equal(got, dense) && !(len(got) == 0 && len(dense) == 0) {
		t.Fatalf("%s: Dense %v, want %v", name, got, dense)
	}
}

func TestSparseAll(t *testing.T) {
	dense := [][]float64{{0, 1}, {2, 0}, {0, 0}}
	got := DenseAll(SparseAll(dense))
	for i := range dense {
		if !slices.Equal(got[i], dense[i]) {
			t.Fatalf("image %d: %v, want %v", i, got[i], dense[i])
		}
	}
}
