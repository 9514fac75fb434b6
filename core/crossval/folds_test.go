package crossval

import (
	"reflect"
	"testing"

	"wkpi-web/core/testenv"
)

// counts[f][c] is the number of samples of class c in fold f.
func counts(labels, folds []int, k int) [][]int {
	classes := 0
	for _, c := range labels {
		classes = max(classes, c+1)
	}
	m := make([][]int, k)
	for f := range m {
		m[f] = make([]int, classes)
	}
	for i, c := range labels {
		m[folds[i]][c]++
	}
	return m
}

func repeatLabels(perClass ...int) []int {
	var y []int
	for c, n := range perClass {
		for range n {
			y = append(y, c)
		}
	}
	return y
}

var foldCases = []struct {
	name   string
	labels []int
	k      int
}{
	{"balanced", repeatLabels(10, 10), 5},
	{"MUTAG-like", repeatLabels(63, 125), 10},
	{"three classes uneven", repeatLabels(7, 13, 4), 3},
	{"class smaller than k", repeatLabels(20, 3), 5},
	{"k equals n", repeatLabels(3, 2), 5},
	{"interleaved, 1 first", []int{1, 0, 2, 1, 1, 0, 2, 2, 0, 1, 1, 0, 2}, 4},
}

// Per class, fold counts differ by at most one; fold sizes differ by at
// most one; the split is a function of the seed.
func TestStratifiedKFoldBalance(t *testing.T) {
	for _, tc := range foldCases {
		for seed := int64(0); seed < 5; seed++ {
			folds, err := StratifiedKFold(tc.labels, tc.k, seed)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			cnt := counts(tc.labels, folds, tc.k)
			for c := range cnt[0] {
				lo, hi := len(tc.labels), 0
				for f := range cnt {
					lo, hi = min(lo, cnt[f][c]), max(hi, cnt[f][c])
				}
				if hi-lo > 1 {
					t.Errorf("%s seed %d: class %d spread %d..%d over folds", tc.name, seed, c, lo, hi)
				}
			}
			sizes := make([]int, tc.k)
			for _, f := range folds {
				sizes[f]++
			}
			lo, hi := len(tc.labels), 0
			for _, s := range sizes {
				lo, hi = min(lo, s), max(hi, s)
			}
			if hi-lo > 1 || lo == 0 {
				t.Errorf("%s seed %d: fold sizes %v", tc.name, seed, sizes)
			}
			again, _ := StratifiedKFold(tc.labels, tc.k, seed)
			if !reflect.DeepEqual(folds, again) {
				t.Errorf("%s seed %d: not deterministic", tc.name, seed)
			}
		}
	}
	a, _ := StratifiedKFold(repeatLabels(63, 125), 10, 1)
	b, _ := StratifiedKFold(repeatLabels(63, 125), 10, 2)
	if reflect.DeepEqual(a, b) {
		t.Error("seeds 1 and 2 give the same folds")
	}
}

// The class counts per fold are scikit-learn's StratifiedKFold
// allocation exactly (only which member goes where is shuffled),
// except where every class is smaller than k, which sklearn refuses.
func TestStratifiedKFoldMatchesSklearn(t *testing.T) {
	py := testenv.Python(t, "numpy", "sklearn")
	const script = `
import json, sys, warnings
import numpy as np
from sklearn.model_selection import StratifiedKFold
warnings.simplefilter("ignore")
out = []
for d in json.load(sys.stdin):
    y = np.array(d["y"]); k = d["k"]
    classes = int(y.max()) + 1
    cnt = np.zeros((k, classes), dtype=int)
    try:
        for f, (_, test) in enumerate(StratifiedKFold(k, shuffle=True, random_state=0).split(np.zeros(len(y)), y)):
            cnt[f] = np.bincount(y[test], minlength=classes)
        out.append(cnt.tolist())
    except ValueError:  # every class smaller than k: sklearn refuses
        out.append(None)
json.dump(out, sys.stdout)
`
	var in []map[string]any
	for _, tc := range foldCases {
		in = append(in, map[string]any{"y": tc.labels, "k": tc.k})
	}
	var want [][][]int
	testenv.RunJSON(t, py, []string{"-c", script}, in, &want)
	for i, tc := range foldCases {
		folds, err := StratifiedKFold(tc.labels, tc.k, 3)
		if err != nil {
			t.Fatal(err)
		}
		if want[i] == nil {
			continue // sklearn refuses; the balance test covers this case
		}
		if got := counts(tc.labels, folds, tc.k); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("%s: counts per fold and class %v, sklearn %v", tc.name, got, want[i])
		}
	}
}

func TestStratifiedKFoldErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels []int
		k      int
	}{
		{"k=1", []int{0, 1}, 1},
		{"k>n", []int{0, 1, 0}, 4},
		{"negative label", []int{0, -1, 1}, 2},
	} {
		if _, err := StratifiedKFold(tc.labels, tc.k, 0); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
