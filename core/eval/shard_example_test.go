package eval_test

import (
	"fmt"

	"wkpi-web/core/eval"
)

// Two repeats of a 5-fold CV are 10 jobs; 3 shards take contiguous
// blocks of them, so a shard may span two repeats.
func ExampleShard_Jobs() {
	for i := range 3 {
		s := eval.Shard{Index: i, Count: 3}
		fmt.Println(s, s.Jobs(2, 5), "folds of repeat 1:", s.Folds(1, 2, 5))
	}
	// Output:
	// 0/3 [{0 0} {0 1} {0 2}] folds of repeat 1: []
	// 1/3 [{0 3} {0 4} {1 0}] folds of repeat 1: [0]
	// 2/3 [{1 1} {1 2} {1 3} {1 4}] folds of repeat 1: [1 2 3 4]
}
