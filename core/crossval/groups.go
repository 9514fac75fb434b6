package crossval

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
)

// GroupKFold assigns each sample a fold in 0..k-1 so that all samples of
// a group (groups[i] is sample i's, such as its molecule's scaffold) are
// in one fold, like scikit-learn's GroupKFold: groups are taken largest
// first and each goes to the fold with the fewest samples so far, so that
// fold sizes are as even as whole groups allow (MoleculeNet's scaffold
// split orders its groups the same way). Groups of equal size are taken
// in order of their class counts (most of class 0 first, ...), so that
// they are dealt round the folds class by class as StratifiedKFold deals
// samples: with every sample its own group, each class's fold counts
// differ by at most one. Where several folds are equally small, the group
// goes to the one it brings closer to the whole dataset's class
// proportions (least squares over the classes, the most improved or
// least worsened), and then to the first.
// Groups alike in size and classes are taken in an order shuffled by seed
// (same seed, same folds).
//
// Group numbers may be any integers. Errors: k < 2, fewer groups than k
// (some fold would be empty), labels and groups of different lengths, or
// a negative label.
func GroupKFold(labels, groups []int, k int, seed int64) ([]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("crossval: %d folds, need at least 2", k)
	}
	if len(groups) != len(labels) {
		return nil, fmt.Errorf("crossval: %d groups for %d samples", len(groups), len(labels))
	}
	byClass, err := members(labels)
	if err != nil {
		return nil, err
	}
	classes := len(byClass)
	type group struct {
		samples []int
		count   []int // per class
	}
	index := map[int]int{}
	var all []*group
	for i, g := range groups {
		j, ok := index[g]
		if !ok {
			j = len(all)
			index[g] = j
			all = append(all, &group{count: make([]int, classes)})
		}
		all[j].samples = append(all[j].samples, i)
		all[j].count[labels[i]]++
	}
	if len(all) < k {
		return nil, fmt.Errorf("crossval: %d groups for %d folds: each group stays whole in one fold, so %d folds need at least %d groups", len(all), k, k, k)
	}
	// Largest first; groups of one size in order of their class counts,
	// so that, like StratifiedKFold's samples sorted by class, they are
	// dealt round the folds class by class; the seed orders groups alike
	// in both.
	rng := rand.New(rand.NewPCG(uint64(seed), 0x96a5))
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	slices.SortStableFunc(all, func(a, b *group) int {
		return cmp.Or(cmp.Compare(len(b.samples), len(a.samples)), slices.Compare(b.count, a.count))
	})

	total := make([]float64, classes) // the dataset's class proportions
	for c, members := range byClass {
		total[c] = float64(len(members)) / float64(len(labels))
	}
	size := make([]int, k)
	count := make([][]int, k)
	for f := range count {
		count[f] = make([]int, classes)
	}
	// imbalance is how far fold f's class counts would be from the
	// dataset's proportions with g added; gain is how much g adds to it.
	imbalance := func(f int, add []int, n int) float64 {
		var s float64
		for c := range classes {
			d := float64(count[f][c]+add[c]) - total[c]*float64(size[f]+n)
			s += d * d
		}
		return s
	}
	none := make([]int, classes)
	gain := func(f int, g *group) float64 {
		return imbalance(f, g.count, len(g.samples)) - imbalance(f, none, 0)
	}
	folds := make([]int, len(labels))
	for _, g := range all {
		best := 0
		for f := 1; f < k; f++ {
			if size[f] < size[best] || (size[f] == size[best] && gain(f, g) < gain(best, g)) {
				best = f
			}
		}
		size[best] += len(g.samples)
		for c, n := range g.count {
			count[best][c] += n
		}
		for _, i := range g.samples {
			folds[i] = best
		}
	}
	return folds, nil
}
