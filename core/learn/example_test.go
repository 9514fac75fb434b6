package learn_test

import (
	"context"
	"fmt"
	"math"

	"wkpi-web/core/learn"
	"wkpi-web/core/pimage"
)

// Two classes of 1 x 2 "images" that differ only in their first pixel; a
// second pixel of noise. Learning moves the weight onto the first pixel,
// where classes separate, which lowers the total cost.
func ExampleLearn() {
	centres := [][2]float64{{0, 0}, {1, 0}}
	images := [][]float64{{1, 0.3}, {1, 0.9}, {1.1, 0.1}, {0, 0.2}, {0.1, 0.8}, {0, 0.5}}
	labels := []int{0, 0, 0, 1, 1, 1}
	sums, err := learn.NewPairSums(context.Background(), pimage.SparseAll(images), labels, nil, 1, 0.5, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	o := learn.DefaultOptions()
	o.M = 2
	o.Penalty = 0.01
	init, err := learn.InitMixture(centres, [4]float64{0, 0, 1, 0}, o)
	if err != nil {
		fmt.Println(err)
		return
	}
	mix, trace, err := learn.Learn(context.Background(), sums, -1, centres, init, o, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	w := mix.PixelWeights(centres)
	fmt.Println("converged:", trace.Converged)
	fmt.Println("cost dropped:", trace.Cost[len(trace.Cost)-1] < trace.Cost[0])
	fmt.Println("signal pixel outweighs noise pixel:", w[0] > 2*w[1] && !math.IsNaN(w[0]))
	// Output:
	// converged: true
	// cost dropped: true
	// signal pixel outweighs noise pixel: true
}
