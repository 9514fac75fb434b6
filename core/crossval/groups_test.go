package crossval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// groupCase is labels and groups drawn at random: sizes from a few
// large groups to many singletons, as scaffolds of a molecule dataset.
func groupCase(rng *rand.Rand, n, groups, classes int, skew float64) (labels, group []int) {
	labels, group = make([]int, n), make([]int, n)
	for i := range n {
		// Group g is drawn with weight (g+1)^-skew: skew 0 is uniform,
		// 2 makes the first groups dominate.
		for {
			g := rng.IntN(groups)
			if rng.Float64() < math.Pow(float64(g+1), -skew) {
				group[i] = g * 7 // group numbers need not be 0..G-1
				break
			}
		}
		labels[i] = rng.IntN(classes)
	}
	return labels, group
}

// TestGroupKFoldInvariants: every group's samples share one fold, no fold
// is empty, and no fold exceeds n/k plus the largest group (the bound of
// placing groups largest first on the smallest fold).
func TestGroupKFoldInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 300 {
		n, k := 20+rng.IntN(300), 2+rng.IntN(9)
		groups := k + rng.IntN(60)
		labels, group := groupCase(rng, n, groups, 2+rng.IntN(3), float64(rng.IntN(3)))
		distinct := map[int]int{}
		for _, g := range group {
			distinct[g]++
		}
		folds, err := GroupKFold(labels, group, k, int64(trial))
		if len(distinct) < k {
			if err == nil {
				t.Fatalf("trial %d: %d groups for %d folds accepted", trial, len(distinct), k)
			}
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		foldOf := map[int]int{}
		size := make([]int, k)
		largest := 0
		for _, c := range distinct {
			largest = max(largest, c)
		}
		for i, f := range folds {
			if f < 0 || f >= k {
				t.Fatalf("trial %d: fold %d", trial, f)
			}
			if g, seen := foldOf[group[i]]; seen && g != f {
				t.Fatalf("trial %d: group %d in folds %d and %d", trial, group[i], g, f)
			}
			foldOf[group[i]] = f
			size[f]++
		}
		for f, s := range size {
			if s == 0 || float64(s) > float64(n)/float64(k)+float64(largest) {
				t.Fatalf("trial %d: fold %d holds %d of %d samples (k %d, largest group %d): %v", trial, f, s, n, k, largest, size)
			}
		}
	}
}

// TestGroupKFoldSingletons: with every sample its own group the folds
// are as even as StratifiedKFold's: sizes, and each class's counts, differ
// by at most one between folds.
func TestGroupKFoldSingletons(t *testing.T) {
	for _, tc := range foldCases {
		if tc.k > len(tc.labels) {
			continue
		}
		group := make([]int, len(tc.labels))
		for i := range group {
			group[i] = i
		}
		for seed := range int64(5) {
			folds, err := GroupKFold(tc.labels, group, tc.k, seed)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			cnt := counts(tc.labels, folds, tc.k)
			lo, hi := len(tc.labels), 0
			for _, row := range cnt {
				s := 0
				for _, v := range row {
					s += v
				}
				lo, hi = min(lo, s), max(hi, s)
			}
			if hi-lo > 1 {
				t.Errorf("%s seed %d: fold sizes from %d to %d", tc.name, seed, lo, hi)
			}
			for c := range cnt[0] {
				lo, hi := len(tc.labels), 0
				for f := range cnt {
					lo, hi = min(lo, cnt[f][c]), max(hi, cnt[f][c])
				}
				if hi-lo > 1 {
					t.Errorf("%s seed %d: class %d from %d to %d per fold: %v", tc.name, seed, c, lo, hi, cnt)
				}
			}
		}
	}
}

// TestGroupKFoldLargestFirst: a group larger than the others fills a
// fold that the small groups then leave alone until the others catch up.
func TestGroupKFoldLargestFirst(t *testing.T) {
	labels := repeatLabels(10, 10)
	group := []int{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11}
	folds, err := GroupKFold(labels, group, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range folds {
		if (i < 10) != (f == folds[0]) {
			t.Fatalf("folds %v: the group of 10 shares its fold", folds)
		}
	}
}

// TestGroupKFoldClassTie: between folds of equal size, a group goes to
// the one that lacks its class.
func TestGroupKFoldClassTie(t *testing.T) {
	// A group of three of class 1 fills fold 0; three singletons of
	// class 0 fill fold 1; the last singleton, of class 1, finds both
	// folds of three and goes where class 1 is missing.
	labels := []int{1, 1, 1, 0, 0, 0, 1}
	group := []int{9, 9, 9, 1, 2, 3, 4}
	for seed := range int64(4) {
		folds, err := GroupKFold(labels, group, 2, seed)
		if err != nil {
			t.Fatal(err)
		}
		if folds[6] != folds[3] || folds[0] == folds[3] {
			t.Fatalf("seed %d: folds %v, want the last sample with the class-0 ones", seed, folds)
		}
	}
}

// TestGroupKFoldSeed: the folds are a function of the seed, and the seed
// orders groups of equal size.
func TestGroupKFoldSeed(t *testing.T) {
	labels := repeatLabels(30, 30)
	group := make([]int, len(labels))
	for i := range group {
		group[i] = i / 3 // twenty groups of three
	}
	a, _ := GroupKFold(labels, group, 4, 7)
	b, _ := GroupKFold(labels, group, 4, 7)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed, different folds")
	}
	differ := false
	for seed := int64(8); seed < 12 && !differ; seed++ {
		c, _ := GroupKFold(labels, group, 4, seed)
		differ = !reflect.DeepEqual(a, c)
	}
	if !differ {
		t.Fatal("seeds 7..11 give the same folds")
	}
}

// TestGroupKFoldErrors: each refusal names its problem.
func TestGroupKFoldErrors(t *testing.T) {
	for _, tc := range []struct {
		name          string
		labels, group []int
		k             int
		want          string
	}{
		{"fewer groups than folds", []int{0, 1, 0, 1, 0, 1}, []int{1, 1, 2, 2, 3, 3}, 5, "3 groups for 5 folds"},
		{"one fold", []int{0, 1}, []int{0, 1}, 1, "1 folds, need at least 2"},
		{"lengths", []int{0, 1, 0}, []int{0, 1}, 2, "2 groups for 3 samples"},
		{"negative label", []int{0, -1, 0}, []int{0, 1, 2}, 2, "label -1 of sample 1 is negative"},
	} {
		_, err := GroupKFold(tc.labels, tc.group, tc.k, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

func ExampleGroupKFold() {
	// Six molecules in four scaffold groups (the first three share one):
	// each group stays whole, the largest first, on the smallest fold.
	labels := []int{1, 1, 0, 0, 1, 0}
	groups := []int{7, 7, 7, 3, 4, 9}
	folds, err := GroupKFold(labels, groups, 2, 1)
	fmt.Println(folds[0] == folds[1] && folds[1] == folds[2], err)
	train, test := Split([]int{0, 1, 2, 3, 4, 5}, folds, 2)
	fmt.Println(len(train[0])+len(test[0]), len(test[0])+len(test[1]))
	// Output:
	// true <nil>
	// 6 6
}
