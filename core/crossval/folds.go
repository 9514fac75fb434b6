package crossval

import (
	"fmt"
	"math/rand/v2"
)

// StratifiedKFold assigns each sample a fold in 0..k-1 so that every
// class is spread as evenly as possible, like scikit-learn's
// StratifiedKFold(shuffle=True): samples sorted by class are dealt to the
// folds in turn (classes in order of first appearance), so per class the fold counts differ by at most one and
// fold sizes differ by at most one overall; which members of a class go
// where is shuffled by seed (same seed, same folds).
//
// A class with fewer than k members is allowed (scikit-learn only
// warns): it appears in as many folds as it has members. Errors: k < 2,
// k > len(labels), or a negative label.
func StratifiedKFold(labels []int, k int, seed int64) ([]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("crossval: %d folds, need at least 2", k)
	}
	if k > len(labels) {
		return nil, fmt.Errorf("crossval: %d folds for %d samples", k, len(labels))
	}
	byClass, err := members(labels)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	folds := make([]int, len(labels))
	// Classes are taken in order of first appearance, as scikit-learn
	// encodes them, so the per-fold class counts equal its allocation.
	var order []int
	seen := make([]bool, len(byClass))
	for _, c := range labels {
		if !seen[c] {
			seen[c] = true
			order = append(order, c)
		}
	}
	next := 0 // position in the class-sorted order, dealt round robin
	for _, c := range order {
		idx := byClass[c]
		assign := make([]int, len(idx))
		for i := range assign {
			assign[i] = next % k
			next++
		}
		rng.Shuffle(len(assign), func(i, j int) { assign[i], assign[j] = assign[j], assign[i] })
		for i, s := range idx {
			folds[s] = assign[i]
		}
	}
	return folds, nil
}

// members lists the sample indices of each class 0..max(labels).
func members(labels []int) ([][]int, error) {
	var byClass [][]int
	for i, c := range labels {
		if c < 0 {
			return nil, fmt.Errorf("crossval: label %d of sample %d is negative", c, i)
		}
		for c >= len(byClass) {
			byClass = append(byClass, nil)
		}
		byClass[c] = append(byClass[c], i)
	}
	return byClass, nil
}

// Split is the training and test samples of each of nFolds folds: idx[i]
// (a sample index into the caller's dataset) is a test sample of fold
// folds[i], which must be in 0..nFolds-1, and a training sample of every
// other fold; both keep the order of idx.
func Split(idx, folds []int, nFolds int) (train, test [][]int) {
	train, test = make([][]int, nFolds), make([][]int, nFolds)
	for i, s := range idx {
		for f := range nFolds {
			if folds[i] == f {
				test[f] = append(test[f], s)
			} else {
				train[f] = append(train[f], s)
			}
		}
	}
	return train, test
}
