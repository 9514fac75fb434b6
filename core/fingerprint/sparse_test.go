package fingerprint

import (
	"errors"
	"math"
	"testing"

	"wkpi-web/core/graph"
)

// Hand-worked Tanimoto values.
func TestMinMaxAndTanimoto(t *testing.T) {
	a := newSparse(map[uint32]int{1: 2, 5: 1, 64: 3})
	b := newSparse(map[uint32]int{1: 1, 64: 3, 70: 2})
	for _, tc := range []struct {
		name string
		got  float64
		want float64
	}{
		// min: 1 + 0 + 3 + 0 = 4; max: 2 + 1 + 3 + 2 = 8.
		{"MinMax", MinMax(a, b), 0.5},
		{"MinMax self", MinMax(a, a), 1},
		{"MinMax empty", MinMax(Sparse{}, Sparse{}), 1},
		{"MinMax one empty", MinMax(a, Sparse{}), 0},
		// 64 bits: a sets {1, 5, 0}, b sets {1, 0, 6}: common 2 of 4.
		{"Tanimoto", Tanimoto(a.Bits(64), b.Bits(64)), 0.5},
		// 2048 bits: a {1, 5, 64}, b {1, 64, 70}: 2 of 4.
		{"Tanimoto 2048", Tanimoto(a.Bits(2048), b.Bits(2048)), 0.5},
		// 4 bits: a {1, 1, 0} b {1, 0, 2}: common 2 of 3.
		{"Tanimoto 4", Tanimoto(a.Bits(4), b.Bits(4)), 2.0 / 3},
	} {
		if math.Abs(tc.got-tc.want) > 1e-15 {
			t.Errorf("%s = %g, want %g", tc.name, tc.got, tc.want)
		}
	}
	k := Gram([]Sparse{a, b, {}})
	want := [][]float64{{1, 0.5, 0}, {0.5, 1, 0}, {0, 0, 1}}
	for i := range 3 {
		for j := range 3 {
			if k.At(i, j) != want[i][j] {
				t.Errorf("Gram(%d, %d) = %g, want %g", i, j, k.At(i, j), want[i][j])
			}
		}
	}
	c := CrossGram([]Sparse{b}, []Sparse{a, b})
	if c.At(0, 0) != 0.5 || c.At(0, 1) != 1 {
		t.Errorf("CrossGram %v", c)
	}
}

func TestNoChemistry(t *testing.T) {
	g, err := graph.New(2, []graph.Edge{{U: 0, V: 1}}, nil, []string{"3", "4"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (Morgan{}).Environments(g); !errors.Is(err, ErrNoChemistry) {
		t.Errorf("a TU graph: error %v, want ErrNoChemistry", err)
	}
}
